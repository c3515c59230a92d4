//! Pretzel deals enumerated instead of sampled: the exact solvable fraction of a setup.

use super::Setup;
use crate::error::Error;
use crate::games::solitaire::pretzel::{Deal, Pretzel};
use crate::generate::{self, Size};
use crate::search::{self, Limits};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// The exact solvable fraction of a Pretzel setup, by solving every deal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exact {
    /// Size.
    pub size: String,
    /// Setup.
    pub setup: &'static str,
    /// Distinct deals (Shuffled: placements of the non-ace cards and the holes, each equally
    /// likely; Sequential and Banded: (n!)^k suit orders).
    pub deals: u64,
    /// Deals actually solved (one per class of the suit-relabelling symmetry for Shuffled).
    pub solved_classes: u64,
    /// Solvable deals.
    pub solvable: u64,
    /// The exact fraction.
    pub fraction: f64,
    /// Deals with a cyclic blockade at the deal.
    pub blockaded: u64,
    /// Mean shortest solution over the solvable deals.
    pub mean_length: Option<f64>,
    /// Seconds.
    pub seconds: f64,
}

/// Most deals [`exact_pretzel`] will enumerate.
pub const EXACT_LIMIT: u64 = 50_000_000;

/// Solves every deal of a Pretzel setup. Shuffled deals are enumerated as placements of the
/// k·(n − 1) non-ace cards and k holes (every shuffled deck gives one, each equally often),
/// one per orbit of the suit relabelling (rename the suits by a permutation σ and move row r
/// to row σ(r): the rules do not change), weighted by the orbit's size. Sequential and Banded
/// deals are enumerated as the (n!)^k orders of the suit decks.
pub fn exact_pretzel(suits: usize, ranks: usize, setup: Setup) -> Result<Exact, Error> {
    generate::check(Size::Pretzel { suits, ranks }, setup)?;
    let start = Instant::now();
    let (k, n) = (suits, ranks);
    let size = Size::Pretzel { suits, ranks }.to_string();
    let solve = |cells: &[u8]| -> Result<(bool, Option<u32>, bool), Error> {
        let d = Deal::new(k, n, cells.to_vec())?;
        let blocked = d.blockades().any();
        let p = Pretzel::new(&d);
        let r = search::bfs(&p, &Limits::none());
        Ok((
            r.outcome.solution().is_some(),
            r.cost.map(|c| c as u32),
            blocked,
        ))
    };
    match setup {
        Setup::Shuffled => {
            let cells = k * n;
            let total = factorial_ratio(cells, k);
            if total.is_none_or(|t| t > EXACT_LIMIT * 24) {
                return Err(Error::invalid(format!(
                    "{size} has too many shuffled deals to enumerate"
                )));
            }
            let perms = permutations(k);
            // the multiset: k holes and the cards
            let mut items: Vec<u8> = vec![0; k];
            for s in 0..k {
                for r in 2..=n {
                    items.push((s * n + r) as u8);
                }
            }
            // split the work by the first cell's content
            let firsts: Vec<u8> = {
                let mut f = items.clone();
                f.dedup();
                f
            };
            let parts: Vec<Result<[u64; 6], Error>> = firsts
                .par_iter()
                .map(|&first| {
                    let mut rest = items.clone();
                    let pos = rest.iter().position(|&x| x == first).expect("present");
                    rest.remove(pos);
                    rest.sort_unstable();
                    let mut acc = [0u64; 6]; // deals, classes, solvable, blockaded, length sum, solvable deals for mean
                    let mut cellv = vec![0u8; cells];
                    cellv[0] = first;
                    loop {
                        cellv[1..].copy_from_slice(&rest);
                        if let Some(orbit) = canonical_orbit(&cellv, k, n, &perms) {
                            let (ok, len, blocked) = solve(&cellv)?;
                            acc[1] += 1;
                            acc[0] += orbit;
                            if ok {
                                acc[2] += orbit;
                                acc[4] += orbit * u64::from(len.unwrap_or(0));
                            }
                            if blocked {
                                acc[3] += orbit;
                            }
                        }
                        if !next_permutation(&mut rest) {
                            break;
                        }
                    }
                    Ok(acc)
                })
                .collect();
            let mut acc = [0u64; 6];
            for p in parts {
                let p = p?;
                for i in 0..6 {
                    acc[i] += p[i];
                }
            }
            if Some(acc[0]) != total {
                return Err(Error::Internal(format!(
                    "orbit sizes add up to {} deals, expected {total:?}",
                    acc[0]
                )));
            }
            Ok(Exact {
                size,
                setup: setup.name(),
                deals: acc[0],
                solved_classes: acc[1],
                solvable: acc[2],
                fraction: acc[2] as f64 / acc[0] as f64,
                blockaded: acc[3],
                mean_length: (acc[2] > 0).then(|| acc[4] as f64 / acc[2] as f64),
                seconds: start.elapsed().as_secs_f64(),
            })
        }
        _ => {
            let per_suit = (1..=n as u64).product::<u64>();
            let total = per_suit.checked_pow(k as u32).filter(|&t| t <= EXACT_LIMIT);
            let Some(total) = total else {
                return Err(Error::invalid(format!(
                    "{size} has too many {} deals to enumerate",
                    setup.name()
                )));
            };
            let orders = all_orders(n);
            let results: Vec<Result<(u64, u64, u64), Error>> = (0..total)
                .into_par_iter()
                .map(|mut code| {
                    let mut decks = Vec::with_capacity(k);
                    for s in 0..k {
                        let o = &orders[(code % per_suit) as usize];
                        code /= per_suit;
                        decks.push(
                            o.iter()
                                .map(|&r| crate::games::solitaire::pretzel::Card {
                                    suit: s as u8,
                                    rank: r,
                                })
                                .collect::<Vec<_>>(),
                        );
                    }
                    let layout = layout_from_decks(&decks, k, n, setup);
                    let d = Deal::from_layout(k, n, &layout)?;
                    let (ok, len, blocked) = solve(d.cells())?;
                    Ok((
                        u64::from(ok),
                        u64::from(len.unwrap_or(0)),
                        u64::from(blocked),
                    ))
                })
                .collect();
            let (mut solvable, mut len_sum, mut blockaded) = (0, 0, 0);
            for r in results {
                let (a, b, c) = r?;
                solvable += a;
                len_sum += b;
                blockaded += c;
            }
            Ok(Exact {
                size,
                setup: setup.name(),
                deals: total,
                solved_classes: total,
                solvable,
                fraction: solvable as f64 / total as f64,
                blockaded,
                mean_length: (solvable > 0).then(|| len_sum as f64 / solvable as f64),
                seconds: start.elapsed().as_secs_f64(),
            })
        }
    }
}

/// The layout Sequential or Banded deals from given suit decks (the same dealing as the
/// generator's, without the shuffles).
pub(super) fn layout_from_decks(
    decks: &[Vec<crate::games::solitaire::pretzel::Card>],
    k: usize,
    n: usize,
    setup: Setup,
) -> Vec<crate::games::solitaire::pretzel::Card> {
    let mut layout = vec![decks[0][0]; k * n];
    for q in 0..k * n {
        match setup {
            Setup::Banded => layout[(q % k) * n + q / k] = decks[q / n][q % n],
            _ => layout[q] = decks[q % k][q / k],
        }
    }
    layout
}

/// Every order of the ranks 1..=n.
pub(super) fn all_orders(n: usize) -> Vec<Vec<u8>> {
    let mut v: Vec<u8> = (1..=n as u8).collect();
    let mut out = vec![v.clone()];
    while next_permutation(&mut v) {
        out.push(v.clone());
    }
    out
}

/// (cells)! / k!, if it fits.
pub(super) fn factorial_ratio(cells: usize, k: usize) -> Option<u64> {
    (k + 1..=cells).try_fold(1u64, |acc, x| acc.checked_mul(x as u64))
}

/// Every permutation of 0..k.
pub(super) fn permutations(k: usize) -> Vec<Vec<usize>> {
    let mut v: Vec<usize> = (0..k).collect();
    let mut out = vec![v.clone()];
    while next_permutation(&mut v) {
        out.push(v.clone());
    }
    out
}

/// The next permutation in lexicographic order (duplicates allowed); false after the last.
pub(super) fn next_permutation<T: Ord>(v: &mut [T]) -> bool {
    if v.len() < 2 {
        return false;
    }
    let mut i = v.len() - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = v.len() - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// When `cells` is the smallest of its images under the suit relabellings (rename suit s to
/// σ(s) and move row r to row σ(r)), the size of its orbit; otherwise `None`.
pub(super) fn canonical_orbit(
    cells: &[u8],
    k: usize,
    n: usize,
    perms: &[Vec<usize>],
) -> Option<u64> {
    let mut stabiliser = 0u64;
    let mut inverse = vec![0usize; k];
    'perm: for sigma in perms {
        for (s, &t) in sigma.iter().enumerate() {
            inverse[t] = s;
        }
        // compare the image with `cells` lexicographically, cell by cell
        for (i, &own) in cells.iter().enumerate() {
            let (row, col) = (i / n, i % n);
            let src = cells[inverse[row] * n + col];
            let img = if src == 0 {
                0
            } else {
                let s = (src as usize - 1) / n;
                let r = (src as usize - 1) % n + 1;
                (sigma[s] * n + r) as u8
            };
            match img.cmp(&own) {
                std::cmp::Ordering::Less => return None,
                std::cmp::Ordering::Greater => continue 'perm,
                std::cmp::Ordering::Equal => {}
            }
        }
        stabiliser += 1;
    }
    Some(perms.len() as u64 / stabiliser)
}
