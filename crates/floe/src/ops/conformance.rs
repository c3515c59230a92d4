//! The conformance check every registered game passes on the sample level it brings
//! (`Info::sample`, a file in its folder), as OpenSpiel's `basic_tests` run on every game:
//! the level reads and writes back the same; every move the engine lists is legal by the
//! game's own rules ([`Game::apply`](crate::game::Game::apply)); a breadth-first search over
//! those moves played by the rules (the brute-force model) finds the sample's fewest moves,
//! and so does every exact algorithm the game offers, each answer replayed by `verify`;
//! `space`, `analyze`, `play` (the hints to the end), the scene and the text of a position
//! work. A new game runs it first: `cargo test -p floe --lib conformance`.

use super::level::Level;
use super::solve::SolveOptions;
use super::step::State;
use super::AnyGame;
use super::Request;
use crate::play::Action;
use crate::search::Limits;
use std::collections::{HashSet, VecDeque};

/// The most positions the brute-force model visits on a sample (a sample is small).
const MODEL_MOST: usize = 200_000;

/// What `game` fails of the conformance check on its sample level, in words (empty: it
/// conforms).
pub fn check(game: &'static dyn AnyGame) -> Vec<String> {
    let sample = &game.info().sample;
    check_level(game, sample.text, sample.fewest)
}

/// What `game` fails of the conformance check on the level `text`, solved in `fewest`
/// moves at the fewest.
pub fn check_level(game: &'static dyn AnyGame, text: &str, fewest: u64) -> Vec<String> {
    let info = game.info();
    let name = info.name;
    let mut out = Vec::new();
    let mut fail = |what: String| out.push(format!("{name}: {what}"));
    let level = match Request::from_text(text, format!("{name} sample"))
        .game(Some(name))
        .resolve()
    {
        Ok(r) => r.level,
        Err(e) => {
            fail(format!("its sample does not read: {e}"));
            return out;
        }
    };
    if level.game().info().name != name {
        fail(format!("its sample reads as {}", level.game().info().name));
    }
    // the file round trip: written, read back, written again the same
    match level.to_text(None) {
        Ok(text) => match Request::from_text(text.clone(), "written")
            .game(Some(name))
            .resolve()
            .and_then(|r| r.level.to_text(None))
        {
            Ok(again) if again == text => {}
            Ok(again) => fail(format!(
                "written and read back it changes:\n{text}\n{again}"
            )),
            Err(e) => fail(format!("its written text does not read back: {e}")),
        },
        Err(e) => fail(format!("it does not write: {e}")),
    }
    // the brute-force model: every listed move played by the rules, breadth first
    match model_fewest(&level) {
        Ok(Some(n)) if n == fewest => {}
        Ok(found) => fail(format!(
            "the rules' breadth-first search finds {found:?} moves, the sample says {fewest}"
        )),
        Err(e) => fail(e),
    }
    // every exact algorithm finds the fewest moves, and its answer replays
    for algo in info.algorithms {
        let o = SolveOptions {
            algorithm: Some(algo.name.to_string()),
            limits: Limits::none().max_states(5_000_000),
            ..SolveOptions::default()
        };
        match level.solve(&o) {
            Ok(r) if r.length == Some(fewest) => match level.verify(&r.moves, None) {
                Ok(v) if v.valid && v.solved => {}
                Ok(v) => fail(format!("{}'s answer does not replay: {v:?}", algo.name)),
                Err(e) => fail(format!("{}'s answer does not replay: {e}", algo.name)),
            },
            // the least-difficulty search counts block changes, not moves: it solves
            Ok(r) if algo.name == "difficulty" && r.solved => {}
            Ok(r) => fail(format!(
                "{} finds {:?} moves ({}), the sample says {fewest}",
                algo.name,
                r.length,
                r.status.name()
            )),
            Err(e) => fail(format!("{} fails: {e}", algo.name)),
        }
    }
    let limits = Limits::none().max_states(5_000_000);
    match level.space(&limits) {
        Ok(s) if s.complete && s.states >= 1 && u64::from(s.depth) >= fewest => {}
        Ok(s) => fail(format!(
            "space: {} positions to depth {} (complete: {})",
            s.states, s.depth, s.complete
        )),
        Err(e) => fail(format!("space fails: {e}")),
    }
    if let Err(e) = level.analyze(&limits) {
        fail(format!("analyze fails: {e}"));
    }
    // a play session follows its hints to the end in the fewest moves
    match level.play() {
        Ok(mut s) => {
            let mut n = 0;
            while !s.is_solved() && n <= fewest {
                s.apply(Action::FollowHint);
                n += 1;
            }
            if !s.is_solved() || s.move_count() as u64 != fewest {
                fail(format!(
                    "play: the hints end after {} moves, solved: {}",
                    s.move_count(),
                    s.is_solved()
                ));
            }
        }
        Err(e) => fail(format!("play fails: {e}")),
    }
    let scene = level.scene();
    if scene.rows == 0 || scene.cols == 0 {
        fail("its scene is empty".into());
    }
    out
}

/// The fewest moves from the start by a breadth-first search over the engine's listed
/// moves, each played by the game's rules (an error names a listed move the rules refuse);
/// `None` when no solved position is reached.
fn model_fewest(level: &Level) -> Result<Option<u64>, String> {
    let start = level.start().map_err(|e| format!("no start: {e}"))?;
    let mut seen: HashSet<String> = HashSet::new();
    seen.insert(start.key().to_string());
    let mut queue: VecDeque<State> = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        if s.solved() {
            return Ok(Some(s.depth() as u64));
        }
        let moves = s
            .moves()
            .map_err(|e| format!("the moves of a position: {e}"))?;
        for m in moves {
            let next = s.play(&m).map_err(|e| {
                format!(
                    "the engine lists {m}, the rules refuse it: {e}\n{}",
                    s.text()
                )
            })?;
            if seen.insert(next.key().to_string()) {
                if seen.len() > MODEL_MOST {
                    return Err(format!("the sample has over {MODEL_MOST} positions"));
                }
                queue.push_back(next);
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_registered_game_conforms() {
        let failures: Vec<String> = crate::games::all()
            .iter()
            .flat_map(|&g| super::check(g))
            .collect();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn the_check_sees_a_wrong_figure_and_a_level_of_another_game() {
        let ice = crate::games::find("ice").unwrap();
        let sample = ice.info().sample.text;
        // one move more than the fewest: the model and every search say otherwise
        let said = super::check_level(ice, sample, 3).join("\n");
        assert!(
            said.contains("breadth-first search finds Some(2) moves"),
            "{said}"
        );
        assert!(said.contains("bfs finds Some(2) moves"), "{said}");
        // a level that cannot be solved
        let said = super::check_level(ice, "$#.\n", 1).join("\n");
        assert!(said.contains("finds None moves"), "{said}");
        // text that does not read
        let said = super::check_level(ice, "Game: ice\n$x.\n", 1).join("\n");
        assert!(said.contains("does not read"), "{said}");
    }
}
