//! `floe census pushpush`: every PushPush board of one size classified at once.

use super::indent;
use crate::args::CensusArgs;
use crate::cluster::Layout;
use crate::out::{self, human_time, thousands, Spinner};
use crate::Done;
use floe::games::pushpush::census::{
    census as run_census, census_layer, check_layers, combine, figures, hardest_solutions, layers,
    Census, CensusLayer, CensusOptions, LayerOutcome, Report, WorkDir, FIGURE_SUFFIXES,
};
use floe::games::pushpush::Variant;
use floe::grid::Push;
use floe::mem::RunIdentity;
use floe::Error;
use serde::Serialize;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// `floe census pushpush`.
pub fn run(a: CensusArgs) -> Result<Done, Error> {
    let mut o = CensusOptions::new(a.rows, a.cols);
    o.variant = Variant::new(a.k);
    o.difficulty = a.difficulty;
    o.hardest = a.hardest;
    o.limits = a.limits.limits();
    // --timeout counts from here, whatever layer is being computed
    o.began = Some(std::time::Instant::now());
    if let Some(b) = o.limits.max_memory {
        o.max_bytes = b;
    }
    if a.peers.active() {
        if a.layers.is_some() {
            return Err(Error::invalid(
                "--layers picks layers by hand; with --workers or --processes they are shared \
                 out: give one or the other",
            ));
        }
        return shared(&a, o);
    }
    if let Some(dir) = &a.work_dir {
        return match in_work_dir(&a, o, dir)? {
            FromWorkDir::Census(c) => report(&a, &c),
            FromWorkDir::Partial => Ok(Done::Answered),
            FromWorkDir::Stopped => Ok(Done::NoAnswer),
        };
    }
    let spinner = Spinner::attach(&mut o.limits, &format!("{}×{} census", a.rows, a.cols));
    let c = match run_census(&o)?.done() {
        Ok(c) => c,
        Err(s) => {
            drop(spinner);
            eprintln!(
                "floe: the census stopped {} after {} push steps over {} positions ({}); no census is reported",
                out::by(s.kind.name()),
                s.steps,
                thousands(s.positions),
                human_time(std::time::Duration::from_secs_f64(s.seconds))
            );
            return Ok(Done::NoAnswer);
        }
    };
    drop(spinner);
    report(&a, &c)
}

/// Prints a finished census: its hardest boards solved one by one, figures, JSON or tables.
///
/// The report is printed first: pictures that cannot be written (a full disk) lose no census.
fn report(a: &CensusArgs, c: &Census) -> Result<Done, Error> {
    let solutions = hardest_solutions(c)?;
    if a.json {
        let mut r = Report::new(c, &solutions);
        r.peak_memory_bytes = out::peak_rss_bytes();
        out::json(&r);
    } else {
        print_census(c, &solutions);
    }
    if let Some(path) = &a.svg {
        write_figures(c, path)?;
    }
    Ok(Done::Answered)
}

/// What a run that computed only some layers into the work directory prints with --json.
#[derive(Serialize)]
struct PartialJson {
    game: &'static str,
    rows: usize,
    cols: usize,
    k: usize,
    complete: bool,
    work_dir: String,
    layers_done: Vec<usize>,
    layers_missing: Vec<usize>,
    seconds: f64,
}

/// How a census through a work directory ended.
enum FromWorkDir {
    /// Every layer there: the census.
    Census(Box<Census>),
    /// The layers asked for are there, others are missing.
    Partial,
    /// A limit stopped a layer.
    Stopped,
}

/// The census through a work directory: the layers found there (with --resume), the
/// missing ones of --layers (or all) computed and saved one by one, then the merge when
/// every layer is there.
fn in_work_dir(a: &CensusArgs, mut o: CensusOptions, dir: &Path) -> Result<FromWorkDir, Error> {
    let t0 = std::time::Instant::now();
    let all: Vec<usize> = layers(&o)?.collect();
    if let Some(sel) = &a.layers {
        if let Some(k) = sel.0.iter().find(|&&k| k >= all.len()) {
            return Err(Error::invalid(format!(
                "--layers {k}: a {}×{} board has layers of 0 to {} blocks",
                a.rows,
                a.cols,
                all.len() - 1
            )));
        }
    }
    let wd = WorkDir::open(dir, a.resume, &o)?;
    let mut have = if a.resume {
        match wd.load(&o)? {
            Ok(have) => have,
            Err(kind) => {
                eprintln!(
                    "floe: the census stopped {} while it checked the layers in {}; run again with --resume to go on",
                    out::by(kind.name()),
                    dir.display()
                );
                return Ok(FromWorkDir::Stopped);
            }
        }
    } else {
        Vec::new()
    };
    let present: Vec<usize> = have.iter().map(|l| l.blocks).collect();
    let wanted: Vec<usize> = match &a.layers {
        Some(sel) => sel.0.clone(),
        None => all.clone(),
    };
    let todo: Vec<usize> = wanted
        .into_iter()
        .filter(|k| !present.contains(k))
        .collect();
    if !todo.is_empty() {
        check_layers(&o)?;
    }
    let terminal = std::io::stderr().is_terminal();
    for (i, &k) in todo.iter().enumerate() {
        let what = format!(
            "{}×{} census, layer {k} ({}/{})",
            a.rows,
            a.cols,
            i + 1,
            todo.len()
        );
        let spinner = Spinner::attach(&mut o.limits, &what);
        let outcome = census_layer(&o, k)?;
        drop(spinner);
        match outcome {
            LayerOutcome::Done(l) => {
                let path = wd.save(&o, &l)?;
                if terminal {
                    eprintln!(
                        "{what}: {} positions, {} of tables, {}, peak {} → {}",
                        thousands(l.positions),
                        out::human_bytes(l.table_bytes),
                        human_time(std::time::Duration::from_secs_f64(l.seconds)),
                        out::peak_rss_bytes().map_or("?".into(), out::human_bytes),
                        path.display()
                    );
                }
                have.push(*l);
            }
            LayerOutcome::Limit {
                kind,
                steps,
                positions,
                seconds,
            } => {
                eprintln!(
                    "floe: the census stopped {} in layer {k} after {steps} push steps over {} positions ({}); the {} finished layers are in {}: run again with --resume to go on",
                    out::by(kind.name()),
                    thousands(positions),
                    human_time(std::time::Duration::from_secs_f64(seconds)),
                    have.len(),
                    dir.display()
                );
                return Ok(FromWorkDir::Stopped);
            }
        }
    }
    if have.len() < all.len() {
        let done: Vec<usize> = {
            let mut d: Vec<usize> = have.iter().map(|l| l.blocks).collect();
            d.sort_unstable();
            d
        };
        let missing: Vec<usize> = all.iter().copied().filter(|k| !done.contains(k)).collect();
        eprintln!(
            "floe: {} of {} layers are in {}; missing: {}. Run again with --resume to compute them (--layers to share them out)",
            done.len(),
            all.len(),
            dir.display(),
            missing
                .iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        if a.json {
            out::json(&PartialJson {
                game: "pushpush",
                rows: a.rows,
                cols: a.cols,
                k: a.k,
                complete: false,
                work_dir: dir.display().to_string(),
                layers_done: done,
                layers_missing: missing,
                seconds: t0.elapsed().as_secs_f64(),
            });
        }
        return Ok(FromWorkDir::Partial);
    }
    Ok(FromWorkDir::Census(Box::new(combine(&o, have)?)))
}

/// What a worker of a shared census sends to worker 0.
#[derive(Serialize, serde::Deserialize)]
enum Part {
    /// Its layers, computed or read from the work directory.
    Layers(Vec<CensusLayer>),
    /// A limit stopped it, for this reason.
    Stopped(String),
}

/// Shares the layers out between workers (the largest first, each to the least loaded
/// worker): worker of each layer.
fn share_out(cells: usize, layers: &[usize], peers: usize) -> Vec<usize> {
    let weight = |k: usize| {
        // C(cells, k) block sets, the layer's size
        (0..k).fold(1.0f64, |c, i| c * (cells - i) as f64 / (i + 1) as f64)
    };
    let mut order: Vec<usize> = (0..layers.len()).collect();
    order.sort_by(|&x, &y| {
        weight(layers[y])
            .total_cmp(&weight(layers[x]))
            .then(x.cmp(&y))
    });
    let mut load = vec![0.0f64; peers.max(1)];
    let mut owner = vec![0; layers.len()];
    for i in order {
        let w = (0..load.len())
            .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
            .expect("one worker at least");
        load[w] += weight(layers[i]);
        owner[i] = w;
    }
    owner
}

/// The census with its layers shared out between workers and processes (timely dataflow);
/// each layer is saved in the work directory when there is one (`process-I/` under it for
/// each process of several), and process 0 merges them.
fn shared(a: &CensusArgs, mut o: CensusOptions) -> Result<Done, Error> {
    let layout = Layout::of(&a.peers)?;
    let all: Vec<usize> = layers(&o)?.collect();
    check_layers(&o)?;
    let owner = share_out(a.rows * a.cols, &all, layout.peers());
    let wd = match &a.work_dir {
        Some(d) => {
            let d = if layout.processes > 1 {
                d.join(format!("process-{}", layout.process))
            } else {
                d.clone()
            };
            Some(WorkDir::open(&d, a.resume, &o)?)
        }
        None => None,
    };
    let resume = a.resume;
    o.limits.progress = None;
    let what = format!("{}×{} census", a.rows, a.cols);
    let t0 = std::time::Instant::now();
    let options = o.clone();
    let identity = RunIdentity::new("census pushpush", "pushpush")
        .param("--rows", a.rows)
        .param("--cols", a.cols)
        .param("--k", a.k)
        .param("--difficulty", a.difficulty)
        .param("--hardest", a.hardest)
        .layout(layout.processes, layout.workers)
        .format(floe::games::pushpush::census::LAYER_FORMAT);
    let results = crate::cluster::run(&layout, &identity, o.limits.timeout, move |ex| {
        let o = &options;
        let me = ex.index();
        let mine = (|| -> Result<Part, Error> {
            let present = match (&wd, resume) {
                (Some(w), true) => match w.load(o)? {
                    Ok(present) => present,
                    Err(kind) => {
                        return Ok(Part::Stopped(format!(
                            "the census stopped {} while it checked the layers kept",
                            out::by(kind.name())
                        )))
                    }
                },
                _ => Vec::new(),
            };
            let mut have = Vec::new();
            for (i, &k) in all.iter().enumerate() {
                if owner[i] != me {
                    continue;
                }
                if let Some(l) = present.iter().find(|l| l.blocks == k) {
                    have.push(l.clone());
                    continue;
                }
                match census_layer(o, k)? {
                    LayerOutcome::Done(l) => {
                        if let Some(w) = &wd {
                            w.save(o, &l)?;
                        }
                        if std::io::stderr().is_terminal() {
                            eprintln!(
                                "{what}: layer {k} by worker {me}: {} positions, {}",
                                thousands(l.positions),
                                human_time(std::time::Duration::from_secs_f64(l.seconds))
                            );
                        }
                        have.push(*l);
                    }
                    LayerOutcome::Limit { kind, .. } => {
                        return Ok(Part::Stopped(format!(
                            "the census stopped {} in layer {k}",
                            out::by(kind.name())
                        )))
                    }
                }
            }
            Ok(Part::Layers(have))
        })();
        let mine = floe::search::dist::agree_on(ex, mine)?;
        let bytes = serde_json::to_vec(&mine).expect("layers serialise");
        Ok::<_, Error>(ex.gather(bytes))
    })?;
    let first = results.into_iter().next().expect("one worker at least")?;
    let Some(parts) = first else {
        eprintln!(
            "floe: process {} of {}: its layers are done",
            layout.process, layout.processes
        );
        return Ok(Done::Answered);
    };
    let mut have = Vec::new();
    for bytes in parts {
        match serde_json::from_slice::<Part>(&bytes)
            .map_err(|e| Error::Internal(format!("a worker's layers did not arrive whole: {e}")))?
        {
            Part::Layers(l) => have.extend(l),
            Part::Stopped(why) => {
                eprintln!(
                    "floe: {why}; {}",
                    match &a.work_dir {
                        Some(d) => format!(
                            "the finished layers are in {}: run again with --resume to go on",
                            d.display()
                        ),
                        None => "no census is reported".into(),
                    }
                );
                return Ok(Done::NoAnswer);
            }
        }
    }
    let mut c = combine(&o, have)?;
    c.seconds = t0.elapsed().as_secs_f64();
    if a.json {
        let solutions = hardest_solutions(&c)?;
        let mut r = Report::new(&c, &solutions);
        r.peak_memory_bytes = out::peak_rss_bytes();
        r.computed = Some(floe::game::Computed {
            engine: "timely".into(),
            processes: layout.processes,
            workers_per_process: layout.workers,
            work_dir: a.work_dir.as_ref().map(|d| d.display().to_string()),
            resumed_at: None,
            disk_bytes: 0,
            owned: Vec::new(),
        });
        out::json(&r);
        if let Some(path) = &a.svg {
            write_figures(&c, path)?;
        }
        return Ok(Done::Answered);
    }
    let done = report(a, &c);
    outln!("computed by {}", layout.describe());
    done
}

/// The figures next to `path`, `path` itself and its `-…` siblings, written as one set: an
/// earlier census's pictures under the same name are all replaced (those this census does not
/// draw removed) or, when one cannot be written, all kept.
fn write_figures(c: &Census, path: &Path) -> Result<(), Error> {
    let stem = path.with_extension("");
    let file = |suffix: &str| {
        if suffix.is_empty() {
            path.to_path_buf()
        } else {
            PathBuf::from(format!("{}{suffix}.svg", stem.display()))
        }
    };
    let mut set = floe::mem::FileSet::new();
    for (suffix, svg) in figures(c) {
        set.add(&file(suffix), svg)
            .map_err(|e| unwritten(e, path))?;
    }
    let family: Vec<PathBuf> = FIGURE_SUFFIXES.iter().map(|s| file(s)).collect();
    set.commit(|| family).map_err(|e| unwritten(e, path))
}

/// A picture that could not be written, said with what it means for the others.
fn unwritten(e: Error, path: &Path) -> Error {
    match e {
        Error::Io { path: p, source } => Error::Io {
            path: format!(
                "{p} (the census is printed above; the pictures of {} are as they were)",
                path.display()
            ),
            source,
        },
        e => e,
    }
}

fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.2}%", 100.0 * part as f64 / whole as f64)
    }
}

fn print_census(c: &Census, solutions: &[Vec<Push>]) {
    outln!(
        "{}×{} {} census: {} boards, {} unsolvable ({}); {} positions solved in {}",
        c.rows,
        c.cols,
        c.variant.name(),
        thousands(c.boards),
        thousands(c.unsolvable),
        pct(c.unsolvable, c.boards),
        thousands(c.positions),
        human_time(std::time::Duration::from_secs_f64(c.seconds))
    );
    outln!();
    outln!("| pushes | boards | share |");
    outln!("|---:|---:|---:|");
    for (d, &n) in c.by_pushes.iter().enumerate() {
        outln!("| {d} | {} | {} |", thousands(n), pct(n, c.boards));
    }
    outln!(
        "| unsolvable | {} | {} |",
        thousands(c.unsolvable),
        pct(c.unsolvable, c.boards)
    );
    outln!();
    outln!("| blocks | solvable | unsolvable | unsolvable share | most pushes | such boards |");
    outln!("|---:|---:|---:|---:|---:|---:|");
    for (r, h) in c.by_blocks.iter().zip(&c.hardest_by_blocks) {
        if r.solvable + r.unsolvable > 0 {
            // a layer where no board needs a push lists no hardest boards
            let (most, such) = match (r.solvable, h.pushes) {
                (0, _) => ("–".to_string(), "–".to_string()),
                (_, 0) => ("0".to_string(), thousands(r.by_pushes[0])),
                (_, p) => (p.to_string(), thousands(h.count)),
            };
            outln!(
                "| {} | {} | {} | {} | {most} | {such} |",
                r.blocks,
                thousands(r.solvable),
                thousands(r.unsolvable),
                pct(r.unsolvable, r.solvable + r.unsolvable)
            );
        }
    }
    outln!();
    outln!(
        "classes: {} after merging robot cells within a region, {} after merging symmetries, {} after both",
        thousands(c.classes.robot_region),
        thousands(c.classes.symmetry),
        thousands(c.classes.both)
    );
    if let Some(d) = &c.difficulty {
        outln!();
        outln!("| pushes | mean difficulty |");
        outln!("|---:|---:|");
        for (p, &s) in d.sum_by_pushes.iter().enumerate().skip(1) {
            if c.by_pushes[p] > 0 {
                outln!("| {p} | {:.3} |", s / c.by_pushes[p] as f64);
            }
        }
    }
    outln!();
    outln!(
        "hardest: {} boards need {} pushes ({} classes); {} listed with a solution:",
        thousands(c.hardest.count),
        c.hardest.pushes,
        thousands(c.hardest.classes),
        c.hardest.boards.len()
    );
    for (h, m) in c.hardest.boards.iter().zip(solutions) {
        outln!();
        outp!("{}", indent(&h.board.rows_text()));
        let moves: Vec<String> = m.iter().map(|p| p.to_string()).collect();
        outln!("    {}", moves.join(", "));
    }
}

/// The PushPush part of `floe demo`: the 4×4 census, its hardest board solved.
pub(crate) fn demo() -> Result<(), Error> {
    let c = run_census(&CensusOptions::new(4, 4))?
        .done()
        .map_err(|_| Error::Internal("the 4×4 census has no limits".into()))?;
    outln!(
        "\nPushPush (van der Velden 2023): all {} boards of 4×4 classified in {}: {} unsolvable,",
        thousands(c.boards),
        human_time(std::time::Duration::from_secs_f64(c.seconds)),
        thousands(c.unsolvable)
    );
    outln!(
        "{} solved without a push, {} with one; the hardest {} boards need {} pushes, for example:",
        thousands(c.by_pushes[0]),
        thousands(c.by_pushes.get(1).copied().unwrap_or(0)),
        thousands(c.hardest.count),
        c.hardest.pushes
    );
    if let Some(h) = c.hardest.boards.first() {
        outp!("{}", indent(&h.board.rows_text()));
        if let Some(m) = hardest_solutions(&c)?.first() {
            let moves: Vec<String> = m.iter().map(|p| p.to_string()).collect();
            outln!("    {}", moves.join(", "));
        }
    }
    Ok(())
}
