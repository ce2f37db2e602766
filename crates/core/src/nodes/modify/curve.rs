//! The Curve node: values through a smooth monotone curve through editable control points.

use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Curve node.
    pub struct CurveSettings, keys CurveKeys {
        /// Control points (x in, y out).
        curve: Vec<[f32; 2]> = curve("Curve", &[[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0]], "Drag points to move them, double-click to add one, right-click a point to remove it. Values outside the first and last x continue flat."),
    }
}

/// The Curve node.
pub struct Curve;

impl Node for Curve {
    type Settings = CurveSettings;
    const META: NodeMeta = NodeMeta::new("Curve", Category::Modify, "Maps values through a smooth monotone curve through editable control points (x in, y out).", IN, OUT, file!()).costing(5);

    fn run(s: &CurveSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let c = MonotoneCurve::new(&s.curve);
        Ok(vec![inputs.port(FIELD_IN)?.map(|x| c.eval(x)).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
