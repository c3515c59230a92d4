//! The commands on a level of any game besides the library's operations (`args::op`):
//! levels, games, render, play, convert.

use super::{GameArgs, LevelArgs, LimitArgs};
use clap::Args;
use std::path::PathBuf;

/// `floe levels`.
#[derive(Args, Debug)]
pub struct LevelsArgs {
    /// Level file (`-` reads standard input).
    pub file: PathBuf,
    /// The game and its parameters.
    #[command(flatten)]
    pub game: GameArgs,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe games`.
#[derive(Args, Debug)]
pub struct GamesArgs {
    /// Only this game (a name or an alias).
    pub game: Option<String>,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The level.
    #[command(flatten)]
    pub level: LevelArgs,
    /// Where to write the SVG (default: standard output).
    #[arg(long, short = 'o', alias = "output", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// How it is drawn.
    #[command(flatten)]
    pub render: floe::request::Render,
    /// One JSON document on standard output (needs -o).
    #[arg(long)]
    pub json: bool,
}

/// `floe play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The level.
    #[command(flatten)]
    pub level: LevelArgs,
    /// Play these keys without a terminal and print the end state, e.g. "tab right u h"
    /// (names: up down left right tab backtab space enter u ctrl-z r ctrl-y R h H q).
    #[arg(long, value_name = "KEYS", conflicts_with = "script")]
    pub keys: Option<String>,
    /// Like --keys, with the keys read from a file (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Limits of each solver question (default 2,000,000 positions and 2 s).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// With --keys or --script: one JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `floe convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Input level file (`-`: standard input).
    pub file: PathBuf,
    /// The game and its parameters (and the input format).
    #[command(flatten)]
    pub game: GameArgs,
    /// Output format (ice blocks: floe or kluiver; default: the game's own).
    #[arg(long, value_name = "FORMAT")]
    pub to: Option<String>,
    /// Convert only this level (number or title).
    #[arg(long, short = 'l', value_name = "N|NAME")]
    pub level: Option<String>,
    /// Write here instead of standard output.
    #[arg(long, short = 'o', alias = "output", value_name = "FILE")]
    pub out: Option<PathBuf>,
}
