//! The Invert node: mirrors values around a pivot.

use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Invert node.
    pub struct InvertSettings, keys InvertKeys {
        /// The value that stays where it is.
        pivot: f32 = float("Pivot", 0.0, -100.0, 100.0, Unit::None, 0.01, "Value that stays where it is."),
    }
}

/// The Invert node.
pub struct Invert;

impl Node for Invert {
    type Settings = InvertSettings;
    const META: NodeMeta = NodeMeta::new("Invert", Category::Modify, "Mirrors values around a pivot: 2 pivot - x.", IN, OUT, file!()).costing(5);

    fn run(s: &InvertSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let pivot = s.pivot;
        Ok(vec![inputs.port(FIELD_IN)?.map(|x| 2.0 * pivot - x).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}
