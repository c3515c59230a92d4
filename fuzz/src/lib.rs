//! What the fuzz targets share: the checks every level reader gets.

use floe::ops::Request;

/// Reads `data` as a level file (`game` and `format` as the command line would give them)
/// and, for every level read, writes it, reads the text written again, draws its scene and
/// describes it. A level floe reads it must be able to write, and what it writes it must be
/// able to read again, to the same text.
pub fn levels(data: &[u8], game: Option<&str>, format: Option<&str>) {
    // the command line refuses text that is not UTF-8 before any reader sees it
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(file) = Request::from_text(text, "fuzz")
        .game(game)
        .format(format)
        .read()
    else {
        return;
    };
    for level in &file.levels {
        let _ = level.scene();
        let _ = level.describe();
        let name = level.game().info().name;
        let written = match level.to_text(None) {
            Ok(w) => w,
            Err(e) => panic!("a {name} level read cannot be written: {e}\n{text:?}"),
        };
        // read back as standard input would be: a file's name would name untitled levels
        let again = match Request::from_text(written.as_str(), "<written>")
            .game(Some(name))
            .read()
        {
            Ok(f) => f,
            Err(e) => panic!("a {name} level floe wrote cannot be read: {e}\n{written}"),
        };
        assert_eq!(
            again.levels.len(),
            1,
            "one {name} level written, several read:\n{written}"
        );
        let rewritten = again.levels[0]
            .to_text(None)
            .unwrap_or_else(|e| panic!("a {name} level read back cannot be written: {e}"));
        assert_eq!(
            written, rewritten,
            "a {name} level written, read and written again changed"
        );
    }
}
