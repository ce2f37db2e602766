//! Continental crust as a shape of its own: a warped fractal field whose upper part (by area)
//! is continent, the signed distance to its coastline in km, and the passive-margin profile
//! (shelf, slope, rise) that joins a continent to the ocean floor.

use crate::planet::cache::Recent;
use crate::planet::coords::face_solid_angles;
use crate::planet::distance::signed_distance_km;
use crate::planet::fbm::{noise_radius, points_at, FastFbm};
use crate::planet::{smoothstep, SimError};
use glam::Vec3;
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Continental crust and its coastline on a resolution-`n` grid.
#[derive(Debug, Clone)]
pub struct Continents {
    /// The continent field per cell (unitless fBm, larger is more continental).
    pub field: Vec<f32>,
    /// The field's value at the coastline.
    pub threshold: f32,
    /// Signed great-circle distance to the coastline per cell, km (positive on land).
    pub coast_km: Vec<f32>,
}

/// Shares of the continental area given to the cores, largest first (Earth's landmasses:
/// Afro-Eurasia about half the land, then the Americas, Antarctica, Australia).
const CORE_SHARES: [f32; 8] = [0.42, 0.2, 0.13, 0.09, 0.06, 0.04, 0.03, 0.03];

/// Frequency of the continent field's warp, relative to its roughness's features.
const WARP_FREQUENCY: f32 = 0.5;
/// Strength of the warp, in unit-sphere lengths per unit of noise (bends the cores' round
/// rims into irregular outlines).
const WARP: f32 = 1.2;
/// Strength of the roughness against a core's cone (which falls by 1 from centre to rim): the
/// noise splits off islands and raises a few of its own.
const ROUGHNESS: f32 = 3.0;
/// The least and most land fraction the cores' rims are sized for.
const LAND_FRACTION: (f32, f32) = (0.01, 0.95);
/// Tries at placing a core clear of the others.
const PLACING_TRIES: usize = 24;
/// Gap a core keeps from the others, in sums of their radii.
const CORE_SPACING: f32 = 1.1;

/// The continent field: `count` continental cores (1 to 8) placed apart at random, each a cone
/// falling from 1 at its centre to 0 at its rim (rims sized so the cores share `fraction` of
/// the sphere as Earth's landmasses do), seen through a warp and roughened by fBm with
/// `frequency` features around the equator. The noise bends the outlines into fractal coasts,
/// splits off islands and raises a few of its own.
pub fn continent_field(dirs: &[Vec3], count: usize, fraction: f32, frequency: f32, seed: u32) -> Vec<f32> {
    let shape = FastFbm::new(seed.wrapping_add(0xC0_0001), 8, 0.55, 2.0);
    let warp = [0xC0_0002u32, 0xC0_0003, 0xC0_0004].map(|s| FastFbm::new(seed.wrapping_add(s), 4, 0.5, 2.0));
    let r = noise_radius(frequency);
    let rw = noise_radius(frequency * WARP_FREQUENCY);
    let count = count.clamp(1, CORE_SHARES.len());
    let total: f32 = CORE_SHARES[..count].iter().sum();
    let mut rng = crate::planet::Rng::new(seed, 0xC0_C0AE);
    let mut cores: Vec<(Vec3, f32)> = Vec::with_capacity(count);
    for &share in &CORE_SHARES[..count] {
        // Cap of the asked area: 2 PI (1 - cos rho) = share * fraction * 4 PI.
        let cos_rho = (1.0 - 2.0 * fraction.clamp(LAND_FRACTION.0, LAND_FRACTION.1) * share / total).clamp(-1.0, 1.0);
        let rho = cos_rho.acos();
        // Apart from the cores placed so far where possible (the best of a few tries).
        let mut best = (f32::NEG_INFINITY, Vec3::Z);
        for _ in 0..PLACING_TRIES {
            let z = rng.range(-1.0, 1.0);
            let phi = rng.range(0.0, std::f32::consts::TAU);
            let q = (1.0 - z * z).max(0.0).sqrt();
            let p = Vec3::new(q * phi.cos(), q * phi.sin(), z);
            let gap = cores.iter().map(|&(c, r)| p.angle_between(c) - CORE_SPACING * (r + rho)).fold(f32::INFINITY, f32::min);
            if gap > best.0 {
                best = (gap, p);
            }
            if gap > 0.0 {
                break;
            }
        }
        cores.push((best.1, rho));
    }
    // In runs of neighbouring cells, each noise evaluated along a run in vector lanes
    // (`FastFbm::get_many`: the same values as one point at a time).
    dirs.par_chunks(NOISE_RUN)
        .flat_map_iter(|run| {
            let warped = points_at(run, rw);
            let w = warp.each_ref().map(|f| f.get_many(&warped));
            let rough = shape.get_many(&points_at(run, r));
            run.iter()
                .enumerate()
                .map(|(k, &d)| {
                    let q = (d + WARP * Vec3::new(w[0][k] as f32, w[1][k] as f32, w[2][k] as f32)).normalize();
                    let core = cores.iter().map(|&(c, rho)| 1.0 - q.angle_between(c) / rho).fold(-1.0f32, f32::max);
                    core.max(-1.0) + ROUGHNESS * rough[k] as f32
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Cells of the continent field evaluated together (a row of a level of 512).
const NOISE_RUN: usize = 512;

/// The field value at and above which `fraction` of the sphere's area lies (cells weighted by their
/// solid angle).
pub fn area_quantile(field: &[f32], n: usize, fraction: f32) -> f32 {
    let areas = face_solid_angles(n);
    let mut order: Vec<(f32, f64)> = field.iter().enumerate().map(|(c, &v)| (v, areas[c % (n * n)])).collect();
    order.par_sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = 4.0 * std::f64::consts::PI;
    let target = f64::from(fraction.clamp(0.0, 1.0)) * total;
    let mut acc = 0.0;
    for &(v, a) in &order {
        acc += a;
        if acc >= target {
            return v;
        }
    }
    order.last().map_or(0.0, |x| x.0)
}

/// Builds the continents (`count` cores, coast noise of `frequency`): the field, the threshold that puts `land_fraction` of the area above
/// it, and the signed coast distance.
// The continents' settings, the grid and the cancel flag: one argument each, as the node passes them.
#[allow(clippy::too_many_arguments)]
pub fn continents(n: usize, dirs: &[Vec3], land_fraction: f32, count: usize, frequency: f32, seed: u32, radius_km: f32, cancel: &AtomicBool) -> Result<Continents, SimError> {
    let field = continent_field(dirs, count, land_fraction, frequency, seed);
    let threshold = area_quantile(&field, n, land_fraction);
    let coast_km = signed_distance_km(n, dirs, &field, threshold, radius_km, &|_| true, cancel)?;
    Ok(Continents { field, threshold, coast_km })
}

/// What [`continents`] computes from: its resolution and settings, floats by their bits.
type ContinentsKey = (usize, u32, usize, u32, u32, u32);

/// Bytes the recent continents of [`continents_shared`] may hold together (an entry at 512
/// cells per face edge takes 12.6 MB, one at 128 0.8 MB).
const SHARED_BYTES: usize = 64 << 20;

/// The most recently used continents.
static RECENT: Recent<ContinentsKey, Continents> = Recent::new();

/// [`continents`] through a small cache of recent results: the continents do not depend on
/// the plates, so an edit of the plates (or of any other relief setting) reruns none of this,
/// and the editor's coarse, preview and viewport stages each find theirs. The result is the
/// same value as computed afresh; a run cut short by a cancel is an error and caches nothing.
// The continents' settings, the grid and the cancel flag: one argument each, as `continents`.
#[allow(clippy::too_many_arguments)]
pub fn continents_shared(n: usize, dirs: &[Vec3], land_fraction: f32, count: usize, frequency: f32, seed: u32, radius_km: f32, cancel: &AtomicBool) -> Result<Arc<Continents>, SimError> {
    let key = (n, land_fraction.to_bits(), count, frequency.to_bits(), seed, radius_km.to_bits());
    RECENT.get_or_try(key, SHARED_BYTES, |c| 4 * (c.field.len() + c.coast_km.len()), || continents(n, dirs, land_fraction, count, frequency, seed, radius_km, cancel))
}

/// Widths of a passive margin, km.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Margin {
    /// Shelf from the coast to the shelf break.
    pub shelf_km: f32,
    /// Continental slope from the shelf break down to its foot.
    pub slope_km: f32,
    /// Continental rise from the foot of the slope out to the ocean floor.
    pub rise_km: f32,
}

/// Depth of the sea at the shore, m (negative).
pub const SHORE_M: f32 = -10.0;
/// Depth at the shelf break, m (negative).
pub const SHELF_BREAK_M: f32 = -150.0;
/// Depth at the foot of the continental slope, m.
pub const SLOPE_FOOT_M: f32 = -2800.0;

/// Elevation in metres at `offshore_km` from the coast of a passive margin whose ocean floor
/// lies at `floor_m`: a gently dipping shelf to [`SHELF_BREAK_M`], a steep slope to
/// [`SLOPE_FOOT_M`] (or to the floor where it is shallower), then a rise that eases into the
/// floor. Continuous in the distance.
pub fn margin_profile(offshore_km: f32, floor_m: f32, m: &Margin) -> f32 {
    let e = offshore_km.max(0.0);
    let foot = SLOPE_FOOT_M.max(floor_m);
    if e < m.shelf_km {
        SHORE_M + (SHELF_BREAK_M - SHORE_M) * (e / m.shelf_km)
    } else if e < m.shelf_km + m.slope_km {
        SHELF_BREAK_M + (foot - SHELF_BREAK_M) * smoothstep((e - m.shelf_km) / m.slope_km)
    } else {
        let t = (e - m.shelf_km - m.slope_km) / m.rise_km;
        foot + (floor_m - foot) * smoothstep(t)
    }
}

/// Empties this module's cache (tests that a result computed afresh equals a cached one).
#[cfg(test)]
pub(super) fn clear_cache() {
    RECENT.clear();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::distance::cell_dirs;

    #[test]
    fn the_asked_area_lies_above_the_threshold() {
        let n = 32;
        let dirs = cell_dirs(n);
        let field = continent_field(&dirs, 5, 0.3, 3.0, 4);
        let areas = face_solid_angles(n);
        for fraction in [0.1f32, 0.29, 0.6] {
            let t = area_quantile(&field, n, fraction);
            let above: f64 = field.iter().enumerate().filter(|(_, &v)| v >= t).map(|(c, _)| areas[c % (n * n)]).sum();
            let share = above / (4.0 * std::f64::consts::PI);
            assert!((share - f64::from(fraction)).abs() < 0.01, "{fraction}: {share}");
        }
    }

    /// The field is a function of each direction alone: evaluated at a scattered subset of the
    /// cells (as a fine relief does along its coast band), it gives those cells' values of the
    /// whole field to the bit.
    #[test]
    fn a_subset_of_cells_gets_the_whole_field_s_values() {
        let n = 40;
        let dirs = cell_dirs(n);
        let whole = continent_field(&dirs, 4, 0.3, 3.0, 11);
        let picked: Vec<usize> = (0..dirs.len()).filter(|c| (c * 7919) % 13 < 4 || (c / n) % 9 == 2).collect();
        let some = continent_field(&picked.iter().map(|&c| dirs[c]).collect::<Vec<_>>(), 4, 0.3, 3.0, 11);
        for (&c, v) in picked.iter().zip(&some) {
            assert_eq!(v.to_bits(), whole[c].to_bits(), "cell {c}");
        }
    }

    #[test]
    fn coast_distance_is_signed_and_grows_inland() {
        let n = 48;
        let dirs = cell_dirs(n);
        let c = continents(n, &dirs, 0.3, 5, 3.0, 9, 6371.0, &AtomicBool::new(false)).expect("not cancelled");
        let cell_km = std::f32::consts::FRAC_PI_2 / n as f32 * 6371.0;
        for (k, (&d, &f)) in c.coast_km.iter().zip(&c.field).enumerate() {
            assert_eq!(d >= 0.0, f >= c.threshold, "cell {k}");
        }
        // A neighbour is never further than a cell and a half.
        let table = crate::planet::pipes::pipes4(n);
        for k in 0..dirs.len() {
            for &j in &table.to[k] {
                assert!((c.coast_km[k] - c.coast_km[j as usize]).abs() < 1.6 * cell_km * 1.5, "cells {k} {j}");
            }
        }
        let (lo, hi) = c.coast_km.iter().fold((0.0f32, 0.0f32), |a, &v| (a.0.min(v), a.1.max(v)));
        assert!(lo < -1000.0 && hi > 500.0, "{lo}..{hi}");
    }

    #[test]
    fn shared_continents_are_the_computed_ones() {
        let n = 24;
        let dirs = cell_dirs(n);
        let cancel = AtomicBool::new(false);
        let fresh = continents(n, &dirs, 0.3, 4, 3.0, 77, 6371.0, &cancel).expect("not cancelled");
        let shared = continents_shared(n, &dirs, 0.3, 4, 3.0, 77, 6371.0, &cancel).expect("not cancelled");
        assert!(shared.coast_km.iter().zip(&fresh.coast_km).all(|(a, b)| a.to_bits() == b.to_bits()));
        assert!(shared.field.iter().zip(&fresh.field).all(|(a, b)| a.to_bits() == b.to_bits()));
        assert_eq!(shared.threshold.to_bits(), fresh.threshold.to_bits());
        let again = continents_shared(n, &dirs, 0.3, 4, 3.0, 77, 6371.0, &cancel).expect("not cancelled");
        assert!(Arc::ptr_eq(&shared, &again), "the second request reuses the first");
        // Any other setting is another entry.
        let other = continents_shared(n, &dirs, 0.31, 4, 3.0, 77, 6371.0, &cancel).expect("not cancelled");
        assert!(!Arc::ptr_eq(&shared, &other) && other.threshold != shared.threshold);
    }

    #[test]
    fn the_margin_profile_is_continuous_and_reaches_the_floor() {
        let m = Margin { shelf_km: 80.0, slope_km: 70.0, rise_km: 250.0 };
        let mut last = margin_profile(0.0, -5000.0, &m);
        assert!((-20.0..0.0).contains(&last));
        for k in 1..5000 {
            let h = margin_profile(k as f32 * 0.1, -5000.0, &m);
            assert!((h - last).abs() < 10.0 && h <= last + 1e-3, "{k}: {last} -> {h}");
            last = h;
        }
        assert!((margin_profile(80.0, -5000.0, &m) - SHELF_BREAK_M).abs() < 1.0);
        assert!((last + 5000.0).abs() < 1.0);
        // A young, shallow floor: the slope stops at the floor.
        assert!((margin_profile(400.0, -2600.0, &m) + 2600.0).abs() < 1.0);
    }
}
