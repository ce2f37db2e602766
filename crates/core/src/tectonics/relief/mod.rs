//! Earth-like relief from plates (beyond seed 000; `ALGORITHMS.md` section 13): continents
//! that are a shape of their own carried by the plates, ocean floor that deepens with age away
//! from the ridges, boundary features by the crust on each side, hotspot chains, and the rock
//! uplift that drives the landscape evolution node.
//!
//! Everything is computed per cell from directions and great-circle distances, so nothing
//! follows the region cells or the cube's edges: plates are looked up through a noise warp
//! (their borders are not the regions' straight Voronoi edges), and each boundary feature
//! is a profile of the distance to the nearest boundary point *of its kind*, so a feature
//! fades around the end of its boundary instead of being cut off, and features of different
//! kinds add where boundaries meet.

pub mod belts;
pub mod crust;
mod figures;
pub mod hotspots;
mod lookup;
mod noise;
pub mod ocean;

use super::boundary::{classify, other_plate, region_boundary_values, BoundaryClass};
use super::motion::{BaseElevation, PlateMotion};
use super::plates::{Plates, UNCLAIMED};
use crate::planet::diffusion::blur;
use crate::planet::distance::{cell_dirs, nearest_points, signed_distance_km, NONE};
use crate::planet::pipes::pipes4;
use crate::planet::smoothstep;
use crate::planet::SimError;
use crate::planet::{Cell, Field, VectorField};
use belts::{feature, BeltHeights, Role};
use crust::{margin_profile, Margin};
use figures::*;
use glam::Vec3;
use hotspots::HotspotSettings;
use noise::{CellNoise, SurfaceNoise};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Cells closer than this to the coast on the sea side still count as continental crust
/// (the shelf), km.
pub const CRUST_SHELF_KM: f32 = 120.0;

/// Parameters of [`earth_relief`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReliefSettings {
    /// Random seed (continents, motion, hotspots, noise).
    pub seed: u32,
    /// Share of the planet's area that is land, 0..1 (Earth: 0.29).
    pub land_fraction: f32,
    /// Continental cores (1..8): the largest holds about 40 % of the land, as Afro-Eurasia.
    pub continents: usize,
    /// Features of the coastline noise around the equator (larger: more broken coasts and
    /// more islands).
    pub coast_frequency: f32,
    /// Speed of a plate's centre at the fastest draw, cm/yr (plates move at 0.5..1 times it).
    pub plate_speed_cm_yr: f32,
    /// How far plate borders wander from the region cells' edges, in region widths.
    pub boundary_warp: f32,
    /// Heights of the boundary features.
    pub heights: BeltHeights,
    /// Hotspot chains.
    pub hotspots: HotspotSettings,
    /// Strength of the small-scale relief noise (1 = default).
    pub detail: f32,
    /// Height the uplands of the interiors stand above the plains, m.
    pub upland_height_m: f32,
    /// Rock uplift of the uplands, mm/yr (what lets the landscape evolution dissect them).
    pub upland_uplift_mm_yr: f32,
    /// Erodibility of a plateau's dry interior, relative to the rest of the land (0..1).
    pub plateau_erodibility: f32,
    /// How much the rock's strength varies on land (0: one rock everywhere): the erodibility
    /// is multiplied by `2^(2 rock_variation v)` with `v` a noise of about -0.6..0.6 in patches
    /// of `ROCK`'s size (see [`rock_factor`]).
    pub rock_variation: f32,
    /// Metres of elevation 1 (the Planet node's highest peak).
    pub max_elevation_m: f32,
    /// Metres below sea level of elevation -1 (the Planet node's deepest ocean).
    pub max_depth_m: f32,
    /// Planet radius, km.
    pub radius_km: f32,
}

impl ReliefSettings {
    /// The defaults, which the node's parameters also start from (one source of truth).
    pub const DEFAULT: ReliefSettings = ReliefSettings {
        seed: 1,
        land_fraction: 0.29,
        continents: 6,
        coast_frequency: 3.0,
        plate_speed_cm_yr: 5.0,
        boundary_warp: 0.6,
        heights: BeltHeights { trench_m: 3500.0, cordillera_m: 3000.0, island_arc_m: 4200.0, collision_m: 3400.0, plateau_m: 5400.0, rift_m: 1200.0 },
        hotspots: HotspotSettings { count: 14, height_m: 4800.0, radius_km: 40.0, decay_myr: 25.0, chain_myr: 60.0, step_myr: 3.5 },
        detail: 1.0,
        upland_height_m: 300.0,
        upland_uplift_mm_yr: 0.2,
        plateau_erodibility: 0.01,
        rock_variation: 0.0,
        max_elevation_m: 6000.0,
        max_depth_m: 11000.0,
        radius_km: 6371.0,
    };
}

impl Default for ReliefSettings {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Everything the Earth-like relief outputs, at one resolution.
#[derive(Debug, Clone)]
pub struct ReliefSurface {
    /// Elevation on the graph's scale (metres over `max_elevation_m` above sea level, over
    /// `max_depth_m` below), -1..1.
    pub elevation: Field,
    /// Age of the ocean floor, Myr (continental crust reads as the oldest, 180 Myr).
    pub age_myr: Field,
    /// Rock uplift, mm/yr.
    pub uplift_mm_yr: Field,
    /// Relative erodibility for landscape evolution: 1, lower in the dry interiors of plateaus
    /// (down to the settings' `plateau_erodibility`).
    pub erodibility: Field,
    /// Continental crust: 1 on land and shelf, falling to 0 over the continental slope.
    pub crust: Field,
    /// Plate index per cell (-1 where unclaimed).
    pub plate_id: Field,
    /// Plate velocity per cell (tangent; planet radii per time unit).
    pub motion: VectorField,
}

/// One boundary cell, as seen from its own plate.
#[derive(Debug, Clone, Copy)]
struct Edge {
    cell: u32,
    /// A neighbour cell on the other plate.
    across: u32,
    other: u32,
    /// Relative speed towards each other, cm/yr (negative: parting).
    closing_cm_yr: f32,
    class: BoundaryClass,
}

/// The plate structure (boundaries, roles, ages) is built at most at this resolution and
/// sampled up: its features are tens of km wide or more, so a finer grid would only cost
/// memory. Coasts (in a band along the structure's coastline) and noise are computed at the
/// full resolution; plate ids come from the structure's nearest cell.
pub const STRUCTURE_N: usize = 512;

/// The plate structure at the structure resolution: per cell, ocean floor age and per
/// boundary role the distance to its nearest point and its intensity (NaN where the cell's
/// plate has no boundary of that role).
struct Structure {
    m: usize,
    age: Vec<f32>,
    roles: Vec<(Role, Vec<f32>, Vec<f32>)>,
    /// Plate per cell.
    plate: Vec<u32>,
    /// Signed coast distance, km.
    coast: Vec<f32>,
    /// The continent field's value at the coast.
    threshold: f32,
}

impl Structure {
    /// The plate under direction `d` (the structure cell's).
    fn plate_at(&self, d: Vec3) -> u32 {
        self.plate[crate::planet::dir_to_cell(d, self.m).index(self.m)]
    }
}

/// Builds the relief at `n` cells per face edge. Errs with `SimError::Cancelled` when cancelled.
pub fn earth_relief(plates: &Plates, s: &ReliefSettings, n: usize, cancel: &AtomicBool) -> Result<ReliefSurface, SimError> {
    let cancelled = || cancel.load(Ordering::Relaxed);
    let cells = 6 * n * n;
    let motion = PlateMotion::new(plates, BaseElevation::RandomRange(0.0), s.seed);
    let km = s.radius_km.max(1.0);
    let mut st = structure(plates, &motion, s, n.min(STRUCTURE_N), cancel)?;
    let coarse = st.m != n;
    let dirs = cell_dirs(n);
    // A coarse value at a fine cell: bilinear over the finite taps (the taps are found once
    // per cell and shared by every coarse field).
    let sample = |values: &[f32], c: usize, taps: &Option<[(usize, f32); 4]>| -> f32 {
        let Some(taps) = taps else {
            return values[c];
        };
        let (mut acc, mut w) = (0.0, 0.0);
        for &(k, t) in taps {
            if values[k].is_finite() {
                acc += values[k] * t;
                w += t;
            }
        }
        if w > 1e-6 {
            acc / w
        } else {
            f32::NAN
        }
    };

    // Above the structure resolution the coast is swept again only in a band along the
    // structure's coastline (its continent field is the same function, so the threshold carries
    // over), and blends into the structure's distance across the band's outer half.
    let band_km = 4.0 * std::f32::consts::FRAC_PI_2 / st.m as f32 * km;
    let coarse_coast: Vec<f32> = if coarse { (0..cells).into_par_iter().map(|c| sample(&st.coast, c, &Some(Field::bilinear_taps(st.m, dirs[c])))).collect() } else { Vec::new() };
    let coast = if coarse {
        let near = |c: usize| coarse_coast[c].abs() < band_km;
        // The continent field where the sweep reads it: the band's cells and their
        // neighbours (NaN elsewhere, never read).
        let table = pipes4(n);
        let wanted: Vec<u32> = (0..cells).into_par_iter().filter(|&c| near(c) || table.to[c].iter().any(|&k| near(k as usize))).map(|c| c as u32).collect();
        let values = crust::continent_field(&wanted.iter().map(|&c| dirs[c as usize]).collect::<Vec<_>>(), s.continents, s.land_fraction, s.coast_frequency, s.seed);
        let mut field = vec![f32::NAN; cells];
        for (&c, v) in wanted.iter().zip(values) {
            field[c as usize] = v;
        }
        let fine = signed_distance_km(n, &dirs, &field, st.threshold, km, &near, cancel)?;
        fine.iter().zip(&coarse_coast).map(|(&f, &d)| if f.is_finite() { f + (d - f) * smoothstep((d.abs() - 0.5 * band_km) / (0.5 * band_km)) } else { d }).collect()
    } else {
        std::mem::take(&mut st.coast)
    };
    drop(coarse_coast);
    let cell_plate: Vec<u32> = if coarse { dirs.par_iter().map(|&d| st.plate_at(d)).collect() } else { st.plate.clone() };
    drop(dirs);
    if cancelled() {
        return Err(SimError::Cancelled);
    }
    let continental = |c: usize| coast[c] > -CRUST_SHELF_KM;
    // Noise: continental interiors, along-strike variation, mountain texture, fine detail
    // (cached at the editor's resolutions: the plates do not change it).
    let noise = SurfaceNoise::new(s);
    let shared = noise.shared(s, n, &coast);
    let surface_at = |c: usize, x: Vec3, z: &CellNoise| -> (f32, f32, f32, f32) {
        let d = coast[c];
        let taps = coarse.then(|| Field::bilinear_taps(st.m, x));
        let age = sample(&st.age, c, &taps);
        let age = if age.is_finite() { age } else { OLD_FLOOR_MYR };
        let floor = -ocean::depth_m(age) + ocean::sediment_uplift_m(age) + ABYSSAL_HILLS_M * (1.0 - age / HILLS_BURIED_MYR).max(HILLS_LEAST_SHARE) * z.hills;
        let mut h = if d >= 0.0 {
            let inland = INTERIOR_LOW_M + INTERIOR_SPREAD_M * (0.5 + z.interior);
            COAST_M + (inland - COAST_M) * smoothstep(d / INLAND_RISE_KM)
        } else {
            let margin = Margin { shelf_km: (SHELF_KM.0 + SHELF_KM.1 * age).min(SHELF_MAX_KM), slope_km: CONTINENTAL_SLOPE_KM, rise_km: CONTINENTAL_RISE_KM };
            margin_profile(-d, floor, &margin)
        };
        let mut uplift = 0.0;
        let strike = (1.0 + STRIKE.0 * z.along).max(STRIKE.2);
        let widen = (1.0 + WIDTH.0 * z.width).max(WIDTH.2);
        let texture = {
            let r = 1.0 - z.ridged.abs() * RIDGES.1;
            RIDGES.2 + RIDGES.3 * r.max(0.0).powi(2)
        };
        // Orogens fade where their side of the boundary is ocean.
        let on_land = smoothstep((d + OROGEN_FADE_KM) / OROGEN_FADE_KM);
        let mut orogen = 0.0f32;
        let (mut dry, mut belt, mut rift) = (0.0f32, 0.0f32, 0.0f32);
        for (role, dist, intensity) in &st.roles {
            let (dist, f) = (sample(dist, c, &taps), sample(intensity, c, &taps));
            if !f.is_finite() || !dist.is_finite() {
                continue;
            }
            let feat = feature(*role, dist, f, widen, &s.heights);
            if *role == Role::Rift {
                rift = rift.max(f.min(1.0) * smoothstep(1.0 - dist / UPLANDS.rift_clear_km));
            }
            let land_weight = match role {
                Role::Collision | Role::Plateau | Role::Cordillera => on_land,
                _ => 1.0,
            };
            let raised = feat.textured_m * texture * strike * land_weight;
            match role {
                // Belt and plateau do not stack: the higher one shapes the ground.
                // A plateau varies less along the belt than the range (Tibet is flat).
                Role::Collision => orogen = orogen.max(raised + feat.smooth_m * land_weight * strike.clamp(COLLISION_STRIKE.0, COLLISION_STRIKE.1)),
                Role::Plateau => orogen = orogen.max(raised + feat.smooth_m * land_weight * strike.clamp(PLATEAU_STRIKE.0, PLATEAU_STRIKE.1)),
                _ => h += raised + feat.smooth_m,
            }
            uplift += feat.uplift_mm_yr * land_weight;
            dry = dry.max(feat.dry * land_weight);
            belt = belt.max(feat.belt);
        }
        h += orogen;
        if d >= 0.0 {
            // Uplands: old orogens and swells of the interiors, raised slowly, which the
            // landscape evolution dissects into hills; the basins between stay plains, and
            // plateaus, collision belts and rift valleys keep their own shapes. Plateaus'
            // dry interiors get their own slow uplift instead (`PLATEAU_UPLIFT_MM_YR`).
            let raised = smoothstep((z.uplands - UPLANDS.threshold) / UPLANDS.ramp) * smoothstep(d / UPLANDS.inland_km) * (1.0 - dry) * (1.0 - belt) * (1.0 - rift);
            h += s.upland_height_m * raised;
            uplift += s.upland_uplift_mm_yr * raised + PLATEAU_UPLIFT_MM_YR * dry;
        }
        if d > -CRUST_SHELF_KM {
            h += s.detail * (DETAIL.0 + DETAIL.1 * h.max(0.0)) * z.detail;
        }
        // Rock patches on the continents (no noise evaluated without rock variation).
        let rock_erodibility = if d > -CRUST_SHELF_KM && s.rock_variation > 0.0 { rock_factor(s.rock_variation, z.rock) } else { 1.0 };
        let erodibility = (1.0 - (1.0 - s.plateau_erodibility) * dry * (1.0 - belt)) * rock_erodibility;
        (h, uplift, if continental(c) { ocean::MAX_AGE_MYR } else { age }, erodibility)
    };
    // Row by row, the noises of a row evaluated together where the cache does not hold them.
    let table = crate::planet::cell_directions::CellDirections::new(crate::planet::Grid::Whole(n));
    let surface: Vec<(f32, f32, f32, f32)> = (0..6 * n)
        .into_par_iter()
        .flat_map_iter(|row| {
            let cells = row * n..(row + 1) * n;
            let xs = table.row(crate::planet::Grid::Whole(n), row);
            let evaluated;
            let z_row: &[CellNoise] = match &shared {
                Some(all) => &all[cells.clone()],
                None => {
                    evaluated = noise.row(&xs, &coast[cells.clone()]);
                    &evaluated
                }
            };
            cells.zip(xs.iter().zip(z_row)).map(|(c, (&x, z))| surface_at(c, x, z)).collect::<Vec<_>>()
        })
        .collect();
    if cancelled() {
        return Err(SimError::Cancelled);
    }
    let mut elevation_m: Vec<f32> = surface.iter().map(|x| x.0).collect();
    let uplift: Vec<f32> = surface.iter().map(|x| x.1).collect();
    let age_out: Vec<f32> = surface.iter().map(|x| x.2).collect();
    let erodibility: Vec<f32> = surface.iter().map(|x| x.3).collect();
    drop(surface);

    // Hotspot chains: full height on the ocean floor, damped on continents.
    let km_per_myr = 10.0 * s.plate_speed_cm_yr;
    let volcanoes = hotspots::chains(&s.hotspots, &motion.omega, km_per_myr, km, s.seed, |d| st.plate_at(d));
    hotspots::add_volcanoes(&mut elevation_m, n, &volcanoes, km, |c| 1.0 - VOLCANO_DAMPING * smoothstep((coast[c] + CRUST_SHELF_KM) / CRUST_SHELF_KM));

    let (top, deep) = (s.max_elevation_m.max(1.0), s.max_depth_m.max(1.0));
    let elevation: Vec<f32> = elevation_m.iter().map(|&m| if m >= 0.0 { (m / top).min(1.0) } else { (m / deep).max(-1.0) }).collect();
    let crust: Vec<f32> = coast.iter().map(|&d| smoothstep((d + CRUST_SHELF_KM + CONTINENTAL_SLOPE_KM) / CONTINENTAL_SLOPE_KM)).collect();
    let plate_id: Vec<f32> = cell_plate.iter().map(|&p| if p == UNCLAIMED { -1.0 } else { p as f32 }).collect();
    let motion_field = VectorField { n, tile: None, data: (0..cells).into_par_iter().map(|c| if cell_plate[c] == UNCLAIMED { [0.0; 3] } else { motion.velocity(cell_plate[c] as usize, Cell::from_index(c, n).direction(n)).to_array() }).collect() };
    Ok(ReliefSurface {
        elevation: Field::from_vec(n, elevation)?,
        age_myr: Field::from_vec(n, age_out)?,
        uplift_mm_yr: Field::from_vec(n, uplift)?,
        erodibility: Field::from_vec(n, erodibility)?,
        crust: Field::from_vec(n, crust)?,
        plate_id: Field::from_vec(n, plate_id)?,
        motion: motion_field,
    })
}

/// The factor of the erodibility where the rock noise is `v` (about -0.6..0.6) for a rock
/// variation of `variation`: `2^(2 variation v)`, so at 1 the rock is up to about 2.3 times
/// harder or softer than the mean. Resistant patches stand out as massifs and inselbergs with
/// concave footslopes where the weaker rock around them wears down (differential erosion).
pub fn rock_factor(variation: f32, v: f32) -> f32 {
    (2.0 * variation.max(0.0) * v).exp2()
}

/// Age given to the floor of a plate without a ridge, Myr.
const OLD_FLOOR_MYR: f32 = 150.0;

/// The plate structure at resolution `m`.
fn structure(plates: &Plates, motion: &PlateMotion, s: &ReliefSettings, m: usize, cancel: &AtomicBool) -> Result<Structure, SimError> {
    let cells = 6 * m * m;
    let km = s.radius_km.max(1.0);
    let dirs = cell_dirs(m);
    let looked = lookup::regions_and_plates(plates, s, m, &dirs);
    let cell_region: Vec<u32> = looked.iter().map(|x| x.0).collect();
    let cell_plate: Vec<u32> = looked.iter().map(|x| x.1).collect();
    drop(looked);
    if cancel.load(Ordering::Relaxed) {
        return Err(SimError::Cancelled);
    }
    let cont = crust::continents_shared(m, &dirs, s.land_fraction, s.continents, s.coast_frequency, s.seed, km, cancel)?;
    let (coast, threshold) = (cont.coast_km.clone(), cont.threshold);
    let continental = |c: usize| coast[c] > -CRUST_SHELF_KM;
    // Boundary cells with the smoothed relative motion of their regions.
    let regions = &plates.regions;
    let r_scale = regions.resolution() as f32 / SMOOTHING.0;
    let values = region_boundary_values(plates, motion, (SMOOTHING.1 * r_scale * r_scale).round() as usize);
    let table = pipes4(m);
    let edges: Vec<Edge> = (0..cells)
        .into_par_iter()
        .filter_map(|c| {
            let a = cell_plate[c];
            if a == UNCLAIMED {
                return None;
            }
            let nb = &table.to[c];
            let (other, across) = other_plate(nb, &cell_plate, a)?;
            // The boundary values of a border region of either plate here (the closing and
            // shear speeds are the same seen from both sides); a boundary the regions do not
            // see (the vote moved it) seeds nothing.
            let v = std::iter::once(c).chain(nb.iter().map(|&k| k as usize)).map(|k| cell_region[k] as usize).find(|&r| plates.is_border[r] && (plates.plate_of[r] == a || plates.plate_of[r] == other)).map(|r| values[r])?;
            Some(Edge { cell: c as u32, across, other, closing_cm_yr: v[1] * s.plate_speed_cm_yr, class: classify(v[1], v[2]) })
        })
        .collect();
    if cancel.load(Ordering::Relaxed) {
        return Err(SimError::Cancelled);
    }

    // Ocean floor age from the distance to the plate's own ridges.
    let group: &[u32] = &cell_plate;
    // The boundary cells of edges `keep` accepts (by index) as seeds.
    let seeds_of = |keep: &dyn Fn(usize) -> bool| {
        let mut seed_of = vec![NONE; cells];
        let mut points = Vec::new();
        let mut picked = Vec::new();
        for (_, e) in edges.iter().enumerate().filter(|(i, _)| keep(*i)) {
            seed_of[e.cell as usize] = points.len() as u32;
            points.push(dirs[e.cell as usize]);
            picked.push(*e);
        }
        (seed_of, points, picked)
    };
    let (ridge_seeds, ridge_points, ridges) = seeds_of(&|i| edges[i].class == BoundaryClass::Divergent);
    let ridge = nearest_points(m, &dirs, &ridge_seeds, &ridge_points, group, plates.count(), cancel)?;
    let half_rate: Vec<f32> = ridge.point.iter().map(|&p| if p == NONE { f32::NAN } else { 0.5 * (-ridges[p as usize].closing_cm_yr).max(SLOWEST_SPREADING_CM_YR) }).collect();
    let half_rate = masked_blur(m, &half_rate, HALF_RATE_BLUR_DEG, cancel)?;
    let age: Vec<f32> = (0..cells)
        .into_par_iter()
        .map(|c| {
            let a = ridge.angle(c);
            if a.is_finite() && half_rate[c].is_finite() {
                ocean::age_myr(a * km, half_rate[c])
            } else {
                OLD_FLOOR_MYR
            }
        })
        .collect();
    if cancel.load(Ordering::Relaxed) {
        return Err(SimError::Cancelled);
    }

    // Boundary roles from the crust on both sides, and per role the nearest point and intensity.
    let role_of = |e: &Edge| -> [Option<Role>; 2] {
        let (c, x) = (e.cell as usize, e.across as usize);
        let own = cell_plate[c];
        match e.class {
            BoundaryClass::Transform => [None, None],
            BoundaryClass::Divergent => [continental(c).then_some(Role::Rift), None],
            BoundaryClass::Convergent => match (continental(c), continental(x)) {
                (true, true) => [Some(Role::Collision), (own > e.other).then_some(Role::Plateau)],
                (false, true) => [Some(Role::Trench), None],
                (true, false) => [Some(Role::Cordillera), None],
                (false, false) => {
                    let dives = age[c] > age[x] || (age[c] == age[x] && own < e.other);
                    [Some(if dives { Role::Trench } else { Role::IslandArc }), None]
                }
            },
        }
    };
    let edge_roles: Vec<[Option<Role>; 2]> = edges.iter().map(role_of).collect();
    let mut roles: Vec<(Role, Vec<f32>, Vec<f32>)> = Vec::new();
    for role in Role::ALL {
        let (seed_of, points, picked) = seeds_of(&|i| edge_roles[i].contains(&Some(role)));
        if picked.is_empty() {
            continue;
        }
        let near = nearest_points(m, &dirs, &seed_of, &points, group, plates.count(), cancel)?;
        let intensity: Vec<f32> = near.point.iter().map(|&p| if p == NONE { f32::NAN } else { (picked[p as usize].closing_cm_yr.abs() / INTENSITY.0).min(INTENSITY.1) }).collect();
        let intensity = masked_blur(m, &intensity, INTENSITY_BLUR_DEG, cancel)?;
        let dist: Vec<f32> = (0..cells).map(|c| near.angle(c) * km).collect();
        roles.push((role, dist, intensity));
    }
    if cancel.load(Ordering::Relaxed) {
        return Err(SimError::Cancelled);
    }

    Ok(Structure { m, age, roles, plate: cell_plate, coast, threshold })
}

/// Blurs the finite values of `values` over `radius_deg` degrees, ignoring the non-finite
/// ones (normalised convolution); cells that held no value stay NaN.
fn masked_blur(n: usize, values: &[f32], radius_deg: f32, cancel: &AtomicBool) -> Result<Vec<f32>, SimError> {
    let weight = Field::from_vec(n, values.iter().map(|v| if v.is_finite() { 1.0 } else { 0.0 }).collect())?;
    let weighted = Field::from_vec(n, values.iter().map(|v| if v.is_finite() { *v } else { 0.0 }).collect())?;
    let (w, v) = (blur(&weight, radius_deg, cancel)?, blur(&weighted, radius_deg, cancel)?);
    Ok(values.iter().zip(w.data().iter().zip(v.data())).map(|(orig, (&w, &v))| if orig.is_finite() && w > 1e-6 { v / w } else { f32::NAN }).collect())
}

#[cfg(test)]
mod tests;
