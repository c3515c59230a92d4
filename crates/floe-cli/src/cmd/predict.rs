//! `floe predict`: a PushPush board's solvability, fewest pushes and difficulty by a
//! trained model (crate floe-learn).

use crate::args::PredictArgs;
use crate::out;
use crate::Done;
use floe::games::pushpush::PushPush;
use floe::ops::Request;
use floe::Error;
use floe_learn::data::{from_board, Example, Split};
use floe_learn::model::{Head, Net};
use serde::Serialize;
use std::time::Instant;

#[derive(Serialize)]
struct PredictOut {
    level: String,
    model: String,
    solvable: Option<f32>,
    pushes: Option<serde_json::Map<String, serde_json::Value>>,
    difficulty: Option<serde_json::Map<String, serde_json::Value>>,
    millis: f64,
}

/// `floe predict`.
pub fn run(a: PredictArgs) -> Result<Done, Error> {
    let t0 = Instant::now();
    let (net, _) = Net::load(&a.model)?;
    let req = Request::from_path(&a.file)
        .game(Some("pushpush"))
        .level(a.level.as_deref())
        .resolve()?;
    let b = &req
        .level
        .typed::<PushPush>()
        .expect("a PushPush request holds a PushPush level")
        .board;
    let (blocks, robot, target) = from_board(b)?;
    let e = Example {
        blocks,
        robot,
        target,
        pushes: -1,
        difficulty: None,
        class: 0,
        split: Split::Test,
    };
    let probs = net.predict(b.rows(), b.cols(), &[e])?;
    let mut o = PredictOut {
        level: req.level.name().to_string(),
        model: net.spec.arch.name().to_string(),
        solvable: None,
        pushes: None,
        difficulty: None,
        millis: 0.0,
    };
    let map = |h: Head, p: &[f32]| {
        p.iter()
            .enumerate()
            .map(|(k, v)| (h.label(k), serde_json::json!(v)))
            .collect::<serde_json::Map<_, _>>()
    };
    for (h, p) in net.spec.heads.iter().zip(&probs) {
        let p = &p[0];
        match h {
            Head::Solvable => o.solvable = Some(p[1]),
            Head::Pushes { .. } => {
                o.solvable.get_or_insert(1.0 - p[0]);
                o.pushes = Some(map(*h, p));
            }
            Head::Difficulty => o.difficulty = Some(map(*h, p)),
        }
    }
    o.millis = t0.elapsed().as_secs_f64() * 1000.0;
    if a.json {
        out::json(&o);
    } else {
        outln!("{} ({} model, {:.1} ms)", o.level, o.model, o.millis);
        if let Some(p) = o.solvable {
            outln!("  solvable: {:.3}", p);
        }
        let best = |m: &serde_json::Map<String, serde_json::Value>| {
            m.iter()
                .map(|(k, v)| format!("{k}: {:.3}", v.as_f64().unwrap_or(0.0)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if let Some(m) = &o.pushes {
            outln!("  fewest pushes (-1 = unsolvable): {}", best(m));
        }
        if let Some(m) = &o.difficulty {
            outln!("  difficulty class, if solvable: {}", best(m));
        }
    }
    Ok(Done::Answered)
}
