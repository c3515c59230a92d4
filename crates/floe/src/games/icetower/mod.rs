//! Ice Tower, 氷塔 (spec: `icetower.md`): push ice into fires until every fire is out.
//!
//! - [`level`]: the level as data ([`Tower`], [`Tile`], [`Block`]) and the community's map
//!   notation.
//! - [`rules`]: the rules on a plain grid: one push at a time, the replay that names the
//!   first illegal push, and a plain [`Puzzle`](crate::search::Puzzle) (also the only search
//!   for arrows and dispensers, whose semantics it defines).
//! - [`engine`]: the fast engine for static levels: compact positions, row and column masks,
//!   bit-parallel walking; implements [`Puzzle`](crate::search::Puzzle).
//! - [`prune`]: dead positions (frozen blocks, fires out of reach, too few blocks) and the
//!   admissible lower bound (matching distances, line cover).
//! - `stoppers` (private): rule 5 of the bound, golden ice's stoppers, asked by a capped
//!   A* through [`Puzzle::exceeds`](crate::search::Puzzle::exceeds); `seen` (private): its
//!   table of nodes seen, of fixed size.
//! - `packed` and `judged` (private to the engine): positions packed into words where many
//!   are kept, and the judgements of positions kept per thread.
//! - [`symmetry`]: the maps of a level onto itself, by which A* keeps one position of each
//!   class.
//! - [`game`](mod@game): the game face ([`IceTower`]); its default search is
//!   [`astar_proving`](crate::search::astar_proving), which proves a bound when stopped.

pub mod engine;
pub mod game;
mod judged;
pub mod level;
mod packed;
pub mod prune;
pub mod rules;
mod seen;
mod stoppers;
pub mod symmetry;

pub use engine::{same_level, with_tower, with_tower_at, TMove, TState, TowerPuzzle};
pub use game::IceTower;
pub use level::{parse, Block, Tile, Tower};
pub use prune::{Analysis, Dead};
pub use rules::{replay, Board, End, Illegal, IllegalMove, PlainPuzzle, Replay, Step};
