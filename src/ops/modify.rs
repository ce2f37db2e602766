//! Value-by-value modify nodes: scale and bias, abs, invert, clamp, normalize, curve, terrace.

use crate::planet::Field;

/// `x * scale + bias`.
pub fn scale_bias(f: &Field, scale: f32, bias: f32) -> Field {
    f.map(|x| x * scale + bias)
}

/// `2 pivot - x`.
pub fn invert(f: &Field, pivot: f32) -> Field {
    f.map(|x| 2.0 * pivot - x)
}

/// Clamp to `[lo, hi]` (if `hi < lo`, everything becomes `lo`).
pub fn clamp(f: &Field, lo: f32, hi: f32) -> Field {
    f.map(|x| x.min(hi).max(lo))
}

/// Linear stretch of `[min, max]` of the field to `[lo, hi]`; a flat field becomes the middle.
pub fn normalize(f: &Field, lo: f32, hi: f32) -> Field {
    let (a, b) = f.min_max();
    if b - a <= f32::EPSILON * a.abs().max(1.0) {
        return Field::filled(f.n(), 0.5 * (lo + hi));
    }
    let s = (hi - lo) / (b - a);
    f.map(|x| lo + (x - a) * s)
}

/// A monotone cubic curve (Fritsch-Carlson) through control points sorted by x; flat outside.
#[derive(Debug, Clone)]
pub struct MonotoneCurve {
    xs: Vec<f32>,
    ys: Vec<f32>,
    ms: Vec<f32>,
}

impl MonotoneCurve {
    /// Builds the curve; points are sorted by x and points with equal x are merged.
    pub fn new(points: &[[f32; 2]]) -> MonotoneCurve {
        let mut pts: Vec<[f32; 2]> = points.iter().copied().filter(|p| p[0].is_finite() && p[1].is_finite()).collect();
        pts.sort_by(|a, b| a[0].total_cmp(&b[0]));
        pts.dedup_by(|a, b| (a[0] - b[0]).abs() < 1e-6);
        if pts.is_empty() {
            pts.push([0.0, 0.0]);
        }
        let xs: Vec<f32> = pts.iter().map(|p| p[0]).collect();
        let ys: Vec<f32> = pts.iter().map(|p| p[1]).collect();
        let k = xs.len();
        let d: Vec<f32> = (0..k.saturating_sub(1)).map(|i| (ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i])).collect();
        let mut ms = vec![0.0; k];
        if k >= 2 {
            ms[0] = d[0];
            ms[k - 1] = d[k - 2];
            for i in 1..k - 1 {
                ms[i] = if d[i - 1] * d[i] <= 0.0 { 0.0 } else { (d[i - 1] + d[i]) * 0.5 };
            }
            for i in 0..k - 1 {
                if d[i] == 0.0 {
                    ms[i] = 0.0;
                    ms[i + 1] = 0.0;
                } else {
                    let (a, b) = (ms[i] / d[i], ms[i + 1] / d[i]);
                    let s = a * a + b * b;
                    if s > 9.0 {
                        let t = 3.0 / s.sqrt();
                        ms[i] = t * a * d[i];
                        ms[i + 1] = t * b * d[i];
                    }
                }
            }
        }
        MonotoneCurve { xs, ys, ms }
    }

    /// Value of the curve at `x`.
    pub fn eval(&self, x: f32) -> f32 {
        let k = self.xs.len();
        if k == 1 || x <= self.xs[0] {
            return self.ys[0];
        }
        if x >= self.xs[k - 1] {
            return self.ys[k - 1];
        }
        let i = self.xs.partition_point(|&v| v <= x).saturating_sub(1).min(k - 2);
        let h = self.xs[i + 1] - self.xs[i];
        let t = (x - self.xs[i]) / h;
        let (t2, t3) = (t * t, t * t * t);
        (2.0 * t3 - 3.0 * t2 + 1.0) * self.ys[i] + (t3 - 2.0 * t2 + t) * h * self.ms[i] + (-2.0 * t3 + 3.0 * t2) * self.ys[i + 1] + (t3 - t2) * h * self.ms[i + 1]
    }
}

/// Terraces between the field's minimum and maximum: `steps` flat levels joined by risers;
/// `smoothness` 1 leaves the field unchanged.
pub fn terrace(f: &Field, steps: i64, smoothness: f32) -> Field {
    let (lo, hi) = f.min_max();
    if hi <= lo {
        return f.clone();
    }
    let steps = steps.max(1) as f32;
    let p = 1.0 + (1.0 - smoothness.clamp(0.0, 1.0)) * 15.0;
    f.map(move |x| {
        let t = ((x - lo) / (hi - lo)).clamp(0.0, 1.0) * steps;
        let k = t.floor().min(steps - 1.0);
        let fr = (t - k).clamp(0.0, 1.0);
        lo + (k + fr.powf(p)) / steps * (hi - lo)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointwise_modifiers() {
        let f = Field::from_vec(1, vec![-2.0, -1.0, 0.0, 1.0, 2.0, 3.0]).expect("6 values");
        assert_eq!(scale_bias(&f, 2.0, 1.0).data(), &[-3.0, -1.0, 1.0, 3.0, 5.0, 7.0]);
        assert_eq!(invert(&f, 0.5).data(), &[3.0, 2.0, 1.0, 0.0, -1.0, -2.0]);
        assert_eq!(clamp(&f, -1.0, 1.0).data(), &[-1.0, -1.0, 0.0, 1.0, 1.0, 1.0]);
        assert_eq!(normalize(&f, 0.0, 1.0).data(), &[0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(normalize(&Field::filled(1, 3.0), 0.0, 1.0).data()[0], 0.5);
    }

    #[test]
    fn curve_passes_through_points_and_is_monotone() {
        let c = MonotoneCurve::new(&[[1.0, 1.0], [-1.0, -1.0], [0.0, -0.5], [0.5, 0.9]]);
        for p in [[-1.0, -1.0], [0.0, -0.5], [0.5, 0.9], [1.0, 1.0]] {
            assert!((c.eval(p[0]) - p[1]).abs() < 1e-5);
        }
        let mut prev = c.eval(-1.0);
        for k in 1..=400 {
            let v = c.eval(-1.0 + k as f32 / 200.0);
            assert!(v >= prev - 1e-6, "monotone");
            prev = v;
        }
        assert_eq!(c.eval(-5.0), -1.0);
        assert_eq!(c.eval(5.0), 1.0);
    }

    #[test]
    fn terrace_makes_flat_steps() {
        let f = Field::from_vec(4, (0..96).map(|i| i as f32 / 95.0).collect()).expect("96 values");
        let t = terrace(&f, 4, 0.0);
        // With hard steps most values sit near one of the 4 levels.
        let near = t.data().iter().filter(|&&v| [0.0, 0.25, 0.5, 0.75].iter().any(|l| (v - l).abs() < 0.03)).count();
        assert!(near > 60, "{near}");
        let same = terrace(&f, 4, 1.0);
        for (a, b) in same.data().iter().zip(f.data()) {
            assert!((a - b).abs() < 1e-5);
        }
    }
}
