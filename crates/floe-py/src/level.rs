//! Levels of every game through the one game face: read from a path or a text, picked,
//! configured, drawn, and what the face does with them (solve, space, analyze, verify,
//! bench-solvers). Each report is the JSON text of its command.

use crate::convert::{json, limits_from_py, to_py_err, LimitTuple};
use crate::run::detached;
use floe::analysis::solvers::{CapCount, SolverSpec, DEFAULT_RANDOM_MAX_MOVES};
use floe::game::{Params, SolveReport};
use floe::games;
use floe::games::ice::{self, Ice};
use floe::ops::{Level, LevelEntry, Request, SolveOptions, Source};
use floe::render::board::{animated_svg, arrows_svg, board_svg, frames_svg, Style};
use floe::request::Naming;
use floe::scene::Story;
use floe::Error;
use pyo3::exceptions::PyValueError;
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
    match e {
        Error::Invalid(m) => Error::Invalid(format!("{name}: {m}")),
        other => other,
    }
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

    /// Solves it (`floe solve`).
    #[pyo3(signature = (algo, factor, seed, max_moves, playouts, count, limits))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        py: Python<'_>,
        algo: Option<String>,
        factor: Option<u64>,
        seed: u64,
        max_moves: Option<u32>,
        playouts: u32,
        count: &str,
        limits: LimitTuple<'_>,
    ) -> PyResult<Solved> {
        let count: CapCount = count.parse().map_err(PyValueError::new_err)?;
        let limits = limits_from_py(limits)?;
        let o = SolveOptions {
            algorithm: algo,
            factor,
            limits: limits.limits(),
            seed,
            max_moves,
            playouts,
            count,
            difficulty: true,
            ..SolveOptions::default()
        };
        let level = &self.level;
        let report = detached(py, || {
            level.solve(&o).map_err(|e| in_level(level.name(), e))
        })?;
        limits.finish(report.states);
        Ok(Solved { report })
    }

    /// Every position reachable from the start (`floe space --json`).
    fn space(&self, py: Python<'_>, limits: LimitTuple<'_>) -> PyResult<String> {
        let a = limits_from_py(limits)?;
        let level = &self.level;
        detached(py, || {
            a.judge(level.name(), level.estimate(), Naming::Keywords)?;
            let mut r = level
                .space(&a.limits())
                .map_err(|e| in_level(level.name(), e))?;
            a.finish(r.states);
            r.peak_rss_bytes = floe::mem::peak_resident_bytes();
            json(&r)
        })
    }

    /// Reversibility and dead ends (`floe analyze --json`).
    fn analyze(&self, py: Python<'_>, limits: LimitTuple<'_>) -> PyResult<String> {
        let a = limits_from_py(limits)?;
        let level = &self.level;
        detached(py, || {
            let mut r = level
                .analyze(&a.limits())
                .map_err(|e| in_level(level.name(), e))?;
            r.peak_rss_bytes = floe::mem::peak_resident_bytes();
            json(&r)
        })
    }

    /// Replays a move list (JSON or the game's text) and says whether it is legal and
    /// solves the level (`floe verify --json`).
    #[pyo3(signature = (moves, factor=None, name="<moves>"))]
    fn verify(
        &self,
        py: Python<'_>,
        moves: String,
        factor: Option<u64>,
        name: &str,
    ) -> PyResult<String> {
        let level = &self.level;
        detached(py, || {
            let moves = level.parse_moves(&moves, name)?;
            json(&level.verify(&moves, factor)?)
        })
    }

    /// A randomised solver run `runs` times against the optimum (`floe bench-solvers
    /// --json`).
    #[pyo3(signature = (algo, runs, seed, max_moves, playouts, count, factor, limits))]
    #[allow(clippy::too_many_arguments)]
    fn bench_solvers(
        &self,
        py: Python<'_>,
        algo: &str,
        runs: u32,
        seed: u64,
        max_moves: Option<u32>,
        playouts: u32,
        count: &str,
        factor: Option<u64>,
        limits: LimitTuple<'_>,
    ) -> PyResult<String> {
        let count: CapCount = count.parse().map_err(PyValueError::new_err)?;
        let a = limits_from_py(limits)?;
        if !(1..=1_000_000).contains(&runs) {
            return Err(PyValueError::new_err("runs: 1 to 1,000,000"));
        }
        let info = self.level.game().info();
        let spec = match algo.trim().to_ascii_lowercase().as_str() {
            "mc" | "basicmc" | "monte-carlo" => SolverSpec::Mc {
                playouts,
                max_moves: max_moves.unwrap_or(floe::search::playout::KLUIVER_MAX_MOVES),
                count,
            },
            "random" => SolverSpec::Random {
                max_moves: max_moves.unwrap_or(if info.random_moves == 0 {
                    DEFAULT_RANDOM_MAX_MOVES
                } else {
                    info.random_moves
                }),
                count,
            },
            other => {
                return Err(PyValueError::new_err(format!(
                    "bench_solvers runs the randomised solvers (random, mc), not {other}"
                )))
            }
        };
        let level = &self.level;
        detached(py, || {
            let b = level
                .bench_solvers(
                    &spec,
                    runs,
                    seed,
                    factor,
                    &a.args.limits(),
                    a.tally().as_ref(),
                )
                .map_err(|e| in_level(level.name(), e))?;
            json(&b)
        })
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
    report: SolveReport,
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
