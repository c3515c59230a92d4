//! Learning environments ([`floe::ops::env`]): the native half of `floe.env`. A level's
//! tables are built once (`env_table`, the GIL released) and shared; [`NativeEnvs`] steps
//! any number of environments in one call, reading and writing its own arrays, which the
//! Python part views with NumPy once ([`NativeEnvs::arrays`]): no JSON, no Python object per
//! environment, no buffer protocol (which the abi3 floor, Python 3.9, lacks), the GIL released and the work spread over the process's threads when there
//! are many.

use crate::convert::{buffer, le_bytes, limit_reached, limits_from_py, to_py_err, LimitTuple};
use crate::level::NativeLevel;
use crate::run::{detached, pool};
use floe::ops::env::{Autoreset, Envs, Last, Options, Out, Start, Table};
use floe::Error;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use pyo3::types::PyByteArrayMethods;
use std::sync::Arc;

/// Registers the classes and function of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeTable>()?;
    m.add_class::<NativeEnvs>()?;
    m.add_function(wrap_pyfunction!(env_table, m)?)?;
    m.add_function(wrap_pyfunction!(env_actions, m)?)?;
    m.add_function(wrap_pyfunction!(dataset, m)?)?;
    Ok(())
}

/// A dataset's columns as the Python part wraps them.
type Columns<'py> = (
    &'static str,
    Vec<&'static str>,
    Bound<'py, PyByteArray>,
    Vec<String>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Vec<String>,
    f64,
);

/// Random boards of `game` (a name or a spec), labelled: `(game, planes, obs, boards,
/// pushes (int32), difficulty (float32), split (uint8), classes (hexadecimal), seconds)`.
#[pyfunction]
#[pyo3(signature = (game, rows, cols, count, seed, split_seed))]
fn dataset<'py>(
    py: Python<'py>,
    game: &str,
    rows: usize,
    cols: usize,
    count: u64,
    seed: u64,
    split_seed: u64,
) -> PyResult<Columns<'py>> {
    let (g, _params) = floe::games::spec(game).map_err(|e| to_py_err(py, e))?;
    let o = floe::game::dataset::DatasetOptions {
        rows,
        cols,
        count,
        seed,
        split_seed,
    };
    let d = detached(py, move || g.dataset(&o))?;
    let bytes = |v: Vec<u8>| PyByteArray::new(py, &v);
    Ok((
        d.game,
        d.planes.to_vec(),
        bytes(d.obs),
        d.boards,
        bytes(d.pushes.iter().flat_map(|x| x.to_le_bytes()).collect()),
        bytes(d.difficulty.iter().flat_map(|x| x.to_le_bytes()).collect()),
        bytes(d.split),
        d.class.iter().map(|c| format!("{c:032x}")).collect(),
        d.seconds,
    ))
}

/// The numbers of moves (a JSON list, or the game's text form) in `level`'s learning
/// environment; `what` names them in messages.
#[pyfunction]
fn env_actions(
    py: Python<'_>,
    level: &NativeLevel,
    moves: &str,
    what: &str,
) -> PyResult<Vec<usize>> {
    let l = &level.level;
    let moves = l.parse_moves(moves, what).map_err(|e| to_py_err(py, e))?;
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            l.action(m).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{what}: move {} ({m}) has no number in the level's {} actions",
                    i + 1,
                    l.action_count()
                ))
            })
        })
        .collect()
}

/// A level's learning tables.
#[pyclass(frozen, weakref, module = "floe._floe", name = "EnvTable")]
pub struct NativeTable {
    table: Arc<Table>,
}

/// The learning tables of `level` within the limits; a limit that stops them is
/// `floe.LimitReached`, naming the limit and what was stored.
#[pyfunction]
fn env_table(py: Python<'_>, level: &NativeLevel, limits: LimitTuple<'_>) -> PyResult<NativeTable> {
    let lim = limits_from_py(limits)?;
    let l = level.level.clone();
    let search = lim.limits();
    match detached(py, move || l.env_table(&search))? {
        Ok(table) => Ok(NativeTable {
            table: Arc::new(table),
        }),
        Err(stop) => Err(limit_reached(
            py,
            stop.limit,
            format!(
                "{}: the state graph does not fit: stopped by {} after storing {} positions and {} moves; \
                 an environment needs the whole graph (raise --max-states, --timeout or --max-memory)",
                level.level.name(),
                stop.limit,
                stop.states,
                stop.edges
            ),
        )),
    }
}

#[pymethods]
impl NativeTable {
    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.table.game
    }
    /// The level's name.
    #[getter]
    fn level(&self) -> &str {
        &self.table.level
    }
    /// `(planes, rows, cols)` of an observation.
    #[getter]
    fn obs_shape(&self) -> (usize, usize, usize) {
        let t = &self.table;
        (t.planes.len(), t.rows, t.cols)
    }
    /// The planes' names.
    #[getter]
    fn planes(&self) -> Vec<&'static str> {
        self.table.planes.to_vec()
    }
    /// How many actions.
    #[getter]
    fn actions(&self) -> usize {
        self.table.actions
    }
    /// Positions.
    #[getter]
    fn states(&self) -> usize {
        self.table.states()
    }
    /// Moves between positions.
    #[getter]
    fn edges(&self) -> usize {
        self.table.edges()
    }
    /// Seconds it took to build.
    #[getter]
    fn seconds(&self) -> f64 {
        self.table.seconds
    }
    /// How many positions a random start draws from (at most `within` moves from a solved
    /// one, when given).
    #[pyo3(signature = (within=None))]
    fn playable(&self, within: Option<u32>) -> usize {
        within.map_or(self.table.playable().len(), |d| {
            self.table.playable_within(d)
        })
    }
    /// Each position's fewest moves to a solved one (−1: none), `int64` little-endian.
    fn distances<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        buffer(py, &le_bytes(self.table.distances().iter().copied()))
    }
    /// Each position's fewest moves from the start, `int64` little-endian.
    fn depths<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        let t = &self.table;
        buffer(py, &le_bytes((0..t.states() as u32).map(|s| t.depth(s))))
    }
    /// Position `s`'s observation (`planes × rows × cols` bytes) and action mask.
    fn position<'py>(
        &self,
        py: Python<'py>,
        s: u64,
    ) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyByteArray>, i32)> {
        let t = &self.table;
        if s >= t.states() as u64 {
            return Err(PyValueError::new_err(format!(
                "state: a position of the level's {} (0 to {}), not {s}",
                t.states(),
                t.states() - 1
            )));
        }
        let mut obs = vec![0u8; t.obs_len()];
        let mut mask = vec![0u8; t.actions];
        t.observe(s as u32, &mut obs);
        t.mask(s as u32, &mut mask);
        Ok((buffer(py, &obs), buffer(py, &mask), t.to_goal(s as u32)))
    }
    /// The position action `a` leads to from position `s`, `None` when `a` is no move there.
    fn next(&self, s: u64, a: u64) -> Option<u32> {
        let t = &self.table;
        if s >= t.states() as u64 || a >= t.actions as u64 {
            return None;
        }
        t.next(s as u32, a as u32)
    }
    fn __repr__(&self) -> String {
        let t = &self.table;
        format!(
            "<floe learning tables of {} {:?}: {} positions, {} moves, {} actions>",
            t.game,
            t.level,
            t.states(),
            t.edges(),
            t.actions
        )
    }
}

/// One array of the environments: a `bytearray` of their own that NumPy views (the Python
/// part makes the views once), written at every step.
struct Array {
    name: &'static str,
    bytes: Py<PyByteArray>,
}

impl Array {
    fn new(py: Python<'_>, name: &'static str, len: usize) -> Array {
        Array {
            name,
            bytes: PyByteArray::new(py, &vec![0u8; len]).unbind(),
        }
    }
    /// Replaces the array by a new one of the same size, left as the allocator gives it:
    /// the step that follows writes every byte of it, and the old one stays whatever NumPy
    /// views the caller kept of it.
    fn renew(&mut self, py: Python<'_>) -> PyResult<()> {
        let len = self.bytes.bind(py).len();
        let fresh = PyByteArray::new(py, &[]);
        fresh.resize(len)?;
        self.bytes = fresh.unbind();
        Ok(())
    }
    /// The array as a slice of `T`, checked for its size and alignment (a `bytearray`'s
    /// memory is Python's allocator's, aligned to 16 bytes; its size cannot change while
    /// NumPy views it).
    ///
    /// # Safety
    /// Nothing else writes the memory meanwhile: the arrays are the environments' own, and
    /// the Python part keeps its views private.
    #[allow(clippy::mut_from_ref)]
    unsafe fn slice<'a, T>(&'a self, py: Python<'a>, n: usize) -> Result<&'a mut [T], Error> {
        let b = self.bytes.bind(py);
        let (ptr, len) = (b.data(), b.len());
        let size = std::mem::size_of::<T>();
        if len != n * size || (ptr as usize) % std::mem::align_of::<T>() != 0 {
            return Err(Error::Internal(format!(
                "the array {} holds {len} bytes at {ptr:p}, not {n} aligned items of {size}",
                self.name
            )));
        }
        Ok(std::slice::from_raw_parts_mut(ptr.cast::<T>(), n))
    }
}

/// The arrays a step reads and writes.
struct Arrays {
    actions: Array,
    obs: Array,
    reward: Array,
    terminated: Array,
    truncated: Array,
    mask: Array,
    distance: Array,
    legal: Array,
    level: Array,
    steps: Array,
    last: Option<[Array; 6]>,
}

impl Arrays {
    fn new(py: Python<'_>, n: usize, obs: usize, actions: usize, same_step: bool) -> Arrays {
        Arrays {
            actions: Array::new(py, "actions", n * 8),
            obs: Array::new(py, "obs", n * obs),
            reward: Array::new(py, "reward", n * 8),
            terminated: Array::new(py, "terminated", n),
            truncated: Array::new(py, "truncated", n),
            mask: Array::new(py, "mask", n * actions),
            distance: Array::new(py, "distance", n * 4),
            legal: Array::new(py, "legal", n),
            level: Array::new(py, "level", n * 4),
            steps: Array::new(py, "steps", n * 4),
            last: same_step.then(|| {
                [
                    Array::new(py, "last_obs", n * obs),
                    Array::new(py, "last_distance", n * 4),
                    Array::new(py, "last_ended", n),
                    Array::new(py, "last_mask", n * actions),
                    Array::new(py, "last_level", n * 4),
                    Array::new(py, "last_steps", n * 4),
                ]
            }),
        }
    }
    /// Every array by name.
    fn all(&self) -> Vec<&Array> {
        let mut v = vec![
            &self.actions,
            &self.obs,
            &self.reward,
            &self.terminated,
            &self.truncated,
            &self.mask,
            &self.distance,
            &self.legal,
            &self.level,
            &self.steps,
        ];
        if let Some(last) = &self.last {
            v.extend(last.iter());
        }
        v
    }
    /// The step's rows over the arrays, for `n` environments of `obs` bytes and `actions`
    /// actions.
    ///
    /// # Safety
    /// As [`Array::slice`]; the rows live no longer than the call that made them.
    unsafe fn out<'a>(
        &'a self,
        py: Python<'a>,
        n: usize,
        obs: usize,
        actions: usize,
    ) -> Result<Out<'a>, Error> {
        Ok(Out {
            obs: self.obs.slice(py, n * obs)?,
            reward: self.reward.slice(py, n)?,
            terminated: self.terminated.slice(py, n)?,
            truncated: self.truncated.slice(py, n)?,
            mask: self.mask.slice(py, n * actions)?,
            distance: self.distance.slice(py, n)?,
            legal: self.legal.slice(py, n)?,
            level: self.level.slice(py, n)?,
            steps: self.steps.slice(py, n)?,
            last: match &self.last {
                None => None,
                Some([o, d, e, m, l, s]) => Some(Last {
                    obs: o.slice(py, n * obs)?,
                    distance: d.slice(py, n)?,
                    ended: e.slice(py, n)?,
                    mask: m.slice(py, n * actions)?,
                    level: l.slice(py, n)?,
                    steps: s.slice(py, n)?,
                }),
            },
        })
    }
}

/// Environments over a level or a pack, stepped together.
#[pyclass(module = "floe._floe", name = "Envs")]
pub struct NativeEnvs {
    envs: Envs,
    arrays: Arrays,
}

/// Environments stepped on the calling thread, the GIL held: releasing it costs more.
const ON_THE_CALLER: usize = 32;

/// The new observation and mask arrays of a step asked for them.
type Fresh = (Py<PyByteArray>, Py<PyByteArray>);

impl NativeEnvs {
    /// The observation and mask arrays, when `fresh`.
    fn fresh(&self, py: Python<'_>, fresh: bool) -> Option<Fresh> {
        fresh.then(|| {
            (
                self.arrays.obs.bytes.clone_ref(py),
                self.arrays.mask.bytes.clone_ref(py),
            )
        })
    }
    /// New arrays for the observations and masks, when `fresh`.
    fn renew(&mut self, py: Python<'_>, fresh: bool) -> PyResult<()> {
        if fresh {
            self.arrays.obs.renew(py)?;
            self.arrays.mask.renew(py)?;
        }
        Ok(())
    }
    /// Runs `work` on the envs, their actions (from the `actions` array when `actions`) and
    /// their rows: on the calling thread for a few, else with the GIL released on the
    /// process's threads.
    fn run(
        &mut self,
        py: Python<'_>,
        actions: bool,
        work: impl FnOnce(&mut Envs, &[i64], &mut Out<'_>) -> Result<(), Error> + Send,
    ) -> PyResult<()> {
        let NativeEnvs { envs, arrays } = self;
        let n = envs.len();
        let t = &envs.tables()[0];
        let (o, a) = (t.obs_len(), t.actions);
        // Safety: the arrays are this object's own (its Python part keeps its views
        // private), and `&mut self` keeps any other call out meanwhile.
        let (mut out, acts) = unsafe {
            let out = arrays.out(py, n, o, a).map_err(|e| to_py_err(py, e))?;
            let acts: &[i64] = if actions {
                arrays.actions.slice(py, n).map_err(|e| to_py_err(py, e))?
            } else {
                &[]
            };
            (out, acts)
        };
        let r = if n <= ON_THE_CALLER {
            work(envs, acts, &mut out)
        } else {
            py.detach(|| pool().install(|| work(envs, acts, &mut out)))
        };
        r.map_err(|e| to_py_err(py, e))
    }
}

#[pymethods]
impl NativeEnvs {
    /// `n` environments over `tables`, seeded `seed`, `seed + 1`, …
    #[new]
    #[pyo3(signature = (tables, n, seed, max_steps, step_reward, illegal_reward, start, max_distance, end_when_lost, autoreset))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        tables: Vec<PyRef<'_, NativeTable>>,
        n: usize,
        seed: u64,
        max_steps: u32,
        step_reward: f64,
        illegal_reward: f64,
        start: &str,
        max_distance: Option<u32>,
        end_when_lost: bool,
        autoreset: &str,
    ) -> PyResult<NativeEnvs> {
        let start = match start {
            "level" => Start::Level,
            "random" => Start::Random { max_distance },
            _ => {
                return Err(PyValueError::new_err(format!(
                    "start: 'level' or 'random', not {start:?}"
                )))
            }
        };
        let autoreset = match autoreset {
            "next-step" => Autoreset::NextStep,
            "same-step" => Autoreset::SameStep,
            "disabled" => Autoreset::Disabled,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "autoreset: 'next-step', 'same-step' or 'disabled', not {autoreset:?}"
                )))
            }
        };
        let options = Options {
            max_steps,
            step_reward,
            illegal_reward,
            start,
            end_when_lost,
            autoreset,
        };
        let same = options.autoreset == Autoreset::SameStep;
        let tables = tables.iter().map(|t| t.table.clone()).collect();
        let envs = Envs::new(tables, n, options, seed).map_err(|e| to_py_err(py, e))?;
        let t = &envs.tables()[0];
        let arrays = Arrays::new(py, n, t.obs_len(), t.actions, same);
        Ok(NativeEnvs { envs, arrays })
    }
    /// The environments' arrays by name (`bytearray`s for `numpy.frombuffer`): `actions`
    /// (`int64`, one per environment, read by [`NativeEnvs::step`]), `obs` (`n × planes ×
    /// rows × cols` bytes), `reward` (`float64`), `terminated` and `truncated` (`bool`),
    /// `mask` (`n × actions`, `bool`), `distance` (`int32`), `legal` (`bool`), `level` and
    /// `steps` (`int32`), and with same-step autoreset `last_obs`, `last_distance`,
    /// `last_ended`, `last_mask`, `last_level` and `last_steps`.
    fn arrays<'py>(&self, py: Python<'py>) -> Vec<(&'static str, Bound<'py, PyByteArray>)> {
        self.arrays
            .all()
            .into_iter()
            .map(|a| (a.name, a.bytes.bind(py).clone()))
            .collect()
    }
    /// Seeds environment `i`'s draws.
    fn seed(&mut self, i: usize, seed: u64) -> PyResult<()> {
        if i >= self.envs.len() {
            return Err(PyValueError::new_err(format!("no environment {i}")));
        }
        self.envs.seed(i, seed);
        Ok(())
    }
    /// Starts new episodes: in every environment, or where `which` (one `bool` per
    /// environment) says; at `at` when given (a level of the pack and one of its positions:
    /// one for all, or one each).
    /// With `fresh`, the observations and masks go to new arrays (`obs` and `mask` of
    /// [`NativeEnvs::arrays`] from then on).
    #[pyo3(signature = (which=None, at=None, fresh=false))]
    fn reset(
        &mut self,
        py: Python<'_>,
        which: Option<Vec<bool>>,
        at: Option<Vec<(u32, u32)>>,
        fresh: bool,
    ) -> PyResult<Option<Fresh>> {
        self.renew(py, fresh)?;
        self.run(py, false, move |envs, _, out| {
            envs.reset(which.as_deref(), at.as_deref(), out)
        })?;
        Ok(self.fresh(py, fresh))
    }
    /// Steps every environment with the actions of the `actions` array; `fresh` as in
    /// [`NativeEnvs::reset`]: what a caller that hands out the observations asks for,
    /// instead of copying them (a copy read from the cores that wrote it costs more than
    /// the step).
    #[pyo3(signature = (fresh=false))]
    fn step(&mut self, py: Python<'_>, fresh: bool) -> PyResult<Option<Fresh>> {
        self.renew(py, fresh)?;
        self.run(py, true, |envs, acts, out| envs.step(acts, out))?;
        Ok(self.fresh(py, fresh))
    }
    /// Writes a random action per environment (one of its moves, uniformly) into the
    /// `actions` array.
    fn random_actions(&mut self, py: Python<'_>) -> PyResult<()> {
        let n = self.envs.len();
        // Safety: as in `run`
        let acts =
            unsafe { self.arrays.actions.slice::<i64>(py, n) }.map_err(|e| to_py_err(py, e))?;
        let envs = &mut self.envs;
        let r = if n <= ON_THE_CALLER {
            envs.random_actions(acts)
        } else {
            py.detach(|| pool().install(|| envs.random_actions(acts)))
        };
        r.map_err(|e| to_py_err(py, e))
    }
    /// Steps the one environment of a single environment with `action` (no array written).
    fn step1(&mut self, py: Python<'_>, action: i64) -> PyResult<()> {
        self.run(py, false, move |envs, _, out| envs.step(&[action], out))
    }
    /// Environment `i`'s level in the pack and position.
    fn at(&self, i: usize) -> PyResult<(usize, u32)> {
        if i >= self.envs.len() {
            return Err(PyValueError::new_err(format!("no environment {i}")));
        }
        Ok(self.envs.at(i))
    }
    /// How many environments.
    fn __len__(&self) -> usize {
        self.envs.len()
    }
}
