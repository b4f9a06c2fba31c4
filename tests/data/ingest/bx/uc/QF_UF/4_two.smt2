; fx-mode: uc-two
(set-logic QF_UF)
(check-sat)
