//! The Gradient node: the surface gradient as a tangent vector field.

use crate::nodes::prelude::*;
use crate::planet::gradient::gradient_on;
use crate::planet::stencil::Neighbours4;
use crate::planet::VectorField;

/// The Gradient node.
pub struct Gradient;

crate::ports! {
    const OUTPUTS: Out = [
        /// Tangent vector per cell, field units per radian.
        VECTOR: VectorField = PortDef::of("out", PortType::Vector),
    ];
}

impl Node for Gradient {
    type Settings = NoSettings;
    const META: NodeMeta = NodeMeta::new("Gradient", Category::Modify, "The direction and steepness of the surface: a tangent vector per cell, in field units per radian.", IN, OUTPUTS, file!()).costing(47);

    fn run(_: &NoSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![gradient_on(inputs.port(FIELD_IN)?, &Neighbours4::new(inputs.port(FIELD_IN)?.grid(), ctx.grid())?).into()])
    }

    /// The gradient of a cell reads its four neighbours.
    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Halo(1)
    }
}
