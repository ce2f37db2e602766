//! Neighbour tables of the cube-sphere, shared by every stencil operation at a resolution
//! (filters, erosion, reefs, plate boundaries): for every cell and every pipe, the neighbour
//! it leads to and the index of the pipe that leads back, so that what one cell sends the
//! other receives exactly (conservation across seams, whatever their orientation), and the
//! pipe's true length on the sphere.

use super::cache::PerResolution;
use super::cell_directions::CellDirections;
use super::coords::{neighbour, Cell, NEIGHBOURS_4, NEIGHBOURS_8};
use rayon::prelude::*;
use std::sync::Arc;

/// Marks a missing Moore neighbour (the diagonal over a cube corner).
pub const NONE: u32 = u32::MAX;

/// Pipes of `K` neighbours per cell with their return pipes.
#[derive(Debug)]
pub struct PipeTable<const K: usize> {
    /// Cells per face edge.
    pub n: usize,
    /// `K` neighbour indices per cell ([`NONE`] where there is none).
    pub to: Vec<[u32; K]>,
    /// For each pipe, the index (0..K) of the neighbour's pipe that points back.
    pub back: Vec<[u8; K]>,
    /// For each pipe `k`, `length[k][p]` is the great-circle distance between the centres of
    /// the cell at face position `p` (`j n + i`, the same on every face: [`pipe_length_at`])
    /// and its neighbour, in units of the nominal cell size `(PI / 2) / n` rad: 0.6 to 1.3
    /// (times `sqrt(2)` for diagonals), since the warp evens out cell areas but leaves cells
    /// narrow along the face edges. Both ends of a pipe have the same length (across a seam to
    /// within rounding). 1 where there is no neighbour. One array per pipe, so that runs of
    /// cells read them as vectors. Read through [`PipeTable::length`].
    length: [Vec<f32>; K],
    /// Index offset of each pipe for a cell inside a face (not on its border), for [`Run`].
    offsets: [isize; K],
    /// The return pipe of each pipe inside a face, for [`Run`].
    opposite: [u8; K],
}

/// The neighbours of one cell, read from the table (for cells on a face's border; inside a
/// face [`Run`] reads them at fixed offsets).
#[derive(Clone, Copy)]
pub struct Neighbours<'a, const K: usize> {
    /// The cell's linear index.
    pub c: usize,
    table: &'a PipeTable<K>,
}

impl<const K: usize> Neighbours<'_, K> {
    /// The cell at the end of pipe `k`, or `None` (a diagonal over a cube corner).
    #[inline(always)]
    pub fn to(&self, k: usize) -> Option<usize> {
        let x = self.table.to[self.c][k];
        (x != NONE).then_some(x as usize)
    }

    /// The cell at the end of pipe `k` where every pipe exists (the von Neumann table).
    #[inline(always)]
    pub fn to_existing(&self, k: usize) -> usize {
        self.table.to[self.c][k] as usize
    }

    /// The index of the pipe of the neighbour at the end of pipe `k` that points back.
    #[inline(always)]
    pub fn back(&self, k: usize) -> usize {
        self.table.back[self.c][k] as usize
    }
}

impl<const K: usize> PipeTable<K> {
    /// Builds the table (in parallel: it is built on the first simulation at a resolution).
    /// Inside a face the neighbours lie at fixed index offsets and every pipe's return pipe is
    /// its opposite; only the border cells look theirs up across the seams. The lengths are
    /// the same on every face ([`pipe_length_at`]): computed on one face, copied to the others.
    fn build(n: usize, offsets: &[(i64, i64); K]) -> PipeTable<K> {
        let cells = 6 * n * n;
        let inner = offsets.map(|(di, dj)| di as isize + dj as isize * n as isize);
        let opposite = inner.map(|o| inner.iter().position(|&x| x == -o).unwrap_or(0) as u8);
        let interior = |c: usize| inside_face(c, n);
        let to: Vec<[u32; K]> = (0..cells)
            .into_par_iter()
            .map(|c| {
                if interior(c) {
                    return inner.map(|o| (c as isize + o) as u32);
                }
                let cell = Cell::from_index(c, n);
                let mut row = [NONE; K];
                for (k, &(di, dj)) in offsets.iter().enumerate() {
                    if let Some(x) = neighbour(cell, di, dj, n) {
                        row[k] = x.index(n) as u32;
                    }
                }
                row
            })
            .collect();
        let back = (0..cells)
            .into_par_iter()
            .map(|c| {
                if interior(c) {
                    return opposite;
                }
                let mut row = [0u8; K];
                for k in 0..K {
                    let nb = to[c][k];
                    if nb != NONE {
                        row[k] = to[nb as usize].iter().position(|&x| x == c as u32).unwrap_or(0) as u8;
                    }
                }
                row
            })
            .collect();
        let centres = CellDirections::new(super::Grid::Whole(n));
        let length = std::array::from_fn(|k| (0..n * n).into_par_iter().map(|p| pipe_length_at(p % n, p / n, offsets[k], n, &centres).unwrap_or(1.0)).collect());
        PipeTable { n, to, back, length, offsets: inner, opposite }
    }
}

/// The length of the pipe at offset `(di, dj)` from the cell at face position `(i, j)`, at
/// level `n`: the great-circle distance between the two cell centres in units of the nominal
/// cell size `(PI / 2) / n` rad ([`PipeTable::length`]); `None` for a diagonal over a cube
/// corner. Every face has the same cells and the same seams around it, turned, so this is one
/// face's (the front's) whatever face the cell lies on: the whole planet's table and a tile's
/// stencil get the same value to the bit. From the cube points of the two centres (`centres`:
/// any grid's tables of its columns and rows, [`CellDirections::cube_point`]) in `f64`
/// (exact products of the `f32` coordinates), as the angle of their cross and dot products,
/// which stays accurate for the tiny angles of fine levels.
pub fn pipe_length_at(i: usize, j: usize, (di, dj): (i64, i64), n: usize, centres: &CellDirections) -> Option<f32> {
    let from = Cell { face: super::Face::Front, i, j };
    let to = neighbour(from, di, dj, n)?;
    let (a, b) = (centres.cube_point(from).as_dvec3(), centres.cube_point(to).as_dvec3());
    let nominal = std::f64::consts::FRAC_PI_2 / n as f64;
    Some((a.cross(b).length().atan2(a.dot(b)) / nominal) as f32)
}

impl<const K: usize> PipeTable<K> {
    /// The length of pipe `k` from cell `c` ([`PipeTable`]'s `length`: in nominal cells of
    /// `(PI / 2) / n` rad, 1 where the pipe leads nowhere).
    #[inline(always)]
    pub fn length(&self, k: usize, c: usize) -> f32 {
        self.length[k][c % (self.n * self.n)]
    }

    /// The lengths of every pipe from cell `c` ([`PipeTable::length`] of each, the cell's face
    /// position found once).
    #[inline(always)]
    pub fn lengths_of(&self, c: usize) -> [f32; K] {
        let p = c % (self.n * self.n);
        std::array::from_fn(|k| self.length[k][p])
    }

    /// The neighbours of cell `c`, as in [`PipeTable::to`]: inside a face from the fixed
    /// offsets, on its border from the table (sweeps that visit cells in a scattered order
    /// save a memory read per cell).
    #[inline(always)]
    pub fn neighbours_of(&self, c: usize) -> [u32; K] {
        if inside_face(c, self.n) {
            self.offsets.map(|o| (c as isize + o) as u32)
        } else {
            self.to[c]
        }
    }
}

/// Whether cell `c` at `n` cells per face edge lies inside its face, not on its border (all
/// its neighbours on the same face, at fixed index offsets).
#[inline(always)]
fn inside_face(c: usize, n: usize) -> bool {
    let (i, j) = (c % n, (c / n) % n);
    i > 0 && j > 0 && i + 1 < n && j + 1 < n
}

/// The interior cells of one row (all neighbours on the same face, at fixed index offsets):
/// slices of per-cell arrays at these cells and at their neighbours line up index by index,
/// so that loops over them have no table lookups and no branches, and compile to vector code.
#[derive(Clone, Copy)]
pub struct Run<const K: usize> {
    /// Linear index of the run's first cell (the second cell of its row).
    pub first: usize,
    /// Cells in the run.
    pub len: usize,
    offsets: [isize; K],
    opposite: [u8; K],
}

impl<const K: usize> Run<K> {
    /// `data` at the run's cells.
    #[inline(always)]
    pub fn at<'a, T>(&self, data: &'a [T]) -> &'a [T] {
        &data[self.first..][..self.len]
    }

    /// `data` at the run's cells' neighbours, one slice per pipe.
    #[inline(always)]
    pub fn around<'a, T>(&self, data: &'a [T]) -> [&'a [T]; K] {
        self.offsets.map(|o| &data[(self.first as isize + o) as usize..][..self.len])
    }

    /// What the neighbours send back to the run's cells: for each pipe `k`, the values of
    /// `per_pipe` (one array per pipe, like [`PipeTable::length`]) of the neighbour at the end
    /// of pipe `k`, in its pipe that points back.
    #[inline(always)]
    pub fn inflow<'a, T>(&self, per_pipe: &'a [Vec<T>; K]) -> [&'a [T]; K] {
        std::array::from_fn(|k| &per_pipe[self.opposite[k] as usize][(self.first as isize + self.offsets[k]) as usize..][..self.len])
    }

    /// The pipe lengths of the run's cells, one slice per pipe.
    #[inline(always)]
    pub fn lengths<'a>(&self, table: &'a PipeTable<K>) -> [&'a [f32]; K] {
        let p = self.first % (table.n * table.n);
        std::array::from_fn(|k| &table.length[k][p..][..self.len])
    }

    /// The part of a row's output that belongs to the run (all but its first and last cell).
    #[inline(always)]
    pub fn of_row<'a, T>(&self, row: &'a mut [T]) -> &'a mut [T] {
        &mut row[1..][..self.len]
    }
}

/// Runs `f(neighbours, i)` for the cells `i` of row `row` that lie on their face's border
/// (their neighbours come from the table) and returns the row's interior run, if it has one
/// (rows run over all faces: row `face * n + j`).
#[inline(always)]
pub fn border_cells<const K: usize>(table: &PipeTable<K>, row: usize, mut f: impl FnMut(&Neighbours<'_, K>, usize)) -> Option<Run<K>> {
    let (n, j) = (table.n, row % table.n);
    let mut cell = |i: usize| f(&Neighbours { c: row * n + i, table }, i);
    if n < 3 || j == 0 || j + 1 == n {
        (0..n).for_each(&mut cell);
        return None;
    }
    cell(0);
    cell(n - 1);
    Some(Run { first: row * n + 1, len: n - 2, offsets: table.offsets, opposite: table.opposite })
}

/// The absolute differences between 4-neighbours of `f`: those inside a face, and those
/// across a face seam (how tests tell a seam from ordinary variation).
#[cfg(test)]
pub(crate) fn neighbour_steps(f: &crate::planet::Field) -> (Vec<f32>, Vec<f32>) {
    let n = f.n();
    let table = pipes4(n);
    let (mut inside, mut across) = (Vec::new(), Vec::new());
    for c in 0..6 * n * n {
        for &x in &table.to[c] {
            let step = (f.data()[c] - f.data()[x as usize]).abs();
            if c / (n * n) == x as usize / (n * n) {
                inside.push(step);
            } else {
                across.push(step);
            }
        }
    }
    (inside, across)
}

static TABLES4: PerResolution<PipeTable<4>> = PerResolution::new();
static TABLES8: PerResolution<PipeTable<8>> = PerResolution::new();

/// The von Neumann table (left, right, up, down) of resolution `n`, cached.
pub fn pipes4(n: usize) -> Arc<PipeTable<4>> {
    TABLES4.get(n, || PipeTable::build(n, &NEIGHBOURS_4))
}

/// The Moore table of resolution `n` (corner cells miss one diagonal), cached.
pub fn pipes8(n: usize) -> Arc<PipeTable<8>> {
    TABLES8.get(n, || PipeTable::build(n, &NEIGHBOURS_8))
}

/// Drops the cached tables of resolution `n` (about 23 and 45 bytes per cell): builds call this
/// after each node so that a table lives only while a node uses it.
pub fn forget_tables(n: usize) {
    TABLES4.forget(n);
    TABLES8.forget(n);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computed_neighbours_are_the_table_s() {
        for n in [1, 2, 3, 8] {
            let t = pipes8(n);
            for c in 0..6 * n * n {
                assert_eq!(t.neighbours_of(c), t.to[c], "n {n} cell {c}");
            }
        }
    }

    /// The table copies one face's lengths to the others: each is the pipe's own great-circle
    /// length between its two cell centres (to within the rounding of the cells' `f32`
    /// directions), and the missing diagonals over the cube corners get 1.
    #[test]
    fn every_face_s_pipes_are_their_own_length() {
        for n in [1usize, 2, 3, 8, 33, 64] {
            let t = pipes8(n);
            for c in 0..6 * n * n {
                let here = Cell::from_index(c, n).direction(n).as_dvec3().normalize();
                for k in 0..8 {
                    let nb = t.to[c][k];
                    if nb == NONE {
                        assert_eq!(t.length(k, c), 1.0);
                        continue;
                    }
                    let there = Cell::from_index(nb as usize, n).direction(n).as_dvec3().normalize();
                    let own = here.angle_between(there) / (std::f64::consts::FRAC_PI_2 / n as f64);
                    assert!((f64::from(t.length(k, c)) - own).abs() < 1e-5 * own, "n {n} cell {c} pipe {k}: {} against {own}", t.length(k, c));
                }
            }
        }
    }

    #[test]
    fn pipe_lengths_follow_the_sphere() {
        let n = 64;
        let t = pipes8(n);
        // The warp evens out cell areas, not shapes: along a face edge cells are narrow (pipes
        // along the edge about 0.66 of the nominal length, across it about 1.1).
        let (mut lo, mut hi) = (f32::MAX, 0.0f32);
        for c in 0..6 * n * n {
            for (k, offset) in NEIGHBOURS_8.iter().enumerate() {
                let nb = t.to[c][k];
                if nb != NONE {
                    let diagonal = offset.0 != 0 && offset.1 != 0;
                    let cell = Cell::from_index(c, n);
                    if diagonal && (cell.i == 0 || cell.j == 0 || cell.i == n - 1 || cell.j == n - 1) {
                        // Diagonals over a seam bend round the cube edge (and near a corner
                        // reach a third face): their lengths vary more.
                        continue;
                    }
                    let ratio = t.length(k, c) / if diagonal { std::f32::consts::SQRT_2 } else { 1.0 };
                    assert!((0.6..1.3).contains(&ratio), "cell {c} pipe {k}: {}", t.length(k, c));
                    (lo, hi) = (lo.min(ratio), hi.max(ratio));
                }
            }
        }
        assert!(lo < 0.75 && hi > 1.05, "the lengths vary: {lo} .. {hi}");
    }

    #[test]
    fn border_cells_and_the_interior_run_cover_each_row_once_with_the_table_neighbours() {
        for n in [1usize, 2, 3, 7] {
            let t = pipes8(n);
            let index: Vec<usize> = (0..6 * n * n).collect();
            // Pipe ids as values (cell * 8 + pipe), for the inflow slices.
            let ids: [Vec<usize>; 8] = std::array::from_fn(|p| (0..6 * n * n).map(|c| c * 8 + p).collect());
            let mut seen = vec![0u32; 6 * n * n];
            for row in 0..6 * n {
                let mut border = Vec::new();
                let run = border_cells(&t, row, |nbs, i| {
                    assert_eq!(nbs.c, row * n + i);
                    border.push(i);
                });
                for &i in &border {
                    seen[row * n + i] += 1;
                }
                if let Some(run) = run {
                    let (cells, around, lengths, inflow) = (run.at(&index), run.around(&index), run.lengths(&t), run.inflow(&ids));
                    let mut row_out: Vec<usize> = (0..n).collect();
                    assert_eq!(run.of_row(&mut row_out), cells.iter().map(|c| c - row * n).collect::<Vec<_>>().as_slice());
                    for (x, &c) in cells.iter().enumerate() {
                        seen[c] += 1;
                        for (k, nb) in around.iter().enumerate() {
                            assert_eq!(nb[x], t.to[c][k] as usize, "n {n} cell {c} pipe {k}");
                            assert_eq!(lengths[k][x], t.length(k, c));
                            assert_eq!(inflow[k][x], t.to[c][k] as usize * 8 + t.back[c][k] as usize);
                        }
                    }
                }
            }
            assert!(seen.iter().all(|&v| v == 1), "n {n}");
        }
    }

    #[test]
    fn every_pipe_has_a_return_pipe() {
        for n in [1usize, 3, 8] {
            let t4 = pipes4(n);
            for c in 0..6 * n * n {
                for k in 0..4 {
                    let nb = t4.to[c][k] as usize;
                    assert_eq!(t4.to[nb][t4.back[c][k] as usize] as usize, c);
                }
            }
            let t8 = pipes8(n);
            for c in 0..6 * n * n {
                for k in 0..8 {
                    let nb = t8.to[c][k];
                    if nb != NONE {
                        let back = t8.back[c][k] as usize;
                        assert_eq!(t8.to[nb as usize][back] as usize, c);
                        assert!((t8.length(back, nb as usize) - t8.length(k, c)).abs() < 1e-4);
                    }
                }
            }
        }
    }
}
