//! Reading a submission JSON into a typed [`Submission`], collecting every schema
//! problem with its JSON path instead of stopping at the first.

use super::hint::did_you_mean;
use super::types::{
    Archive, ArchiveHash, Command, Contact, Contributor, LogicSelector, Participation, SolverType,
    Submission,
};
use super::url::parse_http_url;
use crate::diag::Problems;
use crate::model::{Division, Logic, Track};
use serde_json::{Map, Value};

/// Parses submission JSON text. Returns the submission when the schema is satisfied;
/// every schema problem is recorded in `problems` either way.
pub fn parse_submission(text: &str, problems: &mut Problems) -> Option<Submission> {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let full = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let msg = full.strip_suffix(&suffix).unwrap_or(&full);
            problems.error(
                "$",
                format!(
                    "not valid JSON at line {}, column {}: {msg}",
                    e.line(),
                    e.column()
                ),
            );
            return None;
        }
    };
    let Some(obj) = value.as_object() else {
        problems.error(
            "$",
            format!("expected a JSON object, found {}", kind(&value)),
        );
        return None;
    };
    let mut r = Reader { problems };
    let sub = r.submission(obj);
    if r.problems.has_errors() { None } else { sub }
}

/// A JSON type name for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

const SUBMISSION_FIELDS: &[&str] = &[
    "name",
    "contributors",
    "contacts",
    "archive",
    "command",
    "website",
    "system_description",
    "solver_type",
    "participations",
    "seed",
    "competitive",
    "final",
];
const PARTICIPATION_FIELDS: &[&str] = &[
    "tracks",
    "logics",
    "divisions",
    "archive",
    "command",
    "experimental",
    // 2024 schema (Cloud and Parallel entries built on AWS): a repository
    // instead of archive and command; `aws_dockerfile` in the 2024 template.
    "aws_repository",
    "aws_dockerfile",
];

struct Reader<'p> {
    problems: &'p mut Problems,
}

impl Reader<'_> {
    fn unknown_fields(&mut self, obj: &Map<String, Value>, path: &str, known: &[&str]) {
        for key in obj.keys().filter(|k| !known.contains(&k.as_str())) {
            let hint = did_you_mean(key, known.iter().copied());
            self.problems.error(
                &format!("{path}.{key}"),
                format!("unknown field '{key}'{hint}; allowed: {}", known.join(", ")),
            );
        }
    }

    fn required<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Option<&'v Value> {
        let v = obj.get(key);
        if v.is_none() {
            self.problems
                .error(path, format!("missing required field '{key}'"));
        }
        v
    }

    fn string(&mut self, v: &Value, path: &str) -> Option<String> {
        match v {
            Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
            Value::String(_) => {
                self.problems.error(path, "must not be empty");
                None
            }
            other => {
                self.problems
                    .error(path, format!("expected a string, found {}", kind(other)));
                None
            }
        }
    }

    fn boolean(&mut self, obj: &Map<String, Value>, path: &str, key: &str, default: bool) -> bool {
        match obj.get(key) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                self.problems.error(
                    &format!("{path}.{key}"),
                    format!("expected true or false, found {}", kind(other)),
                );
                default
            }
        }
    }

    fn array<'v>(&mut self, v: &'v Value, path: &str) -> Option<&'v Vec<Value>> {
        match v {
            Value::Array(a) => Some(a),
            other => {
                self.problems
                    .error(path, format!("expected an array, found {}", kind(other)));
                None
            }
        }
    }

    fn url(&mut self, v: &Value, path: &str) -> Option<(String, String)> {
        let s = self.string(v, path)?;
        match parse_http_url(&s) {
            Ok(u) => Some((s, u.host)),
            Err(e) => {
                self.problems.error(path, e.to_string());
                None
            }
        }
    }

    fn submission(&mut self, obj: &Map<String, Value>) -> Option<Submission> {
        self.unknown_fields(obj, "$", SUBMISSION_FIELDS);
        let name = self
            .required(obj, "$", "name")
            .and_then(|v| self.string(v, "$.name"));
        if let Some(n) = &name
            && n.chars().any(char::is_control)
        {
            self.problems
                .error("$.name", "must not contain control characters");
        }
        let contributors = self
            .required(obj, "$", "contributors")
            .and_then(|v| self.contributors(v));
        let contacts = self
            .required(obj, "$", "contacts")
            .and_then(|v| self.contacts(v));
        let archive = obj
            .get("archive")
            .and_then(|v| self.archive(v, "$.archive"));
        let command = obj
            .get("command")
            .and_then(|v| self.command(v, "$.command"));
        let website = self
            .required(obj, "$", "website")
            .and_then(|v| self.url(v, "$.website"));
        let system_description = self
            .required(obj, "$", "system_description")
            .and_then(|v| self.url(v, "$.system_description"));
        let solver_type = self
            .required(obj, "$", "solver_type")
            .and_then(|v| self.solver_type(v));
        let participations = self
            .required(obj, "$", "participations")
            .and_then(|v| self.participations(v));
        let seed = obj.get("seed").and_then(|v| self.seed(v)).flatten();
        let competitive = self.boolean(obj, "$", "competitive", true);
        let is_final = self.boolean(obj, "$", "final", false);

        if let Some(parts) = &participations {
            // A participation with an AWS repository needs neither (2024 schema).
            let aws = |p: &Participation| p.aws_repository.is_some();
            if archive.is_none()
                && obj.get("archive").is_none()
                && parts.iter().any(|p| p.archive.is_none() && !aws(p))
            {
                self.problems.error(
                    "$.archive",
                    "missing: give a top-level 'archive' or one in every participation (or an 'aws_repository' for Cloud/Parallel)",
                );
            }
            if command.is_none()
                && obj.get("command").is_none()
                && parts.iter().any(|p| p.command.is_none() && !aws(p))
            {
                self.problems.error(
                    "$.command",
                    "missing: give a top-level 'command' or one in every participation (or an 'aws_repository' for Cloud/Parallel)",
                );
            }
        }
        Some(Submission {
            name: name?,
            contributors: contributors?,
            contacts: contacts?,
            archive,
            command,
            website: website?.0,
            system_description: system_description?.0,
            solver_type: solver_type?,
            participations: participations?,
            seed,
            competitive,
            is_final,
        })
    }

    fn contributors(&mut self, v: &Value) -> Option<Vec<Contributor>> {
        let arr = self.array(v, "$.contributors")?;
        if arr.is_empty() {
            self.problems
                .error("$.contributors", "needs at least one contributor");
        }
        let mut out = Vec::new();
        for (i, c) in arr.iter().enumerate() {
            let path = format!("$.contributors[{i}]");
            match c {
                Value::String(_) => out.extend(self.string(c, &path).map(|name| Contributor {
                    name,
                    website: None,
                })),
                Value::Object(o) => {
                    self.unknown_fields(o, &path, &["name", "website"]);
                    let name = self
                        .required(o, &path, "name")
                        .and_then(|v| self.string(v, &format!("{path}.name")));
                    let website = o
                        .get("website")
                        .and_then(|w| self.url(w, &format!("{path}.website")))
                        .map(|(u, _)| u);
                    out.extend(name.map(|name| Contributor { name, website }));
                }
                other => self.problems.error(
                    &path,
                    format!(
                        "expected a name or {{\"name\": ..., \"website\": ...}}, found {}",
                        kind(other)
                    ),
                ),
            }
        }
        Some(out)
    }

    fn contacts(&mut self, v: &Value) -> Option<Vec<Contact>> {
        let arr = self.array(v, "$.contacts")?;
        if arr.is_empty() {
            self.problems.error(
                "$.contacts",
                "needs at least one contact (\"Name <email>\")",
            );
        }
        let mut out = Vec::new();
        for (i, c) in arr.iter().enumerate() {
            let path = format!("$.contacts[{i}]");
            let Some(s) = self.string(c, &path) else {
                continue;
            };
            match parse_contact(&s) {
                Ok(contact) => out.push(contact),
                Err(e) => self.problems.error(&path, e),
            }
        }
        Some(out)
    }

    fn archive(&mut self, v: &Value, path: &str) -> Option<Archive> {
        let Value::Object(o) = v else {
            self.problems.error(
                path,
                format!(
                    "expected {{\"url\": ..., \"h\": {{\"sha256\": ...}}}}, found {}",
                    kind(v)
                ),
            );
            return None;
        };
        for key in o.keys().filter(|k| *k != "url" && *k != "h") {
            self.problems.warning(
                &format!("{path}.{key}"),
                format!("field '{key}' is not used (archive fields: url, h)"),
            );
        }
        let url = self.required(o, path, "url").and_then(|u| {
            let p = format!("{path}.url");
            let s = self.string(u, &p)?;
            match super::url::archive_host(&s) {
                Ok(host) => Some((s, host)),
                Err(e) => {
                    self.problems.error(&p, e.to_string());
                    None
                }
            }
        });
        let hash = o.get("h").and_then(|h| self.hash(h, &format!("{path}.h")));
        let (url, host) = url?;
        Some(Archive { url, host, hash })
    }

    fn hash(&mut self, v: &Value, path: &str) -> Option<ArchiveHash> {
        let Value::Object(o) = v else {
            self.problems.error(
                path,
                format!("expected {{\"sha256\": \"<hex>\"}}, found {}", kind(v)),
            );
            return None;
        };
        self.unknown_fields(o, path, &["sha256", "sha512"]);
        let mut h = ArchiveHash::default();
        for (key, len) in [("sha256", 64), ("sha512", 128)] {
            let Some(val) = o.get(key) else { continue };
            let p = format!("{path}.{key}");
            if let Some(s) = self.string(val, &p) {
                if s.len() == len && s.chars().all(|c| c.is_ascii_hexdigit()) {
                    if key == "sha256" {
                        h.sha256 = Some(s.to_ascii_lowercase());
                    } else {
                        h.sha512 = Some(s.to_ascii_lowercase());
                    }
                } else {
                    self.problems.error(
                        &p,
                        format!(
                            "expected {len} hexadecimal digits, found {} characters",
                            s.len()
                        ),
                    );
                }
            }
        }
        if o.get("sha256").is_none() && o.get("sha512").is_none() {
            self.problems
                .error(path, "give at least one of 'sha256' or 'sha512'");
        }
        Some(h)
    }

    fn command(&mut self, v: &Value, path: &str) -> Option<Command> {
        match v {
            Value::Array(items) => {
                if items.is_empty() {
                    self.problems
                        .error(path, "empty command: give [\"binary\", \"arg\", ...]");
                    return None;
                }
                let mut parts = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let p = format!("{path}[{i}]");
                    match item {
                        Value::String(s) if i > 0 || !s.trim().is_empty() => parts.push(s.clone()),
                        Value::String(_) => self.problems.error(&p, "the binary must not be empty"),
                        other => self
                            .problems
                            .error(&p, format!("expected a string, found {}", kind(other))),
                    }
                }
                (parts.len() == items.len()).then(|| Command {
                    binary: parts[0].clone(),
                    arguments: parts[1..].to_vec(),
                    compa_starexec: false,
                })
            }
            Value::Object(o) => {
                self.unknown_fields(o, path, &["binary", "arguments", "compa_starexec"]);
                let binary = self
                    .required(o, path, "binary")
                    .and_then(|b| self.string(b, &format!("{path}.binary")));
                let mut arguments = Vec::new();
                if let Some(args) = o.get("arguments") {
                    let p = format!("{path}.arguments");
                    for (i, a) in self.array(args, &p).into_iter().flatten().enumerate() {
                        match a {
                            Value::String(s) => arguments.push(s.clone()),
                            other => self.problems.error(
                                &format!("{p}[{i}]"),
                                format!("expected a string, found {}", kind(other)),
                            ),
                        }
                    }
                }
                let compa_starexec = self.boolean(o, path, "compa_starexec", false);
                Some(Command {
                    binary: binary?,
                    arguments,
                    compa_starexec,
                })
            }
            other => {
                self.problems.error(
                    path,
                    format!(
                        "expected [\"binary\", \"arg\", ...] or {{\"binary\": ..., \"arguments\": [...]}}, found {}",
                        kind(other)
                    ),
                );
                None
            }
        }
    }

    fn solver_type(&mut self, v: &Value) -> Option<SolverType> {
        let s = self.string(v, "$.solver_type")?;
        let t = SolverType::from_json(&s);
        if t.is_none() {
            let hint = match ["wrapped", "derived", "Standalone", "Portfolio"]
                .iter()
                .find(|k| k.eq_ignore_ascii_case(&s))
            {
                Some(k) => format!(" (spelling is case-sensitive: '{k}')"),
                None => did_you_mean(&s, ["wrapped", "derived", "Standalone", "Portfolio"]),
            };
            self.problems.error(
                "$.solver_type",
                format!(
                    "unknown solver type '{s}'{hint}; expected one of wrapped, derived, Standalone, Portfolio"
                ),
            );
        }
        t
    }

    /// `Some(None)` for an explicit null; `None` after an error.
    fn seed(&mut self, v: &Value) -> Option<Option<i128>> {
        let parsed = match v {
            Value::Null => return Some(None),
            Value::Number(n) => n
                .as_i64()
                .map(i128::from)
                .or_else(|| n.as_u64().map(i128::from)),
            Value::String(s) => s.trim().parse::<i128>().ok(),
            _ => None,
        };
        if parsed.is_none() {
            self.problems.error(
                "$.seed",
                format!(
                    "expected an integer (or null), found {}",
                    match v {
                        Value::String(s) => format!("the string '{s}'"),
                        Value::Number(n) => format!("the number {n}"),
                        other => kind(other).to_string(),
                    }
                ),
            );
            return None;
        }
        Some(parsed)
    }

    fn participations(&mut self, v: &Value) -> Option<Vec<Participation>> {
        let arr = self.array(v, "$.participations")?;
        let mut out = Vec::new();
        let mut ok = true;
        for (i, p) in arr.iter().enumerate() {
            let path = format!("$.participations[{i}]");
            match self.participation(p, &path) {
                Some(p) => out.push(p),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn participation(&mut self, v: &Value, path: &str) -> Option<Participation> {
        let Value::Object(o) = v else {
            self.problems.error(
                path,
                format!("expected a participation object, found {}", kind(v)),
            );
            return None;
        };
        self.unknown_fields(o, path, PARTICIPATION_FIELDS);
        let tracks = self
            .required(o, path, "tracks")
            .and_then(|t| self.tracks(t, &format!("{path}.tracks")));
        let logics = match o.get("logics") {
            None => Some(LogicSelector::List(Vec::new())),
            Some(l) => self.logic_selector(l, &format!("{path}.logics")),
        };
        let divisions = match o.get("divisions") {
            None => Some(Vec::new()),
            Some(d) => self.names(d, &format!("{path}.divisions"), "division"),
        };
        let archive = o
            .get("archive")
            .and_then(|a| self.archive(a, &format!("{path}.archive")));
        let command = o
            .get("command")
            .and_then(|c| self.command(c, &format!("{path}.command")));
        let experimental = self.boolean(o, path, "experimental", false);
        let mut aws_repository = None;
        for key in ["aws_repository", "aws_dockerfile"] {
            if let Some(v) = o.get(key) {
                aws_repository = self.string(v, &format!("{path}.{key}")).or(aws_repository);
            }
        }
        let tracks = tracks?;
        if aws_repository.is_some()
            && !tracks
                .iter()
                .all(|t| matches!(t, Track::Cloud | Track::Parallel))
        {
            self.problems.error(
                &format!("{path}.aws_repository"),
                "an AWS repository can be used only with the Cloud and Parallel tracks",
            );
        }
        let divisions: Vec<Division> = divisions?.into_iter().map(Division::new).collect();
        Some(Participation {
            tracks,
            logics: logics?,
            divisions,
            archive,
            command,
            experimental,
            aws_repository,
        })
    }

    fn tracks(&mut self, v: &Value, path: &str) -> Option<Vec<Track>> {
        let names = self.names(v, path, "track")?;
        if names.is_empty() {
            self.problems
                .error(path, "enters no track: list at least one track");
        }
        let mut out = Vec::new();
        for (i, name) in names.iter().enumerate() {
            match Track::ALL.iter().find(|t| t.name() == name) {
                Some(t) => out.push(*t),
                None => self.problems.error(
                    &format!("{path}[{i}]"),
                    format!(
                        "unknown track '{name}' (known: {})",
                        Track::ALL.map(Track::name).join(", ")
                    ),
                ),
            }
        }
        (out.len() == names.len()).then_some(out)
    }

    fn logic_selector(&mut self, v: &Value, path: &str) -> Option<LogicSelector> {
        match v {
            Value::String(s) => Some(LogicSelector::Pattern(s.clone())),
            Value::Array(_) => self
                .names(v, path, "logic")
                .map(|l| LogicSelector::List(l.into_iter().map(Logic::new).collect())),
            other => {
                self.problems.error(
                    path,
                    format!(
                        "expected a list of logics or a regular expression string, found {}",
                        kind(other)
                    ),
                );
                None
            }
        }
    }

    /// A list of non-empty strings.
    fn names(&mut self, v: &Value, path: &str, what: &str) -> Option<Vec<String>> {
        let arr = self.array(v, path)?;
        let mut out = Vec::new();
        for (i, item) in arr.iter().enumerate() {
            match item {
                Value::String(s) if !s.is_empty() => out.push(s.clone()),
                other => self.problems.error(
                    &format!("{path}[{i}]"),
                    format!("expected a {what} name, found {}", kind(other)),
                ),
            }
        }
        (out.len() == arr.len()).then_some(out)
    }
}

/// Parses `Name <email>` or a bare address.
fn parse_contact(s: &str) -> Result<Contact, String> {
    let (name, email) = match (s.find('<'), s.rfind('>')) {
        (Some(l), Some(r)) if l < r && s[r + 1..].trim().is_empty() => {
            (s[..l].trim().to_string(), s[l + 1..r].trim().to_string())
        }
        (None, None) => (String::new(), s.trim().to_string()),
        _ => {
            return Err(format!(
                "'{s}' is not of the form \"Name <email@example.org>\""
            ));
        }
    };
    let valid = match email.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !email
                    .chars()
                    .any(|c| c.is_whitespace() || c == '<' || c == '>' || c == ',')
                && !domain.contains('@')
        }
        None => false,
    };
    if !valid {
        return Err(format!(
            "'{email}' is not a valid e-mail address (expected \"Name <email@example.org>\")"
        ));
    }
    Ok(Contact { name, email })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contacts() {
        let c = parse_contact("Jane Doe <jane@uni.edu>").unwrap();
        assert_eq!(
            (c.name.as_str(), c.email.as_str()),
            ("Jane Doe", "jane@uni.edu")
        );
        assert_eq!(parse_contact("jane@uni.edu").unwrap().email, "jane@uni.edu");
        assert!(parse_contact("Jane <jane-at-uni.edu>").is_err());
        assert!(parse_contact("Jane <jane@localhost>").is_err());
        assert!(parse_contact("Jane jane@uni.edu>").is_err());
    }
}
