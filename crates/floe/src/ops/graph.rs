//! The whole state graph of a level of any game, as arrays (`floe graph`, `/api/graph`,
//! `floe.graph`): every reachable position numbered breadth first from the start (0), its
//! distance from the start, whether it is solved and whether a solved position can still be
//! reached from it, the moves between positions in compressed rows (CSR: the moves out of
//! position `i` go to `indices[indptr[i]..indptr[i + 1]]`), and on demand each position in
//! the game's text notation (under a `Game:` line naming the game and its parameters, so
//! that it reads back as a level of the same game) and each move in the form of `floe
//! solve`'s moves.
//!
//! The graph is [`crate::search::graph`]'s, built by the game's engine; the positions are
//! the game's own, replayed along the breadth-first tree by the game's rules, so each text
//! is a position the rules reach. It is built whole or not at all, within the limits: the
//! memory budget among them, which stops it cleanly. (No estimate refuses it before it
//! starts: the games bound their positions by ranks, often a thousand times more than
//! are reachable, and a graph's memory follows the positions reached.)

use super::solve::{limit_name, params_of};
use crate::error::Error;
use crate::game::{Engine, Game, Move, ParamValues, Task};
use crate::render::thousands;
use crate::search::graph::build_graph_with;
use crate::search::Limits;
use serde::Serialize;
use std::fmt;

/// What to keep besides the graph's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts {
    /// Each position's text.
    pub positions: bool,
    /// Each edge's move.
    pub moves: bool,
}

/// The state graph of a level (`floe graph --json`).
#[derive(Clone, Debug, Serialize)]
pub struct GraphReport {
    /// The game's name.
    pub game: &'static str,
    /// The level's name.
    pub level: String,
    /// The parameters in force.
    pub params: ParamValues,
    /// Whether the whole graph was built, its position texts included (else the arrays are
    /// empty: a limit stopped it, `limit` says which).
    pub complete: bool,
    /// The limit that stopped it.
    pub limit: Option<&'static str>,
    /// Positions (stored when a limit stopped it).
    pub states: u64,
    /// Moves between positions (stored when a limit stopped it).
    pub edges: u64,
    /// The farthest position's distance from the start (`None` when a limit stopped it).
    pub depth: Option<u32>,
    /// The nearest solved position's distance from the start (`None`: none is reachable).
    pub nearest_solved: Option<u32>,
    /// How many positions are solved.
    pub solved_count: u64,
    /// From how many positions a solved one can still be reached (the start's included when
    /// the level is solvable).
    pub solvable_count: u64,
    /// Each position's distance from the start, in the game's moves (pushes).
    pub distance: Vec<u32>,
    /// Whether each position is solved.
    pub solved: Vec<bool>,
    /// Whether a solved position can be reached from each position.
    pub solvable: Vec<bool>,
    /// Row offsets: the moves out of position `i` are `indptr[i]..indptr[i + 1]` (`[0]`
    /// when a limit stopped it: no rows).
    pub indptr: Vec<u64>,
    /// The position each move leads to.
    pub indices: Vec<u32>,
    /// Each move, as `floe solve --json` writes moves (when asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<Move>>,
    /// Each position in the game's text notation (unless left out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions: Option<Vec<String>>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The game's word for one move and for several (`push`, `pushes`), for the text.
    #[serde(skip)]
    pub words: (&'static str, &'static str),
}

impl fmt::Display for GraphReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (one, many) = self.words;
        let n = |k: u64, w1: &str, w2: &str| {
            format!("{} {}", thousands(k), if k == 1 { w1 } else { w2 })
        };
        if !self.complete {
            return write!(
                f,
                "{}: no graph: stopped by {} after storing {} and {}",
                self.level,
                self.limit.unwrap_or("a limit"),
                n(self.states, "position", "positions"),
                n(self.edges, "move", "moves")
            );
        }
        writeln!(
            f,
            "{}: {}, {} between them; the farthest is {} from the start",
            self.level,
            n(self.states, "position", "positions"),
            n(self.edges, one, many),
            n(self.depth.unwrap_or(0).into(), one, many)
        )?;
        match self.nearest_solved {
            Some(d) => write!(
                f,
                "{} solved, the nearest {} away; a solved position can be reached from {}",
                n(self.solved_count, "position", "positions"),
                n(d.into(), one, many),
                n(self.solvable_count, "position", "positions")
            ),
            None => write!(f, "no solved position can be reached"),
        }
    }
}

/// The graph's figures without its arrays, whatever the engine's states: what [`Build`]
/// hands back (the learning tables' graph too, [`super::env`]).
pub(crate) struct Shape<M> {
    /// The moves out of position `i` are `offsets[i]..offsets[i + 1]`.
    pub offsets: Vec<u64>,
    /// The position each move leads to.
    pub targets: Vec<u32>,
    /// Each move, the game's.
    pub moves: Vec<M>,
    /// Whether each position is solved.
    pub solved: Vec<bool>,
    /// Whether a solved position can be reached from each position.
    pub solvable: Vec<bool>,
    /// Each position's fewest moves from the start (positions are numbered breadth first).
    pub distance: Vec<u32>,
}

/// The task that builds a level's [`Shape`] on its engine, within the limits.
pub(crate) struct Build<'a>(pub &'a Limits);

impl<M> Task<M> for Build<'_> {
    type Output = Result<Shape<M>, crate::search::graph::GraphLimit>;
    fn run<E: Engine<Public = M>>(self, e: &E) -> Self::Output {
        let graph = build_graph_with(e, self.0, |m| e.public(&m))?;
        let n = graph.len() as u32;
        let solvable = graph.can_reach_goal();
        let solved = (0..n).map(|i| graph.is_goal(i)).collect();
        let distance = (0..n).map(|i| graph.depth(i)).collect();
        let offsets = graph.offsets().to_vec();
        let targets = graph.targets().to_vec();
        // the moves move out of the graph last: the states go with it
        let moves = graph.into_moves();
        Ok(Shape {
            offsets,
            targets,
            moves,
            solved,
            solvable,
            distance,
        })
    }
}

/// The breadth-first tree of a graph: each position's move in from one a move nearer the
/// start (its parent) and that parent (`u64::MAX` and 0 for the start). Numbering is
/// breadth first, so a parent always comes before its children.
pub(crate) fn tree<M>(s: &Shape<M>) -> (Vec<u64>, Vec<u32>) {
    let n = s.solved.len();
    let (mut via, mut parent) = (vec![u64::MAX; n], vec![0u32; n]);
    for u in 0..n {
        for e in s.offsets[u] as usize..s.offsets[u + 1] as usize {
            let v = s.targets[e] as usize;
            if v != 0 && via[v] == u64::MAX && s.distance[v] == s.distance[u] + 1 {
                (via[v], parent[v]) = (e as u64, u as u32);
            }
        }
    }
    (via, parent)
}

/// The position reached by the tree's move `via[v]` from `parent`'s position, played by the
/// game's rules: a move they refuse, or a position the tree does not reach, is a bug.
pub(crate) fn child<G: Game>(
    g: G,
    level: &G::Level,
    s: &Shape<G::Move>,
    v: usize,
    via: u64,
    parent: &G::Position,
) -> Result<G::Position, Error> {
    if via == u64::MAX {
        return Err(Error::Internal(format!(
            "position {v} of the graph has no move in from nearer the start"
        )));
    }
    let mut p = parent.clone();
    let m = &s.moves[via as usize];
    g.apply(level, &mut p, m).map_err(|why| {
        Error::Internal(format!(
            "the engine's move {m} is not legal by the game's rules: {why}"
        ))
    })?;
    Ok(p)
}

/// The state graph of `level` within `limits`.
pub(crate) fn graph<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    limits: &Limits,
    parts: Parts,
) -> Result<GraphReport, Error> {
    g.check(level)?;
    let began = std::time::Instant::now();
    let info = g.info();
    let mut r = GraphReport {
        game: info.name,
        level: name.to_string(),
        params: params_of(g, level),
        complete: false,
        limit: None,
        states: 0,
        edges: 0,
        depth: None,
        nearest_solved: None,
        solved_count: 0,
        solvable_count: 0,
        distance: Vec::new(),
        solved: Vec::new(),
        solvable: Vec::new(),
        indptr: vec![0],
        indices: Vec::new(),
        moves: None,
        positions: None,
        seconds: 0.0,
        words: (info.move_word, info.moves_word()),
    };
    let shape = match g.engine(level, None, Build(limits))? {
        Ok(s) => s,
        Err(stop) => {
            r.limit = limit_name(Some(stop.kind));
            r.states = stop.states;
            r.edges = stop.edges;
            r.seconds = began.elapsed().as_secs_f64();
            return Ok(r);
        }
    };
    if parts.positions {
        // the texts come after the graph's search, which watched the budget: they are
        // judged against it before they are made (the positions replayed, then their texts)
        let n = shape.solved.len() as u64;
        let text = g.position_text(level, &g.start(level)).len() as u64;
        let need = n.saturating_mul(text + 24 + std::mem::size_of::<G::Position>() as u64);
        let held = crate::mem::resident_bytes().unwrap_or(0);
        if limits
            .max_memory
            .is_some_and(|b| held.saturating_add(need) > b)
        {
            r.limit = Some(crate::search::LimitKind::MaxMemory.name());
            r.states = n;
            r.edges = shape.targets.len() as u64;
            r.seconds = began.elapsed().as_secs_f64();
            return Ok(r);
        }
        r.positions = Some(positions(g, level, &shape)?);
    }
    r.complete = true;
    r.states = shape.solved.len() as u64;
    r.edges = shape.targets.len() as u64;
    r.depth = shape.distance.last().copied();
    r.nearest_solved = shape
        .solved
        .iter()
        .position(|&s| s)
        .map(|i| shape.distance[i]);
    r.solved_count = shape.solved.iter().filter(|&&s| s).count() as u64;
    r.solvable_count = shape.solvable.iter().filter(|&&s| s).count() as u64;
    if parts.moves {
        r.moves = Some(shape.moves.into_iter().map(Move::new).collect());
    }
    r.distance = shape.distance;
    r.solved = shape.solved;
    r.solvable = shape.solvable;
    r.indptr = shape.offsets;
    r.indices = shape.targets;
    r.seconds = began.elapsed().as_secs_f64();
    Ok(r)
}

/// The `Game:` line of a level of `g`: its name and the parameters in force
/// (`Game: pushpush(k=2)`), so that a text that carries it is read as a level of the same
/// game and rules.
fn game_header<G: Game>(g: G, level: &G::Level) -> String {
    let params: Vec<String> = g
        .params(level)
        .into_iter()
        .filter_map(|(k, v)| match v {
            serde_json::Value::Bool(true) => Some(k.to_string()),
            serde_json::Value::Bool(false) | serde_json::Value::Null => None,
            serde_json::Value::String(s) => Some(format!("{k}={s}")),
            other => Some(format!("{k}={other}")),
        })
        .collect();
    if params.is_empty() {
        format!("Game: {}\n", g.info().name)
    } else {
        format!("Game: {}({})\n", g.info().name, params.join(","))
    }
}

/// Each position of the graph in the game's text under its `Game:` line, replayed from the
/// start along the breadth-first tree (each position's first move in from one a move nearer
/// the start).
fn positions<G: Game>(g: G, level: &G::Level, s: &Shape<G::Move>) -> Result<Vec<String>, Error> {
    let n = s.solved.len();
    let (via, parent) = tree(s);
    let mut at = Vec::with_capacity(n);
    at.push(g.start(level));
    for v in 1..n {
        let p = child(g, level, s, v, via[v], &at[parent[v] as usize])?;
        at.push(p);
    }
    let header = game_header(g, level);
    Ok(at
        .iter()
        .map(|p| format!("{header}{}", g.position_text(level, p)))
        .collect())
}

#[cfg(test)]
mod tests {
    use crate::ops::{level_of, Request};
    use crate::request::{Context, Graph, Operation};

    fn zelda(name: &str) -> crate::ops::Level {
        Request::from_text(include_str!("../../../../levels/zelda.txt"), "zelda")
            .level(Some(name))
            .resolve()
            .unwrap()
            .level
    }

    #[test]
    fn a_room_of_the_thesis_has_its_published_figures() {
        let r = zelda("TPIBC3")
            .run(&Graph::default(), &Context::default())
            .unwrap();
        assert!(r.complete);
        assert_eq!(
            (r.states, r.depth, r.nearest_solved),
            (1242, Some(17), Some(11))
        );
        // the space's figures agree with the enumeration's
        let space = zelda("TPIBC3")
            .space(&crate::search::Limits::none())
            .unwrap();
        assert_eq!(r.states, space.states);
        let mut histogram = vec![0u64; r.depth.unwrap() as usize + 1];
        for &d in &r.distance {
            histogram[d as usize] += 1;
        }
        assert_eq!(histogram, space.histogram);
        // compressed rows: one row per position, every target a position
        assert_eq!(r.indptr.len(), r.distance.len() + 1);
        assert_eq!(*r.indptr.last().unwrap(), r.edges);
        assert!(r.indices.iter().all(|&v| (v as u64) < r.states));
        // a move changes the distance by at most one away from the start
        for u in 0..r.distance.len() {
            for e in r.indptr[u] as usize..r.indptr[u + 1] as usize {
                assert!(r.distance[r.indices[e] as usize] <= r.distance[u] + 1);
            }
        }
        // every solved position can reach a solved one; the start can
        assert!(r.solved.iter().zip(&r.solvable).all(|(&s, &c)| !s || c));
        assert!(r.solvable[0]);
        assert_eq!(
            r.solved_count,
            r.solved.iter().filter(|&&s| s).count() as u64
        );
    }

    #[test]
    fn each_position_is_the_one_its_distance_says() {
        let level = zelda("TPIBC3");
        let r = level
            .run(
                &Graph {
                    moves: true,
                    ..Graph::default()
                },
                &Context::default(),
            )
            .unwrap();
        let texts = r.positions.as_ref().unwrap();
        let moves = r.moves.as_ref().unwrap();
        assert_eq!(
            (texts.len() as u64, moves.len() as u64),
            (r.states, r.edges)
        );
        // the positions are distinct, the start is the level's own start
        let distinct: std::collections::HashSet<&String> = texts.iter().collect();
        assert_eq!(distinct.len(), texts.len());
        // a solved position's text, read as a level, is solved at once
        let i = r.solved.iter().position(|&s| s).unwrap();
        assert_eq!(r.distance[i], 11);
        let solved = Request::from_text(texts[i].clone(), "p").resolve().unwrap();
        let v = solved.level.verify(&[], None).unwrap();
        assert!(v.solved, "{}", texts[i]);
        // and the nearest one's solution from the start has its distance in pushes
        let s = level.solve(&Default::default()).unwrap();
        assert_eq!(s.length, Some(11));
    }

    #[test]
    fn a_limit_stops_the_graph_and_says_so() {
        let mut op = Graph::default();
        op.limits.max_states = Some(100);
        let r = zelda("TPIBC3").run(&op, &Context::default()).unwrap();
        assert!(!r.complete && !Graph::complete(&r));
        assert_eq!(r.limit, Some("max-states"));
        assert!(r.distance.is_empty() && r.positions.is_none());
        // no rows, and no farthest position to speak of
        assert_eq!((r.indptr.clone(), r.depth), (vec![0], None));
        assert!(r.to_string().contains("no graph"), "{r}");
    }

    #[test]
    fn a_game_of_moves_gives_its_graph_too() {
        // every game's graph is checked against space and analyze in floe-cli/tests/games.rs
        let r = level_of("pushpush", "@$--\n##-.\n")
            .run(&Graph::default(), &Context::default())
            .unwrap();
        assert_eq!((r.complete, r.nearest_solved), (true, Some(1)));
        // each position under its game line: it reads back as a PushPush level, k = 1
        assert_eq!(
            r.positions.as_ref().unwrap()[0],
            "Game: pushpush(k=1)\n@$--\n##-.\n"
        );
    }

    #[test]
    fn the_request_reads_its_keywords_and_refuses_others() {
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        let op =
            Graph::from_pairs(&pairs(&[("moves", "true"), ("max_states", "5")]), "x", &[]).unwrap();
        assert!(op.moves && op.positions);
        assert_eq!(op.limits.max_states, Some(5));
        let e =
            Graph::from_pairs(&pairs(&[("levle", "1")]), "floe.graph()", &["level"]).unwrap_err();
        assert!(
            e.contains("unknown parameter 'levle' for floe.graph()"),
            "{e}"
        );
        assert!(e.contains("positions, moves, max_states"), "{e}");
        assert!(e.ends_with(", level"), "{e}");
        let op = Graph::from_pairs(&pairs(&[("positions", "false")]), "x", &[]).unwrap();
        assert!(!op.positions);
        let e = Graph::from_pairs(&pairs(&[("max_states", "-1")]), "x", &[]).unwrap_err();
        assert!(e.contains("'max_states'"), "{e}");
        assert_eq!(
            Graph::parameters(),
            [
                "positions",
                "moves",
                "max_states",
                "timeout",
                "max_memory",
                "force"
            ]
        );
    }
}
