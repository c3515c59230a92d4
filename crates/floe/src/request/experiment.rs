//! `experiment`: Monte Carlo experiments on challenge setups of the solitaire puzzles.

use super::value::{number, parsed, some, switch, within};
use super::{conflict, fields, missing, serde_text, Range};
use crate::games::solitaire::Kind;
use crate::generate::{Setup, Size};
use serde::Deserialize;
use std::str::FromStr;

/// BoxOff's rows, columns and colours by default.
pub const BOXOFF: (usize, usize, usize) = (4, 6, 4);
/// Pretzel's suits by default.
pub const SUITS: usize = 4;
/// Pretzel's ranks by default.
pub const RANKS: &str = "4";
/// The setup by default.
pub const SETUP: Setup = Setup::Shuffled;
/// Challenges per setup and size by default.
pub const DEFAULT_CHALLENGES: u64 = 1000;
/// Trials by default.
pub const DEFAULT_TRIALS: u32 = 10;
/// Challenges per setup and size.
pub const CHALLENGES: Range = Range::new(1, 100_000_000);
/// Trials of a run.
pub const TRIALS: Range = Range::new(1, 1_000_000);
/// The random player's horizon.
pub const HORIZON: Range = Range::new(1, 10_000_000);

/// `experiment GAME`: the game, its size, the setups and the run.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct Experiment {
    /// The game: boxoff, pretzel or fujisan.
    pub game: String,
    /// BoxOff: rows h.
    #[cfg_attr(feature = "cli", arg(long, value_name = "H", default_value_t = BOXOFF.0))]
    pub rows: usize,
    /// BoxOff: columns w.
    #[cfg_attr(feature = "cli", arg(long, value_name = "W", default_value_t = BOXOFF.1))]
    pub cols: usize,
    /// BoxOff: colours c.
    #[cfg_attr(
        feature = "cli",
        arg(long, visible_alias = "colours", value_name = "C", default_value_t = BOXOFF.2)
    )]
    pub colors: usize,
    /// Pretzel: suits k.
    #[cfg_attr(feature = "cli", arg(long, value_name = "K", default_value_t = SUITS))]
    pub suits: usize,
    /// Pretzel: ranks n: one number, a list (4,6,8) or a range (2-9) for a sweep.
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "N", default_value = RANKS, value_parser = parse_ranks)
    )]
    #[serde(deserialize_with = "serde_text::parsed")]
    pub ranks: Ranks,
    /// The setup: shuffled, ltiles (BoxOff), sequential, banded (Pretzel), piecepack (the
    /// authors' procedure), piecepack-spec (the spec's wording), engraved, dominoes (Fujisan).
    #[cfg_attr(
        feature = "cli",
        arg(
            long,
            value_name = "NAME",
            default_value_t = SETUP,
            conflicts_with = "compare"
        )
    )]
    #[serde(deserialize_with = "serde_text::parsed")]
    pub setup: Setup,
    /// Run several setups and test them against each other (t-tests on the trials,
    /// Kruskal–Wallis on solution lengths); `all` for every setup of the game.
    #[cfg_attr(feature = "cli", arg(long, value_name = "A,B,…", value_parser = parse_setups))]
    #[serde(deserialize_with = "serde_text::parsed_opt")]
    pub compare: Option<SetupList>,
    /// Challenges per setup and size.
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "N", default_value_t = DEFAULT_CHALLENGES, value_parser = CHALLENGES.u64())
    )]
    pub challenges: u64,
    /// Trials: groups of consecutive challenges for the spread and the t-tests.
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "T", default_value_t = DEFAULT_TRIALS, value_parser = TRIALS.u32())
    )]
    pub trials: u32,
    /// Seed: the same seed gives the same challenges and the same numbers.
    #[cfg_attr(feature = "cli", arg(long, value_name = "S", default_value_t = super::solve::SEED))]
    pub seed: u64,
    /// The random player plays on through repeated positions up to M moves. Without it, it
    /// gives up at the first move onto a position already visited in the game, as the
    /// authors' published programs do (no horizon).
    #[cfg_attr(
        feature = "cli",
        arg(long, visible_alias = "playout-cap", value_name = "M", value_parser = HORIZON.u32())
    )]
    pub random_horizon: Option<u32>,
    /// Enumerate every deal instead of sampling (Pretzel with few cards): the exact
    /// solvable fraction.
    #[cfg_attr(feature = "cli", arg(long, conflicts_with_all = ["challenges", "trials", "svg"]))]
    pub exact: bool,
    /// Only generate: print the first N challenges of the run (the ones it would solve) in
    /// the text format, or write them as files into the directory -o DIR.
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "N", conflicts_with_all = ["compare", "exact", "svg"])
    )]
    pub generate: Option<u64>,
}

impl Default for Experiment {
    fn default() -> Experiment {
        Experiment {
            game: String::new(),
            rows: BOXOFF.0,
            cols: BOXOFF.1,
            colors: BOXOFF.2,
            suits: SUITS,
            ranks: parse_ranks(RANKS).unwrap_or(Ranks(Vec::new())),
            setup: SETUP,
            compare: None,
            challenges: DEFAULT_CHALLENGES,
            trials: DEFAULT_TRIALS,
            seed: super::solve::SEED,
            random_horizon: None,
            exact: false,
            generate: None,
        }
    }
}

impl Experiment {
    /// The sizes it runs on `game`: BoxOff's rows, columns and colours; Pretzel's suits with
    /// each number of ranks; Fujisan's mountain.
    pub fn sizes(&self, game: Kind) -> Vec<Size> {
        match game {
            Kind::BoxOff => vec![Size::boxoff(self.rows, self.cols, self.colors)],
            Kind::Pretzel => self
                .ranks
                .0
                .iter()
                .map(|&ranks| Size::Pretzel {
                    suits: self.suits,
                    ranks,
                })
                .collect(),
            Kind::Fujisan => vec![Size::Fujisan],
        }
    }
    /// The setups it runs on `game`: those of `compare` (every setup of the game for
    /// `all`), else the setup.
    pub fn setups(&self, game: Kind) -> Vec<Setup> {
        match &self.compare {
            None => vec![self.setup],
            Some(SetupList(None)) => Setup::of(game).to_vec(),
            Some(SetupList(Some(v))) => v.clone(),
        }
    }
}

fields!(Experiment {
    game: game_name,
    rows: number,
    cols: number,
    colors: number,
    suits: number,
    ranks: parse_ranks,
    setup: parsed,
    compare: some(parse_setups),
    challenges: within(CHALLENGES),
    trials: within(TRIALS),
    seed: number,
    random_horizon: some(within(HORIZON)),
    exact: switch,
    generate: some(number),
}; check exclusive);

/// A game's name (not a flag).
fn game_name(s: &str) -> Result<String, String> {
    if s.starts_with('-') {
        return Err("a game's name: boxoff, pretzel or fujisan".into());
    }
    Ok(s.to_string())
}

/// The game is required; some parameters exclude others.
fn exclusive(e: &Experiment, given: &[String]) -> Result<(), String> {
    if e.game.is_empty() {
        return Err(missing(&["game"]));
    }
    let has = |n: &str| given.iter().any(|g| g == n);
    for (a, b) in [
        ("setup", "compare"),
        ("exact", "challenges"),
        ("exact", "trials"),
        ("generate", "compare"),
        ("generate", "exact"),
    ] {
        if has(a) && has(b) {
            return Err(conflict(a, b));
        }
    }
    Ok(())
}

/// Ranks of a Pretzel run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranks(pub Vec<usize>);

impl FromStr for Ranks {
    type Err = String;
    fn from_str(s: &str) -> Result<Ranks, String> {
        parse_ranks(s)
    }
}

/// Parses `4`, `4,6,8` or `2-9`.
pub fn parse_ranks(s: &str) -> Result<Ranks, String> {
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = || format!("'{part}' is not a number of ranks or a range like 2-9");
        if let Some((a, b)) = part.split_once(['-', '.']) {
            let a: usize = a.trim().parse().map_err(|_| bad())?;
            let b: usize = b
                .trim_start_matches('.')
                .trim()
                .parse()
                .map_err(|_| bad())?;
            if a > b {
                return Err(bad());
            }
            out.extend(a..=b);
        } else {
            out.push(part.parse().map_err(|_| bad())?);
        }
    }
    if out.is_empty() {
        return Err("no ranks given".into());
    }
    out.dedup();
    Ok(Ranks(out))
}

/// Setups of `compare`: `None` for all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupList(pub Option<Vec<Setup>>);

impl FromStr for SetupList {
    type Err = String;
    fn from_str(s: &str) -> Result<SetupList, String> {
        parse_setups(s)
    }
}

/// Parses `all` or a comma-separated list of setups.
pub fn parse_setups(s: &str) -> Result<SetupList, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(SetupList(None));
    }
    let v: Vec<Setup> = s
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    if v.is_empty() {
        return Err("no setups given".into());
    }
    Ok(SetupList(Some(v)))
}
