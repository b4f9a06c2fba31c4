; fx-mode: exit3
(set-logic QF_UF)
(check-sat)
