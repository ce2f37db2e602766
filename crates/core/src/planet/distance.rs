//! Distances on the cube-sphere to sets of seed cells: for every cell, the nearest seed point
//! and the straight-line (chord) distance to it, by vector propagation over the seam-aware
//! 4-neighbour table. Cells can be split into groups that never exchange distances (the cells
//! of one plate, the land and the sea), and the groups are swept in parallel.

use super::pipes::{pipes4, PipeTable};
use crate::planet::SimError;
use glam::Vec3;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Marks "no seed point" in [`Nearest::point`] and in a seed map, and "in no group".
pub const NONE: u32 = u32::MAX;

/// The result of [`nearest_points`].
#[derive(Debug, Clone)]
pub struct Nearest {
    /// Index of each cell's nearest seed point ([`NONE`]: its group has no seed).
    pub point: Vec<u32>,
    /// Chord between the cell centre and that point, unit-sphere units (infinite where none).
    pub chord: Vec<f32>,
}

impl Nearest {
    /// Great-circle angle in radians of cell `c` to its nearest point (infinite where none).
    pub fn angle(&self, c: usize) -> f32 {
        chord_to_angle(self.chord[c])
    }
}

/// Great-circle angle (radians) of a chord on the unit sphere.
#[inline]
pub fn chord_to_angle(chord: f32) -> f32 {
    if chord.is_finite() {
        2.0 * (chord * 0.5).min(1.0).asin()
    } else {
        f32::INFINITY
    }
}

/// For every cell of a resolution-`n` grid, the nearest seed point of its own group.
///
/// - `dirs`: the cell centres (unit vectors).
/// - `seed_of`: per cell, the index into `points` of the seed it holds, or [`NONE`].
/// - `points`: the seed points' directions.
/// - `group`: per cell its group (`0..groups`), or [`NONE`] for cells left out; distances only
///   travel between cells of one group.
///
/// A label-correcting pass in distance order carries each cell's nearest point to its
/// neighbours, so the distance is the true chord to that point, not a path length. A bucket
/// queue (buckets half a cell wide) keeps it linear; a cell improved again is queued again.
/// Vector propagation over 4 neighbours can miss the true nearest point by a fraction of a cell
/// at a few cells, never by a whole cell. Errs with `SimError::Cancelled` when `cancel` is set.
pub fn nearest_points(n: usize, dirs: &[Vec3], seed_of: &[u32], points: &[Vec3], group: &[u32], groups: usize, cancel: &AtomicBool) -> Result<Nearest, SimError> {
    let cells = 6 * n * n;
    let table = pipes4(n);
    // The seed cells of each group, in cell order.
    let mut seeds: Vec<Vec<u32>> = vec![Vec::new(); groups];
    for (c, (&g, &s)) in group.iter().zip(seed_of).enumerate() {
        if let (Some(list), true) = (seeds.get_mut(g as usize), s != NONE) {
            list.push(c as u32);
        }
    }
    // Each cell's nearest point and chord in one word, by cell: the groups' sweeps share it and
    // each writes only its own cells.
    let best: Vec<AtomicU64> = (0..cells).into_par_iter().map(|_| AtomicU64::new(pack(NONE, f32::INFINITY))).collect();
    seeds.par_iter().enumerate().try_for_each(|(g, seeds)| sweep_group(g as u32, seeds, group, seed_of, points, dirs, &table, n, &best, cancel))?;
    let (point, chord) = best.into_par_iter().map(|b| unpack(b.into_inner())).unzip();
    Ok(Nearest { point, chord })
}

/// A cell's nearest point and chord as one word (the point in the high half).
#[inline(always)]
fn pack(point: u32, chord: f32) -> u64 {
    (u64::from(point) << 32) | u64::from(chord.to_bits())
}

/// The point and chord of a word of [`pack`].
#[inline(always)]
fn unpack(word: u64) -> (u32, f32) {
    ((word >> 32) as u32, f32::from_bits(word as u32))
}

/// The sweep of group `id` from its seed cells `seeds` (in cell order), writing its cells'
/// nearest points and chords into `best` ([`pack`]).
///
/// A queue entry is a cell and the chord it was queued with. A cell is queued only when its
/// chord falls, so an entry whose chord is no longer the cell's is stale and skipped; the
/// current one is popped before any stale one (it lies in the same bucket or a lower one, and
/// a bucket is a stack), so each chord a cell takes is carried out once.
#[allow(clippy::too_many_arguments)]
fn sweep_group(id: u32, seeds: &[u32], group: &[u32], seed_of: &[u32], points: &[Vec3], dirs: &[Vec3], table: &PipeTable<4>, n: usize, best: &[AtomicU64], cancel: &AtomicBool) -> Result<(), SimError> {
    let width = 0.5 * std::f32::consts::FRAC_PI_2 / n as f32;
    let bucket_of = |d: f32| (d / width) as usize;
    let mut buckets: Vec<Vec<(u32, f32)>> = vec![Vec::new(); bucket_of(2.0) + 2];
    for &c in seeds {
        let s = seed_of[c as usize];
        let chord = dirs[c as usize].distance(points[s as usize]);
        best[c as usize].store(pack(s, chord), Ordering::Relaxed);
        buckets[bucket_of(chord)].push((c, chord));
    }
    let mut b = 0;
    let mut pops = 0usize;
    while b < buckets.len() {
        let Some((c, queued)) = buckets[b].pop() else {
            b += 1;
            continue;
        };
        let c = c as usize;
        let (src, chord) = unpack(best[c].load(Ordering::Relaxed));
        if chord.to_bits() != queued.to_bits() {
            continue;
        }
        pops += 1;
        if pops.is_multiple_of(65536) && cancel.load(Ordering::Relaxed) {
            return Err(SimError::Cancelled);
        }
        let target = points[src as usize];
        for &g in &table.to[c] {
            let g = g as usize;
            if group[g] != id {
                continue;
            }
            let dj = dirs[g].distance(target);
            if dj < unpack(best[g].load(Ordering::Relaxed)).1 {
                best[g].store(pack(src, dj), Ordering::Relaxed);
                // Never behind the bucket being processed.
                buckets[bucket_of(dj).max(b)].push((g as u32, dj));
            }
        }
    }
    Ok(())
}

/// Signed great-circle distance in km to the iso-line `level` of `field` (positive at and
/// above it): the coastline of an elevation, the edge of a mask. The line passes between two
/// neighbouring cells where it crosses, interpolated linearly, so the distance is finer than a
/// cell; each cell along it seeds the crossing nearest to it, and [`nearest_points`] carries
/// the crossings out on both sides. Without any coast every cell gets half the
/// planet's circumference, signed. Only the cells `within` accepts are swept (the others get
/// NaN). `SimError::Cancelled` when cancelled.
pub fn signed_distance_km(n: usize, dirs: &[Vec3], field: &[f32], level: f32, radius_km: f32, within: &(dyn Fn(usize) -> bool + Sync), cancel: &AtomicBool) -> Result<Vec<f32>, SimError> {
    let table = pipes4(n);
    let above = |c: usize| field[c] >= level;
    let crossings: Vec<Option<Vec3>> = (0..dirs.len())
        .into_par_iter()
        .map(|c| {
            if !within(c) {
                return None;
            }
            let mut best: Option<(f32, Vec3)> = None;
            for &k in &table.to[c] {
                let k = k as usize;
                if above(k) == above(c) {
                    continue;
                }
                let t = ((level - field[c]) / (field[k] - field[c])).clamp(0.0, 1.0);
                let p = dirs[c].lerp(dirs[k], t).normalize();
                let d = p.distance(dirs[c]);
                if best.is_none_or(|b| d < b.0) {
                    best = Some((d, p));
                }
            }
            best.map(|b| b.1)
        })
        .collect();
    let mut seed_of = vec![NONE; dirs.len()];
    let mut points = Vec::new();
    for (c, p) in crossings.into_iter().enumerate() {
        if let Some(p) = p {
            seed_of[c] = points.len() as u32;
            points.push(p);
        }
    }
    let group: Vec<u32> = (0..dirs.len()).map(|c| if within(c) { u32::from(above(c)) } else { NONE }).collect();
    let near = nearest_points(n, dirs, &seed_of, &points, &group, 2, cancel)?;
    let far = std::f32::consts::PI * radius_km;
    Ok((0..dirs.len())
        .into_par_iter()
        .map(|c| {
            if !within(c) {
                return f32::NAN;
            }
            let a = near.angle(c);
            let km = if a.is_finite() { a * radius_km } else { far };
            if above(c) {
                km
            } else {
                -km
            }
        })
        .collect())
}

/// Cell centres of a resolution-`n` grid, in cell order.
pub fn cell_dirs(n: usize) -> Vec<Vec3> {
    super::Grid::Whole(n).directions()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_to_scattered_points_match_brute_force() {
        let n = 20;
        let dirs = cell_dirs(n);
        // Seeds: every 97th cell, two groups split by the sign of z.
        let mut seed_of = vec![NONE; dirs.len()];
        let mut points = Vec::new();
        for c in (0..dirs.len()).step_by(97) {
            seed_of[c] = points.len() as u32;
            points.push(dirs[c]);
        }
        let group: Vec<u32> = dirs.iter().map(|d| u32::from(d.z > 0.0)).collect();
        let near = nearest_points(n, &dirs, &seed_of, &points, &group, 2, &AtomicBool::new(false)).expect("not cancelled");
        let cell = std::f32::consts::FRAC_PI_2 / n as f32;
        for c in 0..dirs.len() {
            let best = (0..points.len()).filter(|&p| group[dirs.iter().position(|d| *d == points[p]).expect("seed cell")] == group[c]).map(|p| dirs[c].angle_between(points[p])).fold(f32::INFINITY, f32::min);
            let got = near.angle(c);
            assert!(got >= best - 1e-4 && got <= best + cell, "cell {c}: {got} vs {best}");
        }
    }

    #[test]
    fn cells_outside_every_group_get_nothing() {
        let n = 6;
        let dirs = cell_dirs(n);
        let mut seed_of = vec![NONE; dirs.len()];
        seed_of[0] = 0;
        let group: Vec<u32> = (0..dirs.len()).map(|c| if c < 36 { 0 } else { NONE }).collect();
        let near = nearest_points(n, &dirs, &seed_of, &[dirs[0]], &group, 1, &AtomicBool::new(false)).expect("not cancelled");
        assert_eq!(near.point[0], 0);
        assert_eq!(near.point[40], NONE);
        assert!(near.chord[40].is_infinite());
    }
}
