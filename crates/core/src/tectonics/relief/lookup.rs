//! Plates through a warp, so their borders wander off the region cells' straight edges: each
//! cell's direction is displaced by smooth noise before the nearest region and the plate are
//! looked up. The displaced directions depend on the relief's seed, the regions' resolution
//! and the warp alone, not on the plates, so they come from a small cache of recent ones: an
//! edit of the plates looks the plates up again without evaluating the noise.

use super::ReliefSettings;
use crate::planet::cache::Recent;
use crate::planet::fbm::{noise_radius, points_at, FastFbm};
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

/// Cells whose warp is evaluated together (a row of a level of 512).
const WARP_RUN: usize = 512;

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
            // In runs of cells, each noise along a run in vector lanes (`FastFbm::get_many`:
            // the same values as one point at a time).
            dirs.par_chunks(WARP_RUN)
                .flat_map_iter(|run| {
                    let noise = |f: &[FastFbm; 3], r: f64| f.each_ref().map(|f| f.get_many(&points_at(run, r)));
                    let (s, l) = (noise(&small, r_small), noise(&large, r_large));
                    let at = |v: &[Vec<f64>; 3], k: usize| Vec3::new(v[0][k] as f32, v[1][k] as f32, v[2][k] as f32);
                    run.iter().enumerate().map(|(k, &d)| (d + amp * (0.5 * at(&s, k) + 2.5 * at(&l, k))).normalize()).collect::<Vec<_>>()
                })
                .collect()
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
