//! Property tests: reading submissions never panics, whatever the input, and a
//! problem always names a JSON path that starts at the root.

use proptest::prelude::*;
use serde_json::{Value, json};
use smtcomp::model::Competition;
use smtcomp::submission::{Problems, check_rules, entries, parse_submission};

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "[ -~]{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("SingleQuery"),
            Just("QF_BV"),
            Just(".*"),
            Just("(?!"),
            Just("QF_Bitvec"),
            Just("https://zenodo.org/x"),
            Just("derived"),
            Just("A <a@b.c>"),
            Just("")
        ]
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("name".to_string()),
                    Just("tracks".to_string()),
                    Just("logics".to_string()),
                    Just("divisions".to_string()),
                    Just("command".to_string()),
                    Just("archive".to_string()),
                    Just("url".to_string()),
                    Just("h".to_string()),
                    "[a-z]{1,6}"
                ],
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn base() -> Value {
    json!({
        "name": "X", "contributors": ["A"], "contacts": ["A <a@b.org>"],
        "archive": {"url": "https://zenodo.org/x.zip"}, "website": "https://x.org",
        "system_description": "https://x.org/d.pdf", "command": ["bin/x"],
        "solver_type": "Standalone",
        "participations": [{"tracks": ["SingleQuery"], "logics": ["QF_BV"]}], "seed": 1
    })
}

fn check(text: &str) {
    let comp = Competition::builtin(2025).unwrap();
    let mut problems = Problems::new("f.json");
    if let Some(sub) = parse_submission(text, &mut problems) {
        check_rules(&sub, &mut problems);
        entries(&sub, &comp, &mut problems);
    }
    for p in problems.into_vec() {
        assert!(p.place.starts_with('$'), "{p}");
        assert!(!p.message.is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::support::fuzz_cases(400)))]

    #[test]
    fn arbitrary_bytes_never_panic(s in "\\PC{0,200}") {
        check(&s);
    }

    #[test]
    fn any_field_replaced_by_any_value_never_panics(
        field in prop_oneof![
            Just("name"), Just("contributors"), Just("contacts"), Just("archive"), Just("website"),
            Just("command"), Just("solver_type"), Just("participations"), Just("seed"),
            Just("competitive"), Just("final"), Just("other")
        ],
        value in arb_json(),
    ) {
        let mut v = base();
        v[field] = value;
        check(&v.to_string());
    }

    #[test]
    fn any_participation_never_panics(p in arb_json()) {
        let mut v = base();
        v["participations"] = json!([p]);
        check(&v.to_string());
    }
}

#[test]
fn the_base_submission_is_valid() {
    let comp = Competition::builtin(2025).unwrap();
    let mut problems = Problems::new("f.json");
    let sub = parse_submission(&base().to_string(), &mut problems).unwrap();
    check_rules(&sub, &mut problems);
    let e = entries(&sub, &comp, &mut problems);
    assert!(problems.into_vec().is_empty());
    assert_eq!(e.len(), 1);
}
