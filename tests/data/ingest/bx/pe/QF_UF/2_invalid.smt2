; fx-mode: proof-invalid
(set-logic QF_UF)
(check-sat)
