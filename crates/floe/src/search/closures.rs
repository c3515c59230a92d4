//! A [`Puzzle`] made of closures, so that every search can be tried on a problem in a few
//! lines (the examples of this module's siblings use it).

use super::Puzzle;
use std::hash::Hash;
use std::marker::PhantomData;

/// The bound of a puzzle made with [`from_fn`]: 0 everywhere.
pub type NoBound<S> = fn(&S) -> u32;

/// A puzzle given by a start, a successor function and a goal test (and optionally a lower
/// bound): see [`from_fn`].
pub struct FnPuzzle<S, M, I, FS, FG, FH> {
    start: S,
    successors: FS,
    goal: FG,
    bound: FH,
    moves: PhantomData<fn() -> (M, I)>,
}

/// A puzzle from closures: `successors(s)` yields `(move, next state)` pairs, `is_goal(s)`
/// says whether `s` solves it. Add an admissible bound with [`FnPuzzle::with_bound`].
///
/// ```
/// use floe::search::{bfs, from_fn, Limits};
/// // reach 10 from 1 by adding one or doubling
/// let p = from_fn(1u32, |&x| [('+', x + 1), ('*', 2 * x)], |&x| x == 10);
/// let r = bfs(&p, &Limits::none());
/// assert_eq!(r.cost, Some(4));
/// ```
pub fn from_fn<S, M, I, FS, FG>(
    start: S,
    successors: FS,
    is_goal: FG,
) -> FnPuzzle<S, M, I, FS, FG, NoBound<S>>
where
    S: Clone + Eq + Hash,
    M: Clone,
    I: IntoIterator<Item = (M, S)>,
    FS: Fn(&S) -> I,
    FG: Fn(&S) -> bool,
{
    FnPuzzle {
        start,
        successors,
        goal: is_goal,
        bound: |_| 0,
        moves: PhantomData,
    }
}

impl<S, M, I, FS, FG, FH> FnPuzzle<S, M, I, FS, FG, FH> {
    /// The same puzzle with an admissible lower bound on the moves still needed (for
    /// [`astar`](super::astar), [`ida_star`](super::ida_star),
    /// [`astar_proving`](super::astar_proving)).
    ///
    /// ```
    /// use floe::search::{from_fn, Puzzle};
    /// // walk from 3 to 0 by steps of ±1; the distance to 0 is an exact bound
    /// let p = from_fn(3i32, |&x| [('-', x - 1), ('+', x + 1)], |&x| x == 0)
    ///     .with_bound(|&x| x.unsigned_abs());
    /// assert_eq!(p.lower_bound(&-2), 2);
    /// assert_eq!(p.lower_bound(&p.start()), 3);
    /// ```
    pub fn with_bound<FH2: Fn(&S) -> u32>(self, bound: FH2) -> FnPuzzle<S, M, I, FS, FG, FH2> {
        FnPuzzle {
            start: self.start,
            successors: self.successors,
            goal: self.goal,
            bound,
            moves: PhantomData,
        }
    }
}

impl<S, M, I, FS, FG, FH> Puzzle for FnPuzzle<S, M, I, FS, FG, FH>
where
    S: Clone + Eq + Hash,
    M: Clone,
    I: IntoIterator<Item = (M, S)>,
    FS: Fn(&S) -> I,
    FG: Fn(&S) -> bool,
    FH: Fn(&S) -> u32,
{
    type State = S;
    type Move = M;
    fn start(&self) -> S {
        self.start.clone()
    }
    fn successors(&self, s: &S, out: &mut Vec<(M, S)>) {
        out.extend((self.successors)(s));
    }
    fn is_goal(&self, s: &S) -> bool {
        (self.goal)(s)
    }
    fn lower_bound(&self, s: &S) -> u32 {
        (self.bound)(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{astar, ida_star, Limits, UnitCost};

    #[test]
    fn closures_make_a_puzzle() {
        let p = from_fn(3i32, |&x| [(1, x + 1), (-1, x - 1)], |&x| x == 0)
            .with_bound(|&x| x.unsigned_abs());
        assert_eq!(p.start(), 3);
        assert_eq!(p.lower_bound(&-2), 2);
        assert_eq!(astar(&p, &UnitCost, &Limits::none()).cost, Some(3));
        assert_eq!(ida_star(&p, &Limits::none(), 100).cost, Some(3));
    }
}
