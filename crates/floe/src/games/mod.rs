//! One module per game: rules, text formats and fast engines.

pub mod ice;
