; fx-mode: timeout
(set-logic QF_UF)
(check-sat)
