//! `floe analyze`: reversibility and dead ends of a level's whole state graph, any game.

use super::{board_request, count, in_level};
use crate::args::BoardJobArgs;
use crate::out::{self, human_bytes, human_time, thousands, Spinner};
use crate::Done;
use floe::Error;

/// `floe analyze`.
pub fn run(a: BoardJobArgs) -> Result<Done, Error> {
    let req = board_request(&a.board)?;
    let mut limits = a.limits.limits();
    let spinner = Spinner::attach(&mut limits, &format!("analysing {}", req.level.name()));
    let mut r = req
        .level
        .analyze(&limits)
        .map_err(|e| in_level(req.level.name(), e))?;
    drop(spinner);
    r.peak_rss_bytes = out::peak_rss_bytes();
    let info = req.game.info();
    if a.json {
        out::json(&r);
    } else {
        outln!("{}: {}", req.level.name(), req.level.describe());
        match &r.figures {
            None => outln!(
                "no answer: stopped {} after storing {} positions (the analysis needs them all)",
                out::by(r.limit.unwrap_or("limit")),
                thousands(r.states_stored.unwrap_or(0))
            ),
            Some(f) => {
                outln!(
                    "{} positions, {} moves between them; the farthest is {} from the start",
                    thousands(f.states),
                    thousands(f.moves),
                    count(f.depth as u64, info.move_word, info.moves_word())
                );
                outln!(
                    "{} (largest {}, the start's {}); {} with no way out",
                    count(
                        f.sccs,
                        "strongly connected component",
                        "strongly connected components"
                    ),
                    thousands(f.largest_scc),
                    thousands(f.start_scc_size),
                    count(f.sink_sccs, "component", "components")
                );
                outln!(
                    "entirely reversible: {}",
                    if f.entirely_reversible { "yes" } else { "no" }
                );
                outln!(
                    "irreversible moves: {} of {}; undone by one move: {}",
                    thousands(f.irreversible_moves),
                    thousands(f.moves),
                    thousands(f.directly_reversible_moves)
                );
                outln!("dead ends (no move at all): {}", thousands(f.dead_ends));
                outln!(
                    "solvable positions: {} of {} ({} can no longer be solved){}",
                    thousands(f.solvable_states),
                    thousands(f.states),
                    thousands(f.unsolvable_states),
                    if f.solvable_from_start {
                        ""
                    } else {
                        "; the start itself cannot be solved"
                    }
                );
            }
        }
        outln!(
            "{}{}",
            human_time(std::time::Duration::from_secs_f64(r.seconds)),
            r.peak_rss_bytes.map_or(String::new(), |b| format!(
                ", peak memory {}",
                human_bytes(b)
            ))
        );
    }
    Ok(Done::when(r.complete))
}
