//! The flags of the library's operations ([`floe::operations!`]): one command each, a
//! level and the operation's own request (run by `cmd::op`).

use super::LevelArgs;
use floe::request::Operation;

/// A level and the operation's own request.
#[derive(clap::Args, Debug)]
pub struct OpArgs<O: clap::Args> {
    /// The level.
    #[command(flatten)]
    pub level: LevelArgs,
    /// The operation's parameters.
    #[command(flatten)]
    pub request: O,
    /// One JSON document on standard output.
    #[arg(long)]
    pub json: bool,
}

macro_rules! commands {
    ($($name:ident => $ty:path,)*) => {
        /// One command per operation of the library's list.
        #[derive(clap::Subcommand, Debug)]
        pub enum OpCommand {
            $(
                #[command(about = <$ty as Operation>::ABOUT)]
                $name(OpArgs<$ty>),
            )*
        }
    };
}

floe::operations!(commands);
