//! The games floe knows: one folder each, its module line and its line in the registry below.
//!
//! A game's folder holds only what is specific to it: its level and format, its engine, its
//! validator, its scene, and its [`Game`](crate::game::Game) implementation. Everything else
//! reaches it through the game face ([`crate::game`]).

pub mod ice;
pub mod icepath;
pub mod icetower;
pub mod pushpush;
pub mod solitaire;

/// Lists the games' faces, in order: the first is the game of files that do not say theirs.
/// (The modules are declared above, plainly, so that rustfmt reaches their files.)
macro_rules! registry {
    ($($module:ident => $($game:ident),+;)+) => {
        /// Every game, in the order of help texts.
        pub(crate) static REGISTRY: &[&dyn crate::game::AnyGame] = &[$($(&$module::$game),+),+];
    };
}

registry! {
    ice => Ice;
    pushpush => PushPush;
    icetower => IceTower;
    solitaire => BoxOff, Pretzel, Fujisan;
    icepath => IcePath;
}
