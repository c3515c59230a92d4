//! Pictures: `floe render` (a board of any game) and `floe solve --svg` (a solution drawn as
//! numbered arrows, as frames, or animated).

use super::*;
use clap::Args;
use floe::games::icetower as tower;
use floe::games::solitaire::Challenge;
use floe::games::Game;
use floe::render::board::{self as pic, Scene, Story, Style};
use std::path::PathBuf;

/// `floe render`.
#[derive(Args, Debug, Clone)]
pub struct RenderArgs {
    #[command(flatten)]
    level: LevelArgs,
    /// The game: ice (default), pushpush, icetower, boxoff, pretzel or fujisan. Without it a
    /// `Game:` line in the file decides.
    #[arg(long, value_name = "GAME")]
    game: Option<Game>,
    /// Where to write the SVG (default: standard output).
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Draw row and column numbers (the coordinates moves use).
    #[arg(long)]
    coords: bool,
    /// Cell size in pixels (4 to 200; default: chosen from the board's size).
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(4..=200))]
    cell: Option<u32>,
    /// One JSON document on standard output (needs -o).
    #[arg(long)]
    json: bool,
}

/// The picture options of `floe solve`.
#[derive(Args, Debug, Clone)]
pub struct SolutionPictureArgs {
    /// Draw the solution as an SVG picture: the start with each move as a numbered arrow.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// With --svg: one small board per move (before it, with its arrow) and the end, in rows.
    #[arg(long, requires = "svg", conflicts_with = "animate")]
    pub frames: bool,
    /// With --svg: an animated SVG that plays the solution in a loop in a browser.
    #[arg(long, requires = "svg")]
    pub animate: bool,
    /// With --svg: draw row and column numbers.
    #[arg(long, requires = "svg")]
    pub coords: bool,
}

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

/// The scene of the level a command names, any game.
pub(super) fn load_scene(level: &LevelArgs, game: Option<Game>) -> Result<(Game, Scene), Error> {
    let game = super::solving::game_of_file(level, game)?;
    let scene = match game {
        Game::Ice => {
            let p = load_one(level)?;
            pic::ice_scene(&p.level, &p.name)
        }
        Game::PushPush => {
            let (board, name) = super::pushpush::load(level)?;
            pic::pushpush_scene(&board, &name)
        }
        Game::IceTower => {
            refuse_level_options(level, game)?;
            pic::tower_scene(&tower::load(&level.file)?)
        }
        Game::BoxOff | Game::Pretzel | Game::Fujisan => {
            refuse_level_options(level, game)?;
            let (text, file) = floe::input::read_text(&level.file)?;
            let (c, title) = Challenge::parse(game, &text, &file)?;
            pic::challenge_scene(&c, &title.unwrap_or(file))
        }
    };
    Ok((game, scene))
}

fn refuse_level_options(level: &LevelArgs, game: Game) -> Result<(), Error> {
    if level.level.is_some() || level.format.is_some() || level.rules.is_some() {
        return Err(Error::invalid(format!(
            "--level, --format and --rules are for ice block and PushPush files; a {game} file holds one level"
        )));
    }
    Ok(())
}

/// Width and height written in an SVG's root element.
fn svg_size(svg: &str) -> (f64, f64) {
    let attr = |name: &str| -> f64 {
        let key = format!(" {name}=\"");
        svg.find(&key)
            .and_then(|i| {
                let rest = &svg[i + key.len()..];
                rest.find('"').and_then(|j| rest[..j].parse().ok())
            })
            .unwrap_or(0.0)
    };
    (attr("width"), attr("height"))
}

fn write(path: &Path, svg: &str) -> Result<(), Error> {
    std::fs::write(path, svg).map_err(|source| Error::Io {
        path: path.display().to_string(),
        source,
    })
}

/// `floe render FILE [-o board.svg]`.
pub fn render(a: RenderArgs) -> Result<Done, Error> {
    if a.json && a.output.is_none() {
        return Err(Error::invalid(
            "--json prints a report on standard output; give the picture a file with -o FILE",
        ));
    }
    let (game, scene) = load_scene(&a.level, a.game)?;
    let style = Style {
        coords: a.coords,
        cell: a.cell.unwrap_or(0),
    };
    let svg = pic::board_svg(&scene, &style);
    let Some(path) = &a.output else {
        outp!("{svg}");
        return Ok(Done::Answered);
    };
    write(path, &svg)?;
    let (width, height) = svg_size(&svg);
    if a.json {
        out::json(&RenderJson {
            game: game.name(),
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
            game.name(),
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

/// Writes the picture of a solution when `--svg` was given. `story` is built only then; a
/// level without a solution gets no picture (said on standard error).
pub(super) fn solution_picture(
    p: &SolutionPictureArgs,
    solved: bool,
    json: bool,
    story: impl FnOnce() -> Result<Story, Error>,
) -> Result<(), Error> {
    let Some(path) = &p.svg else {
        return Ok(());
    };
    if !solved {
        eprintln!(
            "floe: no solution, so no picture written to {}",
            path.display()
        );
        return Ok(());
    }
    let story = story()?;
    let style = Style {
        coords: p.coords,
        cell: 0,
    };
    let (svg, what) = if p.frames {
        (pic::frames_svg(&story, &style), "frames")
    } else if p.animate {
        (pic::animated_svg(&story, &style), "animation")
    } else {
        (pic::arrows_svg(&story, &style), "arrows")
    };
    write(path, &svg)?;
    if !json {
        outln!(
            "picture ({what}, {} move{}): {}",
            story.acts.len(),
            plural(story.acts.len()),
            path.display()
        );
    }
    Ok(())
}
