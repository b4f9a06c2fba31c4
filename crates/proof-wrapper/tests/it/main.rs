//! Integration tests of `smtcomp-proof-wrapper` and of its output interpreter
//! (one test binary; one module per area, helpers in [`common`], output
//! fixtures in `data/`).

mod common;

mod cvc5;
mod interpret;
mod limits;
mod wrapper;
