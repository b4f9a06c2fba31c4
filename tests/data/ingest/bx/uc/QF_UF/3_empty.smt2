; fx-mode: uc-empty
(set-logic QF_UF)
(check-sat)
