//! A level played one move at a time ([`floe::ops::step::State`]): the native half of
//! `floe.State`. Moves cross as the JSON text of `floe solve`'s moves (a list), the cells as
//! a little-endian buffer of `u16` codes.

use crate::convert::{buffer, json, to_py_err};
use crate::level::{in_level, NativeLevel};
use floe::ops::step::State;
use floe::render::board::{board_svg, Style};
use floe::Error;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

/// Registers the class and function of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeState>()?;
    m.add_function(wrap_pyfunction!(start, m)?)?;
    Ok(())
}

/// A position of a level with the moves that led to it.
#[pyclass(frozen, module = "floe._floe", name = "State")]
pub struct NativeState {
    state: State,
}

/// The start of `level`.
#[pyfunction]
fn start(py: Python<'_>, level: &NativeLevel) -> PyResult<NativeState> {
    let l = &level.level;
    l.start()
        .map(|state| NativeState { state })
        .map_err(|e| to_py_err(py, in_level(l.name(), e)))
}

impl NativeState {
    /// The moves of a JSON list or of the game's text form, read as the game reads them.
    fn parsed(&self, moves: &str, what: &str) -> Result<Vec<floe::game::Move>, Error> {
        self.state.level().parse_moves(moves, what)
    }
}

#[pymethods]
impl NativeState {
    /// The legal moves as a JSON list.
    fn moves_json(&self, py: Python<'_>) -> PyResult<String> {
        let moves = self.state.moves().map_err(|e| to_py_err(py, e))?;
        json(&moves).map_err(|e| to_py_err(py, e))
    }
    /// The moves played from the start as a JSON list.
    fn played_json(&self, py: Python<'_>) -> PyResult<String> {
        json(&self.state.played()).map_err(|e| to_py_err(py, e))
    }
    /// How many moves were played from the start.
    fn played_count(&self) -> usize {
        self.state.depth()
    }
    /// The state after the moves `moves` (a JSON list, or the game's text form), played one
    /// by one by the rules; `what` names them in messages.
    fn play(&self, py: Python<'_>, moves: &str, what: &str) -> PyResult<NativeState> {
        let moves = self.parsed(moves, what).map_err(|e| to_py_err(py, e))?;
        let state = match moves.as_slice() {
            [one] => self.state.play(one),
            _ => self.state.play_all(&moves),
        };
        state
            .map(|state| NativeState { state })
            .map_err(|e| to_py_err(py, e))
    }
    /// Whether the position solves the level.
    fn solved(&self) -> bool {
        self.state.solved()
    }
    /// The game's key of the position.
    fn key(&self) -> &str {
        self.state.key()
    }
    /// The position in the game's notation.
    fn text(&self) -> String {
        self.state.text()
    }
    /// Rows, columns and the cell codes row by row (`u16`, little-endian).
    fn cells<'py>(&self, py: Python<'py>) -> (usize, usize, Bound<'py, PyByteArray>) {
        let (rows, cols, codes) = self.state.cells();
        let bytes: Vec<u8> = codes.iter().flat_map(|c| c.to_le_bytes()).collect();
        (rows, cols, buffer(py, &bytes))
    }
    /// The position as an SVG picture.
    #[pyo3(signature = (coords=false, cell=0))]
    fn svg(&self, coords: bool, cell: u32) -> String {
        board_svg(&self.state.scene(), &Style { coords, cell })
    }
}
