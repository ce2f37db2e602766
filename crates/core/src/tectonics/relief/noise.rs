//! The noises of the Earth-like relief's surface: continental interiors, along-strike and
//! width variation of the belts, mountain ridges, uplands, fine detail, abyssal hills and rock
//! patches. Each is a function of the cell's direction, its coast distance (which gates the
//! ones only land or only the sea uses) and the relief's seed, not of the plates; so at the
//! editor's resolutions they come from a small cache of recent ones, and an edit of the plates
//! evaluates none of them.

use super::figures::{DETAIL, HILLS_FEATURES, INTERIOR_FEATURES, RIDGES, ROCK, STRIKE, UPLANDS, WIDTH};
use super::{ReliefSettings, CRUST_SHELF_KM};
use crate::planet::cache::Recent;
use crate::planet::fbm::{noise_radius, FastFbm};
use crate::planet::Cell;
use glam::Vec3;
use rayon::prelude::*;
use std::sync::Arc;

/// The noise values of one cell, each a raw fBm value (about -1..1), 0 where the cell's side
/// of the coast does not use it.
#[derive(Debug, Clone, Copy)]
pub(super) struct CellNoise {
    /// Continental interiors' height (on land).
    pub interior: f32,
    /// Abyssal hills (everywhere: the floor profile reaches under the shelf).
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

/// A point `features` noise features around the equator scale on direction `d`.
fn at(d: Vec3, features: f32) -> [f64; 3] {
    let r = noise_radius(features);
    [d.x as f64 * r, d.y as f64 * r, d.z as f64 * r]
}

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

    /// The noises at direction `x` of a cell `coast_km` from the coast (positive on land).
    #[inline]
    pub fn at(&self, x: Vec3, coast_km: f32) -> CellNoise {
        let land = coast_km >= 0.0;
        let crust = coast_km > -CRUST_SHELF_KM;
        let get = |f: &FastFbm, features: f32| f.get(at(x, features)) as f32;
        CellNoise {
            interior: if land { get(&self.interior, INTERIOR_FEATURES) } else { 0.0 },
            hills: get(&self.hills, HILLS_FEATURES),
            along: get(&self.along, STRIKE.1),
            width: get(&self.width, WIDTH.1),
            ridged: get(&self.ridged, RIDGES.0),
            uplands: if land { get(&self.uplands, UPLANDS.features) } else { 0.0 },
            detail: if crust { get(&self.detail, DETAIL.2) } else { 0.0 },
            rock: if crust && self.rock_on { get(&self.rock, ROCK.0) } else { 0.0 },
        }
    }

    /// Every cell's noises at `n` cells per face edge over the coast distances `coast_km`,
    /// from the cache when a recent relief of the same seed and continents asked for them;
    /// `None` where they would not fit in the cache (the caller evaluates them cell by cell).
    pub fn shared(&self, s: &ReliefSettings, n: usize, coast_km: &[f32]) -> Option<Arc<Vec<CellNoise>>> {
        let cells = 6 * n * n;
        if cells * std::mem::size_of::<CellNoise>() > NOISE_BYTES {
            return None;
        }
        let key = (n, s.seed, self.rock_on, s.land_fraction.to_bits(), s.continents, s.coast_frequency.to_bits(), s.radius_km.to_bits());
        Some(RECENT.get_or(key, NOISE_BYTES, |v| std::mem::size_of_val(v.as_slice()), || (0..cells).into_par_iter().map(|c| self.at(Cell::from_index(c, n).direction(n), coast_km[c])).collect()))
    }
}

/// Empties this module's cache (tests that a result computed afresh equals a cached one).
#[cfg(test)]
pub(super) fn clear_cache() {
    RECENT.clear();
}
