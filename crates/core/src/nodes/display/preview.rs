//! The Preview node: a thumbnail of the field at its point of the graph. It has no outputs;
//! the evaluator keeps the value on its input for the editor to draw.

use crate::nodes::prelude::*;

crate::choices! {
    /// How a Preview projects the planet.
    pub enum PreviewView {
        /// Equirectangular map.
        Map = ("map", "Map"),
        /// The planet seen from the front (+Z).
        Globe = ("globe", "Globe"),
    }
}

crate::choices! {
    /// How a Preview colours values.
    pub enum PreviewRamp {
        /// Blue below 0, green to brown to white above.
        Hypsometric = ("hypsometric", "Hypsometric"),
        /// Black at the minimum, white at the maximum.
        Grey = ("grey", "Grey"),
    }
}

crate::settings! {
    /// Settings of the Preview node.
    pub struct PreviewSettings, keys PreviewKeys {
        /// Projection.
        view: PreviewView = PreviewView::Map.param("View", "Map: equirectangular (longitude across, north up). Globe: the planet seen from the front (+Z)."),
        /// Colours.
        ramp: PreviewRamp = PreviewRamp::Hypsometric.param("Colours", "Hypsometric: blue below 0, green to brown to white above. Grey: black to white over the middle 98 % of the values (its 1st to 99th percentile), so a few extreme cells do not darken the rest."),
    }
}

/// The Preview node.
pub struct Preview;

impl Node for Preview {
    type Settings = PreviewSettings;
    const META: NodeMeta = NodeMeta::new("Preview", Category::Display, "Shows a thumbnail of the field at this point, at preview resolution.", IN, &[], file!()).costing(0);

    fn run(_: &PreviewSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        inputs.port(FIELD_IN)?;
        Ok(Vec::new())
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}
