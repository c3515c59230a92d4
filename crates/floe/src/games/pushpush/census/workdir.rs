//! A census's work directory: one file per finished layer, written atomically, so that a
//! census that stops (a limit, a crash, a machine going down) resumes with the layers it
//! has, and layers computed elsewhere can be merged.
//!
//! A file `layer-KK.json` holds the format version, the census options that decide the
//! figures (rows, columns, k, difficulty, hardest) and the [`CensusLayer`]. Reading a file
//! written with other options is an error.

use super::{CensusLayer, CensusOptions};
use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Version of the layer files; a file of another version is refused.
pub const LAYER_FORMAT: u32 = 1;

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
            if self.difficulty { ", --difficulty" } else { "" },
            self.hardest
        )
    }
}

#[derive(Serialize, Deserialize)]
struct LayerFile {
    format: u32,
    census: String,
    options: FileOptions,
    layer: CensusLayer,
}

/// A census's work directory.
#[derive(Clone, Debug)]
pub struct WorkDir {
    dir: PathBuf,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.display().to_string(),
        source,
    }
}

impl WorkDir {
    /// Opens `dir` (created when missing). Without `resume`, a directory that holds anything
    /// is refused, so that layers of an earlier census are not mixed in unawares.
    pub fn open(dir: &Path, resume: bool) -> Result<WorkDir, Error> {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::invalid(format!(
                "the census work directory {} is a file",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        if !resume {
            let mut entries = std::fs::read_dir(dir).map_err(io(dir))?;
            if entries.next().is_some() {
                return Err(Error::invalid(format!(
                    "the census work directory {} is not empty: add --resume to go on with the layers it holds, or give another directory",
                    dir.display()
                )));
            }
        }
        Ok(WorkDir {
            dir: dir.to_path_buf(),
        })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The file of the layer with `blocks` blocks.
    pub fn layer_path(&self, blocks: usize) -> PathBuf {
        self.dir.join(format!("layer-{blocks:02}.json"))
    }

    /// Writes a finished layer: a temporary file, synced, renamed over the layer's name.
    pub fn save(&self, o: &CensusOptions, layer: &CensusLayer) -> Result<PathBuf, Error> {
        let path = self.layer_path(layer.blocks);
        let file = LayerFile {
            format: LAYER_FORMAT,
            census: "pushpush".into(),
            options: FileOptions::of(o),
            layer: layer.clone(),
        };
        let text = serde_json::to_string_pretty(&file)
            .map_err(|e| Error::Internal(format!("a census layer as JSON: {e}")))?;
        crate::mem::write_whole(&path, text + "\n")?;
        // the rename itself reaches the disk with the directory
        if let Ok(d) = std::fs::File::open(&self.dir) {
            let _ = d.sync_all();
        }
        Ok(path)
    }

    /// Reads one layer file, checked against the census options.
    pub fn read(&self, o: &CensusOptions, path: &Path) -> Result<CensusLayer, Error> {
        let text = std::fs::read_to_string(path).map_err(io(path))?;
        let file: LayerFile = serde_json::from_str(&text).map_err(|e| {
            Error::invalid(format!("{} is not a census layer file: {e}", path.display()))
        })?;
        if file.format != LAYER_FORMAT || file.census != "pushpush" {
            return Err(Error::invalid(format!(
                "{} is a {} census layer of format {}; this floe reads format {LAYER_FORMAT}",
                path.display(),
                file.census,
                file.format
            )));
        }
        let want = FileOptions::of(o);
        if file.options != want {
            return Err(Error::invalid(format!(
                "{} belongs to a census of {}, not of {}: give the same options or another work directory",
                path.display(),
                file.options.describe(),
                want.describe()
            )));
        }
        Ok(file.layer)
    }

    /// Every layer file of the directory, checked against the census options and against its
    /// name; other files are left alone.
    pub fn load(&self, o: &CensusOptions) -> Result<Vec<CensusLayer>, Error> {
        let mut paths = Vec::new();
        for e in std::fs::read_dir(&self.dir).map_err(io(&self.dir))? {
            let e = e.map_err(io(&self.dir))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let blocks = name
                .strip_prefix("layer-")
                .and_then(|s| s.strip_suffix(".json"))
                .and_then(|s| s.parse::<usize>().ok());
            if let Some(blocks) = blocks {
                paths.push((blocks, e.path()));
            }
        }
        paths.sort();
        let mut layers = Vec::with_capacity(paths.len());
        for (blocks, path) in paths {
            let layer = self.read(o, &path)?;
            if layer.blocks != blocks {
                return Err(Error::invalid(format!(
                    "{} holds the layer of {} blocks",
                    path.display(),
                    layer.blocks
                )));
            }
            layers.push(layer);
        }
        Ok(layers)
    }
}
