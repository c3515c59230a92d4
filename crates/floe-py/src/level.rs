//! Levels of every game through the one game face: read from a path or a text, picked,
//! configured and drawn; a solve's report with its replayed solution ([`Solved`]). What the
//! game face does with them (solve, space, analyze, verify, bench-solvers) is the library's
//! operations, run by name (`ops`).

use crate::convert::{json, to_py_err};
use crate::run::detached;
use floe::game::{Params, SolveReport};
use floe::games;
use floe::games::ice::{self, Ice};
use floe::ops::{Level, LevelEntry, Request, Source};
use floe::render::board::{animated_svg, arrows_svg, board_svg, frames_svg, Style};
use floe::scene::Story;
use floe::Error;
use pyo3::prelude::*;
use std::path::PathBuf;

/// Registers the classes and functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeLevel>()?;
    m.add_class::<Solved>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(empty_board, m)?)?;
    m.add_function(wrap_pyfunction!(games_json, m)?)?;
    Ok(())
}

/// A level of any game, with where it came from.
#[pyclass(frozen, module = "floe._floe", name = "Level")]
pub struct NativeLevel {
    /// The level, named, with its parameters applied.
    pub level: Level,
    /// The file's name in messages (`empty board` for a board given by its size).
    pub file: String,
    /// Its 0-based index in the file.
    pub index: usize,
    /// Whether it is an empty ice board given by its size (no file).
    pub empty: bool,
}

impl NativeLevel {
    /// A level of a file.
    pub fn of(level: Level, file: &str, index: usize) -> NativeLevel {
        NativeLevel {
            level,
            file: file.to_string(),
            index,
            empty: false,
        }
    }
}

/// Parameters as Python passes them: (name, value, what the caller called it).
type ParamList = Vec<(String, String, String)>;

fn params_of(list: ParamList) -> Params {
    let mut p = Params::new();
    for (name, value, origin) in list {
        p.set(&name, value, origin);
    }
    p
}

/// Where a file of levels comes from, as the Python part passes it: `(path, text, name, game,
/// format, params)`: a path, or a text named `name` (`<text>` by default), with the game and
/// format when they must not be detected, and the parameters to apply.
#[derive(FromPyObject)]
pub(crate) struct SourceArgs(
    Option<PathBuf>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    ParamList,
);

impl SourceArgs {
    /// The library's request for the file.
    fn source(self) -> Result<Source, Error> {
        let SourceArgs(path, text, name, game, format, params) = self;
        let s = match (path, text) {
            (Some(p), None) => Request::from_path(p),
            (None, Some(t)) => Request::from_text(t, name.unwrap_or_else(|| "<text>".into())),
            _ => return Err(Error::invalid("give a level file's path or its text")),
        };
        Ok(s.game(game.as_deref())
            .format(format.as_deref())
            .with_params(params_of(params)))
    }
}

/// Every level of a file: `(file, levels)`.
#[pyfunction]
fn read(py: Python<'_>, source: SourceArgs) -> PyResult<(String, Vec<NativeLevel>)> {
    let f = detached(py, || source.source()?.read())?;
    let levels = f
        .levels
        .iter()
        .enumerate()
        .map(|(i, l)| NativeLevel::of(l.clone(), &f.file, i))
        .collect();
    Ok((f.file, levels))
}

/// One level of a file: `level` is a 1-based number or a title; without it, the file's only
/// level.
#[pyfunction]
#[pyo3(signature = (source, level))]
fn resolve(py: Python<'_>, source: SourceArgs, level: Option<String>) -> PyResult<NativeLevel> {
    let r = detached(py, || source.source()?.level(level.as_deref()).resolve())?;
    Ok(NativeLevel::of(r.level, &r.file, r.index))
}

/// An empty ice block board whose blocks start in the top row from the left, then
/// clockwise along the edge (`floe space --rows R --cols C --blocks K`).
#[pyfunction]
#[pyo3(signature = (rows, cols, blocks, params))]
fn empty_board(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    blocks: usize,
    params: ParamList,
) -> PyResult<NativeLevel> {
    let level = ice_board(rows, cols, blocks, params_of(params)).map_err(|e| to_py_err(py, e))?;
    Ok(NativeLevel {
        level,
        file: "empty board".into(),
        index: 0,
        empty: true,
    })
}

/// The empty board as a level of the game face.
pub fn ice_board(rows: usize, cols: usize, blocks: usize, params: Params) -> Result<Level, Error> {
    let board = ice::Level::empty_board(rows, cols, blocks)?;
    let name = board.title.clone().unwrap_or_default();
    Level::new(Ice, board, name).configure(&params)
}

/// `floe games --json`.
#[pyfunction]
fn games_json(py: Python<'_>) -> PyResult<String> {
    let infos: Vec<_> = games::all().iter().map(|g| g.info()).collect();
    json(&infos).map_err(|e| to_py_err(py, e))
}

/// Names the level in a message about it (e.g. a board too large for the engine), as the
/// command line does.
pub fn in_level(name: &str, e: Error) -> Error {
    e.in_level(name)
}

/// The picture options of a solution: `arrows`, `frames` or `animate`.
fn story_svg(
    r: &SolveReport,
    kind: &str,
    coords: bool,
    cell: u32,
) -> Result<Option<String>, Error> {
    let Some(story) = r.story() else {
        return Ok(None);
    };
    drawn(&story?, kind, &Style { coords, cell }).map(Some)
}

/// A solution's story drawn as `arrows`, `frames` or `animate`.
pub fn drawn(story: &Story, kind: &str, style: &Style) -> Result<String, Error> {
    Ok(match kind {
        "arrows" => arrows_svg(story, style),
        "frames" => frames_svg(story, style),
        "animate" | "animation" => animated_svg(story, style),
        other => {
            return Err(Error::invalid(format!(
                "a solution is drawn as arrows, frames or animate, not {other}"
            )))
        }
    })
}

#[pymethods]
impl NativeLevel {
    /// Its name: the file's title for it, else `level N` in a file of several, else the
    /// file's name without its extension.
    #[getter]
    fn name(&self) -> &str {
        self.level.name()
    }
    /// Its title in the file, if it has one.
    #[getter]
    fn title(&self) -> Option<String> {
        self.level.title()
    }
    /// Its game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.level.game().info().name
    }
    /// The file it came from.
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }
    /// Its 0-based index in the file.
    #[getter]
    fn index(&self) -> usize {
        self.index
    }
    /// Whether it is an empty ice board given by its size.
    #[getter]
    fn empty(&self) -> bool {
        self.empty
    }
    /// The level in a few words.
    fn describe(&self) -> String {
        self.level.describe()
    }
    /// The parameters in force, as JSON.
    fn params_json(&self, py: Python<'_>) -> PyResult<String> {
        json(&self.level.params()).map_err(|e| to_py_err(py, e))
    }
    /// `(rows, cols)` of its picture.
    fn size(&self) -> (usize, usize) {
        let s = self.level.scene();
        (s.rows, s.cols)
    }
    /// Its entry of `floe levels --json`.
    fn info_json(&self, py: Python<'_>) -> PyResult<String> {
        json(&LevelEntry::of(self.index, &self.level)).map_err(|e| to_py_err(py, e))
    }
    /// The level alone as a file of its game.
    #[pyo3(signature = (format=None))]
    fn to_text(&self, py: Python<'_>, format: Option<&str>) -> PyResult<String> {
        self.level.to_text(format).map_err(|e| to_py_err(py, e))
    }
    /// The same level with more parameters.
    fn configure(&self, py: Python<'_>, params: ParamList) -> PyResult<NativeLevel> {
        let level = self
            .level
            .configure(&params_of(params))
            .map_err(|e| to_py_err(py, e))?;
        Ok(NativeLevel {
            level,
            file: self.file.clone(),
            index: self.index,
            empty: self.empty,
        })
    }
    /// Its start as an SVG picture (`floe render`).
    #[pyo3(signature = (coords=false, cell=0))]
    fn svg(&self, coords: bool, cell: u32) -> String {
        board_svg(&self.level.scene(), &Style { coords, cell })
    }

    fn __repr__(&self) -> String {
        format!(
            "<floe level {:?} ({}): {}>",
            self.level.name(),
            self.level.game().info().name,
            self.level.describe()
        )
    }
}

/// A solve's report, with the replayed solution behind it.
#[pyclass(frozen, module = "floe._floe")]
pub struct Solved {
    /// The report.
    pub report: SolveReport,
}

#[pymethods]
impl Solved {
    /// The report as `floe solve --json` prints it.
    fn json(&self, py: Python<'_>) -> PyResult<String> {
        json(&self.report).map_err(|e| to_py_err(py, e))
    }
    /// The start and the position after each move, in the game's notation (empty unless
    /// solved).
    fn boards(&self) -> Vec<String> {
        self.report.boards()
    }
    /// One line per move, as the replay saw it.
    fn steps(&self) -> Vec<String> {
        self.report.steps.clone()
    }
    /// A sentence about the outcome, when there is one.
    fn note(&self) -> Option<String> {
        self.report.note.clone()
    }
    /// The solution drawn as `arrows`, `frames` or `animate` (`None` unless solved).
    #[pyo3(signature = (kind="arrows", coords=false, cell=0))]
    fn svg(&self, py: Python<'_>, kind: &str, coords: bool, cell: u32) -> PyResult<Option<String>> {
        story_svg(&self.report, kind, coords, cell).map_err(|e| to_py_err(py, e))
    }
    /// Writes the picture (`floe solve --svg FILE`), whole or not at all; `False` when there
    /// is no solution to draw.
    #[pyo3(signature = (path, kind="arrows", coords=false, cell=0))]
    fn write_svg(
        &self,
        py: Python<'_>,
        path: PathBuf,
        kind: &str,
        coords: bool,
        cell: u32,
    ) -> PyResult<bool> {
        let svg = story_svg(&self.report, kind, coords, cell).map_err(|e| to_py_err(py, e))?;
        match svg {
            Some(s) => {
                floe::mem::write_whole(&path, s).map_err(|e| to_py_err(py, e))?;
                Ok(true)
            }
            None => Ok(false),
        }
    }
}
