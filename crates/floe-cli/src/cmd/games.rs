//! `floe games`: the games floe knows, from the registry.

use crate::args::GamesArgs;
use crate::out;
use crate::Done;
use floe::game::{Keys, ParamKind};
use floe::games;
use floe::ops::AnyGame;
use floe::Error;

/// `floe games`.
pub fn run(a: GamesArgs) -> Result<Done, Error> {
    let games: Vec<&'static dyn AnyGame> = match &a.game {
        Some(name) => vec![games::find(name)?],
        None => games::all().to_vec(),
    };
    if a.json {
        let infos: Vec<_> = games.iter().map(|g| g.info()).collect();
        out::json(&infos);
        return Ok(Done::Answered);
    }
    for (i, g) in games.iter().enumerate() {
        let info = g.info();
        if i > 0 {
            outln!();
        }
        outln!("{} — {}", info.name, info.about);
        if !info.aliases.is_empty() {
            outln!("  also called: {}", info.aliases.join(", "));
        }
        outln!("  rules: {}", info.rules);
        for p in info.params {
            let values = match &p.kind {
                ParamKind::Int { min, max } => format!("{min}–{max}"),
                ParamKind::Flag => "a flag".to_string(),
                ParamKind::Choice(c) => c.join("|"),
            };
            outln!("  --{} ({values}): {}", p.name, p.about);
        }
        outln!("  --algo (the first is the default):");
        for al in info.algorithms {
            outln!("    {:<10} {}", al.name, al.about);
        }
        outln!(
            "    {:<10} Kluiver's randomised solvers (seeded)",
            "random, mc"
        );
        let c = info.capabilities;
        let mut can = Vec::new();
        if let Some(d) = c.difficulty {
            can.push(format!("difficulty ({d})"));
        }
        if c.block_changes {
            can.push("block changes (--factor)".to_string());
        }
        if c.perfect_hash {
            can.push("perfect hash (space and analyze keep one bit per position)".to_string());
        }
        can.push(
            match c.keys {
                Keys::SelectBlock => "play: select a block, arrows push it",
                Keys::Walk => "play: the arrows move the player",
                Keys::PickMove => "play: tab picks a legal move, enter plays it",
            }
            .to_string(),
        );
        outln!("  formats: {}; {}", info.formats.join(", "), can.join("; "));
        if let Some(l) = c.learning {
            outln!(
                "  learning (Python): floe/{}-v0, planes {}; actions {}",
                l.env,
                l.planes.join(", "),
                l.actions
            );
        }
    }
    Ok(Done::Answered)
}
