//! The Wetness index node: the topographic wetness index `ln(a / tan β)` of a drainage area
//! and a slope, the layer engines and GIS use to place wet ground, moss, mud and puddles.

use crate::nodes::prelude::*;
use crate::planet::diffusion::cell_angle;

crate::settings! {
    /// Settings of the Wetness index node.
    pub struct WetnessSettings, keys WetnessKeys {
        /// Slope that flatter ground counts as, degrees.
        min_slope_deg: f32 = float("Flattest slope", 0.1, 0.001, 10.0, Unit::Degree, 0.01, "Slopes below this count as this steep, so flats and lake floors get a high but finite index instead of an infinite one."),
    }
}

crate::ports! {
    /// Inputs: the drainage area and the slope.
    const INPUTS: In = [
        /// Area drained through the cell, km² (Landscape evolution's `area`).
        AREA: Field = PortDef::field("area").with_unit(PortUnit::Of(Unit::SquareKilometre)),
        /// Slope, degrees (the Slope node's output).
        SLOPE: Field = PortDef::field("slope_deg").with_unit(PortUnit::Of(Unit::Degree)),
    ];
}

/// The Wetness index node.
pub struct Wetness;

impl Node for Wetness {
    type Settings = WetnessSettings;
    const META: NodeMeta = NodeMeta::new(
        "Wetness index",
        Category::Masks,
        "The topographic wetness index ln(a / tan slope): a is the area drained through the cell per metre of contour (the drainage area in km² over the cell's width on the Planet node's radius), so valley floors and flats that gather water score high (about 10 to 20) and steep ridges low (0 to 5). For engines' wet-ground, moss and puddle masks; it depends on the cell size, as it does on Earth.",
        INPUTS,
        &[PortDef::field("wetness")],
        file!(),
    )
    .reading_planet().costing(5);

    fn run(s: &WetnessSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let (area, slope) = (inputs.port(AREA)?, inputs.port(SLOPE)?);
        let width_m = ctx.planet()?.radius_km * 1000.0 * cell_angle(ctx.n);
        let min_tan = s.min_slope_deg.to_radians().tan();
        let out = Field::from_fn_on(area.grid(), |k, _| wetness(area.data()[k], slope.data()[k], width_m, min_tan));
        Ok(vec![out.into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

/// `ln(a / tan β)` of a drainage area in km² and a slope in degrees, on cells `width_m` wide,
/// with slopes flatter than `min_tan` (a tangent) counted as that steep and the specific
/// catchment area at least 1 m.
pub fn wetness(area_km2: f32, slope_deg: f32, width_m: f32, min_tan: f32) -> f32 {
    let a = (area_km2.max(0.0) * 1.0e6 / width_m).max(1.0);
    let tan = slope_deg.abs().min(89.0).to_radians().tan().max(min_tan);
    (a / tan).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valleys_score_higher_than_ridges_and_flats_stay_finite() {
        let (w, min) = (20_000.0, 0.1f32.to_radians().tan());
        // A valley draining 10 000 km² at 1 degree against a ridge of one cell at 30 degrees.
        let valley = wetness(10_000.0, 1.0, w, min);
        let ridge = wetness(400.0, 30.0, w, min);
        assert!(valley > ridge + 5.0, "{valley} {ridge}");
        assert!((valley - (10_000.0e6f32 / w / 1.0f32.to_radians().tan()).ln()).abs() < 1e-3);
        assert!(wetness(1.0e6, 0.0, w, min).is_finite() && wetness(0.0, 0.0, w, min).is_finite());
        assert!(wetness(50.0, 0.05, w, min) == wetness(50.0, 0.0, w, min), "flatter than the flattest slope counts as it");
    }
}
