//! Numeric axes, shared by every chart but the heat map: the range (automatic, widened to
//! nice ticks, or fixed), tick values with their labels, and the minor ticks of a logarithmic
//! axis.

use super::ticks::{format_number, nice, pow10, tick_labels};
use super::{max_text_width, placeable, AxisSpec, DATA_LIMIT, TICK_SIZE};

/// A numeric axis: range, ticks with their labels, and minor ticks (log axes).
#[derive(Clone, Debug)]
pub(super) struct Axis {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) log: bool,
    pub(super) ticks: Vec<f64>,
    pub(super) labels: Vec<String>,
    pub(super) minor: Vec<f64>,
}

impl Axis {
    /// Position of `v` along the axis: 0 at `lo`, 1 at `hi`.
    pub(super) fn frac(&self, v: f64) -> f64 {
        if self.log {
            let (a, b) = (self.lo.log10(), self.hi.log10());
            (v.log10() - a) / (b - a)
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }

    /// The estimated width of the widest tick label at `size`.
    pub(super) fn max_label_width(&self, size: f64) -> f64 {
        max_text_width(&self.labels, size)
    }
}

/// Is `lo..hi` a range the axis arithmetic can work with?
fn usable(lo: f64, hi: f64) -> bool {
    let span = hi - lo;
    lo.is_finite()
        && hi.is_finite()
        && span.is_finite()
        && span > 0.0
        && (1.0 / span).is_finite()
        && span > 1e-9 * lo.abs().max(hi.abs())
}

/// How many tick intervals an axis of `len` pixels should aim for.
fn tick_target(len: f64, horizontal: bool) -> usize {
    if horizontal {
        (len / 70.0).floor().clamp(2.0, 10.0) as usize
    } else {
        (len / 55.0).floor().clamp(3.0, 10.0) as usize
    }
}

/// A numeric axis of `len` pixels for `data` (`zero`: include 0 on a linear axis).
pub(super) fn build_axis(
    spec: &AxisSpec,
    data: Option<(f64, f64)>,
    len: f64,
    horizontal: bool,
    zero: bool,
) -> Axis {
    if spec.log {
        // Decade labels need little room: aim for one per 25 px upright, one per 40 px across
        // (then fewer if the labels do not fit).
        let target = (len / if horizontal { 40.0 } else { 25.0 }).clamp(2.0, 40.0) as usize;
        fit_labels(target, horizontal, log_ticks(spec, data, len))
    } else {
        let target = tick_target(len, horizontal);
        fit_labels(target, horizontal, linear_ticks(spec, data, len, zero))
    }
}

/// The axis `axis_for` gives for `target` tick intervals, or for fewer until the labels fit
/// side by side: `axis_for` also gives the narrowest tick spacing in pixels. Only a horizontal
/// axis is thinned, and not below two intervals.
fn fit_labels(
    mut target: usize,
    horizontal: bool,
    axis_for: impl Fn(usize) -> (Axis, f64),
) -> Axis {
    loop {
        let (axis, spacing) = axis_for(target);
        if !horizontal || target <= 2 || axis.max_label_width(TICK_SIZE) + 12.0 <= spacing {
            return axis;
        }
        target -= 1;
    }
}

/// The fixed bounds of `spec` that can be used, swapped when reversed, dropped when equal.
fn fixed_bounds(spec: &AxisSpec) -> (Option<f64>, Option<f64>) {
    let ok = |v: Option<f64>| v.filter(|v| placeable(*v, spec.log) && v.abs() <= DATA_LIMIT);
    match (ok(spec.min), ok(spec.max)) {
        (Some(a), Some(b)) if a > b => (Some(b), Some(a)),
        (Some(a), Some(b)) if a == b => (None, None),
        other => other,
    }
}

/// A linear axis of `len` pixels for `data` (`zero`: include 0), by the number of tick
/// intervals asked for: the axis and its tick spacing in pixels.
fn linear_ticks(
    spec: &AxisSpec,
    data: Option<(f64, f64)>,
    len: f64,
    zero: bool,
) -> impl Fn(usize) -> (Axis, f64) {
    let (mut dmin, mut dmax) = data.unwrap_or((0.0, 1.0));
    dmin = dmin.clamp(-DATA_LIMIT, DATA_LIMIT);
    dmax = dmax.clamp(-DATA_LIMIT, DATA_LIMIT);
    if zero {
        dmin = dmin.min(0.0);
        dmax = dmax.max(0.0);
    }
    let (mut fmin, mut fmax) = fixed_bounds(spec);
    let pad = |v: f64| if v == 0.0 { 1.0 } else { v.abs() * 0.1 };
    let mut a = fmin.unwrap_or(dmin);
    let mut b = fmax.unwrap_or(dmax);
    if !usable(a, b) {
        match (fmin.is_some(), fmax.is_some()) {
            (true, false) => b = a + pad(a),
            (false, true) => a = b - pad(b),
            _ => {
                let m = (a + b) / 2.0;
                if zero && m == 0.0 {
                    (a, b) = (0.0, 1.0);
                } else {
                    (a, b) = (m - pad(m), m + pad(m));
                }
            }
        }
    }
    if !usable(a, b) {
        (a, b) = (0.0, 1.0);
        (fmin, fmax) = (None, None);
    }
    move |target| {
        let (ticks, step) = nice(a, b, target);
        let lo = match fmin {
            Some(v) => v,
            None => ticks.first().copied().unwrap_or(a).min(a),
        };
        let hi = match fmax {
            Some(v) => v,
            None => ticks.last().copied().unwrap_or(b).max(b),
        };
        let eps = (hi - lo) * 1e-9;
        let ticks: Vec<f64> = ticks
            .into_iter()
            .filter(|t| *t >= lo - eps && *t <= hi + eps)
            .collect();
        let labels = tick_labels(&ticks, step);
        let axis = Axis {
            lo,
            hi,
            log: false,
            ticks,
            labels,
            minor: Vec::new(),
        };
        (axis, len * step / (hi - lo))
    }
}

/// A logarithmic axis of `len` pixels for `data`, by the number of tick intervals asked for:
/// the axis and its narrowest tick spacing in pixels.
fn log_ticks(spec: &AxisSpec, data: Option<(f64, f64)>, len: f64) -> impl Fn(usize) -> (Axis, f64) {
    let (dmin, dmax) = data.unwrap_or((1.0, 10.0));
    let e_lo = dmin.log10().floor().clamp(-300.0, 300.0) as i32;
    let e_hi = dmax.log10().ceil().clamp(-300.0, 300.0) as i32;
    let (fmin, fmax) = fixed_bounds(spec);
    let mut a = fmin.unwrap_or_else(|| pow10(e_lo));
    let mut b = fmax.unwrap_or_else(|| pow10(e_hi));
    if a.partial_cmp(&b) != Some(std::cmp::Ordering::Less) {
        match (fmin.is_some(), fmax.is_some()) {
            (true, false) => b = a * 10.0,
            (false, true) => a = b / 10.0,
            _ => (a, b) = (pow10(e_lo), pow10(e_lo + 1)),
        }
    }
    if !(a > 0.0 && b.is_finite() && a < b && b / a > 1.0 + 1e-9) {
        (a, b) = (1.0, 10.0);
    }
    let (la, lb) = (a.log10(), b.log10());
    let k0 = (la - 1e-9).ceil() as i32;
    let k1 = (lb + 1e-9).floor() as i32;
    let minor = if lb - la <= 6.0 {
        let mut m = Vec::new();
        for k in (la.floor() as i32)..=(lb.ceil() as i32) {
            for d in 2..=9 {
                let v = f64::from(d) * pow10(k);
                if v > a && v < b {
                    m.push(v);
                }
            }
        }
        m
    } else {
        Vec::new()
    };
    move |target| {
        let decades = (k1 - k0).max(0) as usize;
        let stride = decades.div_ceil(target.max(1)).max(1) as i32;
        let ticks: Vec<f64> = (k0..=k1)
            .filter(|k| k.rem_euclid(stride) == 0)
            .map(pow10)
            .collect();
        // Unlabelled decades still get a (minor) grid line.
        let mut minor = minor.clone();
        if stride > 1 && decades <= 60 {
            minor.extend((k0..=k1).filter(|k| k.rem_euclid(stride) != 0).map(pow10));
        }
        let (ticks, labels) = if ticks.len() >= 2 {
            let labels = ticks.iter().map(|&t| format_number(t)).collect();
            (ticks, labels)
        } else {
            // Less than two decades in range: linear nice ticks inside it.
            let (t, step) = nice(a, b, target);
            let eps = (b - a) * 1e-9;
            let t: Vec<f64> = t
                .into_iter()
                .filter(|v| *v >= a - eps && *v <= b + eps && *v > 0.0)
                .collect();
            let labels = tick_labels(&t, step);
            (t, labels)
        };
        let axis = Axis {
            lo: a,
            hi: b,
            log: true,
            ticks,
            labels,
            minor,
        };
        let spacing = axis
            .ticks
            .windows(2)
            .map(|w| (axis.frac(w[1]) - axis.frac(w[0])) * len)
            .fold(f64::INFINITY, f64::min);
        (axis, spacing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::plot::testing::{attr_f64, count, parse, texts};
    use crate::render::plot::{LinePlot, Series};

    #[test]
    fn logarithmic_axis() {
        let pts: Vec<(f64, f64)> = (0..=12)
            .map(|i| (f64::from(i), 10f64.powf(f64::from(i) / 2.0)))
            .chain([(13.0, 0.0), (14.0, -5.0), (15.0, f64::NAN)])
            .collect();
        let p = LinePlot::new("states")
            .log_y()
            .series(Series::new("count", pts));
        assert_eq!(p.skipped(), 3);
        let svg = p.to_svg();
        assert!(svg.contains("<!-- 3 value(s) skipped"));
        let doc = parse(&svg);
        let t = texts(&doc);
        for s in ["1", "10", "100", "1,000", "10,000", "100,000", "1 M"] {
            assert!(t.iter().any(|x| x == s), "{s} in {t:?}");
        }
        // Decade labels are evenly spaced.
        let ys: Vec<f64> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == Some("end"))
            .map(|n| attr_f64(&n, "y"))
            .collect();
        assert_eq!(ys.len(), 7);
        for w in ys.windows(3) {
            assert!(((w[0] - w[1]) - (w[1] - w[2])).abs() < 0.02, "{ys:?}");
        }
        // Minor grid for a handful of decades.
        assert_eq!(count(&doc, "path", "grid-minor"), 1);
        // Point (k, 10^(k/2)) lies on the line through decades: check via the axis directly.
        let log = AxisSpec {
            log: true,
            ..AxisSpec::default()
        };
        let log_axis = |data, len| build_axis(&log, Some(data), len, false, false);
        let a = log_axis((1.0, 1e6), 400.0);
        assert_eq!((a.lo, a.hi), (1.0, 1e6));
        assert!((a.frac(1000.0) - 0.5).abs() < 1e-12);
        // A narrow log range still gets labels.
        let a = log_axis((200.0, 800.0), 400.0);
        assert_eq!((a.lo, a.hi), (100.0, 1000.0));
        assert!(a.ticks.len() >= 2);
        let a = build_axis(
            &AxisSpec {
                min: Some(200.0),
                max: Some(800.0),
                log: true,
            },
            Some((200.0, 800.0)),
            400.0,
            false,
            false,
        );
        assert!(
            a.ticks.len() >= 2 && a.ticks.iter().all(|t| (200.0..=800.0).contains(t)),
            "{:?}",
            a.ticks
        );
        // Many decades: labels thinned.
        let a = log_axis((1.0, 1e40), 300.0);
        assert!(a.ticks.len() <= 13 && a.ticks.len() >= 5, "{:?}", a.labels);
        assert!(
            a.minor.contains(&10.0),
            "unlabelled decades keep a grid line"
        );
    }
}
