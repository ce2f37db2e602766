//! Plates through a warp, so their borders wander off the region cells' straight edges: each
//! cell's direction is displaced by smooth noise before the nearest region and the plate are
//! looked up. The displaced directions depend on the relief's seed, the regions' resolution
//! and the warp alone, not on the plates, so they come from a small cache of recent ones: an
//! edit of the plates looks the plates up again without evaluating the noise.

use super::ReliefSettings;
use crate::planet::cache::Recent;
use crate::planet::fbm::{noise_radius, FastFbm};
use crate::tectonics::plates::Plates;
use glam::Vec3;
use rayon::prelude::*;

/// The warped directions' key: cells per face edge, seed, the regions' resolution and the
/// warp's bits.
type WarpKey = (usize, u32, usize, u32);

/// Bytes the recent warped directions may hold together (an entry at 512 cells per face edge
/// takes 18.9 MB, one at 128 1.2 MB).
const WARPED_BYTES: usize = 48 << 20;

/// The most recently used warped directions.
static WARPED: Recent<WarpKey, Vec<Vec3>> = Recent::new();

/// Three smooth noises of one scale, the components of a displacement.
fn sample3(f: &[FastFbm; 3], d: Vec3, r: f64) -> Vec3 {
    let p = [d.x as f64 * r, d.y as f64 * r, d.z as f64 * r];
    Vec3::new(f[0].get(p) as f32, f[1].get(p) as f32, f[2].get(p) as f32)
}

/// The unit directions `dirs` (of `m` cells per face edge) displaced by the plate warp.
fn warped(plates: &Plates, s: &ReliefSettings, m: usize, dirs: &[Vec3]) -> std::sync::Arc<Vec<Vec3>> {
    let resolution = plates.regions.resolution();
    let amp = s.boundary_warp.max(0.0) * std::f32::consts::FRAC_PI_2 / resolution as f32;
    let key = (m, s.seed, resolution, amp.to_bits());
    WARPED.get_or(
        key,
        WARPED_BYTES,
        |v| std::mem::size_of_val(v.as_slice()),
        || {
            let r = resolution as f32;
            let small = [1u32, 2, 3].map(|k| FastFbm::new(s.seed.wrapping_add(0x7A_0000 + k), 3, 0.5, 2.0));
            let large = [4u32, 5, 6].map(|k| FastFbm::new(s.seed.wrapping_add(0x7A_0000 + k), 3, 0.5, 2.0));
            let (r_small, r_large) = (noise_radius(r * 1.2), noise_radius(r * 0.3));
            dirs.par_iter().map(|&d| (d + amp * (0.5 * sample3(&small, d, r_small) + 2.5 * sample3(&large, d, r_large))).normalize()).collect()
        },
    )
}

/// The nearest region and the plate of every direction of `dirs` (`m` cells per face edge),
/// through the warp; the plate is the vote of the regions around (smooth borders, not Voronoi
/// zig-zags).
pub(super) fn regions_and_plates(plates: &Plates, s: &ReliefSettings, m: usize, dirs: &[Vec3]) -> Vec<(u32, u32)> {
    warped(plates, s, m, dirs)
        .par_iter()
        .map(|&w| {
            let (r, p) = plates.regions.nearest_and_vote(&plates.plate_of, w);
            (r as u32, p)
        })
        .collect()
}

/// Empties this module's cache (tests that a result computed afresh equals a cached one).
#[cfg(test)]
pub(super) fn clear_cache() {
    WARPED.clear();
}
