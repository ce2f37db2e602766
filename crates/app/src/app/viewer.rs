//! The viewer: another node's output draped over the planet in the viewport (a field through
//! a grey, heat or height ramp from its own range; colours as they are). No GPU types.

use planetgraph_core::inspect::{albedo_image, elevation_image, ramp_image, OverlayImage};
use planetgraph_core::planet::{ColourField, Field};
use std::sync::Arc;

/// A node's output shown on the globe by the viewer.
#[derive(Clone)]
pub enum ViewedValue {
    /// A scalar field, through [`ViewerRamp`] from its own minimum to maximum.
    Field(Arc<Field>),
    /// Colours, as they are.
    Colour(Arc<ColourField>),
}

/// How the viewer colours a scalar field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ViewerRamp {
    /// Black at the minimum to white at the maximum.
    #[default]
    Grey,
    /// Dark blue through green and yellow to red.
    Heat,
    /// The planet's height colours, with 0 as sea level (the field stretched to the ramp).
    Hypsometric,
}

impl ViewerRamp {
    /// Every ramp, in menu order.
    pub const ALL: [ViewerRamp; 3] = [ViewerRamp::Grey, ViewerRamp::Heat, ViewerRamp::Hypsometric];

    /// The name shown in the ramp menu.
    pub fn label(self) -> &'static str {
        match self {
            ViewerRamp::Grey => "Grey",
            ViewerRamp::Heat => "Heat",
            ViewerRamp::Hypsometric => "Height colours",
        }
    }
}

/// What the viewer shows: a node and its value (`None` until it has one).
#[derive(Clone)]
pub struct ViewerContent {
    /// The node, as the editor names it.
    pub label: String,
    /// Its first output (or a display node's input).
    pub value: Option<ViewedValue>,
    /// Why there is nothing to show, when there is nothing.
    pub note: Option<String>,
}

/// The overlay of the viewer's value.
pub fn viewer_image(value: &ViewedValue, ramp: ViewerRamp) -> OverlayImage {
    match value {
        ViewedValue::Colour(c) => albedo_image(c),
        ViewedValue::Field(f) => {
            let (lo, hi) = f.min_max();
            match ramp {
                ViewerRamp::Grey => ramp_image(f, lo, hi, &[[0.02, 0.02, 0.02], [1.0, 1.0, 1.0]]),
                ViewerRamp::Heat => ramp_image(f, lo, hi, &[[0.05, 0.05, 0.35], [0.1, 0.55, 0.6], [0.55, 0.8, 0.25], [0.98, 0.85, 0.2], [0.85, 0.15, 0.1]]),
                ViewerRamp::Hypsometric => {
                    // Unitless fields: the largest magnitude spans the ramp, 0 stays the coast.
                    let s = lo.abs().max(hi.abs()).max(1e-6);
                    let stretched = f.map(|v| v / s * 6000.0);
                    elevation_image(&stretched, 6000.0, 6000.0)
                }
            }
        }
    }
}
