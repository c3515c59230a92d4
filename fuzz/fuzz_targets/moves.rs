#![no_main]

//! Move lists: the first byte picks one of a few small levels, one per game; the rest is a
//! move list for it, which is parsed, then verified and told as a story.

use floe::ops::{Level, Request};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const LEVELS: &[&str] = &[
    include_str!("../../levels/zelda.txt"),
    include_str!("../../levels/pushpush.txt"),
    include_str!("../levels/icetower.txt"),
    include_str!("../levels/boxoff.txt"),
    include_str!("../levels/pretzel.txt"),
    include_str!("../levels/fujisan.txt"),
    include_str!("../../levels/icepath.txt"),
];

fn levels() -> &'static [Level] {
    static LEVELS_READ: OnceLock<Vec<Level>> = OnceLock::new();
    LEVELS_READ.get_or_init(|| {
        LEVELS
            .iter()
            .map(|text| {
                Request::from_text(*text, "level")
                    .level(Some("1"))
                    .resolve()
                    .expect("a bundled level")
                    .level
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let levels = levels();
    let level = &levels[usize::from(pick) % levels.len()];
    if let Ok(moves) = level.parse_moves(text, "fuzz") {
        let _ = level.verify(&moves, None);
        let _ = level.story(&moves);
    }
});
