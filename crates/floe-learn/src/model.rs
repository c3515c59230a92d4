//! The networks, their inputs, and their file format.
//!
//! Three architectures over one board (at most 32 cells, no walls):
//!
//! - [`Arch::Fnn`], the thesis's feed-forward network: the 18 numbers of section 6.2 (a 0/1
//!   per cell for a block, then the robot's and the target's cell numbers, as they are) →
//!   dense layers with ReLU → one output layer per task.
//! - [`Arch::Cnn`], the thesis's convolutional network: the board as a 4-channel image
//!   (one-hot: block, robot, target, empty floor) → 3×3 convolutions with ReLU (padding 1) →
//!   flatten → one dense layer → the outputs. Tied to its board size by the flatten.
//! - [`Arch::Fcn`], fully convolutional: the same image, deeper 3×3 convolutions with
//!   residual connections, then the mean and the maximum over the cells → dense → outputs. It
//!   takes any board size; trained with random symmetric images of the boards, and with
//!   `symmetrize` it averages its predictions over the 8 (4) images, so that its answer does
//!   not depend on how the board is turned or mirrored.
//!
//! Tasks ([`Head`]): solvability (2 classes), fewest pushes (classes −1 = unsolvable, 0 ..=
//! max) and the difficulty class (0 ..= 5, solvable boards only).

use crate::data::{difficulty_class, Example};
use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::{linear, Linear, VarBuilder, VarMap};
use floe::games::pushpush::census::symmetries;
use floe::Error;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Version of the model file format.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"FLOEMDL\n";

/// The most hidden units or channels a network may have (`floe learn train --width`).
pub const MAX_WIDTH: usize = 4096;
/// The most layers a network may have (`floe learn train --depth`).
pub const MAX_DEPTH: usize = 64;
/// The most classes a head may have (fewest pushes on boards of up to 32 cells stay far
/// below).
pub const MAX_CLASSES: usize = 4096;

/// The largest model file floe reads: 4 GiB of weights (a network at the largest width and
/// depth) and a header of up to 1 MiB.
pub const MAX_FILE: u64 = (4 << 30) + (1 << 20);

/// The architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arch {
    /// Feed-forward on the 18-number encoding.
    Fnn,
    /// Convolutional, flatten, dense (the thesis's CNN).
    Cnn,
    /// Fully convolutional with global pooling (any board size).
    Fcn,
}

impl Arch {
    /// The input encoding it reads, as named in model files.
    pub fn encoding(self) -> &'static str {
        match self {
            Arch::Fnn => "cells-robot-target",
            Arch::Cnn | Arch::Fcn => "one-hot-4",
        }
    }
    /// The name on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Arch::Fnn => "fnn",
            Arch::Cnn => "cnn",
            Arch::Fcn => "fcn",
        }
    }
}

/// A task: one output layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Head {
    /// Solvable or not.
    Solvable,
    /// Fewest pushes: −1 (unsolvable), 0, …, `max`.
    Pushes {
        /// Largest class.
        max: u32,
    },
    /// The rounded difficulty 0 ..= 5 (trained and scored on solvable boards only).
    Difficulty,
}

impl Head {
    /// Number of classes.
    pub fn classes(self) -> usize {
        match self {
            Head::Solvable => 2,
            Head::Pushes { max } => max as usize + 2,
            Head::Difficulty => 6,
        }
    }
    /// The class of an example, `None` when the task does not apply (difficulty of an
    /// unsolvable board). Pushes beyond `max` fall in the last class.
    pub fn class_of(self, e: &Example) -> Option<u32> {
        match self {
            Head::Solvable => Some(u32::from(e.pushes >= 0)),
            Head::Pushes { max } => Some((e.pushes + 1).min(max as i32 + 1) as u32),
            Head::Difficulty => e.difficulty.map(difficulty_class),
        }
    }
    /// The label of class `k` as the user sees it.
    pub fn label(self, k: usize) -> String {
        match self {
            Head::Solvable => ["unsolvable", "solvable"][k].to_string(),
            Head::Pushes { .. } => (k as i64 - 1).to_string(),
            Head::Difficulty => k.to_string(),
        }
    }
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Head::Solvable => "solvable",
            Head::Pushes { .. } => "pushes",
            Head::Difficulty => "difficulty",
        }
    }
}

/// Everything needed to rebuild a network: architecture, sizes, board size, tasks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    /// The architecture.
    pub arch: Arch,
    /// Rows of the training boards.
    pub rows: usize,
    /// Columns of the training boards.
    pub cols: usize,
    /// Hidden units of the dense layers (FNN), or channels of the convolutions (CNN, FCN).
    pub width: usize,
    /// Dense layers (FNN) or convolutions (CNN, FCN).
    pub depth: usize,
    /// Units of the dense layer after the convolutions (CNN, FCN).
    pub dense: usize,
    /// The tasks.
    pub heads: Vec<Head>,
    /// Predictions averaged over the board's symmetric images.
    pub symmetrize: bool,
}

impl Spec {
    /// The thesis's FNN: two hidden layers of 64 (its Figure 17 gives the shape, not the sizes).
    pub fn thesis_fnn(rows: usize, cols: usize, heads: Vec<Head>) -> Spec {
        Spec {
            arch: Arch::Fnn,
            rows,
            cols,
            width: 64,
            depth: 2,
            dense: 0,
            heads,
            symmetrize: false,
        }
    }
    /// The thesis's CNN: three convolutions of 32 channels, one dense layer of 128.
    pub fn thesis_cnn(rows: usize, cols: usize, heads: Vec<Head>) -> Spec {
        Spec {
            arch: Arch::Cnn,
            rows,
            cols,
            width: 32,
            depth: 3,
            dense: 128,
            heads,
            symmetrize: false,
        }
    }
    /// The symmetry-aware fully convolutional model.
    pub fn fcn(rows: usize, cols: usize, heads: Vec<Head>) -> Spec {
        Spec {
            arch: Arch::Fcn,
            rows,
            cols,
            width: 32,
            depth: 5,
            dense: 64,
            heads,
            symmetrize: true,
        }
    }
    /// Whether the network takes `rows × cols` boards.
    pub fn takes(&self, rows: usize, cols: usize) -> bool {
        match self.arch {
            Arch::Fcn => rows * cols <= 32,
            _ => (rows, cols) == (self.rows, self.cols),
        }
    }
    /// Fails unless the network takes `rows × cols` boards, saying "`whose` … model takes
    /// …×… boards, `but`".
    pub(crate) fn check_takes(
        &self,
        rows: usize,
        cols: usize,
        whose: &str,
        but: &str,
    ) -> Result<(), Error> {
        if self.takes(rows, cols) {
            return Ok(());
        }
        Err(Error::invalid(format!(
            "{whose} {} model takes {}×{} boards, {but}",
            self.arch.name(),
            self.rows,
            self.cols
        )))
    }
}

/// A 3×3 convolution with zero padding 1 on `(batch, rows · cols · channels)` maps (cell
/// major), applied as one dense matrix: `W[(i, a), (j, b)] = Σ_o S[i, j, o] · K[o, a, b]`
/// with `S[i, j, o] = 1` when cell `i` lies at offset `o` from cell `j`. On boards of a few
/// cells one matrix product is several times faster on the CPU than candle's `conv2d`
/// (forward and backward), and the function is the same.
struct Conv3 {
    /// `(9, in, out)`, offsets in row-major order.
    kernel: Tensor,
    bias: Tensor,
    inp: usize,
    out: usize,
}

impl Conv3 {
    fn new(inp: usize, out: usize, vb: VarBuilder) -> candle_core::Result<Conv3> {
        Ok(Conv3 {
            kernel: vb.get((9, inp, out), "kernel")?,
            bias: vb.get(out, "bias")?,
            inp,
            out,
        })
    }

    fn forward(&self, x: &Tensor, rows: usize, cols: usize) -> candle_core::Result<Tensor> {
        let n = rows * cols;
        let b = x.dim(0)?;
        let mut shift = vec![0f32; n * n * 9];
        for i in 0..n {
            for j in 0..n {
                let (dr, dc) = (
                    (i / cols) as isize - (j / cols) as isize,
                    (i % cols) as isize - (j % cols) as isize,
                );
                if dr.abs() <= 1 && dc.abs() <= 1 {
                    shift[(i * n + j) * 9 + ((dr + 1) * 3 + dc + 1) as usize] = 1.0;
                }
            }
        }
        let s = Tensor::from_vec(shift, (n * n, 9), x.device())?;
        let w = s
            .matmul(&self.kernel.reshape((9, self.inp * self.out))?)?
            .reshape((n, n, self.inp, self.out))?
            .transpose(1, 2)?
            .contiguous()?
            .reshape((n * self.inp, n * self.out))?;
        x.matmul(&w)?
            .reshape((b, n, self.out))?
            .broadcast_add(&self.bias)?
            .reshape((b, n * self.out))
    }
}

/// One head's output layer.
struct Output(Linear);

/// A network built from a [`Spec`] with its weights in a [`VarMap`].
pub struct Net {
    /// Its description.
    pub spec: Spec,
    /// The weights.
    pub vars: VarMap,
    dense_in: Vec<Linear>,
    convs: Vec<Conv3>,
    dense: Option<Linear>,
    outputs: Vec<Output>,
}

/// Errors of the learning library as floe errors.
pub(crate) fn ml(e: candle_core::Error) -> Error {
    Error::Internal(format!("tensor computation failed: {e}"))
}

impl Net {
    /// A fresh network with weights drawn from `seed` (He-uniform weights, zero biases).
    pub fn new(spec: Spec, seed: u64) -> Result<Net, Error> {
        let vars = VarMap::new();
        let net = Net::build(spec, vars)?;
        let mut rng = Pcg64::seed_from_u64(seed);
        let data = net.vars.data().lock().expect("the weights' lock");
        let mut names: Vec<&String> = data.keys().collect();
        names.sort();
        for name in names {
            let v = &data[name];
            let dims = v.dims().to_vec();
            let count: usize = dims.iter().product();
            let values: Vec<f32> = if dims.len() == 1 {
                vec![0.0; count]
            } else {
                // linear weights are (out, in); convolution kernels (9, in, out)
                let fan_in: usize = if dims.len() == 3 {
                    dims[0] * dims[1]
                } else {
                    dims[1..].iter().product()
                };
                let bound = (6.0 / fan_in as f64).sqrt();
                (0..count)
                    .map(|_| rng.random_range(-bound..bound) as f32)
                    .collect()
            };
            v.set(&Tensor::from_vec(values, dims, &Device::Cpu).map_err(ml)?)
                .map_err(ml)?;
        }
        drop(data);
        Ok(net)
    }

    fn build(spec: Spec, vars: VarMap) -> Result<Net, Error> {
        crate::settle_threads();
        if spec.heads.is_empty() || spec.width == 0 || spec.depth == 0 {
            return Err(Error::invalid(
                "a network needs a task, a width and a depth",
            ));
        }
        let n = spec.rows.saturating_mul(spec.cols);
        if !(2..=32).contains(&n) {
            return Err(Error::invalid(format!(
                "the models take boards of 2 to 32 cells, not {}×{}",
                spec.rows, spec.cols
            )));
        }
        // The sizes are checked before anything is allocated: a model file's header is not
        // trusted to be small.
        let too_big = [
            ("width", spec.width, MAX_WIDTH),
            ("depth", spec.depth, MAX_DEPTH),
            ("dense layer", spec.dense, MAX_WIDTH),
            ("number of heads", spec.heads.len(), 3),
        ]
        .into_iter()
        .chain(
            spec.heads
                .iter()
                .map(|h| ("head", h.classes(), MAX_CLASSES)),
        )
        .find(|&(_, v, max)| v > max);
        if let Some((what, v, max)) = too_big {
            return Err(Error::invalid(format!(
                "a network's {what} of {v} is more than the {max} floe builds"
            )));
        }
        let vb = VarBuilder::from_varmap(&vars, DType::F32, &Device::Cpu);
        let mut dense_in = Vec::new();
        let mut convs = Vec::new();
        let mut dense = None;
        let last = match spec.arch {
            Arch::Fnn => {
                let mut inp = n + 2;
                for i in 0..spec.depth {
                    dense_in.push(linear(inp, spec.width, vb.pp(format!("fc{i}"))).map_err(ml)?);
                    inp = spec.width;
                }
                spec.width
            }
            Arch::Cnn | Arch::Fcn => {
                let mut inp = 4;
                for i in 0..spec.depth {
                    convs.push(Conv3::new(inp, spec.width, vb.pp(format!("conv{i}"))).map_err(ml)?);
                    inp = spec.width;
                }
                let flat = if spec.arch == Arch::Cnn {
                    spec.width * n
                } else {
                    2 * spec.width
                };
                dense = Some(linear(flat, spec.dense, vb.pp("dense")).map_err(ml)?);
                spec.dense
            }
        };
        let outputs = spec
            .heads
            .iter()
            .map(|h| {
                linear(last, h.classes(), vb.pp(format!("out_{}", h.name())))
                    .map(Output)
                    .map_err(ml)
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(Net {
            spec,
            vars,
            dense_in,
            convs,
            dense,
            outputs,
        })
    }

    /// The logits of every head for a batch of `rows × cols` boards made by [`encode`].
    pub fn forward(
        &self,
        x: &Tensor,
        rows: usize,
        cols: usize,
    ) -> candle_core::Result<Vec<Tensor>> {
        let h = match self.spec.arch {
            Arch::Fnn => {
                let mut h = x.clone();
                for l in &self.dense_in {
                    h = l.forward(&h)?.relu()?;
                }
                h
            }
            Arch::Cnn => {
                let mut h = x.clone();
                for c in &self.convs {
                    h = c.forward(&h, rows, cols)?.relu()?;
                }
                let d = self.dense.as_ref().expect("a CNN has a dense layer");
                d.forward(&h)?.relu()?
            }
            Arch::Fcn => {
                // x carries the board mask in its channels' sum: outside cells are all zero
                let mut h = self.convs[0].forward(x, rows, cols)?.relu()?;
                for c in &self.convs[1..] {
                    h = (c.forward(&h, rows, cols)?.relu()? + &h)?;
                }
                let cells = h.reshape((h.dim(0)?, rows * cols, self.spec.width))?;
                let pooled = Tensor::cat(&[cells.mean(1)?, cells.max(1)?], 1)?;
                let d = self.dense.as_ref().expect("an FCN has a dense layer");
                d.forward(&pooled)?.relu()?
            }
        };
        self.outputs.iter().map(|o| o.0.forward(&h)).collect()
    }

    /// Class probabilities per head for boards of `rows × cols`, averaged over the symmetric
    /// images when the spec says so.
    pub fn predict(
        &self,
        rows: usize,
        cols: usize,
        xs: &[Example],
    ) -> Result<Vec<Vec<Vec<f32>>>, Error> {
        self.predict_with(rows, cols, xs, self.spec.symmetrize)
    }

    /// [`Net::predict`], averaged over the symmetric images or not.
    pub fn predict_with(
        &self,
        rows: usize,
        cols: usize,
        xs: &[Example],
        symmetrize: bool,
    ) -> Result<Vec<Vec<Vec<f32>>>, Error> {
        self.spec
            .check_takes(rows, cols, "this", &format!("not {rows}×{cols}"))?;
        let perms = if symmetrize {
            symmetries(rows, cols)
        } else {
            vec![(0..rows * cols).collect()]
        };
        let mut sum: Vec<Vec<Vec<f32>>> = self
            .spec
            .heads
            .iter()
            .map(|h| vec![vec![0.0; h.classes()]; xs.len()])
            .collect();
        // every image of every board of a chunk in one batch
        let per = (4096 / perms.len()).max(1);
        for chunk_start in (0..xs.len()).step_by(per) {
            let chunk = &xs[chunk_start..(chunk_start + per).min(xs.len())];
            let moved: Vec<Example> = perms
                .iter()
                .flat_map(|p| chunk.iter().map(move |e| permute(e, p)))
                .collect();
            let x = encode(self.spec.arch, rows, cols, &moved)?;
            let logits = self.forward(&x, rows, cols).map_err(ml)?;
            for (k, l) in logits.iter().enumerate() {
                let probs = candle_nn::ops::softmax_last_dim(l)
                    .and_then(|t| t.to_vec2::<f32>())
                    .map_err(ml)?;
                for (j, row) in probs.into_iter().enumerate() {
                    let i = chunk_start + j % chunk.len();
                    for (s, v) in sum[k][i].iter_mut().zip(row) {
                        *s += v / perms.len() as f32;
                    }
                }
            }
        }
        Ok(sum)
    }

    /// Number of weights.
    pub fn parameters(&self) -> usize {
        self.vars.all_vars().iter().map(|v| v.elem_count()).sum()
    }

    /// The model file: magic, format version, a JSON header (input encoding, spec, tensor
    /// names and shapes, `info`), then the tensors as little-endian f32 in the header's order.
    pub fn to_bytes(&self, info: &serde_json::Value) -> Result<Vec<u8>, Error> {
        let data = self.vars.data().lock().expect("the weights' lock");
        let mut names: Vec<&String> = data.keys().collect();
        names.sort();
        let tensors: Vec<TensorInfo> = names
            .iter()
            .map(|n| TensorInfo {
                name: (*n).clone(),
                shape: data[*n].dims().to_vec(),
            })
            .collect();
        let header = serde_json::to_vec(&Header {
            encoding: Some(self.spec.arch.encoding().to_string()),
            spec: self.spec.clone(),
            tensors,
            info: info.clone(),
        })
        .map_err(|e| Error::Internal(e.to_string()))?;
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(&header);
        for n in names {
            let v = data[n]
                .flatten_all()
                .and_then(|t| t.to_vec1::<f32>())
                .map_err(ml)?;
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        Ok(out)
    }

    /// A network from a model file's bytes, with the file's `info`.
    pub fn from_bytes(bytes: &[u8]) -> Result<(Net, serde_json::Value), Error> {
        let bad = |m: &str| Error::invalid(format!("not a usable floe model file: {m}"));
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(bad("it does not start with the floe model signature"));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(bad(&format!(
                "format version {version}, this floe reads version {FORMAT_VERSION}"
            )));
        }
        let len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
        let body = bytes
            .get(16..16 + len)
            .ok_or_else(|| bad("the header is cut short"))?;
        let header: Header =
            serde_json::from_slice(body).map_err(|e| bad(&format!("bad header: {e}")))?;
        let encoding = header
            .encoding
            .as_deref()
            .unwrap_or(header.spec.arch.encoding());
        if encoding != header.spec.arch.encoding() {
            return Err(bad(&format!(
                "input encoding `{encoding}`; this floe gives a {} model `{}`",
                header.spec.arch.name(),
                header.spec.arch.encoding()
            )));
        }
        // the weights the header announces must be the bytes that follow it, before anything
        // is built from the header's claims
        let announced = header.tensors.iter().try_fold(0usize, |sum, t| {
            t.shape
                .iter()
                .try_fold(4usize, |p, &d| p.checked_mul(d))
                .and_then(|b| sum.checked_add(b))
        });
        let left = bytes.len() - (16 + len);
        if announced != Some(left) {
            return Err(bad(&format!(
                "its header announces {} of weights, the file holds {left} bytes after it",
                announced.map_or("more than any memory".to_string(), |b| format!("{b} bytes"))
            )));
        }
        let net = Net::build(header.spec, VarMap::new())?;
        let mut at = 16 + len;
        {
            let data = net.vars.data().lock().expect("the weights' lock");
            if data.len() != header.tensors.len() {
                return Err(bad("its tensors do not match its architecture"));
            }
            for t in &header.tensors {
                let v = data
                    .get(&t.name)
                    .ok_or_else(|| bad(&format!("unexpected tensor {}", t.name)))?;
                if v.dims() != t.shape.as_slice() {
                    return Err(bad(&format!("tensor {} has the wrong shape", t.name)));
                }
                let count: usize = t.shape.iter().product();
                let raw = bytes
                    .get(at..at + 4 * count)
                    .ok_or_else(|| bad("the weights are cut short"))?;
                at += 4 * count;
                let values: Vec<f32> = raw
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                    .collect();
                if values.iter().any(|x| !x.is_finite()) {
                    return Err(bad(&format!("tensor {} holds a non-finite weight", t.name)));
                }
                v.set(&Tensor::from_vec(values, t.shape.clone(), &Device::Cpu).map_err(ml)?)
                    .map_err(ml)?;
            }
        }
        if at != bytes.len() {
            return Err(bad("bytes left over after the weights"));
        }
        Ok((net, header.info))
    }

    /// Saves the model file, whole or not at all ([`floe::mem::write_whole`]).
    pub fn save(&self, path: &Path, info: &serde_json::Value) -> Result<(), Error> {
        floe::mem::write_whole(path, self.to_bytes(info)?)
    }

    /// Loads a model file.
    pub fn load(path: &Path) -> Result<(Net, serde_json::Value), Error> {
        use std::io::Read;
        let name = path.display().to_string();
        let io = |source| Error::Io {
            path: name.clone(),
            source,
        };
        let mut file = std::fs::File::open(path).map_err(io)?;
        // the signature first, so that a file of another kind (or /dev/zero) is refused
        // before it is read
        let mut bytes = Vec::new();
        (&mut file)
            .take(MAGIC.len() as u64)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.as_slice() == MAGIC.as_slice() {
            file.take(MAX_FILE).read_to_end(&mut bytes).map_err(io)?;
        }
        if bytes.len() as u64 > MAX_FILE {
            return Err(Error::invalid(format!(
                "{name}: the file is larger than {}, more than a floe model can be",
                floe::mem::human_bytes(MAX_FILE)
            )));
        }
        Net::from_bytes(&bytes).map_err(|e| Error::invalid(format!("{name}: {e}")))
    }
}

#[derive(Serialize, Deserialize)]
struct TensorInfo {
    name: String,
    shape: Vec<usize>,
}

#[derive(Serialize, Deserialize)]
struct Header {
    /// `cells-robot-target`: per cell 1 for a block, then the robot's and the target's cell
    /// numbers (FNN); `one-hot-4`: per cell block, robot, target, empty floor (CNN, FCN).
    /// Absent: the architecture's.
    #[serde(default)]
    encoding: Option<String>,
    spec: Spec,
    tensors: Vec<TensorInfo>,
    info: serde_json::Value,
}

/// The example with its cells moved by the permutation `p` (`p[cell]` = new cell).
pub fn permute(e: &Example, p: &[usize]) -> Example {
    let mut blocks = 0u32;
    let mut b = e.blocks;
    while b != 0 {
        let i = b.trailing_zeros() as usize;
        b &= b - 1;
        blocks |= 1 << p[i];
    }
    Example {
        blocks,
        robot: p[e.robot as usize] as u8,
        target: p[e.target as usize] as u8,
        ..*e
    }
}

/// The input tensor of a batch: `(batch, n + 2)` for the FNN (thesis section 6.2), `(batch,
/// n · 4)` one-hot per cell (block, robot, target, empty floor; cell major) for the CNN and
/// FCN.
pub fn encode(arch: Arch, rows: usize, cols: usize, xs: &[Example]) -> Result<Tensor, Error> {
    let n = rows * cols;
    let t = match arch {
        Arch::Fnn => {
            let mut v = Vec::with_capacity(xs.len() * (n + 2));
            for e in xs {
                v.extend((0..n).map(|i| (e.blocks >> i & 1) as f32));
                v.push(e.robot as f32);
                v.push(e.target as f32);
            }
            Tensor::from_vec(v, (xs.len(), n + 2), &Device::Cpu)
        }
        Arch::Cnn | Arch::Fcn => {
            let mut v = vec![0f32; xs.len() * 4 * n];
            for (k, e) in xs.iter().enumerate() {
                let base = k * 4 * n;
                for i in 0..n {
                    let block = e.blocks >> i & 1 == 1;
                    if block {
                        v[base + 4 * i] = 1.0;
                    } else if i != e.robot as usize {
                        v[base + 4 * i + 3] = 1.0;
                    }
                }
                v[base + 4 * e.robot as usize + 1] = 1.0;
                v[base + 4 * e.target as usize + 2] = 1.0;
            }
            Tensor::from_vec(v, (xs.len(), n * 4), &Device::Cpu)
        }
    };
    t.map_err(ml)
}

/// Log-probabilities of the targets, averaged over the examples where `mask` is 1.
pub(crate) fn masked_cross_entropy(
    logits: &Tensor,
    targets: &Tensor,
    mask: &Tensor,
) -> candle_core::Result<Tensor> {
    let logp = candle_nn::ops::log_softmax(logits, D::Minus1)?;
    let picked = logp.gather(&targets.unsqueeze(1)?, 1)?.squeeze(1)?;
    let count = mask.sum_all()?.to_scalar::<f32>()?.max(1.0);
    (picked * mask)?.sum_all()?.affine(-1.0 / count as f64, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small model's file, and where its header ends.
    fn small_model() -> (Vec<u8>, usize) {
        let net = Net::new(Spec::thesis_fnn(3, 3, vec![Head::Solvable]), 1).unwrap();
        let bytes = net.to_bytes(&serde_json::json!({})).unwrap();
        let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        (bytes, 16 + len)
    }

    /// The file with its header's JSON changed by `edit`.
    fn with_header(edit: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
        let (bytes, end) = small_model();
        let mut h: serde_json::Value = serde_json::from_slice(&bytes[16..end]).unwrap();
        edit(&mut h);
        let h = serde_json::to_vec(&h).unwrap();
        let mut out = bytes[..12].to_vec();
        out.extend((h.len() as u32).to_le_bytes());
        out.extend(h);
        out.extend(&bytes[end..]);
        out
    }

    fn refusal(bytes: &[u8]) -> String {
        match Net::from_bytes(bytes) {
            Ok(_) => panic!("the file was accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_model_round_trips() {
        let (bytes, _) = small_model();
        let (net, _) = Net::from_bytes(&bytes).unwrap();
        assert_eq!(net.to_bytes(&serde_json::json!({})).unwrap(), bytes);
    }

    #[test]
    fn headers_that_claim_more_than_the_file_holds_are_refused_before_building() {
        // a width of a billion: refused by the range, nothing allocated
        let e = refusal(&with_header(|h| h["spec"]["width"] = 1_000_000_000.into()));
        assert!(
            e.contains("width of 1000000000 is more than the 4096"),
            "{e}"
        );
        // tensors whose sizes wrap or exceed the file
        let e = refusal(&with_header(|h| {
            h["tensors"][0]["shape"] = serde_json::json!([u64::MAX, 4])
        }));
        assert!(e.contains("announces more than any memory"), "{e}");
        let e = refusal(&with_header(|h| {
            h["tensors"][0]["shape"] = serde_json::json!([100_000, 100_000])
        }));
        assert!(
            e.contains("announces 400000") && e.contains("bytes of weights"),
            "{e}"
        );
        // a head of four billion classes
        let e = refusal(&with_header(|h| {
            h["spec"]["heads"] = serde_json::json!([{"pushes": {"max": u32::MAX}}])
        }));
        assert!(e.contains("head of"), "{e}");
        // a file cut short, or with bytes after the weights
        let (bytes, _) = small_model();
        let e = refusal(&bytes[..bytes.len() - 4]);
        assert!(e.contains("the file holds"), "{e}");
        let mut longer = bytes.clone();
        longer.extend([0; 4]);
        assert!(refusal(&longer).contains("the file holds"));
    }
}
