//! The run's cells around refined rivers: neighbours, the cell a river drains into, the cells
//! a tile or a curve reaches, and distances to a course's straight pieces.

use crate::planet::cell_map::CellMap;
use crate::planet::coords::{dir_to_face_ab, wrap_cell, Cell};
use crate::planet::Grid;
use glam::Vec3;
use rayon::prelude::*;

/// The eight neighbours of `c` at level `m` (across face edges; fewer at cube corners).
pub fn neighbours(c: Cell, m: usize) -> impl Iterator<Item = Cell> {
    (-1i64..=1).flat_map(move |dj| (-1i64..=1).map(move |di| (di, dj))).filter(|&d| d != (0, 0)).filter_map(move |(di, dj)| wrap_cell(c.face, c.i as i64 + di, c.j as i64 + dj, m))
}

/// The cell river cell `c` drains into, as the landscape evolution routes water: its steepest
/// downhill neighbour (its receivers are not an output), or on a flat (a lake's) the lowest
/// neighbour with a larger drainage area; `None` where neither exists.
pub fn receiver(c: Cell, m: usize, area: &[f32], elevation: &[f32]) -> Option<Cell> {
    let (h, at) = (elevation[c.index(m)], c.direction(m));
    let drop = |r: &Cell| (h - elevation[r.index(m)]) / (r.direction(m) - at).length().max(1e-12);
    let steepest = neighbours(c, m).filter(|r| drop(r) > 0.0).max_by(|a, b| drop(a).total_cmp(&drop(b)));
    steepest.or_else(|| {
        let own = area[c.index(m)];
        neighbours(c, m).filter(|r| area[r.index(m)] > own).min_by(|a, b| elevation[a.index(m)].total_cmp(&elevation[b.index(m)]))
    })
}

/// The cell of level `m` that direction `d` lies in.
pub fn containing(d: Vec3, m: usize) -> Cell {
    let (face, a, b) = dir_to_face_ab(d);
    let at = |x: f32| ((x * m as f32) as usize).min(m - 1);
    Cell { face, i: at(a), j: at(b) }
}

/// Distance (chord, in radii) from `p` to the segment `a`..`b` (unit vectors, a cell or two
/// apart, where the chord is the arc), and where along it (0 at `a`, 1 at `b`) the nearest
/// point lies.
pub fn to_segment(p: Vec3, a: Vec3, b: Vec3) -> (f32, f32) {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-20)).clamp(0.0, 1.0);
    ((p - (a + ab * t)).length(), t)
}

/// Least width of a run cell between its opposite sides, in nominal cells: the tangent warp's
/// cells keep their nominal width along the face's middle lines and narrow to about 0.82 of it
/// at the cube's corners (rhombi of 0.94 a side).
pub const NARROWEST_CELL: f32 = 0.75;

/// Spacing of the points a course's reach is found from, in nominal cells (every point of the
/// curve lies within half of it of one).
pub const REACH_STEP_CELLS: f32 = 0.25;

/// How many rings of run cells around the cell of a point lie within `cells` nominal cells of
/// it: a path of that length crosses at most that many cell borders each way.
pub fn rings_within(cells: f32) -> usize {
    (cells.max(0.0) / NARROWEST_CELL).ceil() as usize
}

/// The run cells (level `m`) within `rings` rings of the `seeds`, each once with its ring.
pub fn ringed(seeds: impl IntoIterator<Item = Cell>, rings: usize, m: usize) -> Vec<(usize, usize)> {
    let mut found: CellMap<usize> = CellMap::default();
    // Whether `c` is new, found in `ring` (a cell found before keeps its ring).
    let mut first = |c: &Cell, ring: usize| match found.entry(c.index(m)) {
        std::collections::hash_map::Entry::Vacant(e) => {
            e.insert(ring);
            true
        }
        std::collections::hash_map::Entry::Occupied(_) => false,
    };
    let mut front: Vec<Cell> = seeds.into_iter().filter(|c| first(c, 0)).collect();
    for ring in 1..=rings {
        front = front.iter().flat_map(|&c| neighbours(c, m)).filter(|r| first(r, ring)).collect();
    }
    found.into_iter().collect()
}

/// The run cells (level `m`) that the cells of `grid` lie in, possibly with a few more beside
/// them, in no order and possibly repeated. For a tile whose cells lie on one face, the rectangle of run cells its
/// border cells lie in, one more each way (along a face the cell a direction lies in moves
/// with its position, so the inside's cells lie in the rectangle; the margin covers rounding),
/// found from the border alone; else every cell's own.
pub fn footprint(grid: Grid, m: usize) -> Vec<usize> {
    let n = grid.n();
    let own = |k: usize| containing(grid.cell(k).direction(n), m);
    if let (Grid::Tile(t), Some(_)) = (grid, grid.straight_row(0)) {
        let w = t.width();
        let border: Vec<Cell> = (0..w).flat_map(|x| [x, (w - 1) * w + x, x * w, x * w + w - 1]).map(own).collect();
        if border.iter().all(|c| c.face == t.face) {
            let span = |of: fn(&Cell) -> usize| {
                let (lo, hi) = border.iter().map(of).fold((usize::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
                lo.saturating_sub(1)..=(hi + 1).min(m - 1)
            };
            let (is, js) = (span(|c| c.i), span(|c| c.j));
            return js.flat_map(|j| is.clone().map(move |i| Cell { face: t.face, i, j }.index(m))).collect();
        }
    }
    (0..grid.cells()).into_par_iter().map(|k| own(k).index(m)).collect()
}
