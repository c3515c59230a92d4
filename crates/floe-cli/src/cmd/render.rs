//! `floe render`: a level of any game as an SVG picture.

use super::request;
use crate::args::RenderArgs;
use crate::out::{self, thousands};
use crate::Done;
use floe::render::board::{board_svg, size_of, Style};
use floe::Error;
use serde::Serialize;

#[derive(Serialize)]
struct RenderJson<'a> {
    game: &'static str,
    level: &'a str,
    rows: usize,
    cols: usize,
    output: String,
    width: f64,
    height: f64,
    bytes: usize,
}

/// The style `r` asks for.
pub(crate) fn style(r: &floe::request::Render) -> Style {
    Style {
        coords: r.coords,
        cell: r.cell.unwrap_or(0),
    }
}

/// `floe render FILE [-o board.svg]`.
pub fn run(a: RenderArgs) -> Result<Done, Error> {
    if a.json && a.out.is_none() {
        return Err(Error::invalid(
            "--json prints a report on standard output; give the picture a file with -o FILE",
        ));
    }
    let req = request(&a.level)?;
    let scene = req.level.scene();
    let style = style(&a.render);
    let svg = board_svg(&scene, &style);
    let Some(path) = &a.out else {
        outp!("{svg}");
        return Ok(Done::Answered);
    };
    out::write_file(path, &svg)?;
    let (width, height) = size_of(&scene, &style);
    if a.json {
        out::json(&RenderJson {
            game: req.game.info().name,
            level: &scene.title,
            rows: scene.rows,
            cols: scene.cols,
            output: path.display().to_string(),
            width,
            height,
            bytes: svg.len(),
        });
    } else {
        outln!(
            "{}: {} level, {}×{} cells → {} ({}×{} px, {} bytes)",
            scene.title,
            req.game.info().name,
            scene.rows,
            scene.cols,
            path.display(),
            width,
            height,
            thousands(svg.len() as u64)
        );
    }
    Ok(Done::Answered)
}
