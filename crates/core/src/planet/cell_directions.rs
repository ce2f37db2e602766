//! The centre directions of a grid's cells without two tangents per cell: a cell's warped
//! face coordinates depend on its column alone (along `a`) and its row alone (along `b`), so a
//! grid finds each column's and each row's once. The same bits as [`Cell::direction`].

use super::coords::{face_uv_to_cube, face_uv_to_dir};
use super::face::Face;
use super::tile::Grid;
use super::warp::warp;
use super::Cell;
use glam::Vec3;
use rayon::prelude::*;

/// The warped face coordinates of the columns and rows a grid's cells lie in.
#[derive(Debug, Clone)]
pub struct CellDirections {
    n: usize,
    /// The face of a tile (cells of other faces, in a halo over a face's edge, are found one
    /// by one); `None` for the whole planet, whose six faces share the tables.
    face: Option<Face>,
    /// First column held, and the warped `u` of each column from it.
    i0: usize,
    u: Vec<f32>,
    /// First row held, and the warped `v` of each row from it.
    j0: usize,
    v: Vec<f32>,
}

impl CellDirections {
    /// The tables of `grid`'s columns and rows.
    pub fn new(grid: Grid) -> CellDirections {
        let n = grid.n();
        let span = |lo: usize, hi: usize| -> Vec<f32> { (lo..hi).map(|i| coordinate(i, n)).collect() };
        match grid {
            Grid::Whole(_) => {
                let all = span(0, n);
                CellDirections { n, face: None, i0: 0, u: all.clone(), j0: 0, v: all }
            }
            Grid::Tile(t) => {
                let (i0, j0) = (t.i0.saturating_sub(t.halo), t.j0.saturating_sub(t.halo));
                let (i1, j1) = ((t.i0 + t.size + t.halo).min(n), (t.j0 + t.size + t.halo).min(n));
                CellDirections { n, face: Some(t.face), i0, u: span(i0, i1), j0, v: span(j0, j1) }
            }
        }
    }

    /// The unit direction of `cell`'s centre, to the bit [`Cell::direction`]'s.
    #[inline]
    pub fn of(&self, cell: Cell) -> Vec3 {
        if self.face.is_none_or(|f| f == cell.face) {
            if let (Some(&u), Some(&v)) = (self.u.get(cell.i.wrapping_sub(self.i0)), self.v.get(cell.j.wrapping_sub(self.j0))) {
                return face_uv_to_dir(cell.face, u, v);
            }
        }
        cell.direction(self.n)
    }

    /// The point of the cube's surface (each coordinate in -1..1) under `cell`'s centre, from
    /// the tables where they hold its column and row (a column's coordinate is the same on every
    /// face), else computed: the same bits either way.
    #[inline]
    pub fn cube_point(&self, cell: Cell) -> Vec3 {
        let u = self.u.get(cell.i.wrapping_sub(self.i0)).copied().unwrap_or_else(|| coordinate(cell.i, self.n));
        let v = self.v.get(cell.j.wrapping_sub(self.j0)).copied().unwrap_or_else(|| coordinate(cell.j, self.n));
        face_uv_to_cube(cell.face, u, v)
    }

    /// The unit direction of every cell of `grid` (the grid these tables were made for, or any
    /// whose cells they hold), in storage order (rows in parallel).
    pub fn all(&self, grid: Grid) -> Vec<Vec3> {
        let mut out = vec![Vec3::ZERO; grid.cells()];
        out.par_chunks_mut(grid.row()).enumerate().for_each(|(row, dirs)| {
            for (d, cell) in dirs.iter_mut().zip(grid.row_cells(row)) {
                *d = self.of(cell);
            }
        });
        out
    }

    /// The directions of the cells of storage row `row` of `grid` (the grid these tables were
    /// made for, or any whose cells they hold).
    pub fn row(&self, grid: Grid, row: usize) -> Vec<Vec3> {
        grid.row_cells(row).map(|cell| self.of(cell)).collect()
    }
}

/// The warped face coordinate (-1..1) of the centres of column or row `i` at `n` cells per
/// face edge, as [`Cell::direction`] has it.
#[inline]
fn coordinate(i: usize, n: usize) -> f32 {
    warp(2.0 * ((i as f32 + 0.5) / n as f32) - 1.0)
}

impl Grid {
    /// The unit direction of every cell's centre, in storage order (rows in parallel).
    pub fn directions(&self) -> Vec<Vec3> {
        CellDirections::new(*self).all(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::Tile;

    /// Every grid's directions are its cells' own, to the bit: the whole planet, a tile inside
    /// a face, and tiles whose halo runs over a face's edge and a cube corner.
    #[test]
    fn a_grid_s_directions_are_its_cells_own() {
        let n = 24;
        let grids = [Grid::Whole(n), Grid::Tile(Tile::new(Face::Left, n, 8, 4, 8).expect("tile").with_halo(2)), Grid::Tile(Tile::new(Face::Top, n, 0, 16, 8).expect("tile").with_halo(3)), Grid::Tile(Tile::new(Face::Back, n, 16, 0, 8).expect("tile"))];
        for grid in grids {
            let dirs = grid.directions();
            assert_eq!(dirs.len(), grid.cells());
            for (k, d) in dirs.iter().enumerate() {
                let own = grid.cell(k).direction(n);
                assert_eq!(d.to_array().map(f32::to_bits), own.to_array().map(f32::to_bits), "{grid}, value {k}");
            }
        }
    }
}
