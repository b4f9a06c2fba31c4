//! SMT-LIB 2.6 lexing and command splitting, shared by every stage.
//!
//! * [`lexer`]: a streaming tokenizer (strings with `""`, quoted symbols,
//!   comments), constant memory apart from the current token;
//! * [`commands`]: splits a script into top-level commands, verbatim, and
//!   classifies `check-sat`, `check-sat-assuming`, `exit` and
//!   `set-info :status`;
//! * [`status`]: the `sat`/`unsat`/`unknown` answer type.

pub mod commands;
pub mod lexer;
pub mod status;

pub use commands::{Command, CommandError, CommandKind, CommandReader};
pub use lexer::{LexError, Lexer, Position, Token, TokenKind, tokenize};
pub use status::Status;
