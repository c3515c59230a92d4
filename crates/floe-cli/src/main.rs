//! `floe`: the command-line front end. Parses arguments, calls the library, prints.
//!
//! Exit codes (every command): 0 = answered (a solution, or a proof that there is none),
//! 1 = no answer within the limits, 2 = bad input or usage, 130 = interrupted (Ctrl-C),
//! 143 = stopped by SIGTERM (as Ctrl-C: the work stops and reports what it explored).

/// `println!` to standard output that ends the program quietly when the reader has gone
/// (`floe … | head`) instead of panicking.
macro_rules! outln {
    () => {
        $crate::out::emit(format_args!("\n"))
    };
    ($($t:tt)*) => {
        $crate::out::emit(format_args!("{}\n", format_args!($($t)*)))
    };
}

/// `print!` with the same care as [`outln!`].
macro_rules! outp {
    ($($t:tt)*) => {
        $crate::out::emit(format_args!($($t)*))
    };
}

mod alloc;
mod args;
mod cluster;
mod cmd;
mod out;
mod serve;

#[cfg(feature = "learn")]
use args::LearnCommand;
use args::{CensusCommand, Command, TableCommand};
use std::process::ExitCode;

/// Outcome of a command: the exit code is derived from it.
pub enum Done {
    /// An answer was printed.
    Answered,
    /// A limit stopped the work; what was explored has been printed.
    NoAnswer,
}

impl Done {
    /// `Answered` when the work was complete, else `NoAnswer`.
    pub fn when(complete: bool) -> Done {
        if complete {
            Done::Answered
        } else {
            Done::NoAnswer
        }
    }
}

/// Ctrl-C (or SIGTERM) asks the running work to stop: searches end within a moment and
/// report what they explored. A run still going a second later, or a second Ctrl-C, ends
/// the process at once (files are written whole or not at all, so none is left truncated).
fn stop_on_ctrl_c() {
    let _ = ctrlc::set_handler(|| {
        if floe::search::interrupted() {
            std::process::exit(interrupted_code());
        }
        floe::search::interrupt();
        std::thread::spawn(|| {
            std::thread::sleep(std::time::Duration::from_secs(1));
            eprintln!("floe: interrupted");
            std::process::exit(interrupted_code());
        });
    });
    // SIGTERM is told apart, for its exit code, then handled as Ctrl-C
    #[cfg(unix)]
    {
        extern "C" fn on_term(_: libc::c_int) {
            floe::search::note_terminated();
            // SAFETY: kill and getpid may be called in a signal handler
            unsafe {
                libc::kill(libc::getpid(), libc::SIGINT);
            }
        }
        // SAFETY: the handler only stores an atomic and sends a signal (both allowed in a
        // signal handler)
        unsafe {
            libc::signal(libc::SIGTERM, on_term as *const () as libc::sighandler_t);
        }
    }
}

/// A `--max-memory` above what the machine lets floe have is said before the run: the budget
/// is then that (`floe::mem::machine_limit`). The flag was checked by the parser already.
fn budget_above_the_machine() {
    let args: Vec<String> = std::env::args().collect();
    let given = args
        .iter()
        .enumerate()
        .find_map(|(i, a)| match a.strip_prefix("--max-memory") {
            Some("") => args.get(i + 1).cloned(),
            Some(v) => v.strip_prefix('=').map(str::to_string),
            None => None,
        });
    let Some(b) = given.and_then(|v| floe::mem::parse_memory(&v).ok()) else {
        return;
    };
    if let Some((m, what)) = floe::mem::machine_limit().filter(|&(m, _)| b > m) {
        eprintln!(
            "floe: --max-memory {} is more than this machine lets floe have ({}, {what}): the \
             budget is {}",
            out::human_bytes(b),
            out::human_bytes(m),
            out::human_bytes(m)
        );
    }
}

/// The exit code of a run stopped by a signal, as a shell gives it: 128 + the signal's
/// number (130 for Ctrl-C, SIGINT; 143 for SIGTERM).
fn interrupted_code() -> i32 {
    if floe::search::terminated() {
        143
    } else {
        130
    }
}

/// The worker threads the environment asks for (`RAYON_NUM_THREADS`), checked like an
/// argument: 0 (every core) or 1 to 256.
fn threads_from_env() -> Result<(), String> {
    match std::env::var("RAYON_NUM_THREADS") {
        Err(std::env::VarError::NotPresent) => Ok(()),
        Ok(v) if v.trim().parse::<u16>().is_ok_and(|n| n <= 256) => Ok(()),
        Ok(v) => Err(format!(
            "RAYON_NUM_THREADS={}: give 0 (every core) or 1 to 256 worker threads",
            v.chars().take(40).collect::<String>()
        )),
        Err(_) => Err("RAYON_NUM_THREADS is not text".into()),
    }
}

#[global_allocator]
static ALLOCATOR: alloc::Floe = alloc::Floe;

/// Under `ulimit -v`, one malloc arena for every thread: glibc otherwise maps 64 MiB of
/// address space for each thread's own arena, most of it unused, which the limit counts.
fn fewer_arenas_under_an_address_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if floe::mem::address_limit().is_some() {
        // SAFETY: mallopt with a documented parameter, before any thread is started
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
}

fn main() -> ExitCode {
    alloc::set_aside();
    alloc::plan_fault();
    fewer_arenas_under_an_address_limit();
    #[cfg(feature = "learn")]
    floe_learn::settle_threads();
    if let Err(e) = threads_from_env() {
        eprintln!("floe: {e}");
        return ExitCode::from(2);
    }
    if let Err(e) = floe::search::start_threads() {
        eprintln!("floe: {e}");
        return ExitCode::from(2);
    }
    if let Some((m, what)) = floe::mem::machine_limit().filter(|&(m, _)| m < floe::mem::MIN_BUDGET)
    {
        eprintln!(
            "floe: this machine lets floe have only {} ({what}): searches stop at once; raise \
             the limit (ulimit -v, the cgroup's memory.max) for anything but the smallest",
            out::human_bytes(m)
        );
    }
    let cli = match args::parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    budget_above_the_machine();
    // the terminal player reads Ctrl-C as a key and gives the terminal back itself
    if !matches!(cli.command, Command::Play(_)) {
        stop_on_ctrl_c();
    }
    let result = match cli.command {
        Command::Op(op) => op.run(),
        Command::Levels(a) => cmd::levels::run(a),
        Command::Games(a) => cmd::games::run(a),
        Command::Render(a) => cmd::render::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Convert(a) => cmd::convert::run(a),
        Command::Reach(a) => cmd::reach::run(a),
        Command::Profile(a) => cmd::profile::run(a),
        Command::Patterns(a) => cmd::patterns::run(a),
        Command::Table(TableCommand::Space(a)) => cmd::table::space(a),
        Command::Table(TableCommand::Reach(a)) => cmd::table::reach(a),
        Command::Table(TableCommand::Strip(a)) => cmd::table::strip(a),
        Command::Table(TableCommand::Patterns(a)) => cmd::table::patterns(a),
        Command::Census(CensusCommand::Pushpush(a)) => cmd::census::run(a),
        Command::Experiment(a) => cmd::experiment::run(a),
        Command::Image(a) => cmd::image::run(a),
        Command::Generate(a) => cmd::generate::run(a),
        Command::Hardest(a) => cmd::hardest::run(a),
        #[cfg(feature = "learn")]
        Command::Learn(LearnCommand::Data(a)) => cmd::learn::data(a),
        #[cfg(feature = "learn")]
        Command::Learn(LearnCommand::Train(a)) => cmd::learn::train(a),
        #[cfg(feature = "learn")]
        Command::Learn(LearnCommand::Eval(a)) => cmd::learn::eval(a),
        #[cfg(feature = "learn")]
        Command::Predict(a) => cmd::predict::run(a),
        #[cfg(not(feature = "learn"))]
        Command::Learn(_) | Command::Predict(_) => Err(cmd::without_learn()),
        Command::Demo(a) => cmd::demo::run(a),
        Command::Serve(a) => serve::run(a),
    };
    if floe::search::interrupted() {
        match result {
            Err(e) => eprintln!("floe: {e}"),
            Ok(_) => eprintln!("floe: interrupted"),
        }
        return ExitCode::from(interrupted_code() as u8);
    }
    match result {
        Ok(Done::Answered) => ExitCode::SUCCESS,
        Ok(Done::NoAnswer) => ExitCode::from(1),
        Err(e) => {
            eprintln!("floe: {e}");
            ExitCode::from(match e {
                floe::Error::Internal(_) => 1,
                _ => 2,
            })
        }
    }
}
