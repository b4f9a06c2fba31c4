; fx-mode: proof-valid
(set-logic QF_UF)
(check-sat)
