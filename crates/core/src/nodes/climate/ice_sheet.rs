//! The Ice sheet node: ice where the land is colder than its snow line, domed up by the plastic
//! profile of an ice sheet (thicker with the distance from its margin), nunataks where the bed
//! rises through it and a rough, crevassed band along its margin; the ice's weight presses the
//! bed down (isostasy).

use super::{snow_line_c, SNOW_LINE_REFERENCE_MM};
use crate::nodes::masks::smoothstep;
use crate::nodes::prelude::*;
use crate::planet::diffusion::blur;
use crate::planet::distance::{cell_dirs, signed_distance_km};
use crate::planet::fbm::{noise_radius, FastFbm};
use rayon::prelude::*;

/// Density of glacier ice, kg/m³.
const ICE_DENSITY: f32 = 917.0;
/// Gravity at the surface, m/s².
const GRAVITY: f32 = 9.81;
/// Blur of the bed the dome stands on, degrees of arc: the sheet's base follows the broad bed
/// (a sheet on a plateau stands higher), not every valley, which the ice fills.
const BASE_BLUR_DEG: f32 = 3.0;
/// Width of the margin over which the ice thins to nothing, km (no cliff where the ice ends).
const MARGIN_RAMP_KM: f32 = 40.0;
/// Features of the crevassed margin's noise around the equator (about 70 km apart on Earth).
const CREVASSE_FEATURES: f32 = 560.0;
/// Temperature over which the cold side of the snow line ramps from 0 to 1 (0.5 on it), °C.
const COLD_RAMP_C: f32 = 2.0;
/// Height over which the land side of the coast ramps from 0 to 1 (0.5 on it), m.
const LAND_RAMP_M: f32 = 20.0;
/// Thickness of ice that counts as fully covered in the `ice` output, m.
const COVERED_M: f32 = 20.0;
/// Density of the mantle the lithosphere floats on, kg/m³.
const MANTLE_DENSITY: f32 = 3300.0;
/// Width over which the lithosphere spreads the ice's load, degrees of arc (the blur of the
/// thickness whose weight the bed sinks under: a flexural wavelength of a few hundred km).
const FLEXURE_DEG: f32 = 1.0;

crate::settings! {
    /// Settings of the Ice sheet node.
    pub struct IceSheetSettings, keys IceSheetKeys {
        /// Temperature below which ice builds up (at 800 mm/yr of precipitation), degrees C.
        ice_below_c: f32 = float("Ice below", crate::nodes::texture::biomes::ICE_BELOW_C, -60.0, 20.0, Unit::Celsius, 0.1, "Annual mean temperature below which snow outlasts the summers and builds an ice sheet (the Biomes node draws ice below -15 °C; Siberia's -10 to -15 °C is tundra). With the precipitation input this is the value at 800 mm/yr: wetter ground holds ice up to 5 °C warmer, drier ground needs up to 8 °C colder."),
        /// Yield stress of the ice, kPa.
        yield_stress_kpa: f32 = float("Yield stress", 60.0, 5.0, 300.0, Unit::Named("kPa"), 1.0, "Basal shear stress of the ice (perfectly plastic ice: 50 to 150 kPa on Earth). The sheet's surface rises as the square root of 2 x stress / (ice density x gravity) x the distance from its margin: 60 kPa gives about 2.6 km at 500 km from the margin (Greenland) and 4 km at 1200 km (East Antarctica)."),
        /// Height of the roughness along the margin, m.
        crevasses_m: f32 = float("Margin roughness", 60.0, 0.0, 1000.0, Unit::Metre, 1.0, "Height of the crevassed, broken relief of the outlet glaciers along the margin, fading over the Margin band into the smooth interior of the sheet."),
        /// Width of the rough margin, km.
        margin_km: f32 = float("Margin band", 150.0, 1.0, 2000.0, Unit::Kilometre, 1.0, "Distance from the margin over which the roughness fades out."),
        /// Seed of the margin's roughness.
        seed: u32 = seed(21),
    }
}

crate::ports! {
    const INPUTS: In = [
        /// Elevation of the bed in the Planet node's units.
        ELEVATION: Field = PortDef::field("elevation"),
        /// Annual mean temperature, °C.
        TEMPERATURE: Field = PortDef::field("temperature"),
        /// Optional precipitation, mm/yr.
        PRECIPITATION: Field = PortDef::optional("precipitation", PortType::Field),
    ];
}

crate::ports! {
    const OUTPUTS: Out = [
        /// The ice's surface where there is ice, else the bed, in the Planet node's units.
        SURFACE: Field = PortDef::field("elevation"),
        /// Thickness of the ice, m.
        THICKNESS: Field = PortDef::field("thickness").with_unit(PortUnit::Of(Unit::Metre)),
        /// Ice cover, 0 to 1.
        ICE: Field = PortDef::field("ice"),
        /// The bed pressed down by the ice, in the Planet node's units.
        BED: Field = PortDef::field("bed"),
        /// How far the ice's weight presses the bed down, m.
        SINKING: Field = PortDef::field("sinking").with_unit(PortUnit::Of(Unit::Metre)),
    ];
}

/// The Ice sheet node.
pub struct IceSheet;

impl Node for IceSheet {
    type Settings = IceSheetSettings;
    const META: NodeMeta = NodeMeta::new(
        "Ice sheet",
        Category::Climate,
        "Ice on land colder than its snow line, domed up as a plastic ice sheet: the surface rises with the square root of the distance from the margin (4 km at the heart of a continent-sized sheet), fills valleys, leaves nunataks where the bed rises through it and a rough, crevassed band along the margin. The ice's weight presses the bed down by 917/3300 of the thickness spread over about 1 degree (isostasy: the bed of a 3 km sheet lies about 800 m lower), and the ice stands on the lowered bed. Elevation in and out in the Planet node's units (the surface, and the lowered bed); temperature in °C (the Temperature node on the bed); thickness and sinking in m.",
        INPUTS,
        OUTPUTS,
        file!(),
    )
    .reading_planet()
    .costing(70);

    fn run(s: &IceSheetSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        let (bed, temperature, precipitation) = (inputs.port(ELEVATION)?, inputs.port(TEMPERATURE)?, inputs.port_opt(PRECIPITATION)?);
        let planet = ctx.planet()?;
        let n = bed.n();
        let bed_m = planet.apply(bed);
        // Ground below sea level away from the ocean (an inland basin, a lake's floor) is land
        // the ice covers, as Vostok lies under East Antarctica's ice: not open water in it.
        let ocean = crate::planet::ocean::ocean_of(&bed_m, 0.0);
        ctx.check()?;
        // How far each cell is on the cold side of the snow line and above the sea, 0.5 on
        // either line: a smooth field, so the margin runs between the cells instead of along
        // their edges.
        let cold: Vec<f32> = bed_m
            .data()
            .par_iter()
            .enumerate()
            .map(|(c, &m)| {
                let rain = precipitation.map_or(SNOW_LINE_REFERENCE_MM, |p| p.data()[c]);
                let colder = (snow_line_c(s.ice_below_c, rain) - temperature.data()[c]) / COLD_RAMP_C + 0.5;
                let land = if m >= 0.0 || ocean[c] { m / LAND_RAMP_M + 0.5 } else { 1.0 };
                colder.min(land).clamp(0.0, 1.0)
            })
            .collect();
        // Distance into the ice from its margin, km: swept inside the ice alone (NaN outside,
        // where no ice is built).
        const MARGIN: f32 = 0.5;
        let inside_km = signed_distance_km(n, &cell_dirs(n), &cold, MARGIN, planet.radius_km, &|c| cold[c] >= MARGIN, ctx.cancel)?;
        ctx.check()?;
        let base = blur(&bed_m.map(|m| m.max(0.0)), BASE_BLUR_DEG, ctx.cancel)?;
        let profile = IceProfile::new(s.yield_stress_kpa);
        let rough = FastFbm::new(s.seed, 3, 0.5, 2.0);
        let r = noise_radius(CREVASSE_FEATURES);
        let thickness = bed.like(|c, d| {
            let km = inside_km[c];
            if km.is_nan() || km <= 0.0 {
                return 0.0;
            }
            let ramp = smoothstep(0.0, MARGIN_RAMP_KM, km);
            // The crevassed band: ridged noise fading inwards (none read beyond it).
            let band = s.crevasses_m * (1.0 - km / s.margin_km.max(1.0)).max(0.0);
            let crevasses = if band > 0.0 { band * (1.0 - 2.0 * rough.get([f64::from(d.x) * r, f64::from(d.y) * r, f64::from(d.z) * r]).abs() as f32) } else { 0.0 };
            ((base.data()[c] + profile.height_m(km) + crevasses - bed_m.data()[c]) * ramp).max(0.0)
        });
        // Isostasy: the lithosphere spreads the ice's weight and sinks under it.
        let sinking = blur(&thickness, FLEXURE_DEG, ctx.cancel)?.map(|t| (t * ICE_DENSITY / MANTLE_DENSITY).max(0.0));
        let lowered = raised(bed, planet, |c| -sinking.data()[c]);
        let surface = raised(&lowered, planet, |c| thickness.data()[c]);
        let ice = thickness.map(cover);
        Ok(vec![surface.into(), thickness.into(), ice.into(), lowered.into(), sinking.into()])
    }

    /// On a grid finer than the whole-planet run (close-ups, tiled builds above the cap): the
    /// bed on the grid itself, so the gullies and river valleys of the nodes above stay where
    /// there is no ice, and the run's ice surface sampled smoothly over it. Under the ice the
    /// surface is the higher of the two (the ice fills the fine valleys, the fine peaks rise
    /// through it as nunataks), blended into the bare bed by the run's ice cover, so the
    /// margin has no step. The tile's bed sinks by the run's sinking, sampled smoothly.
    fn refine(_s: &IceSheetSettings, r: &Refine) -> Result<Vec<Option<Value>>, OpError> {
        let whole = |p: OutPort<Field>| p.value_in(r.outputs).ok().flatten().cloned();
        let (Some(surface), Some(thickness), Some(sinking), Some(planet)) = (whole(SURFACE), whole(THICKNESS), whole(SINKING), r.planet) else {
            return Ok(Vec::new());
        };
        let bed = (r.input_on)(ELEVATION.index(), r.grid)?;
        let bed = bed.as_field().ok_or_else(|| OpError::Invalid("internal error: the Ice sheet's elevation on a tile is not a field".to_string()))?;
        let sinking = sinking.smooth_on(r.grid).map(|m| m.max(0.0));
        let bed = &raised(bed, planet, |c| -sinking.data()[c]);
        let (run_surface, run_thickness) = (surface.smooth_on(r.grid), thickness.smooth_on(r.grid));
        let thickness = Field::from_fn_cell_on(r.grid, |k| {
            let t = run_thickness.data()[k];
            if t <= 0.0 {
                return 0.0;
            }
            let bed_m = planet.to_metres(bed.data()[k]);
            cover(t) * (planet.to_metres(run_surface.data()[k]) - bed_m).max(0.0)
        });
        let surface = raised(bed, planet, |c| thickness.data()[c]);
        let ice = thickness.map(cover);
        Ok(vec![Some(surface.into()), Some(thickness.into()), Some(ice.into()), Some(bed.clone().into()), Some(sinking.into())])
    }

    fn refines_from(_s: &IceSheetSettings) -> RefineFrom {
        RefineFrom::TileInputs
    }
}

/// The ice cover (0 to 1) of ice `thickness_m` thick: full from [`COVERED_M`].
fn cover(thickness_m: f32) -> f32 {
    (thickness_m / COVERED_M).clamp(0.0, 1.0)
}

/// `bed` (the Planet node's units) moved up by `up_m(cell)` metres (down where negative): the
/// lowered bed under the ice's weight, the ice's surface on its bed. The bed itself, bit for
/// bit, where it does not move.
fn raised(bed: &Field, planet: &crate::nodes::output::planet::PlanetSettings, up_m: impl Fn(usize) -> f32 + Sync) -> Field {
    Field::from_fn_cell_on(bed.grid(), |c| {
        let up = up_m(c);
        if up != 0.0 {
            planet.from_metres(planet.to_metres(bed.data()[c]) + up)
        } else {
            bed.data()[c]
        }
    })
}

/// The surface profile of a perfectly plastic ice sheet (Nye): at a distance `d` from the
/// margin the surface stands `sqrt(2 τ d / (ρ g))` above its base.
#[derive(Debug, Clone, Copy)]
pub struct IceProfile {
    /// `2 τ / (ρ g)`, m.
    scale_m: f32,
}

impl IceProfile {
    /// The profile for a yield stress in kPa.
    pub fn new(yield_stress_kpa: f32) -> IceProfile {
        IceProfile { scale_m: 2.0 * yield_stress_kpa * 1000.0 / (ICE_DENSITY * GRAVITY) }
    }

    /// Height of the surface above its base at `km` from the margin, m.
    pub fn height_m(&self, km: f32) -> f32 {
        (self.scale_m * km.max(0.0) * 1000.0).sqrt()
    }
}

#[cfg(test)]
#[path = "ice_sheet_tests.rs"]
mod tests;
