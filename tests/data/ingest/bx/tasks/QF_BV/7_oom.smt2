; fx-mode: oom
(set-logic QF_UF)
(check-sat)
