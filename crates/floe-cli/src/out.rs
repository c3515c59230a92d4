//! Printing helpers: JSON, progress, numbers, boards, memory.

use floe::search::{Limits, Progress, Tally};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

/// Writes to standard output. When the reader has gone (`floe … | head`) the program ends
/// quietly with status 0; any other write error ends it with status 2.
pub fn emit(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("floe: cannot write to standard output: {e}");
        std::process::exit(2);
    }
}

/// Prints one JSON document on standard output.
pub fn json<T: Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(s) => outln!("{s}"),
        Err(e) => eprintln!("floe: cannot write JSON: {e}"),
    }
}

/// A spinner on standard error while a search runs, only when standard error is a terminal.
pub struct Spinner(Option<ProgressBar>);

impl Spinner {
    /// Attaches a spinner (if standard error is a terminal) to `limits`.
    pub fn attach(limits: &mut Limits, what: &str) -> Spinner {
        Spinner::showing(&mut limits.progress, what, |p| {
            format!(
                "{} states, depth {}",
                thousands(p.stats.states),
                p.stats.depth
            )
        })
    }

    /// A spinner (if standard error is a terminal) fed by the progress callback `slot`,
    /// whose snapshots `say` puts in words.
    pub fn showing(
        slot: &mut Option<floe::search::ProgressFn>,
        what: &str,
        say: impl Fn(&Progress) -> String + Send + Sync + 'static,
    ) -> Spinner {
        if !std::io::stderr().is_terminal() {
            return Spinner(None);
        }
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix} {msg} [{elapsed}]")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_prefix(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        let b = bar.clone();
        *slot = Some(Arc::new(move |p: &Progress| b.set_message(say(p))));
        Spinner(Some(bar))
    }
}

impl Spinner {
    /// A bar (if standard error is a terminal) fed by the [`Tally`] it returns: `what` on its
    /// left, `unit` after the figures (`levels`).
    pub fn counting(what: &str, unit: &str) -> (Spinner, Option<Tally>) {
        if !std::io::stderr().is_terminal() {
            return (Spinner(None), None);
        }
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{prefix} {bar:30} {pos}/{len} {msg} [{elapsed}]")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_prefix(what.to_string());
        bar.set_message(unit.to_string());
        let b = bar.clone();
        let tally = Tally::new(move |done, total| {
            if let Some(t) = total {
                b.set_length(t);
            }
            b.set_position(done);
        });
        (Spinner(Some(bar)), Some(tally))
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

pub use floe::render::thousands;

pub use floe::say::human_time;

pub use floe::mem::human_bytes;

/// How a limit named `limit` stopped the work, after "stopped" (the library's words).
pub use floe::search::stopped_by as by;

pub use floe::mem::write_whole as write_file;

/// Peak resident memory of this process, if known.
pub fn peak_rss_bytes() -> Option<u64> {
    floe::mem::peak_resident_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_numbers() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_time(Duration::from_micros(250)), "250 µs");
        assert_eq!(human_time(Duration::from_millis(12)), "12.0 ms");
        assert_eq!(human_time(Duration::from_secs(3)), "3.00 s");
    }
}
