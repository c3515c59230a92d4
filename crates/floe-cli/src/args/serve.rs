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
    #[arg(long, value_name = "SIZE", value_parser = floe::mem::parse_memory)]
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
}
