; fx-mode: segv
(set-logic QF_UF)
(check-sat)
