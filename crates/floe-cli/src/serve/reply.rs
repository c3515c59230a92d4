//! An answer of the server: JSON or a picture, with its HTTP status and the command's exit
//! code (`x-floe-exit`), and its messages in the API's words. Below every other file of the
//! server: the endpoints, the guard and the lanes all answer with it.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use floe::Error;
use serde::Serialize;
use serde_json::{json, Value};

/// An answer: JSON or a picture, with a status and the command's exit code.
#[derive(Debug)]
pub(crate) struct Reply {
    status: StatusCode,
    body: Body,
    exit: Option<u8>,
}

#[derive(Debug)]
enum Body {
    /// JSON text, written as `floe … --json` writes it (pretty, keys in the command's order).
    Json(String),
    Svg(String),
}

impl Reply {
    /// A command's JSON with its exit code.
    pub fn json<T: Serialize>(value: &T, exit: u8) -> Reply {
        match serde_json::to_string_pretty(value) {
            Ok(mut v) => Reply {
                status: if exit == 2 {
                    StatusCode::BAD_REQUEST
                } else {
                    StatusCode::OK
                },
                body: Body::Json({
                    v.push('\n');
                    v
                }),
                exit: Some(exit),
            },
            Err(e) => Reply::internal(format!("the answer's JSON: {e}")),
        }
    }
    /// An SVG picture.
    pub fn svg(svg: String) -> Reply {
        Reply {
            status: StatusCode::OK,
            body: Body::Svg(svg),
            exit: Some(0),
        }
    }
    pub(crate) fn message(status: StatusCode, msg: String, exit: Option<u8>) -> Reply {
        Reply::with(status, &json!({ "error": msg }), exit)
    }
    fn with(status: StatusCode, v: &Value, exit: Option<u8>) -> Reply {
        let mut v = v.clone();
        if let Some(Value::String(e)) = v.get_mut("error") {
            *e = floe::request::words::for_query(e);
        }
        let mut text = serde_json::to_string_pretty(&v).unwrap_or_default();
        text.push('\n');
        Reply {
            status,
            body: Body::Json(text),
            exit,
        }
    }
    /// Bad input: 400, exit code 2.
    pub fn bad(msg: impl Into<String>) -> Reply {
        Reply::message(StatusCode::BAD_REQUEST, msg.into(), Some(2))
    }
    /// Bad input with more to say than a message (`extra`'s fields beside `error`): 400.
    pub fn bad_with(msg: String, extra: Value) -> Reply {
        let mut v = json!({ "error": msg });
        if let (Some(m), Value::Object(x)) = (v.as_object_mut(), extra) {
            m.extend(x);
        }
        Reply::with(StatusCode::BAD_REQUEST, &v, Some(2))
    }
    /// Every search slot taken and the line full: 503.
    pub fn busy(msg: String) -> Reply {
        Reply::message(StatusCode::SERVICE_UNAVAILABLE, msg, None)
    }
    /// A job name in use: 409.
    pub fn conflict(msg: String) -> Reply {
        Reply::message(StatusCode::CONFLICT, msg, None)
    }
    /// A request from a place the server does not answer: 403 (its message is for whoever
    /// runs the server, and names the server's own flags).
    pub fn forbidden(msg: String) -> Reply {
        let mut text = serde_json::to_string_pretty(&json!({ "error": msg })).unwrap_or_default();
        text.push('\n');
        Reply {
            status: StatusCode::FORBIDDEN,
            body: Body::Json(text),
            exit: None,
        }
    }
    /// A body that did not arrive in time: 408.
    pub fn timed_out(msg: String) -> Reply {
        Reply::message(StatusCode::REQUEST_TIMEOUT, msg, None)
    }
    /// A body larger than the server reads: 413, exit code 2.
    pub fn too_large(msg: String) -> Reply {
        Reply::message(StatusCode::PAYLOAD_TOO_LARGE, msg, Some(2))
    }
    /// A board, or an answer, larger than the server draws or plays: 422, exit code 2.
    pub fn too_big(msg: String) -> Reply {
        Reply::message(StatusCode::UNPROCESSABLE_ENTITY, msg, Some(2))
    }
    /// A bug in floe: 500, exit code 1.
    pub fn internal(msg: String) -> Reply {
        Reply::message(StatusCode::INTERNAL_SERVER_ERROR, msg, Some(1))
    }
    /// Nothing there: 404.
    pub fn missing(msg: String) -> Reply {
        Reply::message(StatusCode::NOT_FOUND, msg, None)
    }
    /// An error as the command line reports it: bad input is 400 (with the line and column
    /// of a syntax error), a failed self-check 500.
    pub fn error(e: &Error) -> Reply {
        match e {
            Error::Internal(_) => Reply::internal(e.to_string()),
            Error::Parse(p) => Reply::with(
                StatusCode::BAD_REQUEST,
                &json!({ "error": e.to_string(), "line": p.line, "col": p.col }),
                Some(2),
            ),
            _ => Reply::bad(e.to_string()),
        }
    }
    /// The status.
    #[cfg(test)]
    pub fn status(&self) -> StatusCode {
        self.status
    }
    /// The body's length in bytes.
    pub fn len(&self) -> usize {
        match &self.body {
            Body::Json(t) | Body::Svg(t) => t.len(),
        }
    }
    /// Refuses an answer larger than `max` bytes (`what` names it: "the picture").
    pub fn within(self, max: usize, what: &str) -> Reply {
        let len = self.len();
        if len <= max {
            return self;
        }
        Reply::too_big(format!(
            "{what} would be {}, more than the server sends ({} at most): ask for a smaller \
             board or fewer moves",
            human_size(len),
            human_size(max)
        ))
    }
}

/// Bytes in words: `64 KiB`, `8 MiB`, `113.4 MiB`.
pub(crate) fn human_size(n: usize) -> String {
    let (v, unit) = if n >= 1 << 30 {
        (n as f64 / (1u64 << 30) as f64, "GiB")
    } else if n >= 1 << 20 {
        (n as f64 / (1u64 << 20) as f64, "MiB")
    } else if n >= 1 << 10 {
        (n as f64 / 1024.0, "KiB")
    } else {
        return format!("{n} bytes");
    };
    if v.fract() == 0.0 {
        format!("{v} {unit}")
    } else {
        format!("{v:.1} {unit}")
    }
}

impl From<Error> for Reply {
    fn from(e: Error) -> Reply {
        Reply::error(&e)
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        let mut r = match self.body {
            Body::Json(text) => (
                self.status,
                [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
                text,
            )
                .into_response(),
            Body::Svg(s) => (
                self.status,
                [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
                s,
            )
                .into_response(),
        };
        let h = r.headers_mut();
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if let Some(e) = self.exit {
            h.insert("x-floe-exit", HeaderValue::from(i32::from(e)));
        }
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            h.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        r
    }
}
