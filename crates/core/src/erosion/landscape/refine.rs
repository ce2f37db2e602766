//! Rivers finer than the run that found them: on a grid finer than the landscape evolution's,
//! each river cell's course to the cell it drains into becomes a line of the river's own width
//! (from its discharge), so close-ups and large builds show thin, continuous rivers instead of
//! the run's cells blown up.

use crate::planet::coords::{dir_to_face_ab, wrap_cell, Cell};
use crate::planet::fbm::{noise_radius, FastFbm};
use crate::planet::{Field, Grid};
use glam::Vec3;
use rayon::prelude::*;
use std::collections::HashMap;

/// Width of a river carrying `discharge_m3_s`, metres: about 4 Q^0.5 (the hydraulic geometry of
/// alluvial rivers, Leopold and Maddock: a river of 1 000 m³/s is about 130 m wide).
pub fn river_width_m(discharge_m3_s: f32) -> f32 {
    4.0 * discharge_m3_s.max(0.0).sqrt()
}

/// How far a line wanders from the straight course between two cells' centres, in the run's
/// cells (the lines bend like a river's reaches instead of running at multiples of 45 degrees).
const WANDER_CELLS: f32 = 0.3;
/// Wavelength of those bends, in the run's cells.
const BEND_CELLS: f32 = 2.0;

/// The eight neighbours of `c` at level `m` (across face edges; fewer at cube corners).
fn neighbours(c: Cell, m: usize) -> impl Iterator<Item = Cell> {
    (-1i64..=1).flat_map(move |dj| (-1i64..=1).map(move |di| (di, dj))).filter(|&d| d != (0, 0)).filter_map(move |(di, dj)| wrap_cell(c.face, c.i as i64 + di, c.j as i64 + dj, m))
}

/// The cell river cell `c` drains into, as the landscape evolution routes water: its steepest
/// downhill neighbour (its receivers are not an output), or on a flat (a lake's) the lowest
/// neighbour with a larger drainage area; `None` where neither exists.
fn receiver(c: Cell, m: usize, area: &[f32], elevation: &[f32]) -> Option<Cell> {
    let (h, at) = (elevation[c.index(m)], c.direction(m));
    let drop = |r: &Cell| (h - elevation[r.index(m)]) / (r.direction(m) - at).length().max(1e-12);
    let steepest = neighbours(c, m).filter(|r| drop(r) > 0.0).max_by(|a, b| drop(a).total_cmp(&drop(b)));
    steepest.or_else(|| {
        let own = area[c.index(m)];
        neighbours(c, m).filter(|r| area[r.index(m)] > own).min_by(|a, b| elevation[a.index(m)].total_cmp(&elevation[b.index(m)]))
    })
}

/// The cell of level `m` that direction `d` lies in.
fn containing(d: Vec3, m: usize) -> Cell {
    let (face, a, b) = dir_to_face_ab(d);
    let at = |x: f32| ((x * m as f32) as usize).min(m - 1);
    Cell { face, i: at(a), j: at(b) }
}

/// Distance (chord, in radii) from `p` to the segment `a`..`b` (unit vectors, a cell or two
/// apart, where the chord is the arc).
fn to_segment(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-20)).clamp(0.0, 1.0);
    (p - (a + ab * t)).length()
}

/// The rivers mask (0..1) on `grid`, finer than the run at level `m` whose river mask
/// (`rivers`, 1 on river cells), drainage area (km²), discharge (m³/s) and elevation it reads:
/// each river cell is joined to the cell it drains into by a line as wide as the river, or at
/// least 1.2 cells of `grid` so that it stays visible, wandering up to [`WANDER_CELLS`] off the
/// straight course; edges are smoothed over one cell.
pub fn refine_rivers(rivers: &Field, area_km2: &Field, discharge: &Field, elevation: &Field, grid: Grid, radius_km: f32) -> Field {
    let m = rivers.n();
    let n = grid.n();
    let (river, area, q, h) = (rivers.data(), area_km2.data(), discharge.data(), elevation.data());
    // The run's cells under the grid and two rings around them (a place looks at the ring
    // around the cell it wanders into, up to a cell away); their river courses, once.
    let mut near: Vec<usize> = (0..grid.cells()).into_par_iter().map(|k| containing(grid.cell(k).direction(n), m).index(m)).collect();
    for _ in 0..2 {
        near.par_sort_unstable();
        near.dedup();
        near = near.iter().flat_map(|&c| std::iter::once(c).chain(neighbours(Cell::from_index(c, m), m).map(|r| r.index(m)))).collect();
    }
    near.par_sort_unstable();
    near.dedup();
    let courses: HashMap<usize, (Vec3, Vec3, f32)> = near
        .into_iter()
        .filter(|&c| river[c] > 0.5)
        .filter_map(|c| {
            let cell = Cell::from_index(c, m);
            let to = receiver(cell, m, area, h)?;
            Some((c, (cell.direction(m), to.direction(m), river_width_m(q[c]))))
        })
        .collect();
    let cell_km = std::f32::consts::FRAC_PI_2 / n as f32 * radius_km;
    let radius_m = radius_km * 1000.0;
    // The lines wander: each place is looked up moved along a smooth tangent noise field.
    let wander = [0x5249_0001, 0x5249_0002, 0x5249_0003].map(|seed| FastFbm::new(seed, 2, 0.5, 2.0));
    let (scale, reach) = (noise_radius(4.0 * m as f32 / BEND_CELLS), WANDER_CELLS * std::f32::consts::FRAC_PI_2 / m as f32);
    Field::from_fn_cell_on(grid, |k| {
        let at = grid.cell(k).direction(n);
        let x = [f64::from(at.x) * scale, f64::from(at.y) * scale, f64::from(at.z) * scale];
        let v = Vec3::from(wander.each_ref().map(|w| w.get(x) as f32));
        let p = (at + (v - at * v.dot(at)) * reach).normalize();
        let home = containing(p, m);
        let mut best = 0.0f32;
        for c in std::iter::once(home).chain(neighbours(home, m)) {
            if let Some(&(a, b, width_m)) = courses.get(&c.index(m)) {
                let half_km = (0.5 * width_m / 1000.0).max(0.6 * cell_km);
                let d_km = to_segment(p, a, b) * radius_m / 1000.0;
                best = best.max(((half_km - d_km) / cell_km + 0.5).clamp(0.0, 1.0));
            }
        }
        best
    })
}

/// The lakes mask (0..1) on `grid`, finer than the run whose mask `lakes` it reads: the run's
/// mask sampled bilinearly and its half-way contour made a shore one cell of `grid` wide, so
/// lakes keep the run's outlines, smoothed, with sharp shores instead of blurred blocks.
pub fn refine_lakes(lakes: &Field, grid: Grid) -> Field {
    let (m, n) = (lakes.n(), grid.n());
    let sharpen = n as f32 / m as f32;
    Field::from_fn_cell_on(grid, |k| {
        let cell = grid.cell(k);
        let (a, b) = cell.center_ab(n);
        let v: f32 = Field::bilinear_taps_ab(m, cell.face, a, b).iter().map(|&(c, w)| w * lakes.data()[c]).sum();
        ((v - 0.5) * sharpen + 0.5).clamp(0.0, 1.0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::tile::Tile;
    use crate::planet::Face;

    /// A run at level 16 with one river along row 8 of the front face, flowing to +i down a
    /// valley, drawn on the whole front face at level 128.
    fn river_on_front() -> (Field, usize) {
        let m = 16;
        let on_river = |c: Cell| c.face == Face::Front && c.j == 8 && (2..14).contains(&c.i);
        let cell = |k: usize| Cell::from_index(k, m);
        let elevation = Field::from_fn_cell(m, |k| {
            let c = cell(k);
            0.5 - 0.01 * c.i as f32 + 0.02 * (c.j as f32 - 8.0).abs()
        });
        let rivers = Field::from_fn_cell(m, |k| if on_river(cell(k)) { 1.0 } else { 0.0 });
        let area = Field::from_fn_cell(m, |k| if on_river(cell(k)) { 1e4 * cell(k).i as f32 } else { 10.0 });
        let discharge = Field::from_fn_cell(m, |k| if on_river(cell(k)) { 100.0 * cell(k).i as f32 } else { 0.1 });
        let grid = Grid::Tile(Tile::new(Face::Front, 128, 0, 0, 128).expect("tile"));
        (refine_rivers(&rivers, &area, &discharge, &elevation, grid, 6371.0), 128)
    }

    #[test]
    fn a_river_becomes_a_thin_continuous_line_along_its_course() {
        let (f, n) = river_on_front();
        let at = |i: usize, j: usize| f.data()[j * n + i];
        // The course runs from the centre of cell 2 (fine column 20) to that of cell 13
        // (column 108), along the centre of row 8 (fine row 67.5).
        // It wanders up to 0.3 run cells (2.4 fine rows) off that line.
        for i in 24..105 {
            let column: Vec<f32> = (0..n).map(|j| at(i, j)).collect();
            assert!(column[62..74].iter().any(|&v| v > 0.5), "column {i}: {:?}", &column[60..76]);
            // A couple of cells wide (the river is tens of metres; the line keeps 1.2 cells).
            let sum: f32 = column.iter().sum();
            assert!(sum < 4.0, "column {i}: {sum}");
            assert!(column[..60].iter().chain(&column[76..]).all(|&v| v == 0.0), "column {i}");
        }
        // And it does wander: its middle row is not the same in every column.
        let middle = |i: usize| (0..n).max_by(|&a, &b| at(i, a).total_cmp(&at(i, b))).unwrap_or(0);
        assert!((24..105).any(|i| middle(i) != middle(24)));
        // Nothing upstream of the first river cell.
        assert!((0..n).all(|j| at(10, j) == 0.0));
    }

    #[test]
    fn lakes_keep_their_outline_with_a_sharp_shore() {
        // A run at 16 with a lake of 3 x 3 cells on the front face, drawn at 128.
        let m = 16;
        let lakes = Field::from_fn_cell(m, |k| {
            let c = Cell::from_index(k, m);
            if c.face == Face::Front && (6..9).contains(&c.i) && (6..9).contains(&c.j) {
                1.0
            } else {
                0.0
            }
        });
        let grid = Grid::Tile(Tile::new(Face::Front, 128, 0, 0, 128).expect("tile"));
        let f = refine_lakes(&lakes, grid);
        let at = |i: usize, j: usize| f.data()[j * 128 + i];
        // Inside water, outside dry, and the shore at most a cell wide on either side along a
        // row (the sampled mask alone would take 8 cells to fall from 1 to 0).
        assert_eq!(at(60, 60), 1.0);
        assert_eq!(at(30, 60), 0.0);
        let shore = (0..128).filter(|&i| at(i, 60) > 0.0 && at(i, 60) < 1.0).count();
        assert!(shore <= 2, "{shore}");
        // The water covers about the lake's area (9 run cells: 576 cells at 128).
        let water: f32 = f.data().iter().sum();
        assert!((water - 576.0).abs() < 0.25 * 576.0, "{water}");
    }

    #[test]
    fn wide_rivers_are_drawn_as_wide_as_they_are() {
        assert!((river_width_m(1000.0) - 126.5).abs() < 0.5);
        assert!(river_width_m(1e5) > 1000.0 && river_width_m(-1.0) == 0.0);
    }
}
