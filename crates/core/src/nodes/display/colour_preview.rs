//! The Colour preview node: a thumbnail of colours (albedo, biomes, ramps) as they are.

use super::preview::PreviewView;
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Colour preview node.
    pub struct ColourPreviewSettings, keys ColourPreviewKeys {
        /// Projection.
        view: PreviewView = PreviewView::Map.param("View", "Map: equirectangular (longitude across, north up). Globe: the planet seen from the front (+Z)."),
    }
}

/// The Colour preview node.
pub struct ColourPreview;

crate::ports! {
    const INPUTS: In = [
        /// The colours shown.
        COLOUR: ColourField = PortDef::of("in", PortType::Colour),
    ];
}

impl Node for ColourPreview {
    type Settings = ColourPreviewSettings;
    const META: NodeMeta = NodeMeta::new("Colour preview", Category::Display, "Shows a thumbnail of the colours at this point (sRGB on screen), at preview resolution.", INPUTS, &[], file!()).costing(0);

    fn run(_: &ColourPreviewSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        inputs.port(COLOUR)?;
        Ok(Vec::new())
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}
