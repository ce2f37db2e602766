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

impl Node for ColourPreview {
    type Settings = ColourPreviewSettings;
    const META: NodeMeta = NodeMeta::new("Colour preview", Category::Display, "Shows a thumbnail of the colours at this point (sRGB on screen), at preview resolution.", &[PortDef::of("in", PortType::Colour)], &[], file!());

    fn run(_: &ColourPreviewSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        inputs.colour(0)?;
        Ok(Vec::new())
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}
