//! The Erosion filter node: branching gullies and spurs that run downhill, added point by point
//! below the cells of a simulation ([`crate::erosion::filter`]).

use crate::erosion::filter::{GullyFilter, GullySpec, PointWater};
use crate::nodes::masks::smoothstep;
use crate::nodes::prelude::*;
use crate::planet::gradient::gradient_on;
use crate::planet::stencil::Neighbours4;

crate::settings! {
    /// Settings of the Erosion filter node.
    pub struct ErosionFilterSettings, keys ErosionFilterKeys {
        /// Wavelength of the coarsest gullies, km.
        spacing_km: f32 = float("Largest gullies", 20.0, 0.05, 2000.0, Unit::Kilometre, 0.5, "Spacing of the coarsest gullies, from spur to spur, on the Planet node's radius. Builds whose cells are larger than half of it get none of them; each finer octave halves the spacing."),
        /// Octaves at most.
        octaves: usize = int("Octaves", 8, 1, 16, "Finer octaves at most, each half the spacing of the one before and bent into the gullies of the coarser ones; only those the evaluation's cells resolve are added (a close-up gets more than a build)."),
        /// Slope share of the coarsest gullies' walls.
        strength: f32 = float("Strength", 1.0, 0.0, 4.0, Unit::None, 0.01, "How deep the gullies are: the slope their walls add, as a share of the slope they are cut into (1: a slope of 10 % gets walls of up to 10 % more). Flats get none, so plains, valley floors and the tops of domes keep their shape."),
        /// Strength factor from one octave to the next.
        gain: f32 = float("Gain", 1.0, 0.0, 1.0, Unit::None, 0.01, "Factor of the strength from one octave to the next: 1 keeps every octave's walls as steep as the coarsest's, lower values make the fine gullies shallower."),
        /// How much the finer gullies follow the slope of the coarser ones.
        follow: f32 = float("Follow", 1.0, 0.0, 1.0, Unit::None, 0.01, "How much each finer octave runs down the slope of the gullies already added (1: they bend into the coarser gullies and branch) rather than down the input's slope (0: parallel gullies)."),
        /// Slope of flat ground's gullies, degrees.
        flat_slope_deg: f32 = float("Flat-ground slope", 3.0, 0.0, 45.0, Unit::Degree, 0.05, "Ground flatter than this gets gullies as deep as on a slope of this angle, running in smoothly varying directions (plains are not flat below a simulation's cells); 0 leaves flats flat. Measured with the Planet node's highest peak as 1.0 of elevation and its radius."),
        /// Random seed.
        seed: u32 = seed(9),
    }
}

crate::ports! {
    /// Inputs: the elevation, and optional rivers, lakes and mask.
    const INPUTS: In = [
        /// The elevation the gullies are cut into.
        ELEVATION: Field = PortDef::field("elevation"),
        /// Optional 0..1 share of a river: troughs instead of ridges there.
        RIVERS: Field = PortDef::optional("rivers", PortType::Field),
        /// Optional 0..1 share of a lake: the filter fades out there.
        LAKES: Field = PortDef::optional("lakes", PortType::Field),
        /// Optional 0..1 mask that scales the filter.
        MASK: Field = PortDef::optional("mask", PortType::Field),
    ];
}

crate::ports! {
    /// Output: the elevation with gullies.
    const OUTPUTS: Out = [
        /// The elevation with gullies, in the input's units.
        OUT: Field = PortDef::field("elevation"),
    ];
}

/// The Erosion filter node.
pub struct ErosionFilter;

impl Node for ErosionFilter {
    type Settings = ErosionFilterSettings;
    const META: NodeMeta = NodeMeta::new(
        "Erosion filter",
        Category::Erosion,
        "Branching gullies and spurs that run downhill, cut into any elevation below the size of a simulation's cells: stripes across the slope, deeper on steep ground, none on flats; each finer octave follows the slope of the coarser ones, so the gullies branch. Rivers get troughs instead of ridges, lakes keep their floor, and the coastline stays the input's (land is never cut below sea level, nor the sea floor raised above it). It works point by point, so close-up tiles, seams and every level get the same gullies, and only the octaves the cells resolve are added.",
        INPUTS,
        OUTPUTS,
        file!(),
    )
    .reading_planet().costing(62);

    fn run(s: &ErosionFilterSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let h = inputs.port(ELEVATION)?;
        let (rivers, lakes, mask) = (inputs.port_opt(RIVERS)?, inputs.port_opt(LAKES)?, inputs.port_opt(MASK)?);
        let planet = ctx.planet()?;
        // A slope of 1 (100 %) is this many elevation units per radian of arc.
        let units_per_radian = planet.radius_km * 1000.0 / planet.max_elevation_m;
        let min_slope = s.flat_slope_deg.to_radians().tan() * units_per_radian;
        let spec = GullySpec { spacing_rad: s.spacing_km / planet.radius_km, octaves: s.octaves, strength: s.strength, gain: s.gain, follow: s.follow, min_slope, seed: s.seed };
        let filter = GullyFilter::new(&spec, ctx.n);
        if filter.is_empty() {
            // The level resolves no gullies: the elevation without its halo (before the
            // stencil, whose cell directions alone cost about a second at 1024).
            let out = ctx.grid();
            if h.grid() == out {
                return Ok(vec![Value::Field(std::sync::Arc::clone(h))]);
            }
            let same = h.grid().crop(h.data(), out).ok_or_else(|| OpError::Internal(format!("the elevation on {} does not hold the output grid {}", h.grid(), out)))?;
            return Ok(vec![Field::from_vec_on(out, same)?.into()]);
        }
        let stencil = Neighbours4::new(h.grid(), ctx.grid())?;
        let gradient = gradient_on(h, &stencil);
        ctx.check()?;
        let share = |f: Option<&std::sync::Arc<Field>>, c: usize| f.map_or(0.0, |f| f.data()[c].clamp(0.0, 1.0));
        // Row by row, the filter in lanes of neighbouring cells.
        let w = stencil.out().row();
        let out = Field::from_rows_on(stencil.out(), |row, values| {
            let first = row * w;
            // Inside a tile the row's cells lie side by side in the input.
            let (cells, points): (Vec<usize>, std::borrow::Cow<[glam::Vec3]>) = match stencil.straight_run(first, values.len()) {
                Some((c, _)) => ((c..c + values.len()).collect(), std::borrow::Cow::Borrowed(&stencil.directions()[c..c + values.len()])),
                None => {
                    let cells: Vec<usize> = (first..first + values.len()).map(|k| stencil.at(k).0).collect();
                    let points = cells.iter().map(|&c| stencil.direction(c)).collect();
                    (cells, std::borrow::Cow::Owned(points))
                }
            };
            let gradients: Vec<glam::Vec3> = gradient.data[first..first + values.len()].iter().map(|&g| glam::Vec3::from(g)).collect();
            let water: Vec<PointWater> = cells.iter().map(|&c| PointWater { river: share(rivers, c), scale: (1.0 - share(lakes, c)) * mask.map_or(1.0, |m| m.data()[c].clamp(0.0, 1.0)) }).collect();
            filter.at_row(&points, &gradients, &water, values);
            for (v, &c) in values.iter_mut().zip(&cells) {
                let h0 = h.data()[c];
                let mut change = *v;
                if h0 < planet.sea_level {
                    change *= smoothstep(0.0, SHORE_FADE_M, -planet.to_metres(h0));
                }
                *v = keep_coast(h0, h0 + change, planet.sea_level);
            }
        });
        ctx.check()?;
        Ok(vec![out.into()])
    }

    /// The gradient reads the four neighbours of a cell.
    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Halo(1)
    }
}

/// Depth over which the gullies of the sea floor fade out towards the shore, m: the floor near
/// the coast stays the input's, so the coastline is a smooth line where the input's ground
/// crosses sea level rather than a band of ground hovering at sea level.
pub const SHORE_FADE_M: f32 = 200.0;

/// The coastline stays where the input has it (`h0`, changed to `out`, sea level `sea`): ground
/// at or above sea level stays above it, the sea floor below it. A change of up to half the
/// distance to sea level is kept, a larger one approaches sea level smoothly and never crosses
/// it. Gullies cut into coastal lowlands would otherwise flood as scattered pools of sea, and
/// spurs on a shallow shelf would rise as islands; and as a close-up's tiles of different
/// levels resolve different octaves, the coast would jump along their straight borders. In
/// the elevation's units.
pub fn keep_coast(h0: f32, out: f32, sea: f32) -> f32 {
    // Distance to sea level and the change towards it, both positive on the way to the coast.
    let (to_sea, towards) = if h0 >= sea { (h0 - sea, h0 - out) } else { (sea - h0, out - h0) };
    let half = 0.5 * to_sea;
    if towards <= half {
        return out;
    }
    if half <= 0.0 {
        // Ground at sea level: the coastline itself, left where it is.
        return h0;
    }
    let kept = half + half * (1.0 - (-(towards - half) / half).exp());
    if h0 >= sea {
        h0 - kept
    } else {
        h0 + kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::output::planet::PlanetSettings;
    use crate::nodes::NodeKind;
    use std::sync::atomic::AtomicBool;

    fn planet() -> PlanetSettings {
        PlanetSettings::from_params(&NodeKind::Planet.default_params()).expect("defaults")
    }

    #[test]
    fn the_coastline_stays_and_small_changes_are_kept() {
        let sea = 0.1;
        // Changes of up to half the way to sea level, and changes away from it: unchanged.
        assert_eq!(keep_coast(0.5, 0.4, sea), 0.4);
        assert_eq!(keep_coast(0.5, 0.6, sea), 0.6);
        assert_eq!(keep_coast(-0.5, -0.6, sea), -0.6);
        assert_eq!(keep_coast(-0.5, -0.3, sea), -0.3);
        // Deep cuts into land and high spurs on the sea floor approach sea level, never cross
        // it, and a larger change stays larger.
        for (h0, sign) in [(0.6f32, -1.0f32), (-0.4, 1.0)] {
            let mut last = h0;
            for change in [0.26, 0.3, 0.4, 0.8, 1.5] {
                let out = keep_coast(h0, h0 + sign * change, sea);
                assert!((out - sea) * (h0 - sea) > 0.0 && (out - last) * sign > 0.0, "{h0} changed by {change}: {out}");
                last = out;
            }
            // However large, at most to sea level (to the last bit).
            assert!((keep_coast(h0, h0 + sign * 1e6, sea) - sea) * (h0 - sea) >= 0.0);
            // Continuous where the compression starts.
            let at = h0 + sign * (0.25 + 1e-4);
            assert!((keep_coast(h0, at, sea) - at).abs() < 1e-3);
        }
        assert_eq!(keep_coast(sea, sea - 0.3, sea), sea, "ground at sea level is the coastline, not cut");
    }

    fn run_at(n: usize, input: Field) -> Result<Field, OpError> {
        run_with(n, input, &NodeKind::ErosionFilter.default_params())
    }

    fn run_with(n: usize, input: Field, params: &crate::nodes::ParamMap) -> Result<Field, OpError> {
        let cancel = AtomicBool::new(false);
        let p = planet();
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(&p), files: &[] };
        let out = NodeKind::ErosionFilter.run(params, &[Some(input.into()), None, None, None], &ctx)?;
        Ok(out[0].as_field().expect("a field").as_ref().clone())
    }

    /// A slope gets gullies at a level that resolves them; a flat stays flat without a flat-ground
    /// slope; NaN is an error.
    #[test]
    fn slopes_get_gullies_flats_do_not_and_nan_is_reported() {
        let n = 2048;
        let tilt = Field::from_fn_dir(n, |d| 0.5 * d.y);
        let out = run_at(n, tilt.clone()).expect("runs");
        let changed = out.data().iter().zip(tilt.data()).filter(|(a, b)| a != b).count();
        assert!(changed > out.data().len() / 2, "{changed} cells changed");
        let mut flat_ground = NodeKind::ErosionFilter.default_params();
        flat_ground.insert(ErosionFilterSettings::KEYS.flat_slope_deg.into(), crate::nodes::ParamValue::Float(0.0));
        let flat = run_with(n, Field::filled(n, 0.3), &flat_ground).expect("runs");
        assert!(flat.data().iter().all(|&v| v == 0.3));
        let mut bad = Field::filled(16, 0.3);
        bad.data_mut()[40] = f32::NAN;
        // No NaN leaves a node (the runner's check of every output names the place).
        let err = run_at(16, bad).expect_err("NaN");
        assert!(err.to_string().contains("non-finite value") && err.to_string().contains("latitude"), "{err}");
    }

    /// On a tile (given with its halo) the node gives the whole planet's values, across face
    /// edges and corners, at a level that resolves its octaves (the registry-wide region test
    /// runs at a level too coarse for the default spacing).
    #[test]
    fn a_tile_holds_the_whole_planet_s_gullies() {
        let kind = NodeKind::ErosionFilter;
        let mut params = kind.default_params();
        params.insert(ErosionFilterSettings::KEYS.spacing_km.into(), crate::nodes::ParamValue::Float(2000.0));
        let n = 48;
        let relief = |d: glam::Vec3| 0.3 * (3.0 * d.x).sin() + 0.2 * (2.0 * d.y + d.z).cos();
        let cancel = AtomicBool::new(false);
        let p = planet();
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(&p), files: &[] };
        let input = Field::from_fn_dir(n, relief);
        let whole = kind.run(&params, &[Some(input.clone().into()), None, None, None], &ctx).expect("runs");
        let whole = whole[0].as_field().expect("a field");
        assert!(whole.data() != input.data(), "the level resolves gullies");
        for tile in [crate::planet::Tile::new(crate::planet::Face::Back, n, 40, 3, 8), crate::planet::Tile::new(crate::planet::Face::Top, n, 0, 0, 6)] {
            let tile = tile.expect("tile");
            let on_tile: Value = Field::from_fn_on(Grid::Tile(tile.with_halo(1)), |_, d| relief(d)).into();
            let ctx = OpContext { tile: Some(tile), ..ctx };
            let out = kind.run(&params, &[Some(on_tile), None, None, None], &ctx).expect("runs");
            let out = out[0].as_field().expect("a field");
            for k in 0..tile.cells() {
                assert_eq!(out.data()[k], whole.data()[tile.cell(k).index(n)], "cell {k} of {tile:?}");
            }
        }
    }
}
