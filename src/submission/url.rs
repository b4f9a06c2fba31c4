//! Just enough URL parsing for submissions: `http(s)://host[:port][/...]`.

/// An absolute http(s) URL split into the parts the checks need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpUrl {
    /// `http` or `https`.
    pub scheme: String,
    /// Host, lower-cased, without user info or port.
    pub host: String,
}

/// The host of an archive URL: an http(s) URL ([`parse_http_url`]), or a
/// local archive `file:///ABSOLUTE/PATH` (a solver author testing a local
/// archive, `archives fetch` in tests), whose host is empty. A final
/// submission still needs its archive on the permanent host (rules 4).
pub fn archive_host(s: &str) -> Result<String, String> {
    if let Some(rest) = s.strip_prefix("file://") {
        if s.chars().any(char::is_control) {
            return Err(format!(
                "'{}' is not a URL (control characters)",
                s.escape_debug()
            ));
        }
        let path = rest.strip_prefix("localhost").unwrap_or(rest);
        if !path.starts_with('/') || path.len() < 2 {
            return Err(format!(
                "'{s}': a file:// URL needs an absolute path (file:///path/to/archive.tar.gz)"
            ));
        }
        return Ok(String::new());
    }
    parse_http_url(s).map(|u| u.host)
}

/// Parses an absolute http or https URL; the error says what is wrong.
pub fn parse_http_url(s: &str) -> Result<HttpUrl, String> {
    if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("'{s}' is not a URL (it contains white space)"));
    }
    let (scheme, rest) = s
        .split_once("://")
        .ok_or_else(|| format!("'{s}' is not an absolute URL (expected https://...)"))?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(format!(
            "'{s}' has scheme '{scheme}', expected http or https"
        ));
    }
    // A backslash is no URL character; browsers and curl read it as `/`, so
    // `https://evil.example\@zenodo.org/` would be fetched from evil.example.
    if s.contains('\\') {
        return Err(format!(
            "'{s}' contains a backslash, which clients read as `/` (the host would not be the one it seems)"
        ));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    // User info (`user@host`) hides the host behind a name that looks like one.
    if let Some((user, _)) = authority.rsplit_once('@') {
        return Err(format!(
            "'{s}' has user info ('{user}@') before its host; give the URL without it"
        ));
    }
    let host_port = authority;
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or("").to_string(),
        None => host_port.split(':').next().unwrap_or("").to_string(),
    };
    if host.is_empty() {
        return Err(format!("'{s}' has no host"));
    }
    if let Some((_, port)) = host_port
        .rsplit_once(':')
        .filter(|_| !host_port.starts_with('['))
        && port.parse::<u16>().is_err()
    {
        return Err(format!("'{s}' has an invalid port '{port}'"));
    }
    Ok(HttpUrl {
        scheme,
        host: host.to_ascii_lowercase(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hosts() {
        assert_eq!(archive_host("file:///tmp/s.tar.gz").unwrap(), "");
        assert_eq!(archive_host("file://localhost/tmp/s.zip").unwrap(), "");
        assert!(
            archive_host("file://host/x")
                .unwrap_err()
                .contains("absolute path")
        );
        assert!(archive_host("file://rel/x.zip").is_err());
        assert_eq!(archive_host("https://zenodo.org/x").unwrap(), "zenodo.org");
        let u = parse_http_url("https://zenodo.org/records/1/files/x.zip?download=1").unwrap();
        assert_eq!(u.host, "zenodo.org");
        assert_eq!(
            parse_http_url("http://Example.COM:8080/a").unwrap().host,
            "example.com"
        );
        assert_eq!(
            parse_http_url("https://sandbox.zenodo.org").unwrap().host,
            "sandbox.zenodo.org"
        );
    }

    #[test]
    fn a_host_hidden_behind_a_backslash_or_user_info_is_refused() {
        let e =
            parse_http_url("https://evil.example\\@zenodo.org/records/1/files/s.zip").unwrap_err();
        assert!(e.contains("contains a backslash"), "{e}");
        let e = parse_http_url("https://zenodo.org@evil.example/records/1").unwrap_err();
        assert!(e.contains("has user info ('zenodo.org@')"), "{e}");
        let e = parse_http_url("http://User@Example.COM:8080/a").unwrap_err();
        assert!(e.contains("user info"), "{e}");
    }

    #[test]
    fn rejects_non_urls() {
        assert!(
            parse_http_url("zenodo.org/x")
                .unwrap_err()
                .contains("not an absolute URL")
        );
        assert!(
            parse_http_url("ftp://x.org/a")
                .unwrap_err()
                .contains("scheme 'ftp'")
        );
        assert!(
            parse_http_url("https:///a")
                .unwrap_err()
                .contains("no host")
        );
        assert!(
            parse_http_url("https://a b")
                .unwrap_err()
                .contains("white space")
        );
        assert!(
            parse_http_url("https://x.org:99999/")
                .unwrap_err()
                .contains("invalid port")
        );
    }
}
