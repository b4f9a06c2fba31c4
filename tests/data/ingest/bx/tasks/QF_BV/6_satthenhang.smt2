; fx-mode: sat-then-hang
(set-logic QF_UF)
(check-sat)
