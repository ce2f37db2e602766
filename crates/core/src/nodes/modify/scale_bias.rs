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

#[cfg(test)]
mod tests {
    use crate::nodes::{NodeKind, ParamValue};
    use crate::planet::Field;
    use std::sync::atomic::AtomicBool;

    /// A finite input scaled past f32's range is refused on this node with a located message,
    /// never passed on as infinity.
    #[test]
    fn an_overflow_is_reported_on_the_node() {
        let cancel = AtomicBool::new(false);
        let ctx = super::OpContext { tile: None, n: 2, cancel: &cancel, steps: None, planet: None, files: &[] };
        let mut params = NodeKind::ScaleBias.default_params();
        params.insert("scale".into(), ParamValue::Float(100.0));
        let inputs = [Some(Field::filled(2, 1e38).into())];
        let err = NodeKind::ScaleBias.run(&params, &inputs, &ctx).expect_err("overflows");
        let msg = err.to_string();
        assert!(msg.contains("non-finite value") && msg.contains("latitude"), "{msg}");
    }
}
