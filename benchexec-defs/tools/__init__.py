"""SMT-COMP tool-info modules for BenchExec (shipped by `smtcomp generate`)."""
