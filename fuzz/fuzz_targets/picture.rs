#![no_main]

//! Pictures: PBM (P1, P4) and ASCII art. A picture read is written as ASCII art, which must
//! read again as the same picture.

use floe::generate::picture::Picture;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(picture) = Picture::parse(data, "fuzz") else {
        return;
    };
    let ascii = picture.to_ascii();
    let again = Picture::parse(ascii.as_bytes(), "written")
        .unwrap_or_else(|e| panic!("a picture floe wrote cannot be read: {e}\n{ascii}"));
    assert_eq!(
        again, picture,
        "a picture written as ASCII art and read again changed:\n{ascii}"
    );
});
