; fx-mode: error
(set-logic QF_UF)
(check-sat)
