//! SMT-LIB lexer and command splitter (filled in by the trace-executor work).
