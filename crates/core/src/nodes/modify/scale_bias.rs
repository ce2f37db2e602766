//! The Scale and bias node: `x * scale + bias`.

use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Scale and bias node.
    pub struct ScaleBiasSettings, keys ScaleBiasKeys {
        /// Multiplier.
        scale: f32 = float("Scale", 1.0, -100.0, 100.0, Unit::None, 0.01, "Multiplier."),
        /// Added after scaling.
        bias: f32 = float("Bias", 0.0, -100.0, 100.0, Unit::None, 0.01, "Added after scaling."),
    }
}

/// The Scale and bias node.
pub struct ScaleBias;

impl Node for ScaleBias {
    type Settings = ScaleBiasSettings;
    const META: NodeMeta = NodeMeta::new("Scale and bias", Category::Modify, "x * scale + bias", IN, OUT, file!()).costing(5);

    fn run(s: &ScaleBiasSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let (scale, bias) = (s.scale, s.bias);
        Ok(vec![inputs.port(FIELD_IN)?.map(|x| x * scale + bias).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}
