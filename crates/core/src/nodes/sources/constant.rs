//! The Constant node: the same value on the whole planet.

use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Constant node.
    pub struct ConstantSettings, keys ConstantKeys {
        /// The value of every cell (unitless).
        value: f32 = float("Value", 0.0, -100.0, 100.0, Unit::None, 0.01, "The value of every cell."),
    }
}

/// The Constant node.
pub struct Constant;

impl Node for Constant {
    type Settings = ConstantSettings;
    const META: NodeMeta = NodeMeta::new("Constant", Category::Sources, "The same value on the whole planet.", &[], OUT, file!()).costing(5);

    fn run(s: &ConstantSettings, _: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![Field::filled_on(ctx.grid(), s.value).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}
