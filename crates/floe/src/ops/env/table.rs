//! A level's learning tables: its whole state graph with each move numbered by the game's
//! fixed action encoding, each position's fewest moves to a solved one, and each position's
//! observation planes. Built once per level ([`Level::env_table`](crate::ops::Level)), within
//! the limits, and shared by every environment of the level ([`super::Envs`]).
//!
//! The graph is the game's engine's (the moves it lists, [`crate::ops::graph`]'s); the
//! positions are replayed along the breadth-first tree by the game's rules, and each is drawn
//! as a [`Scene`], whose cells light the planes the game lists in its
//! [`Learning`](crate::game::Learning) ([`plane_names`]). A position's planes are kept as the
//! cells in which it differs from the start's ground, so a table costs some bytes a position
//! beside its moves.

use crate::error::Error;
use crate::game::Game;
use crate::ops::graph::{child, tree, Build, Shape};
use crate::scene::{Lit, PieceKind, Planes, Scene, NO_PLANE as NONE};
use crate::search::{LimitKind, Limits};
use rayon::prelude::*;
use std::time::Instant;

/// A cell of a position that differs from the start's ground: where, and the planes it
/// lights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Diff {
    at: u32,
    lit: Lit,
}

/// Why a table was not built: the limit that stopped its graph or the memory its tables
/// would need beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// The limit (`max-states`, `timeout`, `max-memory`, `interrupted`).
    pub limit: &'static str,
    /// Positions stored when it stopped.
    pub states: u64,
    /// Moves stored when it stopped.
    pub edges: u64,
}

/// A level's learning tables (see the module's text).
#[derive(Debug)]
pub struct Table {
    /// The game's name.
    pub game: &'static str,
    /// The level's name.
    pub level: String,
    /// Rows of the observations (the level's picture).
    pub rows: usize,
    /// Columns of the observations.
    pub cols: usize,
    /// The planes' names, in order (the game's [`Learning::planes`](crate::game::Learning)).
    pub planes: &'static [&'static str],
    /// How many actions (the game's encoding for this level).
    pub actions: usize,
    /// Seconds it took to build.
    pub seconds: f64,
    /// Each position's moves are `edges[offsets[s]..offsets[s + 1]]`.
    offsets: Vec<u64>,
    /// (action, position it leads to), each position's ordered by action, one per action.
    edges: Vec<(u32, u32)>,
    /// Each position's fewest moves to a solved position, −1 when none can be reached.
    to_goal: Vec<i32>,
    /// Each position's fewest moves from the start.
    depth: Vec<u32>,
    /// The planes of the start's ground alone, `planes × rows × cols`.
    base: Vec<u8>,
    /// Each cell's planes in `base`.
    base_lit: Vec<Lit>,
    /// Each position's cells that differ from `base` are `diffs[diff_at[s]..diff_at[s + 1]]`.
    diff_at: Vec<u64>,
    diffs: Vec<Diff>,
    /// The positions from which the level can be solved and that are not solved, by their
    /// fewest moves to a solved one (random starts).
    playable: Vec<u32>,
}

impl Table {
    /// Positions.
    pub fn states(&self) -> usize {
        self.to_goal.len()
    }
    /// Moves between positions.
    pub fn edges(&self) -> usize {
        self.edges.len()
    }
    /// The size of one observation: planes × rows × columns.
    pub fn obs_len(&self) -> usize {
        self.planes.len() * self.rows * self.cols
    }
    /// `(planes, rows, cols, actions)`: what must agree for levels to share environments.
    pub fn shape(&self) -> (usize, usize, usize, usize) {
        (self.planes.len(), self.rows, self.cols, self.actions)
    }
    /// The fewest moves from `s` to a solved position, −1 when none can be reached.
    pub fn to_goal(&self, s: u32) -> i32 {
        self.to_goal[s as usize]
    }
    /// The fewest moves from the start to `s`.
    pub fn depth(&self, s: u32) -> u32 {
        self.depth[s as usize]
    }
    /// Every position's fewest moves to a solved one (−1: none), by position number
    /// (breadth first from the start, 0).
    pub fn distances(&self) -> &[i32] {
        &self.to_goal
    }
    /// `s`'s moves: (action, the position it leads to), ordered by action.
    pub fn moves(&self, s: u32) -> &[(u32, u32)] {
        &self.edges[self.offsets[s as usize] as usize..self.offsets[s as usize + 1] as usize]
    }
    /// The position action `a` leads to from `s`, `None` when `a` is not a move there.
    pub fn next(&self, s: u32, a: u32) -> Option<u32> {
        let m = self.moves(s);
        // a position has a few dozen moves: a scan beats a search
        m.iter().find(|&&(x, _)| x == a).map(|&(_, t)| t)
    }
    /// The positions a random start draws from: those that can be solved and are not,
    /// ordered by their fewest moves to a solved one.
    pub fn playable(&self) -> &[u32] {
        &self.playable
    }
    /// How many of [`Table::playable`] are at most `d` moves from a solved position.
    pub fn playable_within(&self, d: u32) -> usize {
        self.playable
            .partition_point(|&s| self.to_goal[s as usize] <= d as i32)
    }
    /// Writes `s`'s observation into `out` (`planes × rows × cols` bytes, 0 or 1).
    pub fn observe(&self, s: u32, out: &mut [u8]) {
        out.copy_from_slice(&self.base);
        let cells = self.rows * self.cols;
        let from = self.diff_at[s as usize] as usize;
        let to = self.diff_at[s as usize + 1] as usize;
        for d in &self.diffs[from..to] {
            let at = d.at as usize;
            for &p in self.base_lit[at].iter().take_while(|&&p| p != NONE) {
                out[p as usize * cells + at] = 0;
            }
            for &p in d.lit.iter().take_while(|&&p| p != NONE) {
                out[p as usize * cells + at] = 1;
            }
        }
    }
    /// Writes `s`'s action mask into `out` (`actions` bytes, 1 where a move is).
    pub fn mask(&self, s: u32, out: &mut [u8]) {
        out.fill(0);
        for &(a, _) in self.moves(s) {
            out[a as usize] = 1;
        }
    }
}

/// Builds the tables of `level` (a level of `g` named `name`) within `limits`: `Ok(Err(…))`
/// when a limit stops it, an error when the game has no learning environment or its engine
/// and rules disagree.
pub(crate) fn build<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    limits: &Limits,
) -> Result<Result<Table, Stopped>, Error> {
    let info = g.info();
    let learning = info
        .capabilities
        .learning
        .ok_or_else(|| Error::invalid(format!("{} has no learning environment", info.title)))?;
    g.check(level)?;
    let began = Instant::now();
    let actions = g.action_count(level);
    if actions == 0 || actions > u32::MAX as usize {
        return Err(Error::invalid(format!(
            "{name}: {actions} actions is no action space"
        )));
    }
    let shape = match g.engine(level, None, Build(limits))? {
        Ok(s) => s,
        Err(stop) => {
            return Ok(Err(Stopped {
                limit: stop.kind.name(),
                states: stop.states,
                edges: stop.edges,
            }))
        }
    };
    let n = shape.distance.len();
    // the tables beside the graph: judged against the budget before they are made
    let per_state = 8 + 4 + 4 + 4 + 8 + 8 * 8;
    let need = (n as u64).saturating_mul(per_state) + shape.targets.len() as u64 * 8;
    let held = crate::mem::resident_bytes().unwrap_or(0);
    if limits
        .max_memory
        .is_some_and(|b| held.saturating_add(need) > b)
    {
        return Ok(Err(Stopped {
            limit: LimitKind::MaxMemory.name(),
            states: n as u64,
            edges: shape.targets.len() as u64,
        }));
    }
    let (offsets, edges) = numbered(g, level, &shape, actions)?;
    let to_goal = to_goal(&offsets, &edges, &shape.solved);
    let start = g.start(level);
    let start_scene = g.scene(level, &start);
    let (rows, cols) = (start_scene.rows, start_scene.cols);
    if rows * cols > u32::MAX as usize {
        return Err(Error::invalid(format!(
            "{name}: a board of {rows}×{cols} cells is too large"
        )));
    }
    let lighting = Planes::new(learning.planes);
    let base_lit: Vec<Lit> = start_scene
        .ground
        .iter()
        .map(|&gr| lighting.lit(gr, None))
        .collect::<Result<_, _>>()?;
    let cells = rows * cols;
    let mut base = vec![0u8; learning.planes.len() * cells];
    for (at, lit) in base_lit.iter().enumerate() {
        for &p in lit.iter().take_while(|&&p| p != NONE) {
            base[p as usize * cells + at] = 1;
        }
    }
    let base_ground = start_scene.ground.clone();
    let (diff_at, diffs) = match drawn(
        g,
        level,
        &shape,
        start,
        |scene| {
            if (scene.rows, scene.cols) != (rows, cols) {
                return Err(Error::Internal(format!(
                    "a position of {name} is drawn {}×{}, its start {rows}×{cols}",
                    scene.rows, scene.cols
                )));
            }
            let mut out = Vec::new();
            let mut piece: Vec<Option<PieceKind>> = vec![None; cells];
            for p in &scene.pieces {
                let at = p.at.0 * cols + p.at.1;
                if piece[at].is_some() {
                    return Err(Error::Internal(format!(
                        "a position of {name} has two pieces on row {}, col {}",
                        p.at.0, p.at.1
                    )));
                }
                piece[at] = Some(p.kind);
            }
            for at in 0..cells {
                let gr = scene.ground[at];
                if gr != base_ground[at] || piece[at].is_some() {
                    out.push(Diff {
                        at: at as u32,
                        lit: lighting.lit(gr, piece[at])?,
                    });
                }
            }
            Ok(out)
        },
        limits,
        began,
    )? {
        Ok(d) => d,
        Err(limit) => {
            return Ok(Err(Stopped {
                limit: limit.name(),
                states: n as u64,
                edges: edges.len() as u64,
            }))
        }
    };
    let mut playable: Vec<u32> = (0..n as u32).filter(|&s| to_goal[s as usize] > 0).collect();
    playable.sort_by_key(|&s| to_goal[s as usize]);
    Ok(Ok(Table {
        game: info.name,
        level: name.to_string(),
        rows,
        cols,
        planes: learning.planes,
        actions,
        seconds: began.elapsed().as_secs_f64(),
        offsets,
        edges,
        to_goal,
        depth: shape.distance,
        base,
        base_lit,
        diff_at,
        diffs,
        playable,
    }))
}

/// Compressed rows of moves: each position's first move, and (action, target) per move.
type Rows = (Vec<u64>, Vec<(u32, u32)>);

/// Each position's moves as (action, target), ordered by action: the engine's moves named by
/// the game's encoding. A move the encoding cannot name, or one action leading two ways, is
/// a bug of the game, not a move.
fn numbered<G: Game>(
    g: G,
    level: &G::Level,
    s: &Shape<G::Move>,
    actions: usize,
) -> Result<Rows, Error> {
    let n = s.distance.len();
    let mut offsets = Vec::with_capacity(n + 1);
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(s.targets.len());
    offsets.push(0u64);
    for u in 0..n {
        let from = edges.len();
        for e in s.offsets[u] as usize..s.offsets[u + 1] as usize {
            let m = &s.moves[e];
            let a = g.action(level, m).filter(|&a| a < actions).ok_or_else(|| {
                Error::Internal(format!(
                    "the move {m} has no number among the level's {actions} actions"
                ))
            })?;
            edges.push((a as u32, s.targets[e]));
        }
        let row = &mut edges[from..];
        row.sort_unstable();
        // the engine may list a move twice (two ways to the same push): once is enough
        let mut keep = from;
        for i in from..edges.len() {
            let (a, t) = edges[i];
            if keep > from && edges[keep - 1].0 == a {
                if edges[keep - 1].1 != t {
                    return Err(Error::Internal(format!(
                        "action {a} leads to two positions from position {u}"
                    )));
                }
                continue;
            }
            edges[keep] = (a, t);
            keep += 1;
        }
        edges.truncate(keep);
        offsets.push(edges.len() as u64);
    }
    edges.shrink_to_fit();
    Ok((offsets, edges))
}

/// Each position's fewest moves to a solved one (−1: none), by a breadth-first search from
/// the solved positions over the moves reversed.
fn to_goal(offsets: &[u64], edges: &[(u32, u32)], solved: &[bool]) -> Vec<i32> {
    let n = solved.len();
    // the reversed moves in compressed rows
    let mut rev_at = vec![0u64; n + 1];
    for &(_, t) in edges {
        rev_at[t as usize + 1] += 1;
    }
    for i in 0..n {
        rev_at[i + 1] += rev_at[i];
    }
    let mut fill = rev_at.clone();
    let mut rev = vec![0u32; edges.len()];
    for u in 0..n {
        for &(_, t) in &edges[offsets[u] as usize..offsets[u + 1] as usize] {
            rev[fill[t as usize] as usize] = u as u32;
            fill[t as usize] += 1;
        }
    }
    drop(fill);
    let mut dist = vec![-1i32; n];
    let mut queue: Vec<u32> = Vec::new();
    for (i, &s) in solved.iter().enumerate() {
        if s {
            dist[i] = 0;
            queue.push(i as u32);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head] as usize;
        head += 1;
        for &u in &rev[rev_at[v] as usize..rev_at[v + 1] as usize] {
            if dist[u as usize] < 0 {
                dist[u as usize] = dist[v] + 1;
                queue.push(u);
            }
        }
    }
    dist
}

/// Each position's cells as `cells_of` makes them from its scene, in order: the positions
/// replayed by the game's rules along the breadth-first tree, a layer at a time (a
/// position's parent lies in the layer before, so only one layer of positions is held).
/// `Ok(Err(limit))` when the limits stop it between layers.
#[allow(clippy::type_complexity)]
fn drawn<G: Game>(
    g: G,
    level: &G::Level,
    s: &Shape<G::Move>,
    start: G::Position,
    cells_of: impl Fn(&Scene) -> Result<Vec<Diff>, Error> + Sync,
    limits: &Limits,
    began: Instant,
) -> Result<Result<(Vec<u64>, Vec<Diff>), LimitKind>, Error> {
    let n = s.distance.len();
    let (via, parent) = tree(s);
    let mut diff_at = Vec::with_capacity(n + 1);
    diff_at.push(0u64);
    let mut diffs = Vec::new();
    let mut layer: Vec<G::Position> = vec![start];
    let mut layer_from = 0usize;
    let first = cells_of(&g.scene(level, &layer[0]))?;
    diffs.extend(first);
    diff_at.push(diffs.len() as u64);
    let mut v = 1usize;
    while v < n {
        if crate::search::interrupted()
            || limits
                .stop
                .as_ref()
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Ok(Err(LimitKind::Interrupted));
        }
        if limits.timeout.is_some_and(|t| began.elapsed() > t) {
            return Ok(Err(LimitKind::Timeout));
        }
        let d = s.distance[v];
        let end = v + s.distance[v..].partition_point(|&x| x == d);
        let made: Vec<(G::Position, Vec<Diff>)> = (v..end)
            .into_par_iter()
            .map(|w| {
                let p = child(
                    g,
                    level,
                    s,
                    w,
                    via[w],
                    &layer[parent[w] as usize - layer_from],
                )?;
                let cells = cells_of(&g.scene(level, &p))?;
                Ok((p, cells))
            })
            .collect::<Result<_, Error>>()?;
        layer = Vec::with_capacity(made.len());
        for (p, cells) in made {
            diffs.extend(cells);
            diff_at.push(diffs.len() as u64);
            layer.push(p);
        }
        layer_from = v;
        v = end;
    }
    diffs.shrink_to_fit();
    Ok(Ok((diff_at, diffs)))
}
