//! The commands of the library's operations ([`floe::operations!`]): `floe <name> FILE
//! [its flags] [--json]`, one generic command each, whose text is the operation's own
//! ([`Operation::text`]) and whose JSON is the report. A shared `floe space` (`--workers`,
//! `--processes`, `--work-dir`) runs in `cmd::space`.

use super::{board_request, in_level};
use crate::args::op::{OpArgs, OpCommand};
use crate::out::{self, Spinner};
use crate::Done;
use floe::request::{Context, Naming, Operation};
use floe::Error;
use std::sync::Arc;

macro_rules! dispatch {
    ($($name:ident => $ty:path,)*) => {
        impl OpCommand {
            /// Runs the command.
            pub fn run(self) -> Result<Done, Error> {
                match self {
                    $(OpCommand::$name(a) => run(a),)*
                }
            }
        }
    };
}

floe::operations!(dispatch);

/// `floe <name>`: the level read, a spinner while it runs, the report as text or JSON, the
/// files it was asked for; exit code 2 when the report shows the input wrong.
fn run<O: Operation + clap::Args>(mut a: OpArgs<O>) -> Result<Done, Error> {
    if O::SHARED && a.cluster.active() {
        let mut op = a.request.clone();
        let limits = op.limits_mut().cloned().unwrap_or_default();
        return super::space::shared(&a.board, &limits, &a.cluster, a.json);
    }
    if let Some(what) = a.request.stdin() {
        if a.board.file.as_ref().is_some_and(|f| f.as_os_str() == "-") {
            return Err(Error::invalid(format!(
                "the level and {what} cannot both come from standard input"
            )));
        }
    }
    let req = board_request(&a.board)?;
    if !a.json {
        a.request.for_text();
    }
    let level = &req.level;
    let mut cx = Context {
        naming: Naming::Flags,
        note: Some(Arc::new(|what: &str| eprintln!("floe: {what}"))),
        ..Context::default()
    };
    let what = format!("{} of {}", O::NAME, level.name());
    let spinner = if O::COUNTS == "positions" {
        Spinner::showing(&mut cx.progress, &what, |p| {
            format!("{} positions", out::thousands(p.stats.states))
        })
    } else {
        let (bar, tally) = Spinner::counting(&what, O::COUNTS);
        cx.tally = tally;
        bar
    };
    let r = level
        .run(&a.request, &cx)
        .map_err(|e| in_level(level.name(), e));
    drop(spinner);
    let r = r?;
    if a.json {
        out::json(&r);
    } else {
        outp!("{}", a.request.text(&r, level));
    }
    if let Some(line) = a.request.write_files(&r, &cx)? {
        if !a.json {
            outln!("{line}");
        }
    }
    if let Some(why) = a.request.refused(&r) {
        return Err(Error::invalid(why));
    }
    Ok(Done::when(O::complete(&r)))
}
