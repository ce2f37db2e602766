//! `Field`: one `f32` per cell of a cube-sphere (6 x n x n), the unit every node passes around.

use super::coords::{dir_to_face_ab, wrap_or_nearest, Cell};
use super::face::Face;
use super::rounding::floor32;
use super::tile::{Grid, Tile};
use glam::Vec3;
use rayon::prelude::*;

/// A scalar value per cell of a cube-sphere with `n` cells per face edge, stored face by face,
/// row-major (`face * n * n + j * n + i`); or, for region evaluation, per cell of one [`Tile`]
/// at level `n` (row-major within the tile). Units are those of the producing node (elevation
/// fields are unitless until the Planet output maps them to metres). The methods that look at
/// neighbours or sample (`get`, `get_wrapped`, `sample_*`, `resample`) are for whole fields:
/// region evaluation gives tiles only to nodes whose cells depend on nothing but the same cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    n: usize,
    tile: Option<Tile>,
    data: Vec<f32>,
}

impl Field {
    /// A field of resolution `n` filled with `value`.
    pub fn filled(n: usize, value: f32) -> Field {
        Field { n, tile: None, data: vec![value; 6 * n * n] }
    }

    /// A field on `grid` filled with `value`.
    pub fn filled_on(grid: Grid, value: f32) -> Field {
        Field { n: grid.n(), tile: grid.tile(), data: vec![value; grid.cells()] }
    }

    /// Where the values lie: the whole planet or one tile.
    pub fn grid(&self) -> Grid {
        self.tile.map_or(Grid::Whole(self.n), Grid::Tile)
    }

    /// Wraps existing data on `grid`; `data.len()` must be the grid's number of cells.
    pub fn from_vec_on(grid: Grid, data: Vec<f32>) -> Result<Field, super::FieldSizeError> {
        if data.len() == grid.cells() {
            Ok(Field { n: grid.n(), tile: grid.tile(), data })
        } else {
            Err(super::FieldSizeError { grid, expected: grid.cells(), len: data.len() })
        }
    }

    /// A field on `grid` from a function of each value's storage position and its cell's
    /// direction, in parallel rows (the same values [`Field::from_fn_index`] gives those cells).
    pub fn from_fn_on(grid: Grid, f: impl Fn(usize, Vec3) -> f32 + Sync) -> Field {
        let (dirs, w) = (super::cell_directions::CellDirections::new(grid), grid.row());
        Field::from_rows_on(grid, |row, values| {
            for ((i, v), cell) in values.iter_mut().enumerate().zip(grid.row_cells(row)) {
                *v = f(row * w + i, dirs.of(cell));
            }
        })
    }

    /// A field on `grid` whose storage rows `f` fills (the row's index and its values), rows
    /// in parallel: for kernels that carry work from one cell of a row to the next.
    pub fn from_rows_on(grid: Grid, f: impl Fn(usize, &mut [f32]) + Sync) -> Field {
        let mut out = Field::filled_on(grid, 0.0);
        out.data.par_chunks_mut(grid.row()).enumerate().for_each(|(row, values)| f(row, values));
        out
    }

    /// A field on the same grid as this one from a function of each value's storage position
    /// and its cell's direction (for nodes that combine their inputs cell by cell).
    pub fn like(&self, f: impl Fn(usize, Vec3) -> f32 + Sync) -> Field {
        Field::from_fn_on(self.grid(), f)
    }

    /// Wraps existing data; `data.len()` must be `6 n^2`, or the error names both lengths.
    pub fn from_vec(n: usize, data: Vec<f32>) -> Result<Field, super::FieldSizeError> {
        Field::from_vec_on(Grid::Whole(n), data)
    }

    /// A field whose value at each cell is `f(cell direction)`, computed in parallel.
    pub fn from_fn_dir(n: usize, f: impl Fn(Vec3) -> f32 + Sync) -> Field {
        Field::from_fn_index(n, |_, d| f(d))
    }

    /// A field on `grid` whose value at each cell is `f(cell direction)`, in parallel.
    pub fn from_fn_dir_on(grid: Grid, f: impl Fn(Vec3) -> f32 + Sync) -> Field {
        Field::from_fn_on(grid, |_, d| f(d))
    }

    /// A field whose value at each cell is `f(linear cell index)`, computed in parallel (no
    /// directions are computed).
    pub fn from_fn_cell(n: usize, f: impl Fn(usize) -> f32 + Sync) -> Field {
        Field::from_fn_cell_on(Grid::Whole(n), f)
    }

    /// A field on `grid` whose value at each storage position `k` is `f(k)`, in parallel (no
    /// directions are computed).
    pub fn from_fn_cell_on(grid: Grid, f: impl Fn(usize) -> f32 + Sync) -> Field {
        let mut out = Field::filled_on(grid, 0.0);
        out.data.par_iter_mut().enumerate().for_each(|(c, v)| *v = f(c));
        out
    }

    /// A field from a function of each cell's linear index and direction, in parallel rows.
    pub fn from_fn_index(n: usize, f: impl Fn(usize, Vec3) -> f32 + Sync) -> Field {
        Field::from_fn_on(Grid::Whole(n), f)
    }

    /// Cells per face edge.
    pub fn n(&self) -> usize {
        self.n
    }

    /// All values.
    pub fn data(&self) -> &[f32] {
        &self.data
    }

    /// All values, mutable.
    pub fn data_mut(&mut self) -> &mut [f32] {
        &mut self.data
    }

    /// Consumes the field and returns its values.
    pub fn into_vec(self) -> Vec<f32> {
        self.data
    }

    /// Value of one cell.
    pub fn get(&self, c: Cell) -> f32 {
        self.data[c.index(self.n)]
    }

    /// Applies `f` to every value in parallel.
    pub fn map(&self, f: impl Fn(f32) -> f32 + Sync) -> Field {
        Field { n: self.n, tile: self.tile, data: self.data.par_iter().map(|&v| f(v)).collect() }
    }

    /// Combines two fields on the same grid value by value.
    ///
    /// # Panics
    /// If the grids differ (a bug in the caller, which region evaluation turns into an error
    /// on the node).
    pub fn zip(&self, other: &Field, f: impl Fn(f32, f32) -> f32 + Sync) -> Field {
        assert_eq!(self.grid(), other.grid(), "combined fields lie on different grids");
        Field { n: self.n, tile: self.tile, data: self.data.par_iter().zip(other.data.par_iter()).map(|(&a, &b)| f(a, b)).collect() }
    }

    /// Smallest and largest value (ignores NaN). `(0, 0)` for an empty field.
    pub fn min_max(&self) -> (f32, f32) {
        let (lo, hi) = self.data.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        if lo > hi {
            (0.0, 0.0)
        } else {
            (lo, hi)
        }
    }

    /// Value at cell position `(i, j)` of `face`, where the position may lie one axis outside
    /// the face (wrapped across the seam). Over a cube corner the nearest in-face cell is used.
    pub fn get_wrapped(&self, face: Face, i: i64, j: i64) -> f32 {
        self.get(wrap_or_nearest(face, i, j, self.n))
    }

    /// Bilinear sample at face coordinates `(a, b)`, seamless across face edges.
    pub fn sample_ab(&self, face: Face, a: f32, b: f32) -> f32 {
        Field::sample_ab_by(self.n, face, a, b, |c| self.get(c))
    }

    /// [`Field::sample_ab`] of a field of resolution `n` whose cells' values `value` gives
    /// (the same cells, weights and arithmetic), for a field held in pieces.
    pub fn sample_ab_by(n: usize, face: Face, a: f32, b: f32, value: impl Fn(Cell) -> f32) -> f32 {
        let (cells, tx, ty) = Field::bilinear_cells_ab(n, face, a, b);
        Field::bilinear_mix(cells.map(value), tx, ty)
    }

    /// The four cells a bilinear sample at face coordinates `(a, b)` of `face` reads in a
    /// field of resolution `n` (the cell at or before the point, the next column, the next
    /// row, both; wrapped across face edges) and the point's fractions `(tx, ty)` between them:
    /// with [`Field::bilinear_mix`], the sample of [`Field::sample_ab`].
    pub fn bilinear_cells_ab(n: usize, face: Face, a: f32, b: f32) -> ([Cell; 4], f32, f32) {
        let ((i0, tx), (j0, ty)) = (bilinear_axis(n, a), bilinear_axis(n, b));
        let at = |i: i64, j: i64| wrap_or_nearest(face, i, j, n);
        ([at(i0, j0), at(i0 + 1, j0), at(i0, j0 + 1), at(i0 + 1, j0 + 1)], tx, ty)
    }

    /// The bilinear mix of the values of [`Field::bilinear_cells_ab`]'s cells at fractions
    /// `(tx, ty)`.
    #[inline]
    pub fn bilinear_mix([v00, v10, v01, v11]: [f32; 4], tx: f32, ty: f32) -> f32 {
        let top = v00 + (v10 - v00) * tx;
        let bottom = v01 + (v11 - v01) * tx;
        top + (bottom - top) * ty
    }

    /// The four cells and weights of the bilinear sample in the direction `dir` (the same as
    /// [`Field::sample_dir`] reads), for sampling many fields of resolution `n` at one place.
    pub fn bilinear_taps(n: usize, dir: Vec3) -> [(usize, f32); 4] {
        let (face, a, b) = dir_to_face_ab(dir);
        Field::bilinear_taps_ab(n, face, a, b)
    }

    /// The four cells and weights of the bilinear sample at face coordinates `(a, b)` of
    /// `face` (the same as [`Field::sample_ab`] reads) in a field of resolution `n`.
    pub fn bilinear_taps_ab(n: usize, face: Face, a: f32, b: f32) -> [(usize, f32); 4] {
        let ((i0, tx), (j0, ty)) = (bilinear_axis(n, a), bilinear_axis(n, b));
        let at = |i: i64, j: i64| wrap_or_nearest(face, i, j, n).index(n);
        [(at(i0, j0), (1.0 - tx) * (1.0 - ty)), (at(i0 + 1, j0), tx * (1.0 - ty)), (at(i0, j0 + 1), (1.0 - tx) * ty), (at(i0 + 1, j0 + 1), tx * ty)]
    }

    /// The sixteen cells and weights of the smooth (bicubic Catmull-Rom) sample at face
    /// coordinates `(a, b)` of `face` in a field of resolution `n`: it passes through the cells'
    /// values at their centres like the bilinear sample, but its slope is continuous across
    /// cell borders, so relief sampled on a finer grid has no facets along the coarse cells.
    /// Read it with [`SmoothTaps::sample`].
    pub fn smooth_taps_ab(n: usize, face: Face, a: f32, b: f32) -> SmoothTaps {
        Field::smooth_taps_of(n, face, smooth_axis(n, a), smooth_axis(n, b))
    }

    /// [`Field::smooth_taps_ab`] from the sample's column and row ([`smooth_axis`] of its `a`
    /// and its `b`), which a grid's rows share.
    fn smooth_taps_of(n: usize, face: Face, (i0, wx): (i64, [f32; 4]), (j0, wy): (i64, [f32; 4])) -> SmoothTaps {
        let mut cells = [0usize; 16];
        // Inside the face (the common case) the cells are found by their offsets; near an edge
        // each is wrapped onto its face.
        let inside = i0 >= 1 && j0 >= 1 && i0 + 2 < n as i64 && j0 + 2 < n as i64;
        let corner = face.index() * n * n + (j0 - 1).max(0) as usize * n + (i0 - 1).max(0) as usize;
        for (k, cell) in cells.iter_mut().enumerate() {
            let (di, dj) = (k % 4, k / 4);
            *cell = if inside { corner + dj * n + di } else { wrap_or_nearest(face, i0 - 1 + di as i64, j0 - 1 + dj as i64, n).index(n) };
        }
        SmoothTaps { cells, across: wx, down: wy }
    }

    /// Bilinear sample in the direction `dir` (need not be normalised, must not be zero).
    pub fn sample_dir(&self, dir: Vec3) -> f32 {
        let (face, a, b) = dir_to_face_ab(dir);
        self.sample_ab(face, a, b)
    }

    /// This whole-planet field on `grid` (a tile, or the whole planet at another level): the
    /// same cells' values where the levels agree, otherwise smooth samples
    /// ([`Field::smooth_taps_ab`]) at the grid's cell centres, seamless across face edges and
    /// without facets along the coarse cells.
    pub fn smooth_on(&self, grid: Grid) -> Field {
        let (m, n) = (self.n, grid.n());
        if m == n {
            return Field::from_fn_cell_on(grid, |k| self.data[grid.cell(k).index(m)]);
        }
        if let Some(first) = tile_on_one_face(grid) {
            // A cell's column gives its sample's column and weights, its row the rest, so each
            // is found once per column and per row.
            let (columns, rows) = tile_axes(first, grid.row(), n, |a| smooth_axis(m, a));
            // Neighbouring cells of a row share their coarse block while its column stays (64
            // cells at 16384 over 256): its 16 values are read once.
            return Field::from_rows_on(grid, |row, values| {
                let (_, wy) = rows[row];
                let mut block: Option<(i64, [f32; 16])> = None;
                for (v, &column) in values.iter_mut().zip(&columns) {
                    let d = match block {
                        Some((i0, d)) if i0 == column.0 => d,
                        _ => {
                            let taps = Field::smooth_taps_of(m, first.face, column, rows[row]);
                            let d = taps.cells.map(|c| self.data[c]);
                            block = Some((column.0, d));
                            d
                        }
                    };
                    *v = smooth_blend(&d, &column.1, &wy);
                }
            });
        }
        Field::from_fn_cell_on(grid, |k| {
            let cell = grid.cell(k);
            let (a, b) = cell.center_ab(n);
            Field::smooth_taps_ab(m, cell.face, a, b).sample(&self.data)
        })
    }

    /// This whole-planet field on `grid` by bilinear samples at the grid's cell centres
    /// ([`Field::sample_ab`] of each, the same bits): on a tile that lies on one face each
    /// column's and row's place between the coarse cells is found once, and a row reads the
    /// four values of a coarse block once while it stays in it.
    pub fn bilinear_on(&self, grid: Grid) -> Field {
        let (m, n) = (self.n, grid.n());
        let Some(first) = tile_on_one_face(grid) else {
            return Field::from_fn_cell_on(grid, |k| {
                let cell = grid.cell(k);
                let (a, b) = cell.center_ab(n);
                self.sample_ab(cell.face, a, b)
            });
        };
        let (columns, rows) = tile_axes(first, grid.row(), n, |a| bilinear_axis(m, a));
        Field::from_rows_on(grid, |row, values| {
            let (j0, ty) = rows[row];
            let mut block: Option<(i64, [f32; 4])> = None;
            for (v, &(i0, tx)) in values.iter_mut().zip(&columns) {
                let corners = match block {
                    Some((i, c)) if i == i0 => c,
                    _ => {
                        let at = |i: i64, j: i64| self.get(wrap_or_nearest(first.face, i, j, m));
                        let c = [at(i0, j0), at(i0 + 1, j0), at(i0, j0 + 1), at(i0 + 1, j0 + 1)];
                        block = Some((i0, c));
                        c
                    }
                };
                *v = Field::bilinear_mix(corners, tx, ty);
            }
        })
    }

    /// This field at resolution `m`: block average when `n` is a multiple of `m`, otherwise
    /// bilinear sampling at the new cell centres. Both use the shared face parameterisation.
    pub fn resample(&self, m: usize) -> Field {
        if m == self.n {
            return self.clone();
        }
        Field { n: m, tile: None, data: self.resample_map(m, |_, v| v) }
    }

    /// [`Field::resample`]'s value of each cell at resolution `m`, passed with the cell's index
    /// through `f` (so a result derived from it needs no resampled field of its own).
    pub fn resample_map<T: Copy + Default + Send + Sync>(&self, m: usize, f: impl Fn(usize, f32) -> T + Sync) -> Vec<T> {
        let n = self.n;
        let mut out = vec![T::default(); 6 * m * m];
        if m == n {
            out.par_iter_mut().zip(self.data.par_iter()).enumerate().for_each(|(c, (o, &v))| *o = f(c, v));
        } else if n > m && n.is_multiple_of(m) {
            let k = n / m;
            let inv = 1.0 / (k * k) as f32;
            out.par_chunks_mut(m).enumerate().for_each(|(row, chunk)| {
                let (face, j) = (row / m, row % m);
                for (i, v) in chunk.iter_mut().enumerate() {
                    let mut s = 0.0;
                    for dj in 0..k {
                        let base = face * n * n + (j * k + dj) * n + i * k;
                        s += self.data[base..base + k].iter().sum::<f32>();
                    }
                    *v = f(row * m + i, s * inv);
                }
            });
        } else {
            // The sample's column (or row) and fraction depend on the cell's column (or row)
            // alone: found once, and inside the face the four cells are read directly (the
            // same cells, weights and arithmetic as `sample_ab`).
            let taps: Vec<(i64, f32)> = (0..m)
                .map(|i| {
                    let x = Cell { face: Face::ALL[0], i, j: i }.center_ab(m).0 * n as f32 - 0.5;
                    (x.floor() as i64, x - x.floor())
                })
                .collect();
            let inside = |k: i64| k >= 0 && k + 1 < n as i64;
            out.par_chunks_mut(m).enumerate().for_each(|(row, chunk)| {
                let face = Face::ALL[row / m];
                let j = row % m;
                let (j0, ty) = taps[j];
                for (i, v) in chunk.iter_mut().enumerate() {
                    let (i0, tx) = taps[i];
                    let value = if inside(i0) && inside(j0) {
                        let at = face.index() * n * n + j0 as usize * n + i0 as usize;
                        Field::bilinear_mix([self.data[at], self.data[at + 1], self.data[at + n], self.data[at + n + 1]], tx, ty)
                    } else {
                        let (a, b) = Cell { face, i, j }.center_ab(m);
                        self.sample_ab(face, a, b)
                    };
                    *v = f(row * m + i, value);
                }
            });
        }
        out
    }
}

/// Along one axis of a face at level `n`, the column (or row) at or before face coordinate
/// `a` and the fraction of the way from its centre to the next one's: a bilinear sample's
/// place.
fn bilinear_axis(n: usize, a: f32) -> (i64, f32) {
    let x = a * n as f32 - 0.5;
    let x0 = floor32(x);
    (x0 as i64, x - x0)
}

/// The first cell of a tile whose storage rows lie along one face (its halo too), whose
/// samples of a coarser field can be placed column by column and row by row; `None` for the
/// whole planet and for a tile whose halo crosses a face's edge.
fn tile_on_one_face(grid: Grid) -> Option<Cell> {
    grid.tile().and(grid.straight_row(0))
}

/// `place` of the face coordinate of each storage column's and each storage row's cell
/// centres, for a tile of `w` values a row at level `n` whose first cell is `first`
/// ([`tile_on_one_face`]).
fn tile_axes<T>(first: Cell, w: usize, n: usize, place: impl Fn(f32) -> T) -> (Vec<T>, Vec<T>) {
    let columns = (0..w).map(|x| place(Cell { i: first.i + x, ..first }.center_ab(n).0)).collect();
    let rows = (0..w).map(|y| place(Cell { j: first.j + y, ..first }.center_ab(n).1)).collect();
    (columns, rows)
}

/// The first of the four columns (or rows) a smooth sample at face coordinate `a` reads in a
/// field of resolution `n`, less one (the column at or before the point), and their
/// Catmull-Rom weights.
fn smooth_axis(n: usize, a: f32) -> (i64, [f32; 4]) {
    let x = a * n as f32 - 0.5;
    let x0 = floor32(x);
    (x0 as i64, catmull_rom(x - x0))
}

/// Catmull-Rom weights of the four samples around a point `t` (0..1) of the way from the
/// second to the third.
fn catmull_rom(t: f32) -> [f32; 4] {
    let (t2, t3) = (t * t, t * t * t);
    [0.5 * (-t + 2.0 * t2 - t3), 0.5 * (2.0 - 5.0 * t2 + 3.0 * t3), 0.5 * (t + 4.0 * t2 - 3.0 * t3), 0.5 * (t3 - t2)]
}

/// The cells and weights of a smooth sample ([`Field::smooth_taps_ab`]): a 4 x 4 block, row
/// by row, and the Catmull-Rom weights of its columns and of its rows.
#[derive(Debug, Clone, Copy)]
pub struct SmoothTaps {
    /// The block's cells (indices into a field's values), row by row.
    pub cells: [usize; 16],
    across: [f32; 4],
    down: [f32; 4],
}

impl SmoothTaps {
    /// The sample of `data` (a field's values in storage order), kept within the four nearest
    /// cells' values ([`smooth_blend`]).
    pub fn sample(&self, data: &[f32]) -> f32 {
        smooth_blend(&self.cells.map(|c| data[c]), &self.across, &self.down)
    }
}

/// The smooth sample of a 4 x 4 block of values `d` (row by row) with the Catmull-Rom weights
/// `across` its columns and `down` its rows: each row interpolated across and kept within its
/// two central values, then the rows' four values interpolated down and kept within the two
/// central ones. A cubic overshoots beside a step (a coast, a cliff), which would raise ridges
/// and sink hollows that are in none of the cells; kept pass by pass, the sample stays within
/// the four nearest cells' values and continuous where it moves on to the next block (each pass
/// lands on a central value there, which both blocks' ranges hold). Kept instead within the
/// four nearest values of the whole block, it jumped along the coarse cells' centre lines
/// wherever a row overshot: straight steps, which a close-up's gullies drew as dark streaks.
#[inline]
fn smooth_blend(d: &[f32; 16], across: &[f32; 4], down: &[f32; 4]) -> f32 {
    let pass = |v: [f32; 4], w: &[f32; 4]| {
        let s = (w[0] * v[0] + w[1] * v[1]) + (w[2] * v[2] + w[3] * v[3]);
        let (lo, hi) = (v[1].min(v[2]), v[1].max(v[2]));
        // Not clamped when the cells hold no numbers (NaN stays NaN, as the bilinear sample).
        if lo <= hi {
            s.clamp(lo, hi)
        } else {
            s
        }
    };
    let rows = [0, 4, 8, 12].map(|r| pass([d[r], d[r + 1], d[r + 2], d[r + 3]], across));
    pass(rows, down)
}

/// Pearson correlation of two equally long sample lists (0 when one of them is constant):
/// how the tests compare a preview with a build.
pub fn correlation(a: &[f32], b: &[f32]) -> f64 {
    let n = a.len() as f64;
    let mean = |v: &[f32]| v.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
    let (ma, mb) = (mean(a), mean(b));
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (&x, &y) in a.iter().zip(b) {
        let (dx, dy) = (f64::from(x) - ma, f64::from(y) - mb);
        sab += dx * dy;
        saa += dx * dx;
        sbb += dy * dy;
    }
    sab / (saa * sbb).sqrt().max(1e-30)
}

#[cfg(test)]
#[path = "field_tests.rs"]
mod tests;
