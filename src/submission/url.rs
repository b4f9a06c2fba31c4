//! Just enough URL parsing for submissions: `http(s)://host[:port][/...]`.

/// An absolute http(s) URL split into the parts the checks need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpUrl {
    /// `http` or `https`.
    pub scheme: String,
    /// Host, lower-cased, without user info or port.
    pub host: String,
}

/// What is wrong with a URL of a submission (the URL is quoted in the message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    /// White space or control characters in an http(s) URL.
    #[error("'{0}' is not a URL (it contains white space)")]
    WhiteSpace(String),
    /// Control characters in a `file://` URL.
    #[error("'{}' is not a URL (control characters)", .0.escape_debug())]
    Control(String),
    /// No `scheme://`.
    #[error("'{0}' is not an absolute URL (expected https://...)")]
    NotAbsolute(String),
    /// A scheme other than http and https.
    #[error("'{url}' has scheme '{scheme}', expected http or https")]
    Scheme {
        /// The URL.
        url: String,
        /// Its scheme, lower-cased.
        scheme: String,
    },
    /// A backslash, which clients read as `/`.
    #[error(
        "'{0}' contains a backslash, which clients read as `/` (the host would not be the one it seems)"
    )]
    Backslash(String),
    /// `user@` before the host.
    #[error("'{url}' has user info ('{user}@') before its host; give the URL without it")]
    UserInfo {
        /// The URL.
        url: String,
        /// The user info.
        user: String,
    },
    /// No host.
    #[error("'{0}' has no host")]
    NoHost(String),
    /// A port that is no number up to 65535.
    #[error("'{url}' has an invalid port '{port}'")]
    Port {
        /// The URL.
        url: String,
        /// The port text.
        port: String,
    },
    /// A `file://` URL without an absolute path.
    #[error("'{0}': a file:// URL needs an absolute path (file:///path/to/archive.tar.gz)")]
    RelativeFile(String),
}

/// The host of an archive URL: an http(s) URL ([`parse_http_url`]), or a
/// local archive `file:///ABSOLUTE/PATH` (a solver author testing a local
/// archive, `archives fetch` in tests), whose host is empty. A final
/// submission still needs its archive on the permanent host (rules 4).
pub fn archive_host(s: &str) -> Result<String, UrlError> {
    if let Some(rest) = s.strip_prefix("file://") {
        if s.chars().any(char::is_control) {
            return Err(UrlError::Control(s.to_string()));
        }
        let path = rest.strip_prefix("localhost").unwrap_or(rest);
        if !path.starts_with('/') || path.len() < 2 {
            return Err(UrlError::RelativeFile(s.to_string()));
        }
        return Ok(String::new());
    }
    parse_http_url(s).map(|u| u.host)
}

/// Parses an absolute http or https URL; the error says what is wrong.
pub fn parse_http_url(s: &str) -> Result<HttpUrl, UrlError> {
    if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(UrlError::WhiteSpace(s.to_string()));
    }
    let (scheme, rest) = s
        .split_once("://")
        .ok_or_else(|| UrlError::NotAbsolute(s.to_string()))?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(UrlError::Scheme {
            url: s.to_string(),
            scheme,
        });
    }
    // A backslash is no URL character; browsers and curl read it as `/`, so
    // `https://evil.example\@zenodo.org/` would be fetched from evil.example.
    if s.contains('\\') {
        return Err(UrlError::Backslash(s.to_string()));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    // User info (`user@host`) hides the host behind a name that looks like one.
    if let Some((user, _)) = authority.rsplit_once('@') {
        return Err(UrlError::UserInfo {
            url: s.to_string(),
            user: user.to_string(),
        });
    }
    let host_port = authority;
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or("").to_string(),
        None => host_port.split(':').next().unwrap_or("").to_string(),
    };
    if host.is_empty() {
        return Err(UrlError::NoHost(s.to_string()));
    }
    if let Some((_, port)) = host_port
        .rsplit_once(':')
        .filter(|_| !host_port.starts_with('['))
        && port.parse::<u16>().is_err()
    {
        return Err(UrlError::Port {
            url: s.to_string(),
            port: port.to_string(),
        });
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
                .to_string()
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
        assert!(e.to_string().contains("contains a backslash"), "{e}");
        let e = parse_http_url("https://zenodo.org@evil.example/records/1").unwrap_err();
        assert!(
            e.to_string().contains("has user info ('zenodo.org@')"),
            "{e}"
        );
        let e = parse_http_url("http://User@Example.COM:8080/a").unwrap_err();
        assert!(e.to_string().contains("user info"), "{e}");
    }

    #[test]
    fn rejects_non_urls() {
        assert!(
            parse_http_url("zenodo.org/x")
                .unwrap_err()
                .to_string()
                .contains("not an absolute URL")
        );
        assert!(
            parse_http_url("ftp://x.org/a")
                .unwrap_err()
                .to_string()
                .contains("scheme 'ftp'")
        );
        assert!(
            parse_http_url("https:///a")
                .unwrap_err()
                .to_string()
                .contains("no host")
        );
        assert!(
            parse_http_url("https://a b")
                .unwrap_err()
                .to_string()
                .contains("white space")
        );
        assert!(
            parse_http_url("https://x.org:99999/")
                .unwrap_err()
                .to_string()
                .contains("invalid port")
        );
    }
}
