//! The four neighbours (left, right, up and down, across face seams) of each value a
//! neighbourhood node produces, on the whole planet or on a tile with a halo, so one kernel
//! serves both and gives a tile exactly the values the whole planet has at its cells.

use super::cell_directions::CellDirections;
use super::coords::{neighbour, NEIGHBOURS_4};
use super::pipes::{pipe_length_at, pipes4, PipeTable};
use super::tile::Grid;
use glam::Vec3;
use std::sync::Arc;
use thiserror::Error;

/// A stencil asked for between grids it cannot join.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("internal error: a neighbourhood node was given its input on {input} to produce values on {out}; it needs the same whole planet, or the same tile with at least one more cell of halo")]
pub struct StencilError {
    /// Where the input lies.
    pub input: Grid,
    /// Where the output should lie.
    pub out: Grid,
}

/// Where a stencil finds its neighbours and pipe lengths.
enum Pipes {
    /// The whole planet's table.
    Table(Arc<PipeTable<4>>),
    /// On a tile: the tables of its columns and rows, for the pipe lengths (the neighbours
    /// come from the halo).
    Tile(CellDirections),
}

/// The positions, in an input field's storage, of each output value's own cell and of its four
/// neighbours, with the cells' directions: from the shared neighbour table on the whole planet,
/// from the halo on a tile.
pub struct Neighbours4 {
    input: Grid,
    out: Grid,
    n: usize,
    /// Where the neighbours and the pipe lengths come from.
    pipes: Pipes,
    /// Directions of the input's cells.
    dirs: Vec<Vec3>,
    /// On a tile: the input's row width and the halo it has beyond the output's.
    width: usize,
    margin: usize,
}

impl Neighbours4 {
    /// The stencil that makes values on `out` from a field on `input`: the same whole planet,
    /// or the same tile with at least one more cell of halo.
    pub fn new(input: Grid, out: Grid) -> Result<Neighbours4, StencilError> {
        match (input, out) {
            (Grid::Whole(a), Grid::Whole(b)) if a == b => Ok(Neighbours4::whole(a)),
            (Grid::Tile(t), Grid::Tile(o)) if t.with_halo(0) == o.with_halo(0) && t.halo > o.halo => {
                let table = CellDirections::new(input);
                let dirs = table.all(input);
                let pipes = Pipes::Tile(table);
                Ok(Neighbours4 { input, out, n: t.n, pipes, dirs, width: t.width(), margin: t.halo - o.halo })
            }
            _ => Err(StencilError { input, out }),
        }
    }

    /// The stencil of the whole planet at level `n`, input and output alike.
    pub fn whole(n: usize) -> Neighbours4 {
        let dirs = Grid::Whole(n).directions();
        Neighbours4 { input: Grid::Whole(n), out: Grid::Whole(n), n, pipes: Pipes::Table(pipes4(n)), dirs, width: 0, margin: 0 }
    }

    /// Where the output lies.
    pub fn out(&self) -> Grid {
        self.out
    }

    /// For output value `k`: the input storage positions of its cell and of the neighbours to
    /// the left, right, up and down (in the face's `i` and `j`).
    #[inline]
    pub fn at(&self, k: usize) -> (usize, [usize; 4]) {
        match &self.pipes {
            Pipes::Table(table) => (k, table.to[k].map(|x| x as usize)),
            Pipes::Tile(_) => {
                let (c, in_halo) = self.tile_position(k);
                let around = [c - 1, c + 1, c - self.width, c + self.width];
                // Only a position in the output's own halo can lie off the tile's face.
                (c, if in_halo { self.oriented(c, around) } else { around })
            }
        }
    }

    /// On a tile: the input position of output value `k`, and whether it lies in the output's
    /// own halo.
    #[inline]
    fn tile_position(&self, k: usize) -> (usize, bool) {
        let w = self.out.row();
        let (x, y) = (k % w, k / w);
        let in_halo = match self.out {
            Grid::Tile(o) => x < o.halo || y < o.halo || x >= o.halo + o.size || y >= o.halo + o.size,
            Grid::Whole(_) => false,
        };
        ((y + self.margin) * self.width + x + self.margin, in_halo)
    }

    /// For output values `k..k + len` within one row of a tile's own cells (not its halo): the
    /// input position `c` of value `k` and the input's row width `w`, so that value `k + l` lies
    /// at `c + l` with the neighbours `c + l - 1`, `c + l + 1`, `c + l - w` and `c + l + w`, as
    /// [`Neighbours4::at`] gives them; `None` elsewhere (the whole planet's table, a halo).
    #[inline]
    pub fn straight_run(&self, k: usize, len: usize) -> Option<(usize, usize)> {
        let Pipes::Tile(_) = self.pipes else { return None };
        if len == 0 || k % self.out.row() + len > self.out.row() {
            return None;
        }
        // Within one row, a run whose ends lie off the halo lies off it throughout.
        let ((c, first_in_halo), (_, last_in_halo)) = (self.tile_position(k), self.tile_position(k + len - 1));
        (!first_in_halo && !last_in_halo).then_some((c, self.width))
    }

    /// Directions of the input's cells, by storage position.
    #[inline]
    pub fn directions(&self) -> &[Vec3] {
        &self.dirs
    }

    /// The neighbours `around` (left, right, up, down in the tile's face) of the halo position
    /// `c`, in the order of its own cell's face: a position beyond the tile's face's edge lies
    /// on a face turned against it, so the same four cells come in another order there, and a
    /// node's arithmetic would differ in the last bits from the whole planet's.
    fn oriented(&self, c: usize, around: [usize; 4]) -> [usize; 4] {
        let Grid::Tile(tile) = self.input else { return around };
        let cell = tile.cell(c);
        if cell.face == tile.face {
            return around;
        }
        let cells = around.map(|x| tile.cell(x));
        let mut out = around;
        for (slot, (di, dj)) in NEIGHBOURS_4.iter().enumerate() {
            match neighbour(cell, *di, *dj, self.n).and_then(|nb| cells.iter().position(|&x| x == nb)) {
                Some(p) => out[slot] = around[p],
                // Next to a cube corner the halo repeats cells: keep the tile's order.
                None => return around,
            }
        }
        out
    }

    /// Direction of the cell at input storage position `c`.
    #[inline]
    pub fn direction(&self, c: usize) -> Vec3 {
        self.dirs[c]
    }

    /// The lengths of the four pipes from output value `k` (whose input position is `c`, from
    /// [`Neighbours4::at`]), in nominal cells of `(PI / 2) / n` rad: the table's on the whole
    /// planet, the same values from the cell's face position on a tile ([`pipe_length_at`]).
    #[inline]
    pub fn lengths(&self, k: usize, c: usize) -> [f32; 4] {
        match &self.pipes {
            Pipes::Table(table) => table.lengths_of(k),
            Pipes::Tile(centres) => {
                let cell = self.input.cell(c);
                // Every pipe of the von Neumann neighbourhood exists (`None` only for
                // diagonals).
                NEIGHBOURS_4.map(|offset| pipe_length_at(cell.i, cell.j, offset, self.n, centres).unwrap_or(1.0))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::{Face, Tile};

    /// On tiles along a face's edge and at a cube corner, the stencil finds the same
    /// neighbours (as cells) and the same pipe lengths as the whole planet's table.
    #[test]
    fn a_tile_s_neighbours_are_the_planet_s() {
        let n = 16;
        let whole = Neighbours4::new(Grid::Whole(n), Grid::Whole(n)).expect("whole");
        for (face, i0, j0) in [(Face::Front, 0, 0), (Face::Top, 12, 4), (Face::Bottom, 8, 12), (Face::Left, 4, 4)] {
            let out = Tile::new(face, n, i0, j0, 4).expect("tile");
            let input = out.with_halo(1);
            let st = Neighbours4::new(Grid::Tile(input), Grid::Tile(out)).expect("stencil");
            for k in 0..out.cells() {
                let cell = out.cell(k);
                let (c, to) = st.at(k);
                assert_eq!(input.cell(c), cell);
                let (wc, wto) = whole.at(cell.index(n));
                assert_eq!(wc, cell.index(n));
                assert_eq!(to.map(|x| input.cell(x).index(n)), wto, "{cell:?}");
                assert_eq!(st.lengths(k, c), whole.lengths(wc, wc));
            }
        }
        assert!(Neighbours4::new(Grid::Tile(Tile::new(Face::Front, n, 0, 0, 4).expect("tile")), Grid::Tile(Tile::new(Face::Front, n, 0, 0, 4).expect("tile"))).is_err());
        assert!(Neighbours4::new(Grid::Whole(n), Grid::Whole(2 * n)).is_err());
    }
}
