#![no_main]

//! Datasets of floe-learn: a dataset read is written again, and what is written must read
//! again, to the same text.

use floe_learn::data;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(set) = data::parse(text, "fuzz") else {
        return;
    };
    let written = data::write(&set);
    let again = data::parse(&written, "written")
        .unwrap_or_else(|e| panic!("a dataset floe wrote cannot be read: {e}\n{written}"));
    assert_eq!(
        written,
        data::write(&again),
        "a dataset written, read and written again changed"
    );
});
