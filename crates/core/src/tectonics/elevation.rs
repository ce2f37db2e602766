//! Elevation from plates (seed 000's four phases, reworked to keep its character at any
//! region resolution): plate base levels smoothed over the regions, boundary features with
//! widths in kilometres from a distance transform, 3D noise, mountain texture.

use super::boundary::{boundary_map, region_boundary_values, BoundaryClass, BoundaryPoint};
use super::motion::{BaseElevation, PlateMotion};
use super::plates::{Plates, UNCLAIMED};
use crate::planet::fbm::{noise_radius, FastFbm};
use crate::planet::SimError;
use crate::planet::VectorField;
use crate::planet::{Cell, Field};
use glam::Vec3;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Parameters of [`plate_elevation`]. Elevations are unitless on the project's scale (-1 the
/// deepest ocean, 1 the highest peak, 0 sea level); widths in kilometres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElevationSettings {
    /// Random seed (base levels, motion, noise).
    pub seed: u32,
    /// Phase 1: how plates get their base elevation.
    pub base: BaseElevation,
    /// Phase 3 on/off (seed 000's `usePlateCollisions`).
    pub collisions: bool,
    /// Multiplies the collision pressure (seed 000's `collisionStrength`).
    pub collision_strength: f32,
    /// Height of mountain belts and island arcs at full pressure.
    pub mountain_height: f32,
    /// Distance from the boundary over which mountains reach, km.
    pub mountain_width_km: f32,
    /// Depth of ocean trenches at full pressure.
    pub trench_depth: f32,
    /// Width of trenches, km.
    pub trench_width_km: f32,
    /// Depth of continental rift valleys at full opening speed.
    pub rift_depth: f32,
    /// Height of mid-ocean ridges at full opening speed.
    pub ridge_height: f32,
    /// Width of rifts (ridges are twice as wide), km.
    pub rift_width_km: f32,
    /// Phase 4 noise on/off (seed 000's `usePerlin`).
    pub noise: bool,
    /// Noise features around the equator (seed 000's `perlinFrequency`).
    pub noise_frequency: f32,
    /// Noise amplitude.
    pub noise_strength: f32,
    /// Smoothing passes of the base levels over the regions at R = 50; scaled with (R / 50)^2
    /// so the coastal slopes keep their width in km at any R.
    pub smoothing_passes: usize,
    /// Planet radius, km (turns widths into angles).
    pub radius_km: f32,
}

impl ElevationSettings {
    /// The defaults, which the node's parameters also start from (one source of truth).
    pub const DEFAULT: ElevationSettings = ElevationSettings {
        seed: 1,
        base: BaseElevation::land(0.35),
        collisions: true,
        collision_strength: 1.0,
        mountain_height: 1.1,
        mountain_width_km: 450.0,
        trench_depth: 0.35,
        trench_width_km: 120.0,
        rift_depth: 0.12,
        ridge_height: 0.2,
        rift_width_km: 150.0,
        noise: true,
        noise_frequency: 8.0,
        noise_strength: 0.2,
        smoothing_passes: 2,
        radius_km: 6371.0,
    };
}

impl Default for ElevationSettings {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Everything the Plate elevation node outputs, at one resolution.
#[derive(Debug, Clone)]
pub struct PlateSurface {
    /// Elevation, -1..1 (0 = sea level).
    pub elevation: Field,
    /// Plate index per cell (-1 where unclaimed).
    pub plate_id: Field,
    /// Signed collision pressure of the nearest boundary, fading to 0 over the mountain width.
    pub pressure: Field,
    /// Distance to the nearest boundary of the cell's own plate, km.
    pub boundary_km: Field,
    /// Plate velocity per cell (tangent; planet radii per time unit).
    pub motion: VectorField,
}

/// Compact smooth falloff: 1 at 0, 0 from `w` on, zero slope at both ends.
#[inline]
fn falloff(d: f32, w: f32) -> f32 {
    let t = (d / w.max(1e-6)).min(1.0);
    let s = 1.0 - t * t;
    s * s
}

/// Base level per region after `passes` rounds of averaging over the Moore neighbourhood
/// (seed 000 phase 4's low-pass filter).
fn smoothed_region_base(plates: &Plates, motion: &PlateMotion, passes: usize) -> Vec<f32> {
    let regions = &plates.regions;
    let mut cur: Vec<f32> = plates.plate_of.iter().map(|&p| if p == UNCLAIMED { 0.0 } else { motion.base[p as usize] }).collect();
    for _ in 0..passes {
        cur = (0..regions.len())
            .into_par_iter()
            .map(|i| {
                let nb = regions.neighbours(i);
                (cur[i] + nb.iter().map(|&k| cur[k as usize]).sum::<f32>()) / (nb.len() + 1) as f32
            })
            .collect();
    }
    cur
}

/// Builds the plate surface at `n` cells per face edge. Errs with `SimError::Cancelled` when cancelled.
pub fn plate_elevation(plates: &Plates, s: &ElevationSettings, n: usize, cancel: &AtomicBool) -> Result<PlateSurface, SimError> {
    let regions = &plates.regions;
    let motion = PlateMotion::new(plates, s.base, s.seed);
    let r_scale = regions.resolution() as f32 / 50.0;
    let passes = (s.smoothing_passes as f32 * r_scale * r_scale).round() as usize;
    let base = smoothed_region_base(plates, &motion, passes);
    let cells = 6 * n * n;
    // One pass over the region candidates per cell: nearest region and smooth base level.
    let per_cell: Vec<(Vec3, u32, f32)> = (0..cells)
        .into_par_iter()
        .map(|c| {
            let x = Cell::from_index(c, n).direction(n);
            let (r, b) = regions.nearest_and_smooth(&base, x);
            (x, r as u32, b)
        })
        .collect();
    let dirs: Vec<Vec3> = per_cell.iter().map(|p| p.0).collect();
    let cell_region: Vec<u32> = per_cell.iter().map(|p| p.1).collect();
    let cell_plate: Vec<u32> = cell_region.iter().map(|&r| plates.plate_of[r as usize]).collect();
    if cancel.load(Ordering::Relaxed) {
        return Err(SimError::Cancelled);
    }
    // Smooth the boundary values over about 1.5 region widths at R = 50 (about 300 km on
    // Earth), the same distance at any R.
    let values = region_boundary_values(plates, &motion, (4.0 * r_scale * r_scale).round() as usize);
    let map = boundary_map(n, &dirs, &cell_plate, &cell_region, plates, &values, cancel)?;
    let km_per_rad = s.radius_km.max(1.0);
    let noise = FastFbm::new(s.seed.wrapping_add(101), 8, 0.58, 2.0);
    let noise_r = noise_radius(s.noise_frequency);
    let ridges = FastFbm::new(s.seed.wrapping_add(202), 6, 0.5, 2.1);
    let ridges_r = noise_radius(s.noise_frequency * 3.0);
    let chain = FastFbm::new(s.seed.wrapping_add(303), 3, 0.5, 2.0);
    let chain_r = noise_radius(s.noise_frequency * 0.75);
    let at = |d: Vec3, r: f64| [d.x as f64 * r, d.y as f64 * r, d.z as f64 * r];
    let results: Vec<(f32, f32, f32)> = (0..cells)
        .into_par_iter()
        .map(|c| {
            let (x, _, mut h) = per_cell[c];
            let plate = cell_plate[c];
            let dist_km = map.angle[c] * km_per_rad;
            let mut pressure_out = 0.0;
            if plate != UNCLAIMED && map.nearest[c] != u32::MAX {
                let bp = map.points[map.nearest[c] as usize];
                let t = (bp.pressure * s.collision_strength).clamp(-1.5, 1.5);
                pressure_out = t * falloff(dist_km, s.mountain_width_km);
                if s.collisions {
                    h += boundary_feature(s, &motion, plate as usize, &bp, t, dist_km, || {
                        // Mountain texture: sharp ridges from folded noise, with heights varying
                        // along the chain.
                        let r = 1.0 - ridges.get(at(x, ridges_r)).abs() as f32 * 1.8;
                        let along = 0.75 + 0.5 * chain.get(at(x, chain_r)) as f32;
                        (0.55 + 0.75 * r.max(0.0).powi(2)) * along
                    });
                }
            }
            if s.noise {
                h += s.noise_strength * noise.get(at(x, noise_r)) as f32;
            }
            (h.clamp(-1.0, 1.0), pressure_out, dist_km)
        })
        .collect();
    if cancel.load(Ordering::Relaxed) {
        return Err(SimError::Cancelled);
    }
    let far = std::f32::consts::PI * km_per_rad;
    let elevation = Field::from_vec(n, results.iter().map(|r| r.0).collect())?;
    let pressure = Field::from_vec(n, results.iter().map(|r| r.1).collect())?;
    let boundary_km = Field::from_vec(n, results.iter().map(|r| if r.2.is_finite() { r.2 } else { far }).collect())?;
    let plate_id = Field::from_vec(n, cell_plate.iter().map(|&p| if p == UNCLAIMED { -1.0 } else { p as f32 }).collect())?;
    let motion_field = VectorField { n, tile: None, data: (0..cells).into_par_iter().map(|c| if cell_plate[c] == UNCLAIMED { [0.0; 3] } else { motion.velocity(cell_plate[c] as usize, dirs[c]).to_array() }).collect() };
    Ok(PlateSurface { elevation, plate_id, pressure, boundary_km, motion: motion_field })
}

/// The relief a boundary adds at `dist_km` from it on plate `plate`, for clamped, scaled
/// pressure `t`. Convergent: the lower plate dives (trench), the other rises (a belt set back
/// from a subduction trench, centred on a collision between equals). Divergent: continents
/// open a rift, oceans raise a ridge. Transform boundaries get a tenth of the relief.
fn boundary_feature(s: &ElevationSettings, motion: &PlateMotion, plate: usize, bp: &BoundaryPoint, t: f32, dist_km: f32, texture: impl Fn() -> f32) -> f32 {
    let own = motion.base[plate];
    let other = motion.base.get(bp.other as usize).copied().unwrap_or(own);
    let damp = if bp.class == BoundaryClass::Transform { 0.1 } else { 1.0 };
    if t > 0.0 {
        if own < other - 0.15 {
            -s.trench_depth * t * damp * falloff(dist_km, s.trench_width_km)
        } else {
            // Behind a subduction trench the belt peaks inland; between equals at the boundary.
            let offset = if other < own - 0.15 { 0.35 * s.mountain_width_km } else { 0.0 };
            let w = if dist_km < offset { offset } else { s.mountain_width_km - offset };
            let f = falloff((dist_km - offset).abs(), w);
            if f <= 0.0 {
                0.0
            } else {
                s.mountain_height * t * damp * f * texture()
            }
        }
    } else if t < 0.0 {
        if motion.continental[plate] {
            s.rift_depth * t * damp * falloff(dist_km, s.rift_width_km)
        } else {
            -s.ridge_height * t * damp * falloff(dist_km, 2.0 * s.rift_width_km)
        }
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::RegionSurface;
    use crate::tectonics::PlateSettings;
    use std::sync::Arc;

    #[test]
    fn converging_plates_raise_the_boundary_and_parting_plates_lower_it() {
        let regions = Arc::new(RegionSurface::new(16, 0.9, 4));
        let plates = Plates::grow(regions, &PlateSettings { count: 12, expansion_range: 0.5, random_driven: true, max_cycles: None, seed: 8 }).expect("plates");
        // All plates continental and no noise: only the collisions change the relief.
        let s = ElevationSettings { base: BaseElevation::LandFraction { fraction: 1.0, continental: 0.1, oceanic: -0.5 }, noise: false, ..Default::default() };
        let cancel = AtomicBool::new(false);
        let with = plate_elevation(&plates, &s, 48, &cancel).expect("surface");
        let without = plate_elevation(&plates, &ElevationSettings { collisions: false, ..s }, 48, &cancel).expect("surface");
        let (mut up, mut down, mut n_up, mut n_down) = (0.0, 0.0, 0, 0);
        for c in 0..6 * 48 * 48 {
            let p = with.pressure.data()[c];
            let diff = with.elevation.data()[c] - without.elevation.data()[c];
            if p > 0.1 {
                up += diff;
                n_up += 1;
                assert!(diff >= 0.0, "cell {c}: pressure {p} lowered by {diff}");
            } else if p < -0.1 {
                down += diff;
                n_down += 1;
                assert!(diff <= 0.0, "cell {c}: pressure {p} raised by {diff}");
            }
        }
        assert!(n_up > 50 && n_down > 50, "{n_up} converging, {n_down} parting cells");
        let (mean_up, mean_down) = (up / n_up as f32, down / n_down as f32);
        assert!(mean_up > 0.05 && mean_down < -0.01, "{mean_up} {mean_down}");
    }

    #[test]
    fn outputs_are_finite_and_distances_grow_away_from_boundaries() {
        let regions = Arc::new(RegionSurface::new(10, 1.0, 1));
        let plates = Plates::grow(regions, &PlateSettings { count: 6, expansion_range: 2.0, random_driven: false, max_cycles: None, seed: 3 }).expect("plates");
        let out = plate_elevation(&plates, &ElevationSettings::default(), 32, &AtomicBool::new(false)).expect("surface");
        for f in [&out.elevation, &out.pressure, &out.boundary_km, &out.plate_id] {
            assert!(f.data().iter().all(|v| v.is_finite()));
        }
        let (lo, hi) = out.boundary_km.min_max();
        assert!((0.0..200.0).contains(&lo) && hi > 500.0, "{lo}..{hi}");
        let (plo, phi) = out.plate_id.min_max();
        assert_eq!((plo, phi), (0.0, 5.0));
    }
}
