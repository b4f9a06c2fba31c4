unsat
sat
unsat
sat
sat
sat
unsat
sat
sat
sat
sat
unsat
unsat
sat
sat
sat
unsat
sat
sat
sat
sat
unsat
sat
sat
sat
sat
unsat
unsat
sat
sat
unsat
sat
sat
sat
unsat
sat
sat
sat
sat
unsat
unsat
unsat
unsat
unsat
unsat
unsat
sat
sat
sat
sat
unsat
unsat
unsat
unsat
unsat
sat
sat
unsat
sat
unsat
sat
unsat
unsat
sat
sat
unsat
unsat
unsat
unsat
unsat
sat
sat
unsat
unsat
sat
sat
unsat
unsat
unsat
unsat
unsat
sat
unsat
unsat
sat
sat
unsat
sat
sat
unsat
sat
sat
unsat
unsat
unsat
sat
sat
unsat
unsat
unsat
sat
unsat
unsat
unsat
unsat
unsat
sat
sat
sat
sat
sat
sat
sat
sat
unsat
sat
unsat
unsat
sat
sat
unsat
unsat
unsat
sat
sat
unsat
unsat
unsat
unsat
unsat
sat
unsat
unsat
sat
sat
sat
sat
unsat
sat
sat
unsat
sat
sat
sat
sat
sat
unsat
sat
sat
sat
unsat
sat
unsat
unsat
unsat
unsat
sat
sat
unsat
unsat
unsat
unsat
unsat
sat
sat
sat
unsat
unsat
unsat
sat
sat
sat
unsat
sat
sat
unsat
sat
unsat
unsat
sat
unsat
sat
unsat
sat
sat
sat
unsat
sat
sat
unsat
unsat
sat
sat
unsat
unsat
unsat
sat
unsat
unsat
unsat
unsat
unknown
unknown
unknown
unknown
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
