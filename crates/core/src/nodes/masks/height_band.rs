//! The Height band node: 1 between a lower and an upper height, with smooth edges.

use super::smoothstep;
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Height band node (heights in the input's unit, metres after To metres).
    pub struct HeightBandSettings, keys HeightBandKeys {
        /// Bottom of the band.
        lower: f32 = float("Lower", 0.0, -100000.0, 100000.0, Unit::None, 10.0, "Bottom of the band, in the input's unit (metres after a To metres node)."),
        /// Top of the band.
        upper: f32 = float("Upper", 2000.0, -100000.0, 100000.0, Unit::None, 10.0, "Top of the band, in the input's unit."),
        /// Width of the lower edge's ramp.
        lower_blend: f32 = float("Lower edge", 200.0, 0.0, 100000.0, Unit::None, 5.0, "Width of the ramp from 0 to 1 centred on the lower height (0: a hard edge)."),
        /// Width of the upper edge's ramp.
        upper_blend: f32 = float("Upper edge", 200.0, 0.0, 100000.0, Unit::None, 5.0, "Width of the ramp from 1 to 0 centred on the upper height (0: a hard edge)."),
    }
}

/// The Height band node.
pub struct HeightBand;

impl Node for HeightBand {
    type Settings = HeightBandSettings;
    const META: NodeMeta = NodeMeta::new("Height band", Category::Masks, "A mask: 1 between the lower and upper heights, 0 outside, with smooth edges of a chosen width.", IN, OUT, file!()).costing(5);

    fn run(s: &HeightBandSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let s = s.clone();
        Ok(vec![inputs.port(FIELD_IN)?.map(move |h| band(&s, h)).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

/// The band's value at height `h`.
pub fn band(s: &HeightBandSettings, h: f32) -> f32 {
    let (lo, hi) = (s.lower.min(s.upper), s.lower.max(s.upper));
    let up = smoothstep(lo - s.lower_blend * 0.5, lo + s.lower_blend * 0.5, h);
    let down = 1.0 - smoothstep(hi - s.upper_blend * 0.5, hi + s.upper_blend * 0.5, h);
    up.min(down)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_is_one_outside_zero_edges_smooth() {
        let s = HeightBandSettings { lower: 0.0, upper: 1000.0, lower_blend: 100.0, upper_blend: 0.0 };
        assert_eq!(band(&s, 500.0), 1.0);
        assert_eq!(band(&s, -100.0), 0.0);
        assert_eq!(band(&s, 1000.1), 0.0);
        assert!((band(&s, 0.0) - 0.5).abs() < 1e-6, "the edge is centred on the lower height");
        assert!(band(&s, 25.0) > band(&s, -25.0));
    }
}
