//! Learned predictors for PushPush boards: solvability, fewest pushes and the thesis's
//! difficulty class (van der Velden 2023, section 6), trained on the CPU with candle on
//! exact labels.
//!
//! - [`data`]: sampled, exactly labelled datasets split 80/10/10 by equivalence class; their
//!   text format.
//! - [`model`]: the thesis's FNN and CNN and a symmetry-aware fully convolutional network;
//!   the model file format.
//! - [`train`]: mini-batch training.
//! - [`eval`]: accuracy, confusion matrices and calibration.

pub mod data;
pub mod eval;
pub mod model;
pub mod train;

pub use data::{Dataset, Example, Split};
pub use model::{Arch, Head, Net, Spec};
pub use train::{train, TrainOptions};

/// candle runs its CPU element-wise operations on a pool of spinning threads; on two shared
/// cores they wait more than they work (an epoch took 6× longer in BENCHMARKS.md). Unless
/// `CANDLE_NUM_THREADS` is set, floe-learn asks for one thread; matrix products keep their
/// own threads. Called before the first tensor is made.
pub fn settle_threads() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if std::env::var_os("CANDLE_NUM_THREADS").is_none() {
            std::env::set_var("CANDLE_NUM_THREADS", "1");
        }
    });
}
