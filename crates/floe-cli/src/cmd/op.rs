//! The commands of the library's operations ([`floe::operations!`]): `floe <name> FILE
//! [its flags] [--json]`, one generic command each, whose text is the report's own and
//! whose JSON is the report.

use super::{in_level, request};
use crate::args::op::{OpArgs, OpCommand};
use crate::out::{self, Spinner};
use crate::Done;
use floe::request::{Context, Operation};
use floe::Error;

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

/// `floe <name>`: the level read, a spinner while it runs, the report as text or JSON.
fn run<O: Operation + clap::Args>(mut a: OpArgs<O>) -> Result<Done, Error> {
    let req = request(&a.level)?;
    if !a.json {
        a.request.for_text();
    }
    let level = &req.level;
    let mut cx = Context::default();
    let spinner = Spinner::showing(
        &mut cx.progress,
        &format!("{} of {}", O::NAME, level.name()),
        |p| format!("{} positions", out::thousands(p.stats.states)),
    );
    let r = level
        .run(&a.request, &cx)
        .map_err(|e| in_level(level.name(), e))?;
    drop(spinner);
    if a.json {
        out::json(&r);
    } else {
        outln!("{r}");
    }
    Ok(Done::when(O::complete(&r)))
}
