//! What every request passes before an endpoint sees it:
//!
//! - **who asks** ([`Client`]): the page's `floe_client` cookie (set with the page,
//!   `HttpOnly; SameSite=Strict`), else an `X-Floe-Client` header (scripts), else the peer's
//!   address. Play sessions belong to a client, and the lines of waiting work are fair
//!   between clients;
//! - **from where**: the `Host` must name this machine when the server listens on a loopback
//!   address (a page that renamed itself through DNS cannot reach it), and an `Origin`, when a
//!   browser sends one, must be the page's own or one given with `--allow-origin`: another
//!   site's page cannot make the server work;
//! - **how fast**: a request's body must arrive within `--read-timeout` (headers and idle
//!   connections are bounded by the connection itself, see `mod.rs`);
//! - and every answer carries `X-Content-Type-Options: nosniff`, a Content-Security-Policy
//!   (the page's: its own script, style and connections only, never in a frame) and
//!   `Referrer-Policy: no-referrer`.

use super::reply::Reply;
use super::App;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, Limited};
use std::net::SocketAddr;
use std::sync::Arc;

/// Who sends a request (see the module notes).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Client(Arc<str>);

impl Client {
    pub fn new(id: &str) -> Client {
        Client(Arc::from(id))
    }
}

/// The cookie that names the page's client.
pub(crate) const COOKIE: &str = "floe_client";

/// The page's policy: its own script, style, pictures and connections; no plugins, no
/// frames around it, no forms elsewhere.
pub(crate) const PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Everything else (JSON, pictures): nothing runs, nothing frames it.
const API_POLICY: &str = "default-src 'none'; frame-ancestors 'none'; sandbox";

/// A client token: 1 to 64 letters, digits, `-` or `_`.
fn token(s: &str) -> Option<&str> {
    let ok = !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    ok.then_some(s)
}

/// The value of cookie `name`, if the request has a well-formed one.
pub(crate) fn cookie<'a>(h: &'a HeaderMap, name: &str) -> Option<&'a str> {
    h.get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .and_then(|(_, v)| token(v))
}

/// A new client token: 128 bits from the standard library's randomly keyed hasher.
pub(crate) fn new_token() -> String {
    use std::hash::{BuildHasher, Hasher};
    let half = || {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.finish()
    };
    format!("{:016x}{:016x}", half(), half())
}

/// The host name of a `Host` header (without its port; IPv6 in brackets kept).
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.split_inclusive(']').next().unwrap_or(host);
    }
    host.rsplit_once(':').map_or(host, |(h, _)| h)
}

/// Whether `name` (from a `Host` header) names this machine.
fn is_loopback_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "localhost"
        || n.ends_with(".localhost")
        || n == "[::1]"
        || n.parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Who may call the server, from where.
#[derive(Clone, Debug)]
pub(crate) struct Guard {
    /// The server listens on a loopback address: the `Host` must name this machine.
    pub loopback: bool,
    /// `--allow-origin` (lower case).
    pub origins: Vec<String>,
}

impl Guard {
    /// Refuses a request whose `Host` or `Origin` is not allowed (403, with what to do).
    fn check(&self, h: &HeaderMap) -> Result<(), Reply> {
        let host = h.get(header::HOST).and_then(|v| v.to_str().ok());
        if let Some(host) = host {
            let name = host_name(host);
            let allowed = !self.loopback
                || is_loopback_name(name)
                || self
                    .origins
                    .iter()
                    .any(|o| host_name(o.split("://").nth(1).unwrap_or("")) == name);
            if !allowed {
                return Err(Reply::forbidden(format!(
                    "this server answers requests for this machine only (localhost, 127.0.0.1), \
                     not for '{}'; to reach it under that name, start it with --allow-origin \
                     http://{}",
                    floe::input::shown_word(host),
                    floe::input::shown_word(host)
                )));
            }
        }
        if let Some(origin) = h.get(header::ORIGIN) {
            let o = origin.to_str().unwrap_or("").to_ascii_lowercase();
            let own = host.is_some_and(|host| {
                o == format!("http://{}", host.to_ascii_lowercase())
                    || o == format!("https://{}", host.to_ascii_lowercase())
            });
            if !own && !self.origins.contains(&o) {
                return Err(Reply::forbidden(format!(
                    "requests from the page of another site ({}) are refused: only this \
                     server's own page may call it; to allow that site, start the server with \
                     --allow-origin {}",
                    floe::input::shown_word(&o),
                    floe::input::shown_word(&o)
                )));
            }
        }
        Ok(())
    }
}

/// The layer every request passes (see the module notes).
pub(crate) async fn layer(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let page = req.uri().path() == "/";
    let mut response = match admit(&app, req).await {
        Ok((req, set_cookie)) => {
            let mut r = next.run(req).await;
            if let Some(c) = set_cookie {
                if let Ok(v) = HeaderValue::from_str(&c) {
                    r.headers_mut().append(header::SET_COOKIE, v);
                }
            }
            r
        }
        Err(reply) => reply.into_response(),
    };
    let status = response.status();
    let h = response.headers_mut();
    if status == StatusCode::REQUEST_TIMEOUT {
        // a client that did not send its body in time is not waited for again
        h.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(if page { PAGE_POLICY } else { API_POLICY }),
    );
    response
}

/// Checks where a request comes from, names its client, and reads its body within the
/// read timeout; the request to pass on, and the cookie to set (the page, for a new client).
async fn admit(app: &App, req: Request) -> Result<(Request, Option<String>), Reply> {
    app.guard.check(req.headers())?;
    let (mut parts, body) = req.into_parts();
    let mut set_cookie = None;
    let client = if let Some(c) = cookie(&parts.headers, COOKIE) {
        Client::new(c)
    } else if let Some(v) = parts.headers.get("x-floe-client") {
        match v.to_str().ok().and_then(token) {
            Some(t) => Client::new(&format!("h:{t}")),
            None => {
                return Err(Reply::bad(
                    "X-Floe-Client: a token of 1 to 64 letters, digits, '-' or '_'",
                ))
            }
        }
    } else if parts.uri.path() == "/" && parts.method == Method::GET {
        let t = new_token();
        set_cookie = Some(format!(
            "{COOKIE}={t}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"
        ));
        Client::new(&t)
    } else {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or_else(|| "unknown".to_string(), |c| c.0.ip().to_string());
        Client::new(&format!("ip:{peer}"))
    };
    parts.extensions.insert(client);
    // the body, whole, within the read timeout and the size cap
    let max = app.caps.max_body;
    let read = tokio::time::timeout(app.read_timeout, Limited::new(body, max).collect()).await;
    let bytes = match read {
        Err(_) => {
            return Err(Reply::timed_out(format!(
                "the request's body did not arrive within {} (the server's read timeout)",
                crate::out::human_time(app.read_timeout)
            )))
        }
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            return Err(Reply::too_large(format!(
                "the request body is larger than {max} bytes, more than the server reads"
            )))
        }
        Ok(Err(e)) => return Err(Reply::bad(format!("the request body: {e}"))),
        Ok(Ok(c)) => c.to_bytes(),
    };
    Ok((Request::from_parts(parts, Body::from(bytes)), set_cookie))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn hosts_and_origins() {
        let g = Guard {
            loopback: true,
            origins: vec!["http://example.org:8000".into()],
        };
        // (host, origin, allowed)
        for (host, origin, allowed) in [
            ("127.0.0.1:8080", None, true),
            ("localhost:8080", Some("http://localhost:8080"), true),
            ("[::1]:8080", Some("http://[::1]:8080"), true),
            ("127.0.0.1:8080", Some("http://example.org:8000"), true),
            ("example.org:8000", Some("http://example.org:8000"), true),
            ("127.0.0.1:8080", Some("http://127.0.0.1:9"), false),
            ("127.0.0.1:8080", Some("null"), false),
            ("evil.example", Some("http://evil.example"), false),
            ("127.0.0.1.evil.example:80", None, false),
        ] {
            let mut h = vec![("host", host)];
            h.extend(origin.map(|o| ("origin", o)));
            assert_eq!(g.check(&headers(&h)).is_ok(), allowed, "{host} {origin:?}");
        }
        let open = Guard {
            loopback: false,
            origins: vec![],
        };
        assert!(open.check(&headers(&[("host", "floe.lan:8080")])).is_ok());
        assert!(open
            .check(&headers(&[
                ("host", "floe.lan:8080"),
                ("origin", "http://evil.example")
            ]))
            .is_err());
    }

    #[test]
    fn cookies_and_tokens() {
        let h = headers(&[("cookie", "a=1; floe_client=abc-1; b=2")]);
        assert_eq!(cookie(&h, COOKIE), Some("abc-1"));
        let h = headers(&[("cookie", "floe_client=a b")]);
        assert_eq!(cookie(&h, COOKIE), None);
        let t = new_token();
        assert_eq!(t.len(), 32);
        assert_ne!(t, new_token());
        assert!(token(&"x".repeat(65)).is_none());
    }
}
