//! The statistics of the Monte Carlo experiments: means and standard deviations, Wilson
//! intervals, two-sample t-tests (Student's and Welch's) and the Kruskal–Wallis H-test, with
//! the t and chi-square distributions they need.
//!
//! The distribution functions are the regularised incomplete beta and gamma functions
//! (continued fractions and series as in Numerical Recipes, §6.2 and §6.4, with Lentz's
//! method), accurate to about 1e-12 over the ranges used here; the tests below check them
//! against closed forms and tabulated critical values. No dependency is needed for this.

use serde::Serialize;

/// Arithmetic mean (NaN for no values).
pub fn mean(x: &[f64]) -> f64 {
    if x.is_empty() {
        return f64::NAN;
    }
    x.iter().sum::<f64>() / x.len() as f64
}

/// Sample variance (divisor n − 1; NaN for fewer than two values).
pub fn variance(x: &[f64]) -> f64 {
    if x.len() < 2 {
        return f64::NAN;
    }
    let m = mean(x);
    x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() - 1) as f64
}

/// Sample standard deviation (divisor n − 1).
pub fn sd(x: &[f64]) -> f64 {
    variance(x).sqrt()
}

/// Median (mean of the two middle values for an even count; NaN for none).
pub fn median(x: &[f64]) -> f64 {
    let mut v: Vec<f64> = x.iter().copied().filter(|x| !x.is_nan()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The 95% Wilson score interval of a proportion `k / n`.
pub fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, k as f64 / n as f64);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error below 1e-14).
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // reflection
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

const EPS: f64 = 1e-15;
const TINY: f64 = 1e-300;
const MAX_ITER: usize = 10_000;

/// Continued fraction of the incomplete beta function (Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / not_tiny(1.0 - qab * x / qap);
    let mut h = d;
    for m in 1..MAX_ITER {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        h *= lentz_step(aa, &mut c, &mut d);
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        let del = lentz_step(aa, &mut c, &mut d);
        h *= del;
        if (del - 1.0).abs() < EPS {
            break;
        }
    }
    h
}

/// `x`, or [`TINY`] when `x` is nearer zero than that (Lentz's guard against dividing by 0).
fn not_tiny(x: f64) -> f64 {
    if x.abs() < TINY {
        TINY
    } else {
        x
    }
}

/// One step of Lentz's method with partial numerator `aa`: updates `c` and `d` and returns
/// the factor the fraction is multiplied by.
fn lentz_step(aa: f64, c: &mut f64, d: &mut f64) -> f64 {
    *d = 1.0 / not_tiny(1.0 + aa * *d);
    *c = not_tiny(1.0 + aa / *c);
    *d * *c
}

/// The regularised incomplete beta function I_x(a, b).
pub fn beta_inc(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let front = ln_front.exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_cf(a, b, x) / a
    } else {
        1.0 - front * beta_cf(b, a, 1.0 - x) / b
    }
}

/// The regularised upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a).
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let ln_front = -x + a * x.ln() - ln_gamma(a);
    if x < a + 1.0 {
        // series for P
        let (mut ap, mut sum, mut del) = (a, 1.0 / a, 1.0 / a);
        for _ in 0..MAX_ITER {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if del.abs() < sum.abs() * EPS {
                break;
            }
        }
        1.0 - sum * ln_front.exp()
    } else {
        // continued fraction for Q (Lentz)
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / TINY;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..MAX_ITER {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < TINY {
                d = TINY;
            }
            c = b + an / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < EPS {
                break;
            }
        }
        ln_front.exp() * h
    }
}

/// Two-sided p-value of Student's t distribution with `df` degrees of freedom.
pub fn t_two_sided(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return 0.0;
    }
    beta_inc(df / 2.0, 0.5, df / (df + t * t))
}

/// Upper tail P(X ≥ x) of the chi-square distribution with `k` degrees of freedom.
pub fn chi2_sf(x: f64, k: f64) -> f64 {
    if x.is_nan() || k <= 0.0 {
        return f64::NAN;
    }
    gamma_q(k / 2.0, x / 2.0)
}

/// A two-sample t-test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TTest {
    /// The t statistic (mean of a − mean of b over its standard error); `None` when both
    /// samples have no spread.
    pub t: Option<f64>,
    /// Degrees of freedom.
    pub df: f64,
    /// Two-sided p-value; with no spread at all, 1 for equal means and 0 for different ones.
    pub p: f64,
}

fn degenerate(a: &[f64], b: &[f64], df: f64) -> TTest {
    TTest {
        t: None,
        df,
        p: if (mean(a) - mean(b)).abs() < 1e-12 {
            1.0
        } else {
            0.0
        },
    }
}

/// Student's two-sample t-test with pooled variance (the classic test; SciPy's `ttest_ind`
/// default). `None` for fewer than two values in a sample.
pub fn student_t(a: &[f64], b: &[f64]) -> Option<TTest> {
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let df = n1 + n2 - 2.0;
    let pooled = ((n1 - 1.0) * variance(a) + (n2 - 1.0) * variance(b)) / df;
    let se = (pooled * (1.0 / n1 + 1.0 / n2)).sqrt();
    if se == 0.0 {
        return Some(degenerate(a, b, df));
    }
    let t = (mean(a) - mean(b)) / se;
    Some(TTest {
        t: Some(t),
        df,
        p: t_two_sided(t, df),
    })
}

/// Welch's t-test (unequal variances; Welch–Satterthwaite degrees of freedom).
pub fn welch_t(a: &[f64], b: &[f64]) -> Option<TTest> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    let (v1, v2) = (variance(a) / n1, variance(b) / n2);
    if v1 + v2 == 0.0 {
        return Some(degenerate(a, b, n1 + n2 - 2.0));
    }
    let t = (mean(a) - mean(b)) / (v1 + v2).sqrt();
    let df = (v1 + v2).powi(2) / (v1 * v1 / (n1 - 1.0) + v2 * v2 / (n2 - 1.0));
    Some(TTest {
        t: Some(t),
        df,
        p: t_two_sided(t, df),
    })
}

/// The Kruskal–Wallis H-test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KruskalWallis {
    /// H, corrected for ties.
    pub h: f64,
    /// Degrees of freedom: groups − 1 (empty groups are left out).
    pub df: usize,
    /// p-value from the chi-square approximation.
    pub p: f64,
    /// Values ranked.
    pub n: usize,
}

/// Kruskal–Wallis H-test of whether the groups come from one distribution: mid-ranks for
/// ties, H divided by the tie correction 1 − Σ(t³ − t)/(N³ − N), chi-square p-value with
/// (groups − 1) degrees of freedom. `None` with fewer than two non-empty groups or when every
/// value is equal.
pub fn kruskal_wallis(groups: &[Vec<f64>]) -> Option<KruskalWallis> {
    let groups: Vec<&Vec<f64>> = groups.iter().filter(|g| !g.is_empty()).collect();
    if groups.len() < 2 {
        return None;
    }
    let mut all: Vec<(f64, usize)> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, v)| v.iter().map(move |&x| (x, g)))
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n = all.len();
    let mut rank_sum = vec![0.0; groups.len()];
    let mut ties = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && all[j + 1].0 == all[i].0 {
            j += 1;
        }
        let t = (j - i + 1) as f64;
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for item in &all[i..=j] {
            rank_sum[item.1] += rank;
        }
        ties += t * t * t - t;
        i = j + 1;
    }
    let nf = n as f64;
    let correction = 1.0 - ties / (nf * nf * nf - nf);
    if correction <= 0.0 {
        return None;
    }
    let h0 = 12.0 / (nf * (nf + 1.0))
        * rank_sum
            .iter()
            .zip(&groups)
            .map(|(r, g)| r * r / g.len() as f64)
            .sum::<f64>()
        - 3.0 * (nf + 1.0);
    let h = h0 / correction;
    let df = groups.len() - 1;
    Some(KruskalWallis {
        h,
        df,
        p: chi2_sf(h, df as f64),
        n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} vs {b}");
    }

    #[test]
    fn descriptive() {
        let x = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        close(mean(&x), 5.0, 1e-12);
        close(variance(&x), 32.0 / 7.0, 1e-12);
        close(median(&x), 4.5, 0.0);
        close(median(&[3.0, 1.0, 2.0]), 2.0, 0.0);
        // Wilson interval of 50/100: 0.4038–0.5962
        let [lo, hi] = wilson(50, 100);
        close(lo, 0.4038, 1e-4);
        close(hi, 0.5962, 1e-4);
        assert_eq!(wilson(0, 10)[0], 0.0);
    }

    #[test]
    fn gamma_function() {
        close(ln_gamma(1.0), 0.0, 1e-13);
        close(ln_gamma(5.0), 24f64.ln(), 1e-12);
        close(ln_gamma(0.5), std::f64::consts::PI.sqrt().ln(), 1e-12);
        close(ln_gamma(100.0), 359.134_205_369_575_4, 1e-9);
    }

    #[test]
    fn t_distribution() {
        // df = 1 is Cauchy: P(|T| > 1) = 1/2
        close(t_two_sided(1.0, 1.0), 0.5, 1e-12);
        // df = 2: P(|T| > t) = 1 − t / √(2 + t²)
        close(t_two_sided(2.0, 2.0), 1.0 - 2.0 / 6f64.sqrt(), 1e-12);
        // tabulated 97.5% points
        close(t_two_sided(12.706_204_736, 1.0), 0.05, 1e-8);
        close(t_two_sided(2.306_004_135, 8.0), 0.05, 1e-8);
        close(t_two_sided(2.100_922_040, 18.0), 0.05, 1e-8);
        close(t_two_sided(0.0, 18.0), 1.0, 1e-12);
        // large df approaches the normal: 1.959964
        close(t_two_sided(1.959_963_985, 1e7), 0.05, 1e-6);
    }

    #[test]
    fn chi_square_distribution() {
        // k = 2 is exponential: P(X ≥ x) = exp(−x/2)
        close(chi2_sf(2.0, 2.0), (-1.0f64).exp(), 1e-13);
        close(chi2_sf(7.2, 2.0), (-3.6f64).exp(), 1e-13);
        // tabulated 95% points
        close(chi2_sf(3.841_458_821, 1.0), 0.05, 1e-9);
        close(chi2_sf(7.814_727_903, 3.0), 0.05, 1e-9);
        close(chi2_sf(18.307_038_05, 10.0), 0.05, 1e-9);
        // far tail (series/fraction switch and tiny values)
        close(chi2_sf(60.0, 3.0) / 6.0e-13, 1.0, 0.5);
    }

    #[test]
    fn t_tests_by_hand() {
        let a = [1.0, 2.0, 3.0, 4.0, 5.0];
        let b = [2.0, 4.0, 6.0, 8.0, 10.0];
        // pooled variance (4·2.5 + 4·10)/8 = 6.25; se = √(6.25·0.4) = √2.5; t = −3/√2.5
        let s = student_t(&a, &b).unwrap();
        close(s.t.unwrap(), -3.0 / 2.5f64.sqrt(), 1e-12);
        assert_eq!(s.df, 8.0);
        close(s.p, 0.094_343, 1e-5);
        // Welch: same t here (equal n); df = 2.5² / (0.5²/4 + 2²/4) = 5.882353
        let w = welch_t(&a, &b).unwrap();
        close(w.t.unwrap(), -3.0 / 2.5f64.sqrt(), 1e-12);
        close(w.df, 6.25 / 1.0625, 1e-12);
        // no spread
        let z = student_t(&[1.0, 1.0], &[1.0, 1.0]).unwrap();
        assert_eq!((z.t, z.p), (None, 1.0));
        let z = student_t(&[1.0, 1.0], &[0.0, 0.0]).unwrap();
        assert_eq!(z.p, 0.0);
        assert!(student_t(&[1.0], &a).is_none());
    }

    #[test]
    fn kruskal_wallis_by_hand() {
        // ranks 1–9 in three groups: H = 12/90 · (6² + 15² + 24²)/3 − 30 = 7.2
        let g = vec![
            vec![1.0, 2.0, 3.0],
            vec![4.0, 5.0, 6.0],
            vec![7.0, 8.0, 9.0],
        ];
        let k = kruskal_wallis(&g).unwrap();
        close(k.h, 7.2, 1e-12);
        assert_eq!(k.df, 2);
        close(k.p, (-3.6f64).exp(), 1e-12);
        // with ties: mid-ranks 1.5 1.5 3.5 | 3.5 5.5 5.5, H0 = 3.047619, correction
        // 1 − 18/210, H = 10/3
        let g = vec![vec![1.0, 1.0, 2.0], vec![2.0, 3.0, 3.0]];
        let k = kruskal_wallis(&g).unwrap();
        close(k.h, 10.0 / 3.0, 1e-12);
        close(k.p, 0.067_889_154, 1e-6);
        assert!(kruskal_wallis(&[vec![1.0], vec![]]).is_none());
        assert!(kruskal_wallis(&[vec![1.0, 1.0], vec![1.0]]).is_none());
    }
}
