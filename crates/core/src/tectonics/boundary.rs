//! Plate boundaries on a cell grid: which cells touch another plate, the collision pressure
//! there, and for every cell the distance to the nearest boundary of its own plate (a
//! seam-aware distance transform), so that boundary features get a width in kilometres.

use super::motion::{collision_pressure, PlateMotion};
use super::plates::{Plates, UNCLAIMED};
use crate::planet::distance::{chord_to_angle, nearest_points};
use crate::planet::pipes::pipes4;
use crate::planet::SimError;
use glam::Vec3;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Kind of a plate boundary from the relative motion of the two plates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundaryClass {
    /// Plates move towards each other (mountains, trenches, island arcs).
    Convergent,
    /// Plates move apart (rifts, mid-ocean ridges).
    Divergent,
    /// Plates slide past each other.
    Transform,
}

/// Classifies a boundary from the normal component of the relative velocity (`closing`,
/// positive when closing) and its tangential component (`shear`, non-negative): transform
/// when the shear is more than twice the closing or opening speed.
pub fn classify(closing: f32, shear: f32) -> BoundaryClass {
    if closing.abs() * 2.0 < shear {
        BoundaryClass::Transform
    } else if closing > 0.0 {
        BoundaryClass::Convergent
    } else {
        BoundaryClass::Divergent
    }
}

/// One boundary cell, as seen from its own plate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundaryPoint {
    /// Unit direction of the cell centre.
    pub dir: Vec3,
    /// Collision pressure (seed 000 phase 3, unit-direction form) of the cell's region,
    /// smoothed along the boundary.
    pub pressure: f32,
    /// The plate on the other side (the most common one among the cell's neighbours).
    pub other: u32,
    /// Convergent, divergent or transform.
    pub class: BoundaryClass,
}

/// Per cell of a resolution-`n` grid: the nearest boundary point of the cell's own plate.
#[derive(Debug, Clone)]
pub struct BoundaryMap {
    /// Cells per face edge.
    pub n: usize,
    /// All boundary points.
    pub points: Vec<BoundaryPoint>,
    /// Index into `points` of each cell's nearest boundary point (u32::MAX: its plate has no
    /// boundary, for example a single plate).
    pub nearest: Vec<u32>,
    /// Angle in radians from each cell centre to that point (infinite where there is none).
    pub angle: Vec<f32>,
}

/// Seed 000 phase 3 on the regions: for every border region, the collision pressure, closing
/// speed and shear speed against its neighbours in other plates (means), then smoothed along
/// the boundary over `passes` rounds (each border region averages with the border regions of
/// its own plate around it). The smoothing removes the jitter of single region pairs, whose
/// centroid directions zig-zag along a ragged border. Interior regions get zeros.
pub fn region_boundary_values(plates: &Plates, motion: &PlateMotion, passes: usize) -> Vec<[f32; 3]> {
    let regions = &plates.regions;
    let mut cur: Vec<[f32; 3]> = (0..regions.len())
        .into_par_iter()
        .map(|i| {
            let a = plates.plate_of[i];
            if a == UNCLAIMED || !plates.is_border[i] {
                return [0.0; 3];
            }
            let p = regions.position(i);
            let v = motion.velocity(a as usize, p);
            let (mut acc, mut count) = ([0.0f32; 3], 0);
            for &k in regions.neighbours(i) {
                let b = plates.plate_of[k as usize];
                if b == a || b == UNCLAIMED {
                    continue;
                }
                let q = regions.position(k as usize);
                let w = motion.velocity(b as usize, p);
                let d = (q - p).normalize_or_zero();
                let rel = v - w;
                let closing = rel.dot(d);
                acc[0] += collision_pressure(p, v, q, w);
                acc[1] += closing;
                acc[2] += (rel - closing * d).length();
                count += 1;
            }
            if count == 0 {
                [0.0; 3]
            } else {
                acc.map(|x| x / count as f32)
            }
        })
        .collect();
    let border: Vec<usize> = (0..regions.len()).filter(|&i| plates.is_border[i] && plates.plate_of[i] != UNCLAIMED).collect();
    for _ in 0..passes {
        let next: Vec<[f32; 3]> = border
            .par_iter()
            .map(|&i| {
                let a = plates.plate_of[i];
                let mut acc = cur[i];
                let mut count = 1.0;
                for &k in regions.neighbours(i) {
                    let k = k as usize;
                    if plates.plate_of[k] == a && plates.is_border[k] {
                        for (x, y) in acc.iter_mut().zip(cur[k]) {
                            *x += y;
                        }
                        count += 1.0;
                    }
                }
                acc.map(|x| x / count)
            })
            .collect();
        for (&i, v) in border.iter().zip(next) {
            cur[i] = v;
        }
    }
    cur
}

/// The plate across a boundary from a cell of plate `own` with the 4 neighbours `nb`: the most
/// common foreign plate among them (the first wins a tie), with a neighbour cell on it.
/// `None` inside a plate.
pub fn other_plate(nb: &[u32; 4], cell_plate: &[u32], own: u32) -> Option<(u32, u32)> {
    let mut best: Option<(usize, u32, u32)> = None;
    for &k in nb {
        let b = cell_plate[k as usize];
        if b == own || b == UNCLAIMED {
            continue;
        }
        let votes = nb.iter().filter(|&&x| cell_plate[x as usize] == b).count();
        if best.is_none_or(|x| votes > x.0) {
            best = Some((votes, b, k));
        }
    }
    best.map(|(_, b, k)| (b, k))
}

/// Finds the boundary cells of `cell_plate` (plate per cell) and the distance of every cell
/// to its plate's nearest boundary. `dirs` are the cell centres; `cell_region` gives each cell's nearest region and
/// `region_values` the smoothed boundary values of [`region_boundary_values`]. Returns `None`
/// when `cancel` is set.
pub fn boundary_map(n: usize, dirs: &[Vec3], cell_plate: &[u32], cell_region: &[u32], plates: &Plates, region_values: &[[f32; 3]], cancel: &AtomicBool) -> Result<BoundaryMap, SimError> {
    let cells = 6 * n * n;
    let table = pipes4(n);
    let found: Vec<Option<BoundaryPoint>> = (0..cells)
        .into_par_iter()
        .map(|c| {
            let a = cell_plate[c];
            if a == UNCLAIMED {
                return None;
            }
            let (other, _) = other_plate(&table.to[c], cell_plate, a)?;
            let r = cell_region[c] as usize;
            // A cell on the boundary whose own region is not a border region (its Voronoi
            // neighbour lies beyond the Moore block) borrows the values of the region across.
            let vals = if plates.is_border[r] { region_values[r] } else { table.to[c].iter().map(|&k| cell_region[k as usize] as usize).find(|&k| plates.plate_of[k] == other).map(|k| region_values[k]).unwrap_or([0.0; 3]) };
            Some(BoundaryPoint { dir: dirs[c], pressure: vals[0], other, class: classify(vals[1], vals[2]) })
        })
        .collect();
    if cancel.load(Ordering::Relaxed) {
        return Err(SimError::Cancelled);
    }
    let mut points = Vec::new();
    let mut seed_of = vec![u32::MAX; cells];
    for (c, f) in found.into_iter().enumerate() {
        if let Some(pt) = f {
            seed_of[c] = points.len() as u32;
            points.push(pt);
        }
    }
    // Plates never exchange distances, so each plate is swept on its own (in parallel).
    let dirs_of: Vec<Vec3> = points.iter().map(|p| p.dir).collect();
    let near = nearest_points(n, dirs, &seed_of, &dirs_of, cell_plate, plates.count(), cancel)?;
    let angle = near.chord.iter().map(|&c| chord_to_angle(c)).collect();
    Ok(BoundaryMap { n, points, nearest: near.point, angle })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::{Cell, RegionSurface};
    use crate::tectonics::motion::BaseElevation;
    use crate::tectonics::plates::PlateSettings;
    use std::sync::Arc;

    #[test]
    fn classification() {
        assert_eq!(classify(1.0, 0.1), BoundaryClass::Convergent);
        assert_eq!(classify(-1.0, 0.1), BoundaryClass::Divergent);
        assert_eq!(classify(0.1, 1.0), BoundaryClass::Transform);
    }

    #[test]
    fn distances_match_brute_force_within_a_cell() {
        let s = Arc::new(RegionSurface::new(8, 1.0, 5));
        let plates = Plates::grow(s.clone(), &PlateSettings { count: 6, expansion_range: 0.5, random_driven: true, max_cycles: None, seed: 2 }).expect("plates");
        let motion = PlateMotion::new(&plates, BaseElevation::RandomRange(1.0), 3);
        let n = 24;
        let region = s.nearest_per_cell(n);
        let plate: Vec<u32> = region.iter().map(|&r| plates.plate_of[r as usize]).collect();
        let values = region_boundary_values(&plates, &motion, 2);
        let dirs: Vec<Vec3> = (0..6 * n * n).map(|c| Cell::from_index(c, n).direction(n)).collect();
        let map = boundary_map(n, &dirs, &plate, &region, &plates, &values, &AtomicBool::new(false)).expect("map");
        assert!(!map.points.is_empty());
        let cell_angle = std::f32::consts::FRAC_PI_2 / n as f32;
        let mut total_err = 0.0;
        for c in 0..6 * n * n {
            let d = Cell::from_index(c, n).direction(n);
            // Brute force: nearest boundary point of the same plate.
            let best = map.points.iter().filter(|p| plate[dir_cell(p.dir, n)] == plate[c]).map(|p| p.dir.angle_between(d)).fold(f32::INFINITY, f32::min);
            assert!(map.angle[c] >= best - 1e-4, "never shorter than the truth");
            // Vector propagation over 4-neighbours can miss the true nearest point by a
            // fraction of a cell at a few cells (in ragged plates); never by a whole cell.
            assert!(map.angle[c] <= best + cell_angle, "cell {c}: {} vs {}", map.angle[c], best);
            total_err += (map.angle[c] - best).max(0.0) / cell_angle;
        }
        let mean = total_err / (6 * n * n) as f32;
        assert!(mean < 0.02, "mean error {mean} cells");
    }

    fn dir_cell(d: Vec3, n: usize) -> usize {
        crate::planet::dir_to_cell(d, n).index(n)
    }
}
