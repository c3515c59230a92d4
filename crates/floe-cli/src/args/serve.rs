//! `floe serve`: the web server's flags. Every bound a client cannot raise is here.

use super::within;
use clap::Args;
use floe::search::parse_duration;
use std::net::SocketAddr;
use std::time::Duration;

/// `floe serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on. The default answers this machine only; give 0.0.0.0:PORT to
    /// answer others (there is no authentication).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    pub addr: SocketAddr,
    /// Port to listen on, on this machine only: `--port 9000` is `--addr 127.0.0.1:9000`.
    #[arg(long, value_name = "PORT", conflicts_with = "addr")]
    pub port: Option<u16>,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// Searches run at once (1 to 256; default: the number of cores). Others wait in line.
    #[arg(long, value_name = "N", value_parser = within(1, 256))]
    pub jobs: Option<usize>,
    /// Requests that may wait for a free search (0 to 10,000); beyond, the server answers
    /// 503 at once.
    #[arg(long, default_value_t = 64, value_name = "N", value_parser = within(0, 10_000))]
    pub queue: usize,
    /// The most positions one request may store, whatever it asks for.
    #[arg(long, default_value_t = 5_000_000, value_name = "N")]
    pub max_states: u64,
    /// The longest one request may run, whatever it asks for: seconds, or a number with ms,
    /// s, m or h.
    #[arg(long, default_value = "30s", value_name = "TIME", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Stop a request's work once the server holds this much memory (64M to 64T; default:
    /// three quarters of the memory available at the start).
    #[arg(
        long,
        value_name = "SIZE",
        value_parser = floe::mem::parse_memory,
        allow_hyphen_values = true
    )]
    pub max_memory: Option<u64>,
    /// The largest request body, in bytes (1,024 to 67,108,864).
    #[arg(long, default_value_t = 1 << 20, value_name = "BYTES", value_parser = within(1024, 1 << 26))]
    pub max_body: usize,
    /// Play sessions kept at once (the least recently used is dropped beyond).
    #[arg(long, default_value_t = 1024, value_name = "N", value_parser = within(1, 1_000_000))]
    pub sessions: usize,
    /// Memory all play sessions may hold for what their verdicts learned (the bounds that
    /// make later verdicts of a level fast); beyond it the least recently used sessions are
    /// dropped (64M to 64T).
    #[arg(long, default_value = "512M", value_name = "SIZE", value_parser = floe::mem::parse_memory)]
    pub session_memory: u64,
    /// Play sessions one client (one browser, or one `X-Floe-Client`) keeps at once; beyond,
    /// its own least recently used goes (1 to 1,000,000).
    #[arg(long, default_value_t = 32, value_name = "N", value_parser = within(1, 1_000_000))]
    pub client_sessions: usize,
    /// Hints and verdicts answered at once (1 to 256; default: the number of cores, at least
    /// 2). They have threads of their own: searches never take them.
    #[arg(long, value_name = "N", value_parser = within(1, 256))]
    pub play_jobs: Option<usize>,
    /// How long a client may take to send a request's headers or its body, and how long a
    /// kept-alive connection may stay silent (100ms to 1h).
    #[arg(long, default_value = "10s", value_name = "TIME", value_parser = read_timeout)]
    pub read_timeout: Duration,
    /// The most cells of a board the server draws or plays (16 to 10,000,000); a larger board
    /// is refused with 422.
    #[arg(long, default_value_t = 4096, value_name = "N", value_parser = within(16, 10_000_000))]
    pub max_cells: usize,
    /// The largest picture or play state the server sends (16K to 1G; K, M, G); a larger
    /// answer is refused with 422.
    #[arg(long, default_value = "8M", value_name = "SIZE", value_parser = response_size)]
    pub max_response: usize,
    /// A web origin besides the page's own that may call the API (`http://host:port`; may
    /// be given again). Requests from other sites' pages are refused with 403.
    #[arg(long, value_name = "ORIGIN", value_parser = origin)]
    pub allow_origin: Vec<String>,
    /// A level file whose levels' verdicts are prepared in the background when the server
    /// starts (Ice Tower maps: their first player is answered at once); may be given again.
    /// A file without a `Game:` line is read as the game that reads it.
    #[arg(long, value_name = "FILE")]
    pub warm: Vec<std::path::PathBuf>,
}

/// `--read-timeout`: a duration from 100 ms to an hour.
fn read_timeout(s: &str) -> Result<Duration, String> {
    let d = parse_duration(s)?;
    if d < Duration::from_millis(100) || d > Duration::from_secs(3600) {
        return Err(format!("'{s}' is out of range: from 100ms to 1h"));
    }
    Ok(d)
}

/// `--max-response`: bytes, or a number with K, M or G, from 16 KiB to 1 GiB.
fn response_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let x: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a size (e.g. 8M, 512K)"))?;
    let scale = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1.0,
        "K" | "KB" | "KIB" => 1024.0,
        "M" | "MB" | "MIB" => 1024.0 * 1024.0,
        "G" | "GB" | "GIB" => 1024.0 * 1024.0 * 1024.0,
        u => return Err(format!("unknown unit '{u}' in '{s}': use K, M or G")),
    };
    let bytes = x * scale;
    if !bytes.is_finite() || !(16_384.0..=1_073_741_824.0).contains(&bytes) {
        return Err(format!("'{s}' is out of range: from 16K to 1G"));
    }
    Ok(bytes as usize)
}

/// `--allow-origin`: `http://` or `https://`, a host, and perhaps a port, nothing else.
fn origin(s: &str) -> Result<String, String> {
    let bad = || {
        format!(
            "'{s}' is not a web origin: give the scheme, the host and the port if any, as a \
             browser sends it (http://example.org:8000)"
        )
    };
    let rest = s
        .strip_prefix("http://")
        .or_else(|| s.strip_prefix("https://"))
        .ok_or_else(bad)?;
    let ok = !rest.is_empty()
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-.:[]".contains(c));
    if !ok {
        return Err(bad());
    }
    Ok(s.to_ascii_lowercase())
}
