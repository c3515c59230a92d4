//! The shared enumeration with a work folder: layers in files (read back in windows, or kept
//! in memory too), visited bits on disk, and resuming after a stop.

use super::*;

#[test]
fn layers_on_disk_count_the_same_and_resume_after_a_stop() {
    layers_on_disk(None);
}

/// The same with the visited bits on disk, in segments of 64 bytes (512 ranks: some 65
/// segments a worker, each layer's ranks judged a segment at a time).
#[test]
fn bits_on_disk_count_the_same_and_resume_after_a_stop() {
    layers_on_disk(Some(64));
}

/// Layer files read in windows of one chunk (every window a chunk, the narrowest there is)
/// and of a million ranks (a layer in one window) count the same as the default.
#[test]
fn every_window_counts_the_same() {
    let p = Walks { n: 100_003 };
    let (e, sums) = truth(&p);
    for window in [1, CHUNK, 1 << 20] {
        let dir = temp_dir(&format!("window-{window}"));
        let o = DistOptions {
            work_dir: Some(dir.clone()),
            identity: RunIdentity::new("walks", "numbers").param("n", 100_003),
            window: Some(window),
            ..DistOptions::default()
        };
        let (d, _) = run(&p, 2, &o).unwrap();
        assert_eq!(d.enumeration.histogram, e.histogram, "window {window}");
        assert_eq!(d.partial.as_ref(), Some(&sums), "window {window}");
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// The ranks of a layer file, sorted (a file holds them in the order they were found).
fn ranks_in(path: &Path, seal: crate::mem::Seal) -> Vec<u64> {
    let mut r = LayerReader::open(path, seal, u64::MAX).unwrap();
    let (mut all, mut chunk) = (Vec::new(), Vec::new());
    while r.chunk(100, &mut chunk).unwrap() {
        all.extend_from_slice(&chunk);
    }
    all.sort_unstable();
    all
}

/// Layers kept in memory too: the same figures; files and checkpoints holding what a run
/// reading its layers from files writes (a resume reads them: stopped, taken up, the same
/// answer); and the run really expands from memory: each layer's file of worker 0 deleted
/// as soon as it is written, such a run still ends right, where one reading its files stops.
#[test]
fn layers_kept_in_memory_too_write_the_same_files_and_resume() {
    let p = Walks { n: 100_003 };
    let (e, sums) = truth(&p);
    let options = |name: &str, layers_in_memory: bool| DistOptions {
        work_dir: Some(temp_dir(name)),
        identity: RunIdentity::new("walks", "numbers").param("n", 100_003),
        layers_in_memory,
        ..DistOptions::default()
    };
    let (files, both) = (options("files", false), options("both", true));
    let (a, _) = run(&p, 3, &files).unwrap();
    let (b, _) = run(&p, 3, &both).unwrap();
    for d in [&a, &b] {
        assert_eq!(d.enumeration.histogram, e.histogram);
        assert_eq!(d.partial.as_ref(), Some(&sums));
    }
    assert_eq!(a.disk_bytes, b.disk_bytes);
    let layers = e.histogram.len() as u32;
    for w in 0..3u32 {
        for k in 0..layers {
            let at = |o: &DistOptions| {
                let dir = worker_dir(o.work_dir.as_ref().unwrap(), w as usize);
                let f = files_of(&p, o, 3, w);
                ranks_in(&layer_path(&dir, k), f.seal(LAYER, k))
            };
            assert_eq!(at(&files), at(&both), "worker {w}, layer {k}");
        }
        let (ca, cb) = (
            read_checkpoint(&p, &files, 3, w),
            read_checkpoint(&p, &both, 3, w),
        );
        assert_eq!(
            (ca.layer, ca.counts, ca.done),
            (cb.layer, cb.counts, cb.done)
        );
    }
    for o in [&files, &both] {
        fs::remove_dir_all(o.work_dir.as_ref().unwrap()).unwrap();
    }

    // stopped after some layers, then taken up (the first layer from its file): the same
    let stop = DistOptions {
        limits: Limits {
            max_states: Some(e.states / 3),
            ..Limits::default()
        },
        ..both.clone()
    };
    let (s, _) = run(&p, 3, &stop).unwrap();
    assert_eq!(s.enumeration.limit, Some(LimitKind::MaxStates));
    let again = DistOptions {
        resume: true,
        ..both.clone()
    };
    let (r, _) = run(&p, 3, &again).unwrap();
    assert!(r.resumed_at.is_some_and(|l| l >= 1), "{:?}", r.resumed_at);
    assert_eq!(r.enumeration.histogram, e.histogram);
    assert_eq!(r.partial.as_ref(), Some(&sums));
    fs::remove_dir_all(both.work_dir.as_ref().unwrap()).unwrap();

    // each layer file of worker 0 deleted once written (worker 0 reports each layer's end)
    let deleting = |o: &DistOptions| {
        let w0 = worker_dir(o.work_dir.as_ref().unwrap(), 0);
        DistOptions {
            limits: Limits {
                progress: Some(std::sync::Arc::new(move |g: &Progress| {
                    let _ = fs::remove_file(layer_path(&w0, g.stats.depth));
                })),
                ..Limits::default()
            },
            ..o.clone()
        }
    };
    let (m, _) = run(&p, 3, &deleting(&both)).unwrap();
    assert_eq!(m.enumeration.histogram, e.histogram);
    assert_eq!(m.partial.as_ref(), Some(&sums));
    let msg = run(&p, 3, &deleting(&files)).unwrap_err().to_string();
    assert!(msg.contains("layer-00001.bin"), "{msg}");
    for o in [&files, &both] {
        fs::remove_dir_all(o.work_dir.as_ref().unwrap()).unwrap();
    }
}

fn layers_on_disk(bits_budget: Option<u64>) {
    let p = Walks { n: 100_003 };
    let (e, sums) = truth(&p);
    let dir = temp_dir(&format!("resume-{bits_budget:?}"));
    let o = DistOptions {
        work_dir: Some(dir.clone()),
        identity: RunIdentity::new("walks", "numbers").param("n", 100_003),
        bits_budget,
        ..DistOptions::default()
    };
    let (d, _) = run(&p, 3, &o).unwrap();
    assert_eq!(d.enumeration.histogram, e.histogram);
    assert_eq!(d.partial.as_ref(), Some(&sums));
    assert!(d.disk_bytes > 0);
    let bits = worker_dir(&dir, 1).join("seen.bin");
    assert_eq!(bits.exists(), bits_budget.is_some());
    if bits_budget.is_some() {
        // 100,003 ranks over 3 workers in blocks of 128 (782 blocks, the last short): room
        // for 261 blocks each, a bit a rank, in whole words
        let owners = Owners::new(100_003, 3);
        assert_eq!(
            (owners.block(), owners.local_space(100_003)),
            (7, 261 * 128)
        );
        assert_eq!(
            fs::metadata(&bits).unwrap().len(),
            (261u64 * 128).div_ceil(64) * 8
        );
    }
    // the finished run resumes to the same answer without expanding anything
    let again = DistOptions {
        resume: true,
        ..o.clone()
    };
    let (r, _) = run(&p, 3, &again).unwrap();
    assert_eq!(r.enumeration.histogram, e.histogram);
    assert_eq!(r.partial.as_ref(), Some(&sums));
    assert_eq!(r.enumeration.stats.expanded, 0);
    // a fresh run into the folder is refused, so is a resume by other workers or of another level
    let msg = run(&p, 3, &o).unwrap_err().to_string();
    assert!(msg.contains("--resume"), "{msg}");
    let msg = run(&p, 2, &again).unwrap_err().to_string();
    assert!(msg.contains("same number of processes"), "{msg}");
    let other = DistOptions {
        identity: RunIdentity::new("walks", "numbers").param("n", 99_991),
        ..again.clone()
    };
    let msg = run(&p, 3, &other).unwrap_err().to_string();
    assert!(msg.contains("another run"), "{msg}");
    assert!(
        msg.contains("n: 99991 here, 100003 in the checkpoint"),
        "{msg}"
    );
    // the same job laid out otherwise (the checkpoint's is one process of one worker): the
    // refusal says so and gives the flags that take it up
    for (processes, workers, differs) in [
        (1, 3, "--workers: 3 here, 1 in the checkpoint"),
        (2, 1, "--processes: 2 here, 1 in the checkpoint"),
    ] {
        let laid = DistOptions {
            identity: again.identity.clone().layout(processes, workers),
            ..again.clone()
        };
        let msg = run(&p, 3, &laid).unwrap_err().to_string();
        assert!(
            msg.contains("the checkpoint is of this run laid out otherwise"),
            "{msg}"
        );
        assert!(msg.contains(differs), "{msg}");
        assert!(
            msg.contains("take it up with --workers 1 (one process)"),
            "{msg}"
        );
        assert!(!msg.contains("another run"), "{msg}");
    }
    fs::remove_dir_all(&dir).unwrap();

    // stopped after some layers, then taken up: the same answer
    let stop = DistOptions {
        limits: Limits {
            max_states: Some(e.states / 3),
            ..Limits::default()
        },
        ..o.clone()
    };
    let (s, _) = run(&p, 3, &stop).unwrap();
    assert_eq!(s.enumeration.limit, Some(LimitKind::MaxStates));
    let layers = s.enumeration.histogram.len();
    assert!(layers >= 2 && layers < e.histogram.len());
    assert_eq!(s.enumeration.histogram[..], e.histogram[..layers]);
    let (r, _) = run(&p, 3, &again).unwrap();
    assert_eq!(r.resumed_at, Some(layers as u32 - 1));
    assert_eq!(r.enumeration.histogram, e.histogram);
    assert_eq!(r.partial.as_ref(), Some(&sums));
    assert!(r.enumeration.stats.expanded < e.states);
    fs::remove_dir_all(&dir).unwrap();
}
