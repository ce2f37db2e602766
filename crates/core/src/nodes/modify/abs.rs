//! The Abs node: `|x|`.

use crate::nodes::prelude::*;

/// The Abs node.
pub struct Abs;

impl Node for Abs {
    type Settings = NoSettings;
    const META: NodeMeta = NodeMeta::new("Abs", Category::Modify, "|x|", IN, OUT_AS_INPUT, file!()).costing(5);

    fn run(_: &NoSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![inputs.port(FIELD_IN)?.map(f32::abs).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}
