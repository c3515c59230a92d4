//! The flags of the library's operations ([`floe::operations!`]): one command each, a
//! level (or, for an operation that takes one, an empty ice board), the operation's own
//! request, the flags of a shared run for an operation that can be shared, and `--json`
//! (run by `cmd::op`).

use super::{BoardArgs, ClusterArgs, LevelArgs};
use clap::{ArgMatches, Args, Command, FromArgMatches};
use floe::request::{EmptyBoard, Operation};

/// A level and the operation's own request.
#[derive(Debug)]
pub struct OpArgs<O> {
    /// The level: a file, or an empty ice board when the operation takes one
    /// ([`Operation::BOARD`]).
    pub board: BoardArgs,
    /// The operation's parameters.
    pub request: O,
    /// Workers, processes, work directory, when the operation can be shared
    /// ([`Operation::SHARED`]; else none given).
    pub cluster: ClusterArgs,
    /// One JSON document on standard output.
    pub json: bool,
}

impl<O: Operation + Args> Args for OpArgs<O> {
    fn augment_args(cmd: Command) -> Command {
        let cmd = if O::BOARD {
            BoardArgs::augment_args(cmd)
        } else {
            LevelArgs::augment_args(cmd)
        };
        let cmd = O::augment_args(cmd).arg(
            clap::Arg::new("json")
                .long("json")
                .action(clap::ArgAction::SetTrue)
                .help("One JSON document on standard output"),
        );
        // last: its flags go under their own heading
        if O::SHARED {
            ClusterArgs::augment_args(cmd)
        } else {
            cmd
        }
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl<O: Operation + Args + FromArgMatches> FromArgMatches for OpArgs<O> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let board = if O::BOARD {
            BoardArgs::from_arg_matches(m)?
        } else {
            let l = LevelArgs::from_arg_matches(m)?;
            BoardArgs {
                file: Some(l.file),
                empty: EmptyBoard {
                    level: l.pick.level,
                    ..EmptyBoard::default()
                },
                game: l.pick.game,
            }
        };
        Ok(OpArgs {
            board,
            request: O::from_arg_matches(m)?,
            cluster: if O::SHARED {
                ClusterArgs::from_arg_matches(m)?
            } else {
                ClusterArgs::default()
            },
            json: m.get_flag("json"),
        })
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
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
