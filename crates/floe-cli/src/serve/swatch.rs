//! Cells drawn alone, as the board draws them: the legend's entries and the editor's
//! palette (one picture for a kind of cell: the board's renderer's).

use floe::render::board::{board_svg, Style};
use floe::scene::{Ground, PieceKind, Scene};

/// One cell of `scene` alone, drawn as the board draws it.
pub(super) fn swatch(scene: &Scene, at: (usize, usize), title: &str) -> String {
    let pieces: Vec<PieceKind> = scene
        .pieces
        .iter()
        .filter(|p| p.at == at)
        .map(|p| p.kind)
        .collect();
    cell_svg(scene.ground(at), &pieces, title)
}

/// Each symbol of a game's boards drawn as its board draws the cell (the editor's palette
/// and grid: one picture for a kind of cell, the board's), in the order of `cells.glyphs`.
pub(super) fn glyph_swatches(info: &floe::game::Info) -> Vec<String> {
    info.cells
        .glyphs
        .iter()
        .map(|g| {
            let pieces: Vec<PieceKind> = g.look.piece.into_iter().collect();
            cell_svg(g.look.ground, &pieces, g.about)
        })
        .collect()
}

/// A cell of `ground` with `pieces` on it, alone, as the board draws it.
fn cell_svg(ground: Ground, pieces: &[PieceKind], title: &str) -> String {
    let mut one = Scene::new(1, 1, title);
    one.set((0, 0), ground);
    for &kind in pieces {
        if ground == Ground::Blank {
            one.set((0, 0), Ground::Ice);
        }
        one.add(kind, (0, 0));
    }
    board_svg(
        &one,
        &Style {
            coords: false,
            cell: 32,
        },
    )
}
