//! The Clamp node: limits values to `[min, max]`.

use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Clamp node.
    pub struct ClampSettings, keys ClampKeys {
        /// Lower limit.
        min: f32 = float("Min", -1.0, -100.0, 100.0, Unit::None, 0.01, "Lower limit."),
        /// Upper limit (if below min, min wins).
        max: f32 = float("Max", 1.0, -100.0, 100.0, Unit::None, 0.01, "Upper limit (if below min, min wins)."),
    }
}

/// The Clamp node.
pub struct Clamp;

impl Node for Clamp {
    type Settings = ClampSettings;
    const META: NodeMeta = NodeMeta::new("Clamp", Category::Modify, "Limits values to [min, max].", IN, OUT_AS_INPUT, file!()).costing(5);

    fn run(s: &ClampSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let (lo, hi) = (s.min, s.max);
        Ok(vec![inputs.port(FIELD_IN)?.map(|x| x.min(hi).max(lo)).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}
