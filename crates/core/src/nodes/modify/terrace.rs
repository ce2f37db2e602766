//! The Terrace node: flattens values into steps.

use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Terrace node.
    pub struct TerraceSettings, keys TerraceKeys {
        /// Number of terraces between the lowest and highest value.
        steps: i64 = int("Steps", 8, 1, 100, "Number of terraces between the lowest and highest value."),
        /// 0: hard steps; 1: no terracing.
        smoothness: f32 = float("Smoothness", 0.3, 0.0, 1.0, Unit::None, 0.005, "0: hard steps; 1: no terracing."),
    }
}

/// The Terrace node.
pub struct Terrace;

impl Node for Terrace {
    type Settings = TerraceSettings;
    const META: NodeMeta = NodeMeta::new("Terrace", Category::Modify, "Flattens values into steps between the field's minimum and maximum.", IN, OUT, file!()).costing(5);

    fn run(s: &TerraceSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![terrace(inputs.port(FIELD_IN)?, s.steps, s.smoothness).into()])
    }

    /// On a tile finer than the whole-planet run, the tile's own input stepped between the
    /// run's input range: the steps' edges are as sharp as the tile's cells, where the run's
    /// output, sampled, blurred them over the run's cells.
    fn refine(s: &TerraceSettings, r: &Refine) -> Result<Vec<Option<Value>>, OpError> {
        let (range, tile) = super::normalize::range_and_tile_input(r)?;
        Ok(vec![Some(terrace_in(&tile, range, s.steps, s.smoothness).into())])
    }

    fn refines_from(_s: &TerraceSettings) -> RefineFrom {
        RefineFrom::TileAndRunInputs
    }
}

/// Terraces between the field's minimum and maximum: `steps` flat levels joined by risers;
/// `smoothness` 1 leaves the field unchanged.
pub fn terrace(f: &Field, steps: i64, smoothness: f32) -> Field {
    terrace_in(f, f.min_max(), steps, smoothness)
}

/// [`terrace`] with the steps laid between `(lo, hi)` instead of the field's own range (a
/// tile's values between the whole planet's range).
pub fn terrace_in(f: &Field, (lo, hi): (f32, f32), steps: i64, smoothness: f32) -> Field {
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
