//! The project's SMT-LIB lexer and command splitter (`smtcomp::smtlib`).

use proptest::prelude::*;
use smtcomp_smtlib::lexer::{LexError, TokenKind, classify_atom, string_content, tokenize};
use smtcomp_smtlib::{CommandError, CommandKind, CommandReader, Status};

fn kinds(input: &str) -> Vec<(TokenKind, String)> {
    tokenize(input.as_bytes())
        .unwrap()
        .into_iter()
        .map(|t| (t.kind, String::from_utf8(t.text).unwrap()))
        .collect()
}

fn commands(input: &str) -> Vec<(CommandKind, String)> {
    let mut reader = CommandReader::new(input.as_bytes());
    let mut out = Vec::new();
    while let Some(c) = reader.next_command().unwrap() {
        out.push((c.kind, String::from_utf8(c.text.to_vec()).unwrap()));
    }
    out
}

#[test]
fn token_kinds() {
    use TokenKind::*;
    assert_eq!(
        kinds("(set-info :status sat) ; c\n|a b| \"x\"\"y\" 12 3.5 #xFf #b01 #xg x.1"),
        [
            (LParen, "(".into()),
            (Symbol, "set-info".into()),
            (Keyword, ":status".into()),
            (Symbol, "sat".into()),
            (RParen, ")".into()),
            (QuotedSymbol, "|a b|".into()),
            (String, "\"x\"\"y\"".into()),
            (Numeral, "12".into()),
            (Decimal, "3.5".into()),
            (Hexadecimal, "#xFf".into()),
            (Binary, "#b01".into()),
            (Symbol, "#xg".into()),
            (Symbol, "x.1".into()),
        ]
    );
    assert_eq!(classify_atom(b"1."), TokenKind::Symbol);
}

#[test]
fn strings_use_doubled_quotes_and_ordinary_backslashes() {
    let toks = tokenize(br#"("\" ) "a""b" "c\")"#).unwrap();
    let texts: Vec<&[u8]> = toks.iter().map(|t| t.text.as_slice()).collect();
    let expected: [&[u8]; 6] = [b"(", br#""\""#, b")", br#""a""b""#, br#""c\""#, b")"];
    assert_eq!(texts, expected);
    assert_eq!(string_content(br#""a""b""#), b"a\"b");
}

#[test]
fn positions_count_lines_and_columns() {
    let toks = tokenize(b"(a\n  \"x\ny\" b)").unwrap();
    let pos: Vec<(u64, u64)> = toks.iter().map(|t| (t.pos.line, t.pos.column)).collect();
    assert_eq!(pos, [(1, 1), (1, 2), (2, 3), (3, 4), (3, 5)]);
}

#[test]
fn lexical_errors() {
    assert!(
        matches!(tokenize(b"(\"abc"), Err(LexError::UnterminatedString(p)) if p.line == 1 && p.column == 2)
    );
    assert!(
        matches!(tokenize(b"\n |abc"), Err(LexError::UnterminatedQuotedSymbol(p)) if p.line == 2 && p.column == 2)
    );
}

#[test]
fn command_classification() {
    use CommandKind::*;
    let got: Vec<CommandKind> = commands(
        "(check-sat)( check-sat ; x\n)(check-sat x)(check - sat)(check-sat-assuming (a b))\
         (exit)( exit )(exit 0)(set-info :status unsat)(set-info :status maybe)(set-info :source |x|)\
         (|check-sat|)(assert true)",
    )
    .into_iter()
    .map(|(k, _)| k)
    .collect();
    assert_eq!(
        got,
        [
            CheckSat,
            CheckSat,
            Other,
            Other,
            CheckSatAssuming,
            Exit,
            Exit,
            Other,
            SetInfoStatus(Status::Unsat),
            Other,
            Other,
            Other,
            Other
        ]
    );
}

#[test]
fn commands_are_verbatim_and_trivia_between_is_dropped() {
    let got = commands("; head\n  (a (b \"c)\" |d)|) ; e\n f)\r\n(g)(h)");
    let texts: Vec<&str> = got.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(texts, ["(a (b \"c)\" |d)|) ; e\n f)", "(g)", "(h)"]);
}

#[test]
fn command_head() {
    let mut r = CommandReader::new(&b"( declare-fun x () Int)(|q| 1)"[..]);
    assert_eq!(
        r.next_command().unwrap().unwrap().head(),
        Some(&b"declare-fun"[..])
    );
    assert_eq!(r.next_command().unwrap().unwrap().head(), None);
}

#[test]
fn malformed_top_level() {
    let err = |s: &str| {
        let mut r = CommandReader::new(s.as_bytes());
        loop {
            match r.next_command() {
                Ok(Some(_)) => continue,
                Ok(None) => panic!("no error for {s:?}"),
                Err(e) => return e,
            }
        }
    };
    assert_eq!(
        err("(a))").to_string(),
        "line 1, column 4: unexpected ')' outside a command"
    );
    assert_eq!(
        err("(a)\nfoo").to_string(),
        "line 2, column 1: unexpected symbol outside a command"
    );
    assert_eq!(
        err("\"x\"").to_string(),
        "line 1, column 1: unexpected string literal outside a command"
    );
    assert!(matches!(err("(a (b)"), CommandError::UnterminatedCommand(p) if p.line == 1));
    assert_eq!(
        err("(a \"x)").to_string(),
        "unterminated string literal starting at line 1, column 4"
    );
}

/// A generator of well-formed commands with tricky content.
fn command() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        "[a-z][a-z0-9.!-]{0,6}",
        "[0-9]{1,4}",
        r#""([^"]|""){0,8}""#,
        r"\|[^|]{0,8}\|",
        Just(":status".to_string()),
    ];
    let leaf = atom.prop_map(|a| a.to_string());
    let sexpr = leaf.prop_recursive(3, 24, 4, |inner| {
        prop::collection::vec(inner, 0..4).prop_map(|v| format!("({})", v.join(" ")))
    });
    (
        "[a-z-]{1,10}",
        prop::collection::vec(sexpr, 0..4),
        prop::option::of("; [^\n]{0,8}\n"),
    )
        .prop_map(|(head, args, comment)| {
            format!("({head} {}{})", args.join(" "), comment.unwrap_or_default())
        })
}

proptest! {
    #[test]
    fn splitting_recovers_every_command(cmds in prop::collection::vec(command(), 0..12),
                                        seps in prop::collection::vec("[ \t\r\n]{0,3}(; [^\n]{0,6}\n)?", 12)) {
        let mut script = String::new();
        for (i, c) in cmds.iter().enumerate() {
            script.push_str(&seps[i]);
            script.push_str(c);
        }
        let got: Vec<String> = commands(&script).into_iter().map(|(_, t)| t).collect();
        prop_assert_eq!(got, cmds);
    }

    #[test]
    fn lexer_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = tokenize(&bytes);
        let mut r = CommandReader::new(&bytes[..]);
        while let Ok(Some(_)) = r.next_command() {}
    }
}
