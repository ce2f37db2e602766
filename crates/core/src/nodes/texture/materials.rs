//! The Materials node (seeds 002 and 004): splat weights of five materials from height, slope,
//! a snow line jittered by noise and where water ran, and the albedo they blend to.

use super::super::masks::smoothstep;
use crate::nodes::prelude::*;
use crate::planet::fbm::{fbm_field, noise_radius, FastFbm};
use rayon::prelude::*;

crate::settings! {
    /// Settings of the Materials node (heights in metres, slopes in degrees).
    pub struct MaterialsSettings, keys MaterialsKeys {
        /// Mean height of the snow line, m.
        snow_line_m: f32 = float("Snow line", 2800.0, -1000.0, 20000.0, Unit::Metre, 10.0, "Mean height above which snow lies, without a temperature input."),
        /// With a temperature input: snow lies below this annual mean temperature, °C.
        snow_c: f32 = float("Snow below", -6.0, -60.0, 30.0, Unit::Celsius, 0.1, "With a temperature input, snow lies where the annual mean temperature is below this instead of above a fixed height, so the snow line is high in the tropics and low near the poles (glaciers' snow lines lie near -6 °C: about -1 in wet maritime ranges, -12 in dry continental ones)."),
        /// How far noise moves the snow line up and down, m.
        snow_jitter_m: f32 = float("Snow line jitter", 400.0, 0.0, 10000.0, Unit::Metre, 5.0, "How far noise moves the snow line up and down, so it follows no contour (with a temperature input, the same in °C at 6.5 °C per km)."),
        /// Features of the jitter noise per planet.
        snow_noise: f32 = float("Jitter frequency", 60.0, 0.5, 2000.0, Unit::Named("/planet"), 0.5, "Features of the snow line's noise around the equator."),
        /// Snow slides off slopes steeper than this, degrees.
        snow_max_slope: f32 = float("Snow slope", 45.0, 0.0, 90.0, Unit::Degree, 0.5, "Snow does not hold on slopes steeper than this."),
        /// Sand lies up to this height above sea level, m.
        sand_height_m: f32 = float("Sand above sea", 8.0, 0.0, 1000.0, Unit::Metre, 0.5, "Sand lies on gentle shores up to this height above sea level."),
        /// Sand lies down to this depth, m.
        sand_depth_m: f32 = float("Sand below sea", 30.0, 0.0, 5000.0, Unit::Metre, 0.5, "Sand lies down to this depth; the sea floor below."),
        /// With a coast distance input: sand lies only this close to the coastline, km.
        sand_reach_km: f32 = float("Sand reach", 10.0, 0.0, 10000.0, Unit::Kilometre, 0.5, "With a distance to coast input, sand lies only within this distance of the coastline (fading out over as much again), on land and at sea: low valley floors and lake shores far inland stay ground."),
        /// Sand only on slopes gentler than this, degrees.
        sand_max_slope: f32 = float("Sand slope", 6.0, 0.0, 90.0, Unit::Degree, 0.1, "Sand only lies on slopes gentler than this."),
        /// Rock from this slope on, degrees.
        rock_slope: f32 = float("Rock slope", 30.0, 0.0, 90.0, Unit::Degree, 0.5, "Slopes steeper than this are rock."),
        /// Width of the rock transition, degrees.
        rock_blend: f32 = float("Rock blend", 12.0, 0.0, 90.0, Unit::Degree, 0.5, "Width of the transition from ground to rock around the rock slope."),
        /// Rock where water ran (0..1 of the water input).
        water_rock: f32 = float("Rock where water ran", 0.6, 0.0, 1.0, Unit::None, 0.01, "How much rock shows where water ran (times the water input, e.g. the hydraulic erosion's presence)."),
        /// Colour of the sea floor seen through water.
        sea_floor: Srgb = colour("Sea floor", [0.05, 0.16, 0.3], "Colour of the sea floor as seen through the water above it."),
        /// Colour of sand.
        sand: Srgb = colour("Sand", [0.86, 0.8, 0.62], "Colour of sand."),
        /// Colour of ground where no base colour is connected.
        ground: Srgb = colour("Ground", [0.32, 0.42, 0.2], "Colour of soil and vegetation (used where the base input is not connected)."),
        /// Colour of rock.
        rock: Srgb = colour("Rock", [0.45, 0.42, 0.39], "Colour of rock."),
        /// Colour of snow.
        snow: Srgb = colour("Snow", [0.96, 0.97, 0.99], "Colour of snow."),
        /// Seed of the snow line's noise.
        seed: u32 = seed(9),
    }
}

/// The Materials node.
pub struct Materials;

crate::ports! {
    const INPUTS: In = [
        /// Elevation, m.
        ELEVATION: Field = PortDef::field("elevation_m"),
        /// Optional slope, degrees (else measured from the elevation).
        SLOPE: Field = PortDef::optional("slope_deg", PortType::Field),
        /// Optional 0..1 where water ran: rock shows there.
        WATER: Field = PortDef::optional("water", PortType::Field),
        /// Optional base colour of the ground (linear RGB), for example the biomes' colour.
        BASE: ColourField = PortDef::optional("base", PortType::Colour),
        /// Optional annual mean temperature, °C: the snow line follows it.
        TEMPERATURE: Field = PortDef::optional("temperature", PortType::Field).with_unit(PortUnit::Of(Unit::Celsius)),
        /// Optional annual precipitation, mm/yr.
        PRECIPITATION: Field = PortDef::optional("precipitation", PortType::Field).with_unit(PortUnit::Of(Unit::MillimetrePerYear)),
        /// Optional distance to the coast, km: sand only near it.
        COAST: Field = PortDef::optional("coast_km", PortType::Field).with_unit(PortUnit::Of(Unit::Kilometre)),
    ];
}

crate::ports! {
    const OUTPUTS: Out = [
        /// Weight of the sea floor, 0..1.
        SEA_FLOOR: Field = PortDef::field("sea_floor"),
        /// Weight of sand, 0..1.
        SAND: Field = PortDef::field("sand"),
        /// Weight of ground, 0..1.
        GROUND: Field = PortDef::field("ground"),
        /// Weight of rock, 0..1.
        ROCK: Field = PortDef::field("rock"),
        /// Weight of snow, 0..1.
        SNOW: Field = PortDef::field("snow"),
        /// The albedo the weights blend to (linear RGB).
        ALBEDO: ColourField = PortDef::of("albedo", PortType::Colour),
    ];
}

/// The weight outputs, in material order (the order of a cell's weights).
pub const WEIGHTS: [OutPort<Field>; 5] = [SEA_FLOOR, SAND, GROUND, ROCK, SNOW];

impl Node for Materials {
    type Settings = MaterialsSettings;
    const META: NodeMeta = NodeMeta::new(
        "Materials",
        Category::Texture,
        "Splat weights (never negative, summing to 1) of sea floor, sand, ground, rock and snow from height, slope, a noisy snow line (a height, or with a temperature input in °C a temperature, warmer where the precipitation input brings more snow and colder where it is dry), where water ran and, with a distance to coast input, sand only near the coast; and the albedo they blend to. Connect biome colours as the ground's base. Without a slope input it measures the slope of the elevation itself (on the planet's radius).",
        INPUTS,
        OUTPUTS,
        file!(),
    )
    .reading_planet().costing(56).costing_when_open(&[("slope_deg", 40)]);

    fn run(s: &MaterialsSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let (h, water, base, temperature, rain, coast) = (inputs.port(ELEVATION)?, inputs.port_opt(WATER)?, inputs.port_opt(BASE)?, inputs.port_opt(TEMPERATURE)?, inputs.port_opt(PRECIPITATION)?, inputs.port_opt(COAST)?);
        // Without a slope input: the slope of the elevation in metres on the planet.
        let measured;
        let slope = match inputs.port_opt(SLOPE)? {
            Some(f) => f.as_ref(),
            None => {
                measured = crate::nodes::modify::slope::slope_degrees(h, 1.0, ctx.planet()?.radius_km);
                &measured
            }
        };
        let grid = h.grid();
        let r = noise_radius(s.snow_noise);
        let fbm = FastFbm::new(s.seed, 4, 0.5, 2.0);
        let jitter = fbm_field(&fbm, grid, r, 1.0);
        ctx.check()?;
        let weights: Vec<[f32; 5]> = (0..grid.cells())
            .into_par_iter()
            .map(|c| {
                let w = weights(s, h.data()[c], slope.data()[c], water.map_or(0.0, |w| w.data()[c]), jitter.data()[c], temperature.map(|t| SnowClimate { temperature_c: t.data()[c], precipitation_mm: rain.map(|p| p.data()[c]) }));
                coast.map_or(w, |d| sand_near_coast(w, d.data()[c], s.sand_reach_km))
            })
            .collect();
        let colours = [s.sea_floor.linear(), s.sand.linear(), s.ground.linear(), s.rock.linear(), s.snow.linear()];
        let albedo = ColourField::from_fn_on(grid, |c| {
            let mut out = [0.0f32; 3];
            for (k, w) in weights[c].iter().enumerate() {
                let col = if k == 2 { base.map_or(colours[2], |b| b.data[c]) } else { colours[k] };
                for ch in 0..3 {
                    out[ch] += w * col[ch];
                }
            }
            out
        });
        let mut outs: Vec<Value> = (0..5).map(|k| Field::from_fn_cell_on(grid, |c| weights[c][k]).into()).collect();
        outs.push(albedo.into());
        Ok(outs)
    }

    /// Cellwise when the slope comes in; measuring the slope itself needs the neighbours.
    fn locality(_: &Self::Settings, connected: &[bool]) -> Locality {
        if connected.get(1) == Some(&true) {
            Locality::Cellwise
        } else {
            Locality::Whole
        }
    }
}

/// Cooling per metre of height of the standard atmosphere, °C/m: turns the snow line's jitter
/// into degrees.
const STANDARD_LAPSE_C_PER_M: f32 = 0.0065;

/// `w` (weights in [`WEIGHTS`] order) with the sand kept only near the coast: it fades from
/// `reach_km` to twice that distance from the coastline (`coast_km`: positive on land,
/// negative at sea), and what it gives up goes to the ground on land and to the sea floor at
/// sea, so the weights still sum to 1.
pub fn sand_near_coast(w: [f32; 5], coast_km: f32, reach_km: f32) -> [f32; 5] {
    let keep = 1.0 - smoothstep(reach_km, 2.0 * reach_km.max(1e-3), coast_km.abs());
    let moved = w[1] * (1.0 - keep);
    let mut out = w;
    out[1] -= moved;
    out[if coast_km < 0.0 { 0 } else { 2 }] += moved;
    out
}

/// The climate of one cell that places its snow line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SnowClimate {
    /// Annual mean temperature, °C.
    pub temperature_c: f32,
    /// Annual precipitation, mm/yr (`None`: the line lies at [`MaterialsSettings::snow_c`]).
    pub precipitation_mm: Option<f32>,
}

/// The five weights of one cell (in [`WEIGHTS`] order): each material takes its share of what
/// the ones above it left (sea floor, then snow, rock and sand), ground the rest, so they are
/// never negative and sum to 1. `jitter` is noise in about -1..1; `climate`, when given,
/// places the snow line at [`MaterialsSettings::snow_c`] (moved by the precipitation, see
/// [`crate::nodes::climate::snow_line_c`]) instead of a height.
pub fn weights(s: &MaterialsSettings, h: f32, slope: f32, water: f32, jitter: f32, climate: Option<SnowClimate>) -> [f32; 5] {
    let d = s.sand_depth_m;
    let sea = smoothstep(0.5 * d, 1.5 * d, -h);
    let above_line = match climate {
        // 150 m either side of the line is about 1 °C at the standard lapse rate.
        Some(SnowClimate { temperature_c: t, precipitation_mm }) => {
            let line = precipitation_mm.map_or(s.snow_c, |p| crate::nodes::climate::snow_line_c(s.snow_c, p));
            smoothstep(-1.0, 1.0, line + STANDARD_LAPSE_C_PER_M * s.snow_jitter_m * jitter - t)
        }
        None => {
            let line = s.snow_line_m + s.snow_jitter_m * jitter;
            smoothstep(line - 150.0, line + 150.0, h)
        }
    };
    let snow = above_line * (1.0 - smoothstep(s.snow_max_slope - 5.0, s.snow_max_slope + 5.0, slope));
    let steep = smoothstep(s.rock_slope - 0.5 * s.rock_blend, s.rock_slope + 0.5 * s.rock_blend, slope);
    let rock = (steep + s.water_rock * water.clamp(0.0, 1.0)).clamp(0.0, 1.0);
    let hs = s.sand_height_m;
    let shore = smoothstep(-1.5 * d, -0.5 * d, h) * (1.0 - smoothstep(0.5 * hs, 1.5 * hs, h));
    let sand = shore * (1.0 - smoothstep(s.sand_max_slope, s.sand_max_slope + 4.0, slope));
    let mut left = 1.0f32;
    let mut take = |share: f32| {
        let w = left * share.clamp(0.0, 1.0);
        left -= w;
        w
    };
    let (w_sea, w_snow, w_rock, w_sand) = (take(sea), take(snow), take(rock), take(sand));
    [w_sea, w_sand, left.max(0.0), w_rock, w_snow]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::params::Settings;
    use crate::nodes::NodeKind;

    fn defaults() -> MaterialsSettings {
        MaterialsSettings::from_params(&NodeKind::Materials.default_params()).expect("defaults")
    }

    #[test]
    fn weights_are_never_negative_and_sum_to_one() {
        let s = defaults();
        for hi in -50..=60 {
            for si in 0..=18 {
                for wi in 0..=4 {
                    let w = weights(&s, hi as f32 * 100.0 - 2.0, si as f32 * 5.0, wi as f32 * 0.25, ((hi * 7 + si) as f32).sin(), None);
                    assert!(w.iter().all(|&v| v >= 0.0), "{w:?}");
                    assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{w:?}");
                }
            }
        }
    }

    #[test]
    fn each_material_wins_where_it_belongs() {
        let s = defaults();
        let top = |w: [f32; 5]| w.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(k, _)| WEIGHTS[k].name());
        assert_eq!(top(weights(&s, -2000.0, 2.0, 0.0, 0.0, None)), Some("sea_floor"));
        assert_eq!(top(weights(&s, 2.0, 1.0, 0.0, 0.0, None)), Some("sand"));
        assert_eq!(top(weights(&s, 500.0, 5.0, 0.0, 0.0, None)), Some("ground"));
        assert_eq!(top(weights(&s, 500.0, 50.0, 0.0, 0.0, None)), Some("rock"));
        assert_eq!(top(weights(&s, 500.0, 5.0, 1.0, 0.0, None)), Some("rock"), "where water ran");
        assert_eq!(top(weights(&s, 4000.0, 10.0, 0.0, 0.0, None)), Some("snow"));
        // The jitter moves the snow line.
        assert!(weights(&s, 2800.0, 10.0, 0.0, 1.0, None)[4] < weights(&s, 2800.0, 10.0, 0.0, -1.0, None)[4]);
    }

    #[test]
    fn with_a_temperature_snow_follows_the_cold_not_a_height() {
        let s = defaults();
        let at = |t| Some(SnowClimate { temperature_c: t, precipitation_mm: None });
        let snow = |h, t| weights(&s, h, 10.0, 0.0, 0.0, at(t))[4];
        // A warm 4 km tropical plateau is bare; a cold 1 km polar coast range is white.
        assert_eq!(snow(4000.0, 2.0), 0.0);
        assert_eq!(snow(1000.0, -12.0), 1.0);
        // The line lies at the setting, and the jitter moves it by its height in degrees.
        assert!((snow(2000.0, s.snow_c) - 0.5).abs() < 1e-6);
        let jittered = |j| weights(&s, 2000.0, 10.0, 0.0, j, at(s.snow_c))[4];
        assert!(jittered(1.0) > 0.5 && jittered(-1.0) < 0.5);
        // Snow still slides off cliffs.
        assert_eq!(weights(&s, 2000.0, 80.0, 0.0, 0.0, at(-20.0))[4], 0.0);
        // With the precipitation, a dry plateau at -9 °C is bare and a wet range at -3 °C white.
        let rained = |t, p| weights(&s, 4500.0, 3.0, 0.0, 0.0, Some(SnowClimate { temperature_c: t, precipitation_mm: Some(p) }))[4];
        assert_eq!(rained(-9.0, 150.0), 0.0);
        assert_eq!(rained(-3.0, 4000.0), 1.0);
        assert!((rained(s.snow_c, crate::nodes::climate::SNOW_LINE_REFERENCE_MM) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn sand_lies_only_near_the_coast_with_a_coast_distance() {
        let s = defaults();
        let shore = weights(&s, 2.0, 1.0, 0.0, 0.0, None);
        assert!(shore[1] > 0.9, "{shore:?}");
        // A valley floor 2 m above the sea, 300 km inland, is ground; the same 3 km from the
        // coast keeps its sand; at sea far out the sand goes to the sea floor.
        let inland = sand_near_coast(shore, 300.0, s.sand_reach_km);
        assert_eq!(inland[1], 0.0);
        assert!((inland.iter().sum::<f32>() - 1.0).abs() < 1e-6 && inland[2] > 0.9);
        assert_eq!(sand_near_coast(shore, 3.0, s.sand_reach_km), shore);
        let offshore = sand_near_coast(weights(&s, -5.0, 1.0, 0.0, 0.0, None), -100.0, s.sand_reach_km);
        assert_eq!(offshore[1], 0.0);
        assert!(offshore[0] > 0.9 && offshore[2] == 0.0, "{offshore:?}");
    }

    /// Without a slope input the node measures the slope of its elevation on the planet, the
    /// same as a Slope node wired in.
    #[test]
    fn without_a_slope_input_it_measures_the_slope_itself() {
        let n = 48;
        let h = Field::from_fn_dir(n, |d| 6000.0 * (d.x * 20.0).sin() * (d.y * 7.0).cos());
        let planet = crate::nodes::output::planet::PlanetSettings { radius_km: 100.0, ..crate::nodes::output::planet::EARTH };
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(&planet), files: &[] };
        let slope = crate::nodes::modify::slope::slope_degrees(&h, 1.0, planet.radius_km);
        assert!(slope.data().iter().any(|&v| v > 30.0), "steep enough for rock");
        let wired = Materials::run(&defaults(), &Inputs(&[Some(h.clone().into()), Some(slope.into()), None, None, None, None, None]), &ctx).expect("runs");
        let alone = Materials::run(&defaults(), &Inputs(&[Some(h.into()), None, None, None, None, None, None]), &ctx).expect("runs");
        for k in 0..5 {
            assert_eq!(wired[k].as_field().expect("field").data(), alone[k].as_field().expect("field").data(), "{}", WEIGHTS[k].name());
        }
        // And the measured slope matters: flat ground of the same heights has no rock.
        let flat = Materials::run(&defaults(), &Inputs(&[Some(Field::filled(n, 500.0).into()), None, None, None, None, None, None]), &ctx).expect("runs");
        let rock = |o: &[Value]| o[3].as_field().expect("rock").data().iter().sum::<f32>();
        assert!(rock(&alone) > rock(&flat) + 1.0, "{} vs {}", rock(&alone), rock(&flat));
    }
}
