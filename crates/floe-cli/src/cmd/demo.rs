//! `floe demo`: every bundled Zelda room solved, the figures printed; no files needed.

use super::reach::reach_grid;
use crate::args::DemoArgs;
use crate::out::{self, human_time, thousands};
use crate::Done;
use floe::game::Status;
use floe::games::ice::Ice;
use floe::grid::Push;
use floe::ops::{Request, SolveOptions};
use floe::search::Limits;
use floe::Error;
use serde::Serialize;

/// The bundled Zelda rooms, compiled in so that `floe demo` needs no files.
const ZELDA: &str = include_str!("../../../../levels/zelda.txt");

#[derive(Serialize)]
struct DemoRow {
    level: String,
    rows: usize,
    cols: usize,
    blocks: usize,
    pushes: u64,
    bfs_block_changes: u64,
    bfs_states: u64,
    bfs_seconds: f64,
    difficulty: u64,
    difficulty_pushes: u64,
    difficulty_block_changes: u64,
    difficulty_seconds: f64,
    states: Option<u64>,
    space_seconds: Option<f64>,
    moves: Vec<Push>,
}

/// `floe demo`.
pub fn run(a: DemoArgs) -> Result<Done, Error> {
    let file = Request::from_text(ZELDA, "levels/zelda.txt").read()?;
    let mut rows = Vec::new();
    for l in &file.levels {
        let level = l
            .typed::<Ice>()
            .expect("the bundled rooms are ice block levels");
        let name = l.name().to_string();
        let solve = |algorithm: &str| l.solve(&SolveOptions::default().algorithm(algorithm));
        let bfs = solve("bfs")?;
        let dif = solve("difficulty")?;
        if bfs.status != Status::Solved || dif.status != Status::Solved {
            return Err(Error::Internal(format!(
                "bundled level {name} did not solve"
            )));
        }
        // The full state space of MCTOD takes seconds, not milliseconds; the demo skips it.
        let space = (level.block_count() <= 3)
            .then(|| l.space(&Limits::none()))
            .transpose()?;
        rows.push(DemoRow {
            level: name,
            rows: level.rows(),
            cols: level.cols(),
            blocks: level.block_count(),
            pushes: bfs.length.unwrap_or(0),
            bfs_block_changes: bfs.difficulty_part("block_changes").unwrap_or(0),
            bfs_states: bfs.states,
            bfs_seconds: bfs.seconds,
            difficulty: dif.difficulty_u64().unwrap_or(0),
            difficulty_pushes: dif.length.unwrap_or(0),
            difficulty_block_changes: dif.difficulty_part("block_changes").unwrap_or(0),
            difficulty_seconds: dif.seconds,
            states: space.as_ref().map(|e| e.states),
            space_seconds: space.as_ref().map(|e| e.seconds),
            moves: bfs.moves_of(),
        });
    }
    if a.json {
        out::json(&rows);
        return Ok(Done::Answered);
    }
    outln!(
        "The ice block rooms of The Legend of Zelda (Kluiver 2020, Appendix A), solved exactly."
    );
    outln!(
        "Fewest pushes by breadth-first search; least difficulty = pushes + 5 × block changes.\n"
    );
    outln!(
        "{:<8} {:>9} {:>6} {:>7} {:>9} {:>10}   {:<24} {:>9}",
        "room",
        "rows×cols",
        "blocks",
        "pushes",
        "states",
        "bfs time",
        "least difficulty",
        "time"
    );
    for r in &rows {
        outln!(
            "{:<8} {:>9} {:>6} {:>7} {:>9} {:>10}   {:<24} {:>9}",
            r.level,
            format!("{}×{}", r.rows, r.cols),
            r.blocks,
            r.pushes,
            r.states.map_or("-".into(), thousands),
            human_time(std::time::Duration::from_secs_f64(r.bfs_seconds)),
            format!(
                "{} = {} + 5×{}",
                r.difficulty, r.difficulty_pushes, r.difficulty_block_changes
            ),
            human_time(std::time::Duration::from_secs_f64(r.difficulty_seconds)),
        );
    }
    outln!("\n(states: all positions reachable from the start; MCTOD's space: `floe space levels/zelda.txt --level MCTOD`)");
    let r = floe::analysis::ice::reach::reach_empty(5, 5, 3, &Limits::none())?;
    outln!("\nFewest pushes to rest a block on each cell of an empty 5×5 board, 3 blocks starting top left:");
    outp!("{}", reach_grid(&r));
    super::census::demo()?;
    outln!("\nTry: floe solve levels/zelda.txt --level TPIBC2 --algo difficulty --boards");
    outln!(
        "     floe census pushpush --rows 5 --cols 5   (every 5×5 PushPush board, a few minutes)"
    );
    outln!(
        "     floe play levels/zelda.txt --level TPIBC1   (play it in the terminal; h for a hint)"
    );
    outln!("     floe solve levels/zelda.txt --level TPIBC1 --svg tpibc1.svg --animate");
    outln!("     floe image levels/images/smiley.txt   (a picture drawn with ice blocks)");
    Ok(Done::Answered)
}
