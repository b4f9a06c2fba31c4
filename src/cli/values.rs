//! Value parsers that keep our own name parsing (any case, short names, the
//! closest names in the error) and tell clap the names, so that `--help`
//! lists them and the shell completions (`smtcomp completions`) offer them.

use crate::model::Track;
use crate::workspace::BackendKind;
use clap::builder::{PossibleValue, TypedValueParser};
use std::ffi::OsStr;

/// A value named by one of `names` (each with its aliases), parsed by `parse`.
#[derive(Clone)]
pub struct Named<T: Clone + Send + Sync + 'static> {
    names: Vec<(&'static str, Vec<&'static str>)>,
    parse: fn(&str) -> Result<T, String>,
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Named<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let text = value
            .to_str()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidUtf8).with_cmd(cmd))?;
        (self.parse)(text).map_err(|why| {
            let arg = arg.map_or_else(|| "...".to_string(), |a| a.to_string());
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("invalid value '{text}' for '{arg}': {why}\n"),
            )
            .with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(|(n, a)| {
            PossibleValue::new(*n).aliases(a.iter().copied())
        })))
    }
}

/// The tracks a user names (the stable names; short and page names as aliases).
pub fn tracks() -> Named<Track> {
    Named {
        names: Track::ALL
            .into_iter()
            .filter(|t| *t != Track::UnsatCoreValidation)
            .map(|t| (t.name(), vec![t.short_name(), t.page_suffix()]))
            .collect(),
        parse: |s| s.parse::<Track>().map_err(|e| e.to_string()),
    }
}

/// The backends of a workspace (`[backend] kind`).
pub fn backends() -> Named<BackendKind> {
    Named {
        names: [BackendKind::Local, BackendKind::Slurm, BackendKind::Vcloud]
            .into_iter()
            .map(|b| (b.name(), Vec::new()))
            .collect(),
        parse: |s| s.parse::<BackendKind>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_offered_and_parsed_as_before() {
        let cmd = clap::Command::new("t");
        let p = tracks();
        let names: Vec<String> = p
            .possible_values()
            .unwrap()
            .map(|v| v.get_name().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "SingleQuery",
                "Incremental",
                "UnsatCore",
                "ModelValidation",
                "Parallel",
                "Cloud",
                "ProofExhibition"
            ]
        );
        for (text, want) in [
            ("sq", Track::SingleQuery),
            ("single-query", Track::SingleQuery),
            ("UC", Track::UnsatCore),
        ] {
            assert_eq!(p.parse_ref(&cmd, None, OsStr::new(text)).unwrap(), want);
        }
        let err = p
            .parse_ref(&cmd, None, OsStr::new("singlquery"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("invalid value 'singlquery'"), "{err}");
        assert_eq!(
            backends()
                .parse_ref(&cmd, None, OsStr::new("slurm"))
                .unwrap(),
            BackendKind::Slurm
        );
    }
}
