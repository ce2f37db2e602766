//! The Blend colours node: colour a where the mask is 0, b where it is 1.

use super::mix;
use crate::nodes::prelude::*;

/// The Blend colours node.
pub struct BlendColours;

impl Node for BlendColours {
    type Settings = NoSettings;
    const META: NodeMeta = NodeMeta::new(
        "Blend colours",
        Category::Texture,
        "Colour a where the mask is 0, b where it is 1, mixed in linear light in between (mask clamped to 0..1).",
        &[PortDef::of("a", PortType::Colour), PortDef::of("b", PortType::Colour), PortDef::field("mask")],
        &[PortDef::of("colour", PortType::Colour)],
        file!(),
    );

    fn run(_: &NoSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let (a, b, m) = (inputs.colour(0)?, inputs.colour(1)?, inputs.field(2)?);
        Ok(vec![ColourField::from_fn_on(m.grid(), |c| mix(a.data[c], b.data[c], m.data()[c].clamp(0.0, 1.0))).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}
