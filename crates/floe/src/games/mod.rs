//! The games floe knows: one folder each, and one line each in the registry below.
//!
//! A game's folder holds only what is specific to it: its level and format, its engine, its
//! validator, its scene, and its [`Game`](crate::game::Game) implementation. Everything else
//! reaches it through the game face ([`crate::game`]).

/// Declares the games' modules and lists their game faces, in order: the first is the game of
/// files that do not say theirs.
macro_rules! registry {
    ($($module:ident => $($game:ident),+;)+) => {
        $(pub mod $module;)+
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
