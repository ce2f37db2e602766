//! The texture inspection modes: slope, biomes, temperature and precipitation from the graph's
//! first Slope, Biomes, Temperature and Precipitation nodes, as overlay images coloured by a ramp
//! (a texel per cell).

use super::OverlayImage;
use crate::eval::EvalResult;
use crate::graph::Graph;
use crate::nodes::texture::colour_ramp::Ramp;
use crate::nodes::NodeKind;
use crate::planet::colour::to_srgb8;
use crate::planet::{ColourField, Field};
use rayon::prelude::*;
use std::sync::Arc;

/// The texture values of a result the inspection modes show.
#[derive(Default, Clone)]
pub struct TextureValues {
    /// Slope in degrees (first Slope node).
    pub slope: Option<Arc<Field>>,
    /// Biome colours (first Biomes node).
    pub biome: Option<Arc<ColourField>>,
    /// Temperature in °C (first Temperature node).
    pub temperature: Option<Arc<Field>>,
    /// Precipitation in mm per year (first Precipitation node).
    pub precipitation: Option<Arc<Field>>,
}

/// Collects the [`TextureValues`] of `res` (evaluated from `g`).
pub fn texture_values(g: &Graph, res: &EvalResult) -> TextureValues {
    use crate::nodes::{climate::precipitation, climate::temperature, texture::biomes, FIELD_OUT};
    TextureValues {
        slope: super::first_output(g, res, NodeKind::Slope, FIELD_OUT),
        biome: super::first_output(g, res, NodeKind::Biomes, biomes::COLOUR),
        temperature: super::first_output(g, res, NodeKind::Temperature, temperature::TEMPERATURE),
        precipitation: super::first_output(g, res, NodeKind::Precipitation, precipitation::PRECIPITATION),
    }
}

/// A field through a colour ramp of evenly spaced sRGB stops from `lo` to `hi` (the Colour
/// ramp node's [`Ramp`], blended in linear light), as an overlay image.
pub fn ramp_image(field: &Field, lo: f32, hi: f32, stops: &[[f32; 3]]) -> OverlayImage {
    let last = stops.len().saturating_sub(1).max(1) as f32;
    let placed: Vec<[f32; 4]> = stops.iter().enumerate().map(|(k, c)| [k as f32 / last, c[0], c[1], c[2]]).collect();
    let ramp = Ramp::new(&placed);
    let rgba = field
        .data()
        .par_iter()
        .flat_map_iter(|&v| {
            let t = if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };
            let [r, g, b] = to_srgb8(ramp.at(t));
            [r, g, b, 0]
        })
        .collect();
    OverlayImage { size: field.n() as u32, rgba }
}

/// The height tint (the hypsometric ramp of `appearance`) of an elevation in metres.
pub fn elevation_image(elevation_m: &Field, max_depth_m: f32, max_elevation_m: f32) -> OverlayImage {
    let rgba = elevation_m
        .data()
        .par_iter()
        .flat_map_iter(|&e| {
            let [r, g, b] = crate::appearance::hypsometric(e, max_depth_m, max_elevation_m);
            [r, g, b, 0]
        })
        .collect();
    OverlayImage { size: elevation_m.n() as u32, rgba }
}

/// Slope: black flat to white at 45 degrees and steeper.
pub fn slope_image(slope_deg: &Field) -> OverlayImage {
    ramp_image(slope_deg, 0.0, 45.0, &[[0.05, 0.05, 0.05], [1.0, 1.0, 1.0]])
}

/// Temperature: violet at -40 °C through blue, white at 0 °C, yellow to red at 35 °C.
pub fn temperature_image(t_c: &Field) -> OverlayImage {
    ramp_image(t_c, -40.0, 35.0, &[[0.35, 0.1, 0.5], [0.15, 0.35, 0.85], [0.9, 0.95, 1.0], [0.95, 0.85, 0.3], [0.8, 0.15, 0.1]])
}

/// Precipitation: sand at 0 mm through green to deep blue at 3000 mm per year and wetter.
pub fn precipitation_image(p_mm: &Field) -> OverlayImage {
    ramp_image(p_mm, 0.0, 3000.0, &[[0.93, 0.85, 0.65], [0.35, 0.7, 0.45], [0.05, 0.25, 0.7]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramps_hit_their_ends_and_clamp() {
        let f = Field::from_vec(1, vec![-100.0, 0.0, 45.0, 90.0, 22.5, 10.0]).expect("6 values");
        let img = slope_image(&f);
        let px = |k: usize| [img.rgba[4 * k], img.rgba[4 * k + 1], img.rgba[4 * k + 2]];
        assert_eq!(px(0), px(1), "below the range clamps to the first stop");
        assert_eq!(px(2), [255, 255, 255]);
        assert_eq!(px(3), [255, 255, 255]);
        assert!(px(4)[0] > px(5)[0], "steeper is lighter");
    }
}
