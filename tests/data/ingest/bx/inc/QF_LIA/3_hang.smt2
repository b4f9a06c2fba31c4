sat
sat
sat
--- BENCHMARK BEGINS HERE ---
(set-info :fx-answers "sat")
(set-logic QF_LIA)
(push 1)
(check-sat)
(pop 1)
(push 1)
(check-sat)
(pop 1)
(push 1)
(check-sat)
(pop 1)
(exit)
