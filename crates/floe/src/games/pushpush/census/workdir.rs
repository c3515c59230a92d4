//! A census's work directory: one file per finished layer, written atomically, so that a
//! census that stops (a limit, a crash, a machine going down) resumes with the layers it
//! has, and layers computed elsewhere (by any number of workers) can be merged.
//!
//! A file `layer-KK.bin` is a checked run file ([`crate::mem::Seal`]: the census's identity,
//! the layer, a checksum) holding, as JSON, the format version, the census options that
//! decide the figures (rows, columns, k, difficulty, hardest) and the [`CensusLayer`]. A file
//! of other options, of another layer, damaged or cut short is refused by name; so is a
//! layer whose boards are not every board with its number of blocks (cells · (cells − 1) ·
//! C(cells − 1, k)) or whose positions are not the layer's (counted again on loading). The
//! directory is locked while a census uses it ([`crate::mem::Lock`]).

use super::{boards_with, CensusLayer, CensusOptions};
use crate::error::Error;
use crate::mem::{read_foreign, read_sealed, write_sealed, Lock, Seal};
use crate::search::LimitKind;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Version of the layer files; a file of another version is refused.
pub const LAYER_FORMAT: u32 = 2;
/// The kind of a census layer file.
const KIND: [u8; 4] = *b"CNSL";

/// The options a layer file was computed with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct FileOptions {
    rows: usize,
    cols: usize,
    k: usize,
    difficulty: bool,
    hardest: usize,
}

impl FileOptions {
    fn of(o: &CensusOptions) -> FileOptions {
        FileOptions {
            rows: o.rows,
            cols: o.cols,
            k: o.variant.k,
            difficulty: o.difficulty,
            hardest: o.hardest,
        }
    }
    fn describe(&self) -> String {
        format!(
            "{}×{}, --k {}{}, --hardest {}",
            self.rows,
            self.cols,
            self.k,
            if self.difficulty {
                ", --difficulty"
            } else {
                ""
            },
            self.hardest
        )
    }
}

impl FileOptions {
    /// The digest every layer file of these options carries.
    fn digest(&self) -> u64 {
        let mut b = serde_json::to_vec(self).expect("options serialise");
        b.extend(LAYER_FORMAT.to_le_bytes());
        xxhash_rust::xxh3::xxh3_64(&b)
    }
}

#[derive(Serialize, Deserialize)]
struct LayerFile {
    format: u32,
    census: String,
    options: FileOptions,
    layer: CensusLayer,
}

/// A census's work directory, locked while it is open.
#[derive(Clone, Debug)]
pub struct WorkDir {
    dir: PathBuf,
    _lock: Arc<Lock>,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.display().to_string(),
        source,
    }
}

impl WorkDir {
    /// Opens `dir` (created when missing) and locks it for the census `o` (a second live
    /// census there is refused). Without `resume`, a directory that holds anything is
    /// refused, so that layers of an earlier census are not mixed in unawares.
    pub fn open(dir: &Path, resume: bool, o: &CensusOptions) -> Result<WorkDir, Error> {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::invalid(format!(
                "the census work directory {} is a file",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let lock = Lock::acquire(
            dir,
            &format!("census pushpush {}", FileOptions::of(o).describe()),
        )?;
        if lock.read_only && !resume {
            return Err(Error::invalid(format!(
                "the census work directory {} may only be read here: a census cannot start \
                 there; give a folder this user may write",
                dir.display()
            )));
        }
        // the temporary layer files of a census that failed or was killed there (the lock
        // says no live census writes them)
        let entries = std::fs::read_dir(dir).ok().filter(|_| !lock.read_only);
        if let Some(entries) = entries {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.starts_with(".layer-") && name.ends_with(".tmp") {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        if !resume {
            let mut entries = std::fs::read_dir(dir).map_err(io(dir))?.filter(|e| {
                e.as_ref()
                    .map_or(true, |e| e.file_name() != crate::mem::LOCK_FILE)
            });
            if entries.next().is_some() {
                return Err(Error::invalid(format!(
                    "the census work directory {} is not empty: add --resume to go on with the layers it holds, or give another directory",
                    dir.display()
                )));
            }
        }
        Ok(WorkDir {
            dir: dir.to_path_buf(),
            _lock: Arc::new(lock),
        })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The file of the layer with `blocks` blocks.
    pub fn layer_path(&self, blocks: usize) -> PathBuf {
        self.dir.join(format!("layer-{blocks:02}.bin"))
    }

    /// Writes a finished layer: a checked run file, synced, renamed over the layer's name
    /// (the folder synced too), once its boards were found to be every board of its size.
    pub fn save(&self, o: &CensusOptions, layer: &CensusLayer) -> Result<PathBuf, Error> {
        if self._lock.read_only {
            return Err(self._lock.read_only_refusal("the census"));
        }
        let path = self.layer_path(layer.blocks);
        every_board(o, layer, &path)?;
        let options = FileOptions::of(o);
        let file = LayerFile {
            format: LAYER_FORMAT,
            census: "pushpush".into(),
            options: options.clone(),
            layer: layer.clone(),
        };
        let text = serde_json::to_vec_pretty(&file)
            .map_err(|e| Error::Internal(format!("a census layer as JSON: {e}")))?;
        write_sealed(&path, seal(&options, layer.blocks), &text)?;
        Ok(path)
    }

    /// Reads the file of the layer of `blocks` blocks, checked against the census options.
    pub fn read(
        &self,
        o: &CensusOptions,
        path: &Path,
        blocks: usize,
    ) -> Result<CensusLayer, Error> {
        let want = FileOptions::of(o);
        let bytes = read_sealed(path, seal(&want, blocks)).map_err(|e| {
            // a whole file of another census: say which
            match read_foreign(path).and_then(|(_, b)| serde_json::from_slice::<LayerFile>(&b).ok())
            {
                Some(f) if f.format != LAYER_FORMAT => Error::invalid(format!(
                    "{} is a census layer of format {}; this floe reads format {LAYER_FORMAT}",
                    path.display(),
                    f.format
                )),
                Some(f) if f.options != want => other_census(path, &f.options, &want),
                _ => e,
            }
        })?;
        let file: LayerFile = serde_json::from_slice(&bytes).map_err(|e| {
            Error::invalid(format!(
                "{} is not a census layer file: {e}",
                path.display()
            ))
        })?;
        if file.format != LAYER_FORMAT || file.census != "pushpush" {
            return Err(Error::invalid(format!(
                "{} is a {} census layer of format {}; this floe reads format {LAYER_FORMAT}",
                path.display(),
                file.census,
                file.format
            )));
        }
        if file.options != want {
            return Err(other_census(path, &file.options, &want));
        }
        if file.layer.blocks != blocks {
            return Err(Error::invalid(format!(
                "{} holds the layer of {} blocks",
                path.display(),
                file.layer.blocks
            )));
        }
        every_board(o, &file.layer, path)?;
        Ok(file.layer)
    }

    /// Every layer file of the directory, checked against the census options and against its
    /// name; other files are left alone. `Err(kind)` inside: the census's time limit or an
    /// interruption came before the layers' positions were counted again.
    pub fn load(&self, o: &CensusOptions) -> Result<Result<Vec<CensusLayer>, LimitKind>, Error> {
        let mut paths = Vec::new();
        for e in std::fs::read_dir(&self.dir).map_err(io(&self.dir))? {
            let e = e.map_err(io(&self.dir))?;
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("layer-") && name.ends_with(".json") {
                return Err(Error::invalid(format!(
                    "{}: a layer of an older floe (without checksums), which this floe does \
                     not trust; compute the census afresh in another work directory",
                    e.path().display()
                )));
            }
            let blocks = name
                .strip_prefix("layer-")
                .and_then(|s| s.strip_suffix(".bin"))
                .and_then(|s| s.parse::<usize>().ok());
            if let Some(blocks) = blocks {
                paths.push((blocks, e.path()));
            }
        }
        paths.sort();
        let mut layers = Vec::with_capacity(paths.len());
        for (blocks, path) in &paths {
            layers.push(self.read(o, path, *blocks)?);
        }
        // every layer's positions, counted again without its tables (one pass over the
        // block sets: under a minute for 5×6, against hours for the census)
        if !layers.is_empty() {
            let exact = match super::layer_positions(o)? {
                Ok(exact) => exact,
                Err(kind) => return Ok(Err(kind)),
            };
            for (l, (_, path)) in layers.iter().zip(&paths) {
                if exact.get(l.blocks) != Some(&l.positions) {
                    return Err(Error::invalid(format!(
                        "{}: {} positions, but the layer of {} blocks has {}; the file is not \
                         used",
                        path.display(),
                        l.positions,
                        l.blocks,
                        exact.get(l.blocks).copied().unwrap_or(0)
                    )));
                }
            }
        }
        Ok(Ok(layers))
    }
}

/// The seal of the layer of `blocks` blocks of a census of `options`.
fn seal(options: &FileOptions, blocks: usize) -> Seal {
    Seal {
        kind: KIND,
        run: options.digest(),
        worker: 0,
        layer: blocks as u32,
        width: 1,
    }
}

fn other_census(path: &Path, found: &FileOptions, want: &FileOptions) -> Error {
    Error::invalid(format!(
        "{} belongs to a census of {}, not of {}: give the same options or another work directory",
        path.display(),
        found.describe(),
        want.describe()
    ))
}

/// Refuses a layer whose boards are not every board with its number of blocks: the robot on
/// one of the n cells, the target on another (under a block or not), the k blocks on k of the
/// n − 1 cells beside the robot.
fn every_board(o: &CensusOptions, l: &CensusLayer, path: &Path) -> Result<(), Error> {
    let n = (o.rows * o.cols) as u64;
    let want = boards_with(n, l.blocks as u64);
    let got = l
        .by_pushes
        .iter()
        .try_fold(l.unsolvable, |a, &b| a.checked_add(b));
    if got != Some(want) {
        return Err(Error::invalid(format!(
            "{}: the layer of {} blocks counts {} boards, but there are {want} (n · (n − 1) · \
             C(n − 1, k) for n = {n} cells); it is not used",
            path.display(),
            l.blocks,
            got.map_or("more than 2^64".to_string(), |g| g.to_string())
        )));
    }
    Ok(())
}
