; fx-mode: uc-quoted
(set-logic QF_UF)
(check-sat)
