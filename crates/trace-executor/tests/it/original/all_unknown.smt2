unknown
unknown
unknown
unknown
unknown
--- BENCHMARK BEGINS HERE ---
(set-logic QF_UF)
(declare-fun p () Bool)
(push 1)
(assert p)
(check-sat)
(pop 1)
(push 1)
(assert p)
(check-sat)
(pop 1)
(push 1)
(assert p)
(check-sat)
(pop 1)
(push 1)
(assert p)
(check-sat)
(pop 1)
(push 1)
(assert p)
(check-sat)
(pop 1)
(exit)
