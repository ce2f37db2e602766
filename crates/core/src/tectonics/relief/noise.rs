//! The noises of the Earth-like relief's surface: continental interiors, along-strike and
//! width variation of the belts, mountain ridges, uplands, fine detail, abyssal hills and rock
//! patches. Each is a function of the cell's direction, its coast distance (which gates the
//! ones only land, only the sea or only the continental crust uses) and the relief's seed,
//! not of the plates; so at the editor's resolutions they come from a small cache of recent
//! ones, and an edit of the plates evaluates none of them.

use super::figures::{DETAIL, HILLS_FEATURES, INTERIOR_FEATURES, RIDGES, ROCK, STRIKE, UPLANDS, WIDTH};
use super::{ReliefSettings, CRUST_SHELF_KM};
use crate::planet::cache::Recent;
use crate::planet::cell_directions::CellDirections;
use crate::planet::fbm::{noise_radius, points_at, FastFbm};
use crate::planet::Grid;
use glam::Vec3;
use rayon::prelude::*;
use std::sync::Arc;

/// The noise values of one cell, each a raw fBm value (about -1..1), 0 where the cell's side
/// of the coast does not use it.
#[derive(Debug, Clone, Copy)]
pub(super) struct CellNoise {
    /// Continental interiors' height (on land).
    pub interior: f32,
    /// Abyssal hills (at sea: the floor profile reaches under the shelf, up to the coast).
    pub hills: f32,
    /// Along-strike variation of the belts.
    pub along: f32,
    /// Width variation of the belts.
    pub width: f32,
    /// Ridged mountain texture.
    pub ridged: f32,
    /// Uplands of the interiors (on land).
    pub uplands: f32,
    /// Fine detail (on continental crust).
    pub detail: f32,
    /// Rock patches (on continental crust, with rock variation).
    pub rock: f32,
}

/// The generators of [`CellNoise`] for one relief.
pub(super) struct SurfaceNoise {
    interior: FastFbm,
    along: FastFbm,
    width: FastFbm,
    ridged: FastFbm,
    detail: FastFbm,
    hills: FastFbm,
    uplands: FastFbm,
    rock: FastFbm,
    rock_on: bool,
}

/// What the cached noises depend on: cells per face edge, the seed, whether rock patches are
/// on, and the continents' settings (their coast gates the noises), floats by their bits.
type NoiseKey = (usize, u32, bool, u32, usize, u32, u32);

/// Bytes the recent noises may hold together: the resolutions up to 256 cells per face edge
/// (12.6 MB there, 0.8 MB at 128); finer ones evaluate the noise cell by cell as they go.
const NOISE_BYTES: usize = 40 << 20;

/// The most recently used noises.
static RECENT: Recent<NoiseKey, Vec<CellNoise>> = Recent::new();

impl SurfaceNoise {
    /// The generators of the relief `s`.
    pub fn new(s: &ReliefSettings) -> SurfaceNoise {
        let fbm = |k: u32, octaves: usize, persistence: f64| FastFbm::new(s.seed.wrapping_add(0x5E_0000 + k), octaves, persistence, 2.0);
        SurfaceNoise {
            interior: fbm(1, 5, 0.5),
            along: fbm(2, 3, 0.5),
            width: fbm(3, 3, 0.5),
            ridged: fbm(4, 6, 0.5),
            detail: fbm(5, 5, 0.45),
            hills: fbm(6, 5, 0.55),
            uplands: fbm(7, 4, 0.5),
            rock: fbm(8, ROCK.1, 0.5),
            rock_on: s.rock_variation > 0.0,
        }
    }

    /// The noises at direction `x` of a cell `coast_km` from the coast (positive on land),
    /// one point alone: what [`SurfaceNoise::row`] gives each cell of a row.
    #[cfg(test)]
    pub fn at(&self, x: Vec3, coast_km: f32) -> CellNoise {
        let land = coast_km >= 0.0;
        let crust = coast_km > -CRUST_SHELF_KM;
        let get = |f: &FastFbm, features: f32| f.get(crate::planet::fbm::point_at(x, noise_radius(features))) as f32;
        CellNoise {
            interior: if land { get(&self.interior, INTERIOR_FEATURES) } else { 0.0 },
            hills: if land { 0.0 } else { get(&self.hills, HILLS_FEATURES) },
            along: get(&self.along, STRIKE.1),
            width: get(&self.width, WIDTH.1),
            ridged: get(&self.ridged, RIDGES.0),
            uplands: if land { get(&self.uplands, UPLANDS.features) } else { 0.0 },
            detail: if crust { get(&self.detail, DETAIL.2) } else { 0.0 },
            rock: if crust && self.rock_on { get(&self.rock, ROCK.0) } else { 0.0 },
        }
    }

    /// The noises of a row of cells in directions `points` whose coast distances are
    /// `coast_km`: each noise along the row in vector
    /// lanes ([`FastFbm::get_many`]) at the cells whose side of the coast uses it. The same
    /// values as [`SurfaceNoise::at`], to the bit.
    pub fn row(&self, points: &[Vec3], coast_km: &[f32]) -> Vec<CellNoise> {
        let noise = |f: &FastFbm, features: f32, used: &dyn Fn(f32) -> bool| -> Vec<f32> {
            let wanted: Vec<usize> = (0..points.len()).filter(|&k| used(coast_km[k])).collect();
            let values = f.get_many(&points_at(&wanted.iter().map(|&k| points[k]).collect::<Vec<_>>(), noise_radius(features)));
            let mut out = vec![0.0f32; points.len()];
            for (&k, v) in wanted.iter().zip(values) {
                out[k] = v as f32;
            }
            out
        };
        let (land, sea, crust, everywhere) = (|d: f32| d >= 0.0, |d: f32| d < 0.0, |d: f32| d > -CRUST_SHELF_KM, |_: f32| true);
        let interior = noise(&self.interior, INTERIOR_FEATURES, &land);
        let hills = noise(&self.hills, HILLS_FEATURES, &sea);
        let along = noise(&self.along, STRIKE.1, &everywhere);
        let width = noise(&self.width, WIDTH.1, &everywhere);
        let ridged = noise(&self.ridged, RIDGES.0, &everywhere);
        let uplands = noise(&self.uplands, UPLANDS.features, &land);
        let detail = noise(&self.detail, DETAIL.2, &crust);
        let rock = if self.rock_on { noise(&self.rock, ROCK.0, &crust) } else { vec![0.0; points.len()] };
        (0..points.len()).map(|k| CellNoise { interior: interior[k], hills: hills[k], along: along[k], width: width[k], ridged: ridged[k], uplands: uplands[k], detail: detail[k], rock: rock[k] }).collect()
    }

    /// Every cell's noises at `n` cells per face edge over the coast distances `coast_km`,
    /// from the cache when a recent relief of the same seed and continents asked for them;
    /// `None` where they would not fit in the cache (the caller evaluates them row by row,
    /// [`SurfaceNoise::row`]).
    pub fn shared(&self, s: &ReliefSettings, n: usize, coast_km: &[f32]) -> Option<Arc<Vec<CellNoise>>> {
        let cells = 6 * n * n;
        if cells * std::mem::size_of::<CellNoise>() > NOISE_BYTES {
            return None;
        }
        let key = (n, s.seed, self.rock_on, s.land_fraction.to_bits(), s.continents, s.coast_frequency.to_bits(), s.radius_km.to_bits());
        Some(RECENT.get_or(
            key,
            NOISE_BYTES,
            |v| std::mem::size_of_val(v.as_slice()),
            || {
                let dirs = CellDirections::new(Grid::Whole(n));
                (0..6 * n).into_par_iter().flat_map_iter(|row| self.row(&dirs.row(Grid::Whole(n), row), &coast_km[row * n..(row + 1) * n])).collect()
            },
        ))
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

    /// A row's noises, evaluated together in lanes and only where the coast asks for them, are
    /// each cell's own to the bit (land, shelf and deep sea along the row; with rock patches).
    #[test]
    fn a_row_s_noises_are_each_cell_s() {
        let s = ReliefSettings { rock_variation: 0.5, ..ReliefSettings::DEFAULT };
        let noise = SurfaceNoise::new(&s);
        let n = 45;
        let dirs = CellDirections::new(Grid::Whole(n));
        for row in [0, 7, 3 * n + 20, 6 * n - 1] {
            let coast: Vec<f32> = (0..n).map(|i| 300.0 - 25.0 * i as f32).collect();
            let got = noise.row(&dirs.row(Grid::Whole(n), row), &coast);
            for (i, z) in got.iter().enumerate() {
                let cell = Grid::Whole(n).cell(row * n + i);
                let want = noise.at(cell.direction(n), coast[i]);
                let bits = |z: &CellNoise| [z.interior, z.hills, z.along, z.width, z.ridged, z.uplands, z.detail, z.rock].map(f32::to_bits);
                assert_eq!(bits(z), bits(&want), "row {row}, cell {i}");
            }
            assert!(got.iter().any(|z| z.interior != 0.0) && got.iter().any(|z| z.interior == 0.0 && z.hills != 0.0));
        }
    }
}
