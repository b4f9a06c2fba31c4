; fx-mode: unknown
(set-logic QF_UF)
(check-sat)
