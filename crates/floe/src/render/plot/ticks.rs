//! Number formatting and tick values shared by every chart: [`format_number`], the "nice"
//! 1-2-5 ticks of [`nice_ticks`] and the labels of linear axis ticks.

/// Formats a number compactly for people: `0`, `0.25`, `3.142`, `123.5`, `1,234`, `123,456`,
/// `1.2 M`, `45.7 G`, `3 T`, `1.2e15`, `1e-5`; `NaN`, `inf`, `-inf` for non-finite values.
///
/// About four significant digits below a million (integers are shown in full, with thousands
/// separators), three with the suffixes M (10⁶), G (10⁹), T (10¹²), and scientific notation
/// from 10¹⁵ up and below 10⁻⁴.
pub fn format_number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-4..1e15).contains(&a) {
        return scientific(v, 2);
    }
    if a >= 1e6 {
        let (unit, suffix) = big_unit(a);
        let s = v / unit;
        let d = if s.abs() >= 100.0 {
            0
        } else if s.abs() >= 10.0 {
            1
        } else {
            2
        };
        return format!("{} {suffix}", trim_zeros(&format!("{s:.d$}")));
    }
    if a >= 1000.0 {
        return group_thousands(&fix_negative_zero(format!("{v:.0}")));
    }
    let d = if a >= 100.0 {
        1
    } else if a >= 10.0 {
        2
    } else if a >= 1.0 {
        3
    } else {
        (2.0 - a.log10().floor()).clamp(0.0, 8.0) as usize
    };
    fix_negative_zero(trim_zeros(&format!("{v:.d$}")))
}

/// "Nice" tick values covering `lo..=hi`: multiples of a step 1, 2 or 5 × 10ᵏ, the smallest
/// such step giving at most `max_intervals` intervals, from the largest multiple ≤ `lo` to the
/// smallest multiple ≥ `hi`.
///
/// `nice_ticks(0.0, 1.0, 5)` is `[0, 0.2, 0.4, 0.6, 0.8, 1]`, `nice_ticks(0.0, 5477.0, 6)` is
/// `[0, 1000, …, 6000]`. Reversed bounds are swapped; equal bounds give that one value;
/// non-finite bounds give no ticks. Tick values are computed as integer × 10ᵏ, so they print
/// without rounding noise (0.6, not 0.6000000000000001).
pub fn nice_ticks(lo: f64, hi: f64, max_intervals: usize) -> Vec<f64> {
    if !lo.is_finite() || !hi.is_finite() {
        return Vec::new();
    }
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    if lo == hi {
        return vec![lo];
    }
    nice(lo, hi, max_intervals).0
}

/// The ticks and their step; see [`nice_ticks`]. Requires finite `lo < hi`.
pub(super) fn nice(lo: f64, hi: f64, max_intervals: usize) -> (Vec<f64>, f64) {
    let max_i = max_intervals.clamp(1, 1000) as f64;
    let span = hi - lo;
    let raw = span / max_i;
    if !(raw > 0.0 && raw.is_finite()) {
        return (vec![lo, hi], span);
    }
    let e = raw.log10().floor().clamp(-400.0, 400.0) as i32;
    let candidates = [(1.0, 0), (2.0, 0), (5.0, 0), (1.0, 1), (2.0, 1), (5.0, 1)];
    for (n, &(m, de)) in candidates.iter().enumerate() {
        let exp = e + de;
        let step = m * pow10(exp);
        if !(step > 0.0 && step.is_finite()) {
            continue;
        }
        let i0 = (lo / step + 1e-9).floor();
        let i1 = (hi / step - 1e-9).ceil();
        if !(i0.is_finite() && i1.is_finite()) {
            continue;
        }
        if i1 - i0 <= max_i || n + 1 == candidates.len() {
            let count = (i1 - i0).clamp(0.0, 1000.0) as usize;
            let ticks = (0..=count)
                .map(|j| tick_value(i0 + j as f64, m, exp))
                .collect();
            return (ticks, step);
        }
    }
    (vec![lo, hi], span)
}

/// `i × m × 10^exp`, computed so that the result is the double nearest to the decimal value.
fn tick_value(i: f64, m: f64, exp: i32) -> f64 {
    let k = i * m;
    let v = if exp >= 0 {
        k * pow10(exp)
    } else {
        k / pow10(-exp)
    };
    v + 0.0 // no negative zero
}

/// 10^e, correctly rounded (the parser rounds exactly; `powi` need not).
pub(super) fn pow10(e: i32) -> f64 {
    format!("1e{e}").parse().unwrap_or(0.0)
}

/// Labels for linear ticks with the given step: the same number of decimals on every label,
/// thousands separators, a common suffix from 10⁶ up, scientific notation from 10¹⁵ up or
/// for steps below 10⁻⁶.
pub(super) fn tick_labels(ticks: &[f64], step: f64) -> Vec<String> {
    let max_abs = ticks.iter().fold(0.0f64, |m, t| m.max(t.abs()));
    if max_abs >= 1e15 || step < 1e-6 {
        return zero_or(ticks, shortest_scientific);
    }
    if max_abs >= 1e6 {
        let (unit, suffix) = big_unit(max_abs);
        let d = decimals_for(step / unit);
        return zero_or(ticks, |t| {
            let s = fix_negative_zero(format!("{:.d$}", t / unit));
            format!("{} {suffix}", group_thousands(&s))
        });
    }
    let d = decimals_for(step);
    ticks
        .iter()
        .map(|&t| group_thousands(&fix_negative_zero(format!("{t:.d$}"))))
        .collect()
}

/// The label of every tick by `label`, but a plain `0` for zero.
fn zero_or(ticks: &[f64], label: impl Fn(f64) -> String) -> Vec<String> {
    ticks
        .iter()
        .map(|&t| if t == 0.0 { "0".to_string() } else { label(t) })
        .collect()
}

fn decimals_for(step: f64) -> usize {
    if !(step > 0.0 && step.is_finite()) {
        return 0;
    }
    (-(step.log10() + 1e-9).floor()).clamp(0.0, 15.0) as usize
}

fn big_unit(a: f64) -> (f64, &'static str) {
    if a >= 1e12 {
        (1e12, "T")
    } else if a >= 1e9 {
        (1e9, "G")
    } else {
        (1e6, "M")
    }
}

/// `1.20e15` → `1.2e15` (with `d` decimals before trimming).
fn scientific(v: f64, d: usize) -> String {
    let s = format!("{v:.d$e}");
    match s.split_once('e') {
        Some((m, e)) => format!("{}e{e}", trim_zeros(m)),
        None => s,
    }
}

/// Rust's shortest round-trip scientific form: `1.5e15`, `2e-7`.
fn shortest_scientific(v: f64) -> String {
    format!("{v:e}")
}

/// Removes trailing zeros after a decimal point, and the point itself if nothing follows.
fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// `-0.0` → `0.0`.
fn fix_negative_zero(s: String) -> String {
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => s,
    }
}

/// `-1234567.5` → `-1,234,567.5`.
fn group_thousands(s: &str) -> String {
    let (sign, rest) = match s.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", s),
    };
    let (int, frac) = match rest.find('.') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    if int.len() <= 3 || !int.bytes().all(|b| b.is_ascii_digit()) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + int.len() / 3);
    out.push_str(sign);
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out.push_str(frac);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::svg::fmt_coord;

    #[test]
    fn ticks_are_nice() {
        assert_eq!(nice_ticks(0.0, 1.0, 5), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(
            nice_ticks(0.0, 5477.0, 6),
            vec![0.0, 1000.0, 2000.0, 3000.0, 4000.0, 5000.0, 6000.0]
        );
        assert_eq!(
            nice_ticks(0.0, 100.0, 5),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(
            nice_ticks(-3.0, 7.0, 6),
            vec![-4.0, -2.0, 0.0, 2.0, 4.0, 6.0, 8.0]
        );
        assert_eq!(nice_ticks(-3.0, 7.0, 5), vec![-5.0, 0.0, 5.0, 10.0]);
        assert_eq!(nice_ticks(0.3, 0.7, 4), vec![0.3, 0.4, 0.5, 0.6, 0.7]);
        assert_eq!(nice_ticks(1.0, 0.0, 5), nice_ticks(0.0, 1.0, 5));
        assert_eq!(nice_ticks(2.5, 2.5, 5), vec![2.5]);
        assert!(nice_ticks(f64::NAN, 1.0, 5).is_empty());
        assert!(nice_ticks(0.0, f64::INFINITY, 5).is_empty());
        // Every step is 1, 2 or 5 × 10^k and the ticks cover the range.
        for (lo, hi) in [
            (0.0, 0.037),
            (13.0, 977.0),
            (-1e9, 3e9),
            (1e-12, 5e-12),
            (0.0, 1e300),
        ] {
            for n in 2..=10 {
                let t = nice_ticks(lo, hi, n);
                assert!(t.len() >= 2 && t.len() <= n + 1, "{lo} {hi} {n}: {t:?}");
                assert!(t[0] <= lo && *t.last().unwrap() >= hi);
                let step = t[1] - t[0];
                let m = step / pow10(step.log10().floor() as i32);
                assert!(
                    [1.0, 2.0, 5.0].iter().any(|x| (m - x).abs() < 1e-6),
                    "step {step}"
                );
            }
        }
        // Huge and tiny ranges do not hang or panic.
        let _ = nice_ticks(-f64::MAX, f64::MAX, 5);
        let _ = nice_ticks(0.0, f64::MIN_POSITIVE, 5);
        let _ = nice_ticks(1e15, 1e15 + 1.0, 5);
        let _ = nice_ticks(0.0, 1.0, 0);
    }

    #[test]
    fn tick_labels_are_compact() {
        let (t, s) = nice(0.0, 1.0, 5);
        assert_eq!(
            tick_labels(&t, s),
            ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]
        );
        let (t, s) = nice(0.0, 5477.0, 6);
        assert_eq!(
            tick_labels(&t, s),
            ["0", "1,000", "2,000", "3,000", "4,000", "5,000", "6,000"]
        );
        let (t, s) = nice(0.0, 2.9e6, 6);
        assert_eq!(
            tick_labels(&t, s),
            ["0", "0.5 M", "1.0 M", "1.5 M", "2.0 M", "2.5 M", "3.0 M"]
        );
        let (t, s) = nice(-0.5, 0.5, 4);
        assert_eq!(tick_labels(&t, s), ["-0.5", "0.0", "0.5"]);
        let (t, s) = nice(0.0, 3e16, 3);
        assert_eq!(tick_labels(&t, s), ["0", "1e16", "2e16", "3e16"]);
    }

    #[test]
    fn numbers_are_compact() {
        for (v, s) in [
            (0.0, "0"),
            (-0.0, "0"),
            (0.25, "0.25"),
            (1.0 / 3.0, "0.333"),
            (3.14149, "3.141"),
            (42.0, "42"),
            (123.45, "123.5"),
            (1234.0, "1,234"),
            (-1234.0, "-1,234"),
            (123_456.0, "123,456"),
            (1.2e6, "1.2 M"),
            (12_345_678.0, "12.3 M"),
            (4.57e10, "45.7 G"),
            (3e12, "3 T"),
            (1.2e15, "1.2e15"),
            (0.00001, "1e-5"),
            (0.000123, "0.000123"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(format_number(v), s, "{v}");
        }
        assert_eq!(group_thousands("1234567.25"), "1,234,567.25");
        assert_eq!(fmt_coord(-0.001), "0");
        assert_eq!(fmt_coord(12.5), "12.5");
        assert_eq!(fmt_coord(12.345), "12.35");
        assert_eq!(fmt_coord(-3.0), "-3");
        assert_eq!(fmt_coord(f64::NAN), "0");
    }
}
