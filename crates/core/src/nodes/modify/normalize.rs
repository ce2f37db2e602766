//! The Normalize node: stretches the field linearly to a target range.

use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Normalize node.
    pub struct NormalizeSettings, keys NormalizeKeys {
        /// Target of the smallest value.
        min: f32 = float("Min", -1.0, -100.0, 100.0, Unit::None, 0.01, "Target of the smallest value."),
        /// Target of the largest value.
        max: f32 = float("Max", 1.0, -100.0, 100.0, Unit::None, 0.01, "Target of the largest value."),
    }
}

/// The Normalize node.
pub struct Normalize;

impl Node for Normalize {
    type Settings = NormalizeSettings;
    const META: NodeMeta = NodeMeta::new("Normalize", Category::Modify, "Stretches the field linearly so its smallest value becomes min and its largest max.", IN, OUT, file!());

    fn run(s: &NormalizeSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![normalize(inputs.port(FIELD_IN)?, s.min, s.max).into()])
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stretches_to_the_range_and_flat_becomes_the_middle() {
        let f = Field::from_vec(1, vec![-2.0, -1.0, 0.0, 1.0, 2.0, 3.0]).expect("6 values");
        assert_eq!(normalize(&f, 0.0, 1.0).data(), &[0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(normalize(&Field::filled(1, 3.0), 0.0, 1.0).data()[0], 0.5);
    }
}
