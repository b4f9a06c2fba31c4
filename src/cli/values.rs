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

/// The rules editions (`--edition`).
pub fn editions() -> Named<crate::model::RulesEdition> {
    Named {
        names: vec![
            ("2008", Vec::new()),
            ("2015", Vec::new()),
            ("2023", Vec::new()),
            ("2025", Vec::new()),
        ],
        parse: |s| s.parse(),
    }
}

/// The built-in competition editions (`--year`).
pub fn years() -> Named<u16> {
    let names = crate::model::Competition::builtin_years()
        .into_iter()
        // Leaked once per process: clap wants 'static names, and there are a handful.
        .map(|y| (&*Box::leak(y.to_string().into_boxed_str()), Vec::new()))
        .collect();
    Named {
        names,
        parse: |s| {
            let y: u16 = s
                .trim()
                .parse()
                .map_err(|_| format!("'{s}' is not a year"))?;
            match crate::model::Competition::builtin_years().contains(&y) {
                true => Ok(y),
                false => Err(crate::model::CompetitionError::UnknownYear(y).to_string()),
            }
        },
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
        assert_eq!(
            years().parse_ref(&cmd, None, OsStr::new("2025")).unwrap(),
            2025
        );
        let err = years()
            .parse_ref(&cmd, None, OsStr::new("1999"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("no built-in competition definition for 1999"),
            "{err}"
        );
        assert_eq!(
            editions()
                .parse_ref(&cmd, None, OsStr::new("2023"))
                .unwrap(),
            crate::model::RulesEdition::Rules2023
        );
    }
}
