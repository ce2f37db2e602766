//! Landscape evolution on the whole cube-sphere: tectonic uplift against fluvial incision by
//! the stream-power law and hillslope diffusion,
//! `dh/dt = U - K A^m S^n + D lap(h)`,
//! solved with the implicit scheme of Braun and Willett (2013): every step routes the water
//! (receivers by steepest descent across seams, over depressions to the sea), sums the drainage
//! area down the receivers and updates the heights from the outlets upwards, so a step costs a
//! constant per cell and any time step is stable.
//!
//! **Depressions.** The routing is a priority flood from the coasts (a monotone radix queue,
//! near-linear): each cell's receiver is its steepest downhill neighbour on the water surface
//! among the cells the flood has already taken, so water crosses closed basins over their sills
//! and no basin traps erosion. With lakes on, a basin's floor stays below its sill (no incision
//! below the water); with lakes off, basins fill with sediment every step. The sea is the ocean
//! ([`solver::ocean_cells`]): ground below sea level away from it is an inland basin, routed
//! like any other.
//!
//! **Coarse to fine.** The simulated time is spent at [`BASE`] cells per face edge (or the
//! requested resolution when it is lower). Each finer level, doubling up to the requested one,
//! starts from the coarser result upsampled plus the detail of the input elevation that the
//! coarser level could not hold (with lakes on, only the coarser level's lakes stay lakes: other
//! depressions fill), and runs [`FINE_STEPS`] steps over [`level_years`] (from
//! [`LandscapeSettings::level_myr`], less at each level after the first finer one): time for the hillslopes and channels that the finer cells
//! can hold to grow their relief (new interfluves rise with the uplift until their own, steeper,
//! steady slopes, while the rivers keep theirs). So a preview at 128 and a build at 4096 share
//! the river network and ranges of the 128 run, the build carries the relief of its own cells,
//! and the cost is proportional to the cells of the finest level (each level has four times the
//! cells of the one before).
//!
//! Units: elevation in and out in the graph's units (`metres_per_unit` metres each, relative
//! to `sea_level`); inside, metres above sea level and years.

pub mod analysis;
pub mod grid;
pub mod lakes;
pub mod refine;
pub mod routing;
pub mod solver;

use super::SECONDS_PER_YEAR;
use crate::planet::{Field, SimError};
use grid::{Grid, NONE};
use rayon::prelude::*;
use solver::{Level, Physics};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Cells per face edge where the simulated time is spent.
pub const BASE: usize = 128;
/// Steps at each level finer than [`BASE`].
pub const FINE_STEPS: usize = 5;
/// The longest time step, years.
pub const MAX_DT_YR: f64 = 1e5;
/// The fewest and most steps at the base level.
pub const BASE_STEPS: (usize, usize) = (10, 500);
/// Depth of water over the ground from which a filled depression counts as a lake, m.
pub const LAKE_DEPTH_M: f32 = 1.0;

/// Parameters of a landscape evolution run.
#[derive(Debug, Clone, PartialEq)]
pub struct LandscapeSettings {
    /// Simulated time at the base level, millions of years.
    pub time_myr: f64,
    /// Simulated time at each level finer than the base, millions of years (in
    /// [`FINE_STEPS`] steps; 0 runs none).
    pub level_myr: f64,
    /// Share of the time of the level before that each level after the first finer one gets
    /// ([`level_years`]), 0.1..1.
    pub level_ratio: f64,
    /// Uplift of an uplift input value of 1, mm per year.
    pub uplift_mm_yr: f64,
    /// Uplift of every cell that starts as land, on top of the input's, mm per year
    /// (continental uplift and isostatic rebound).
    pub land_uplift_mm_yr: f64,
    /// Erodibility K, m^(1-2m) per year.
    pub k: f64,
    /// Drainage-area exponent m (m / n is the concavity).
    pub m: f64,
    /// Slope exponent n.
    pub n: f64,
    /// Hillslope diffusivity, m² per year.
    pub diffusion: f64,
    /// Critical hillslope angle in degrees (landslides); 90 or more turns them off.
    pub critical_angle_deg: f64,
    /// Elevation input value of sea level.
    pub sea_level: f32,
    /// Metres of one unit of elevation.
    pub metres_per_unit: f32,
    /// Planet radius, km.
    pub radius_km: f64,
    /// Keep depressions as lakes (else fill them with sediment).
    pub lakes: bool,
    /// Drainage area from which a cell is a river, km².
    pub river_area_km2: f64,
    /// Least width the largest rivers are painted in the rivers mask ([`river_cover`]), m.
    pub river_lines_m: f32,
}

/// The fields a run reads, all of one resolution.
#[derive(Clone, Copy)]
pub struct LandscapeInputs<'a> {
    /// Initial elevation, graph units.
    pub elevation: &'a Field,
    /// Uplift, in units of [`LandscapeSettings::uplift_mm_yr`].
    pub uplift: Option<&'a Field>,
    /// Precipitation, mm per year (weights the drainage area).
    pub precipitation: Option<&'a Field>,
    /// Erodibility factor (multiplies K; 0 is unerodible rock).
    pub erodibility: Option<&'a Field>,
}

/// The result of [`evolve`], at the inputs' resolution.
#[derive(Debug, Clone)]
pub struct Landscape {
    /// Elevation, graph units.
    pub elevation: Field,
    /// Drainage area, km² (0 at sea).
    pub area_km2: Field,
    /// Mean discharge from the precipitation (1000 mm/yr without it), m³/s (0 at sea).
    pub discharge: Field,
    /// Where the drainage area reaches the river area (outside lakes and the sea), the share of
    /// the cell the river covers ([`river_cover`]), else 0.
    pub rivers: Field,
    /// 1 on lakes (water at least [`LAKE_DEPTH_M`] deep over the ground), else 0.
    pub lakes: Field,
    /// Change of elevation apart from uplift, m: negative where eroded, positive where
    /// deposited (lakes off).
    pub erosion_m: Field,
    /// Receiver of every land cell at the end ([`grid::NONE`] at sea).
    pub receiver: Vec<u32>,
    /// Distance to the receiver, m.
    pub receiver_m: Vec<f32>,
    /// Elevation at the end, m above sea level.
    pub height_m: Vec<f32>,
    /// Simulated time over all levels, years.
    pub total_years: f64,
    /// Sediment carried into the sea, m³ (all levels).
    pub to_sea_m3: f64,
    /// Sediment that filled depressions (lakes off), m³ (all levels).
    pub filled_m3: f64,
}

/// Cells per face edge of every level, coarsest first, ending at `n`.
pub fn levels(n: usize) -> Vec<usize> {
    let mut v = vec![n];
    while let Some(&last) = v.last() {
        if last <= BASE {
            break;
        }
        v.push(last.div_ceil(2).max(BASE));
    }
    v.reverse();
    v
}

/// Steps at the base level for a simulated time.
pub fn base_steps(time_myr: f64) -> usize {
    ((time_myr * 1e6 / MAX_DT_YR).ceil() as usize).clamp(BASE_STEPS.0, BASE_STEPS.1)
}

/// Steps at each level finer than the base for a simulated time per level.
pub fn fine_steps(level_myr: f64) -> usize {
    if level_myr > 0.0 {
        FINE_STEPS
    } else {
        0
    }
}

/// Simulated years at the finer level `index` (1 for the first level after the base):
/// [`LandscapeSettings::level_myr`] times [`LandscapeSettings::level_ratio`] for each level
/// after the first finer one. A hillslope's response time grows with the square of its length,
/// so the relief that a level's finer cells can hold grows in less time than the coarser
/// level's; with the same time at every level, each finer level of a 1024 build added relief
/// of its own and left the land rougher than Earth's at the same cells (`bench --earth`).
pub fn level_years(s: &LandscapeSettings, index: usize) -> f64 {
    s.level_myr * 1e6 * s.level_ratio.powi(index.saturating_sub(1) as i32)
}

/// Steps of a whole run at `n` cells per face edge (for progress).
pub fn total_steps(n: usize, time_myr: f64, level_myr: f64) -> usize {
    base_steps(time_myr) + (levels(n).len() - 1) * fine_steps(level_myr)
}

/// Runs the landscape evolution (see the module notes). `progress` counts the steps done.
pub fn evolve(inputs: LandscapeInputs, s: &LandscapeSettings, progress: &AtomicUsize, cancel: &AtomicBool) -> Result<Landscape, SimError> {
    let n = inputs.elevation.n();
    for (name, f) in [("uplift", inputs.uplift), ("precipitation", inputs.precipitation), ("erodibility", inputs.erodibility)] {
        if let Some(f) = f {
            if f.n() != n {
                return Err(SimError::Invalid(format!("{name} has {} cells per face edge, the elevation {n}", f.n())));
            }
        }
    }
    for (name, f) in [("elevation", Some(inputs.elevation)), ("uplift", inputs.uplift), ("precipitation", inputs.precipitation), ("erodibility", inputs.erodibility)] {
        if let Some(bad) = f.and_then(|f| f.data().iter().position(|v| !v.is_finite())) {
            return Err(SimError::Invalid(format!("{name} is not a finite number at cell {bad}")));
        }
    }
    let physics = Physics { k: s.k, m: s.m, n: s.n, diffusion: s.diffusion, max_slope: if s.critical_angle_deg >= 90.0 { f64::INFINITY } else { s.critical_angle_deg.to_radians().tan() }, lakes: s.lakes };
    let steps = base_steps(s.time_myr);
    let dt = s.time_myr * 1e6 / steps as f64;
    let scale = s.metres_per_unit;
    let (per_unit, land_uplift) = ((s.uplift_mm_yr / 1000.0) as f32, (s.land_uplift_mm_yr / 1000.0) as f32);
    let mut previous: Option<Finished> = None;
    let mut total_years = 0.0;
    let (mut to_sea, mut filled) = (0.0, 0.0);
    let all = levels(n);
    for (index, &ln) in all.iter().enumerate() {
        // Each input at this level's cells (resampled where it is finer) and in its units.
        let init = inputs.elevation.resample_map(ln, |_, v| (v - s.sea_level) * scale);
        // The coarser result where this level continues one (`None` at the first level).
        let mut coarse = None;
        let mut coarse_lakes = None;
        let h = match previous.take() {
            None => init.clone(),
            Some((pn, result, pinit, lakes)) => {
                let up = Field::from_vec(pn, result)?.resample(ln);
                // The coarser result plus the input's detail that the coarser level did not see.
                let h = Field::from_vec(pn, pinit)?.resample_map(ln, |c, p| up.data()[c] + (init[c] - p));
                coarse = Some(up);
                coarse_lakes = lakes.map(|l| Field::from_vec(pn, l).map(|f| f.resample_map(ln, |_, x| x >= 0.5))).transpose()?;
                h
            }
        };
        let on_land = |h: f32| if h >= 0.0 { land_uplift } else { 0.0 };
        let uplift: Vec<f32> = match inputs.uplift {
            Some(u) => u.resample_map(ln, |c, v| v * per_unit + on_land(init[c])),
            None => init.par_iter().map(|&h| on_land(h)).collect(),
        };
        let rain: Vec<f32> = match inputs.precipitation {
            Some(p) => p.resample_map(ln, |_, v| v.max(0.0) / 1000.0),
            None => vec![1.0; 6 * ln * ln],
        };
        let erodibility: Vec<f32> = match inputs.erodibility {
            Some(e) => e.resample_map(ln, |_, v| v.max(0.0)),
            None => vec![1.0; 6 * ln * ln],
        };
        let mut level = Level::new(Grid::shared(ln, s.radius_km), h, uplift, rain, erodibility);
        if let Some(up) = coarse {
            fill_sunk_land(&mut level, up.data());
        }
        level.lakes_allowed = coarse_lakes;
        let (level_steps, level_dt) = if index == 0 { (steps, dt) } else { (fine_steps(s.level_myr), level_years(s, index) / FINE_STEPS as f64) };
        for _ in 0..level_steps {
            if cancel.load(Ordering::Relaxed) {
                return Err(SimError::Cancelled);
            }
            level.step(level_dt, &physics);
            total_years += level_dt;
            progress.fetch_add(1, Ordering::Relaxed);
        }
        to_sea += level.to_sea_m3;
        filled += level.filled_m3;
        if index + 1 == all.len() {
            return finish(level, init, inputs, s, total_years, to_sea, filled);
        }
        // The lakes the next level may keep (none to keep with lakes off).
        let lakes = physics.lakes.then(|| {
            level.route();
            level.lake_cells(LAKE_DEPTH_M).into_par_iter().map(|x| if x { 1.0 } else { 0.0 }).collect()
        });
        previous = Some((ln, level.h, init, lakes));
    }
    Err(SimError::Invalid("internal: no level to run".into()))
}

/// A finished level that the next one continues: cells per face edge, its result (m), its
/// initial elevation (m) and, with lakes on, its lakes (1, else 0).
type Finished = (usize, Vec<f32>, Vec<f32>, Option<Vec<f32>>);

/// Ground that was land in the coarser level's result (`coarse`, m, at this level's cells) but
/// lies below sea level away from the ocean once the input's finer detail is added: raised to
/// sea level. The fine detail of the input (its relief before evolution) would otherwise sink
/// evolved lowland into hundreds of small closed hollows below sea level, which the coarser
/// level had filled or worn away. Inland basins the coarser level kept stay as they are.
fn fill_sunk_land(level: &mut Level, coarse: &[f32]) {
    let ocean = &level.ocean;
    level.h.par_iter_mut().zip(ocean.par_iter().zip(coarse)).for_each(|(h, (&ocean, &coarse))| {
        if *h < 0.0 && !ocean && coarse >= 0.0 {
            *h = 0.0;
        }
    });
}

/// Least share of a cell a river covers in the rivers mask: invisible, but above 0, so every
/// river cell stays marked for masks and for the refinement of finer grids.
pub const MIN_RIVER_COVER: f32 = 1e-3;

/// Discharge, m³/s, from which a river is painted wider than it is ([`river_cover`]).
pub const LINE_FROM_M3_S: f32 = 2000.0;
/// Discharge, m³/s, from which a river is painted the whole line width of [`river_cover`].
pub const LINE_FULL_M3_S: f32 = 100_000.0;

/// Share of a cell of `cell_area_m2` that a river carrying `discharge_m3_s` covers: its width
/// over the cell's width, at most 1 and at least [`MIN_RIVER_COVER`]. The width is the
/// river's own ([`refine::river_width_m`]), or for a large river at least `line_m` scaled from
/// 0 at [`LINE_FROM_M3_S`] to 1 at [`LINE_FULL_M3_S`] on a logarithmic scale. On cells of
/// 20 km (a 512 build of an Earth-sized planet) a 50 000 m³/s river about 900 m wide is a
/// 4 % tint at its own width, invisible from mid altitudes while the close-up tiles draw it
/// as a line; painted 8.2 km wide (a line width of 10 km) it covers 0.41 of its cells and
/// reads as a thin line, as the largest rivers do from orbit. The width is in metres, so a
/// preview's coarser cells show the same line, fainter, rather than a wider one.
pub fn river_cover(discharge_m3_s: f32, cell_area_m2: f32, line_m: f32) -> f32 {
    let ramp = ((discharge_m3_s.max(1.0) / LINE_FROM_M3_S).ln() / (LINE_FULL_M3_S / LINE_FROM_M3_S).ln()).clamp(0.0, 1.0);
    let width_m = refine::river_width_m(discharge_m3_s).max(line_m * ramp);
    (width_m / cell_area_m2.max(1.0).sqrt()).clamp(MIN_RIVER_COVER, 1.0)
}

/// The outputs from the finest level's final state, computed cell by cell in one pass on the
/// threads. They are written into buffers the level no longer needs (its rain, erodibility,
/// uplift, receivers and diffusion scratch, and the initial elevation `init_m`), which have
/// their memory already: fresh ones cost a page fault every 4 KiB (a tenth of a second of
/// system time at 1024).
fn finish(mut level: Level, init_m: Vec<f32>, inputs: LandscapeInputs, s: &LandscapeSettings, total_years: f64, to_sea_m3: f64, filled_m3: f64) -> Result<Landscape, SimError> {
    let n = level.grid.n;
    level.route();
    let areas = level.drainage_areas();
    let cells = level.grid.cells();
    // A dead buffer of the level as an output (every value is written below).
    let reuse = |v: Vec<f32>| if v.len() == cells { v } else { vec![0.0; cells] };
    let mut discharge = reuse(std::mem::take(&mut level.rain));
    let mut area_km2 = reuse(std::mem::take(&mut level.erodibility));
    let mut lakes = reuse(level.take_diffusion_scratch());
    let mut rivers = vec![0.0; cells];
    // Read and then overwritten, cell by cell: the uplift becomes the erosion, the initial
    // elevation the elevation, the receivers the receivers with the sea's taken off.
    let mut erosion_m = std::mem::take(&mut level.uplift);
    let mut elevation = init_m;
    let mut receiver = std::mem::take(&mut level.receiver);
    {
        let level = &level;
        let (scale, source) = (s.metres_per_unit, inputs.elevation.data());
        // Every output of one cell from its uplift (m/yr), initial elevation (m) and receiver:
        // discharge from the rain-weighted area (m³/s), the plain area (km²), lake, river
        // cover, erosion (m), elevation, receiver.
        let cell = |c: usize, uplift: f32, init: f32, down: u32| -> ([f32; 6], u32) {
            let (weighted, plain) = level.stack_position(c).map_or((0.0, 0.0), |p| areas[p]);
            let discharge = (weighted / SECONDS_PER_YEAR) as f32;
            let sea = level.is_sea(c);
            let lake = level.holds_lake(c, LAKE_DEPTH_M);
            let river = if !sea && !lake && plain / 1e6 >= s.river_area_km2 { river_cover(discharge, level.grid.area(c), s.river_lines_m) } else { 0.0 };
            let uplift_m = f64::from(uplift) * total_years;
            let erosion = (f64::from(level.h[c]) - f64::from(init) - uplift_m) as f32;
            // Unchanged cells keep their input value exactly.
            let elevation = if level.h[c] == init { source[c] } else { s.sea_level + level.h[c] / scale };
            ([discharge, (plain / 1e6) as f32, if lake { 1.0 } else { 0.0 }, river, erosion, elevation], if sea { NONE } else { down })
        };
        const PIECE: usize = 4096;
        let outputs = discharge.par_chunks_mut(PIECE).zip(area_km2.par_chunks_mut(PIECE)).zip(lakes.par_chunks_mut(PIECE)).zip(rivers.par_chunks_mut(PIECE)).zip(erosion_m.par_chunks_mut(PIECE)).zip(elevation.par_chunks_mut(PIECE));
        outputs.zip(receiver.par_chunks_mut(PIECE)).enumerate().for_each(|(k, ((((((q, a), l), r), e), h), rc))| {
            for o in 0..q.len() {
                ([q[o], a[o], l[o], r[o], e[o], h[o]], rc[o]) = cell(k * PIECE + o, e[o], h[o], rc[o]);
            }
        });
    }
    let [discharge, area_km2, lakes, rivers, erosion_m, elevation] = [discharge, area_km2, lakes, rivers, erosion_m, elevation].map(|v| Field::from_vec(n, v));
    Ok(Landscape { elevation: elevation?, area_km2: area_km2?, discharge: discharge?, rivers: rivers?, lakes: lakes?, erosion_m: erosion_m?, receiver, receiver_m: level.receiver_m, height_m: level.h, total_years, to_sea_m3, filled_m3 })
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
