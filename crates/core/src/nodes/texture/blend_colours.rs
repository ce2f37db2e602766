//! The Blend colours node: colour a where the mask is 0, b where it is 1.

use super::mix;
use crate::nodes::prelude::*;

/// The Blend colours node.
pub struct BlendColours;

crate::ports! {
    const INPUTS: In = [
        /// Colours where the mask is 0.
        A: ColourField = PortDef::of("a", PortType::Colour),
        /// Colours where the mask is 1.
        B: ColourField = PortDef::of("b", PortType::Colour),
        /// The mix, 0..1 (clamped).
        MASK: Field = PortDef::field("mask"),
    ];
}

crate::ports! {
    const OUTPUTS: Out = [
        /// The blended colours (linear RGB).
        COLOUR: ColourField = PortDef::of("colour", PortType::Colour),
    ];
}

impl Node for BlendColours {
    type Settings = NoSettings;
    const META: NodeMeta = NodeMeta::new("Blend colours", Category::Texture, "Colour a where the mask is 0, b where it is 1, mixed in linear light in between (mask clamped to 0..1).", INPUTS, OUTPUTS, file!()).costing(13);

    fn run(_: &NoSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let (a, b, m) = (inputs.port(A)?, inputs.port(B)?, inputs.port(MASK)?);
        Ok(vec![ColourField::from_fn_on(m.grid(), |c| mix(a.data[c], b.data[c], m.data()[c].clamp(0.0, 1.0))).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}
