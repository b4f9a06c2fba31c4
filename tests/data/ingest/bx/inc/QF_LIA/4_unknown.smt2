sat
unsat
--- BENCHMARK BEGINS HERE ---
(set-info :fx-answers "unknown unsat")
(set-logic QF_LIA)
(push 1)
(check-sat)
(pop 1)
(push 1)
(check-sat)
(pop 1)
(exit)
