//! Tiles: a square of cells on one face of the cube-sphere at some level (cells per face edge),
//! the unit region evaluation works on; and [`Grid`], where a field's values lie (the whole
//! planet or one tile).

use super::coords::Cell;
use super::face::Face;
use glam::Vec3;
use thiserror::Error;

/// A square of `size` x `size` cells of `face` at level `n` (cells per face edge), whose
/// top-left cell is column `i0`, row `j0`. Values on a tile are stored row-major
/// (`(j - j0) * size + (i - i0)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tile {
    /// The face.
    pub face: Face,
    /// Level: cells per face edge of the whole planet the tile is part of.
    pub n: usize,
    /// First column, 0..n.
    pub i0: usize,
    /// First row, 0..n.
    pub j0: usize,
    /// Cells per tile edge.
    pub size: usize,
}

/// The finest level a tile may have, cells per face edge: 2^22, about 2.4 m cells on an
/// Earth-sized planet. Finer cells lie closer together than the `f32` face coordinates of their
/// centres can tell apart.
pub const MAX_LEVEL: usize = 1 << 22;

/// A tile that does not lie on the planet.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TileError {
    /// A level finer than [`MAX_LEVEL`].
    #[error("level {n} is above the maximum of {max} cells per face edge", max = MAX_LEVEL)]
    Level {
        /// Level asked for.
        n: usize,
    },
    /// Empty tile or level.
    #[error("a tile needs at least one cell and a level of at least one cell per face edge (got {size} cells at level {n})")]
    Empty {
        /// Cells per tile edge asked for.
        size: usize,
        /// Level asked for.
        n: usize,
    },
    /// Part of the tile lies beyond the face's edge.
    #[error("the tile of {size} cells at column {i0}, row {j0} reaches beyond the face's {n} cells")]
    Outside {
        /// First column.
        i0: usize,
        /// First row.
        j0: usize,
        /// Cells per tile edge.
        size: usize,
        /// Level.
        n: usize,
    },
}

impl Tile {
    /// The tile of `size` cells from `(i0, j0)` on `face` at level `n`, or why it does not lie
    /// on the face.
    pub fn new(face: Face, n: usize, i0: usize, j0: usize, size: usize) -> Result<Tile, TileError> {
        if size == 0 || n == 0 {
            return Err(TileError::Empty { size, n });
        }
        if n > MAX_LEVEL {
            return Err(TileError::Level { n });
        }
        if i0.checked_add(size).is_none_or(|e| e > n) || j0.checked_add(size).is_none_or(|e| e > n) {
            return Err(TileError::Outside { i0, j0, size, n });
        }
        Ok(Tile { face, n, i0, j0, size })
    }

    /// The tiles of `size` cells that cover the planet at level `n` (a multiple of `size`),
    /// face by face, row by row.
    pub fn cover(n: usize, size: usize) -> Result<Vec<Tile>, TileError> {
        if size == 0 || n == 0 || !n.is_multiple_of(size) {
            return Err(TileError::Outside { i0: 0, j0: 0, size, n });
        }
        let per = n / size;
        let mut out = Vec::with_capacity(6 * per * per);
        for face in Face::ALL {
            for tj in 0..per {
                for ti in 0..per {
                    out.push(Tile { face, n, i0: ti * size, j0: tj * size, size });
                }
            }
        }
        Ok(out)
    }

    /// Cells on the tile.
    pub fn cells(&self) -> usize {
        self.size * self.size
    }

    /// The cell at position `k` of the tile's row-major order.
    pub fn cell(&self, k: usize) -> Cell {
        Cell { face: self.face, i: self.i0 + k % self.size, j: self.j0 + k / self.size }
    }
}

/// Where the values of a field lie: every cell of the planet at `n` cells per face edge, or
/// the cells of one tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grid {
    /// The whole planet at this many cells per face edge (`6 n²` values, face by face).
    Whole(usize),
    /// One tile (`size²` values).
    Tile(Tile),
}

impl Grid {
    /// Cells per face edge of the planet (the tile's level for a tile).
    pub fn n(&self) -> usize {
        match self {
            Grid::Whole(n) => *n,
            Grid::Tile(t) => t.n,
        }
    }

    /// The tile, for a tile.
    pub fn tile(&self) -> Option<Tile> {
        match self {
            Grid::Whole(_) => None,
            Grid::Tile(t) => Some(*t),
        }
    }

    /// Number of values.
    pub fn cells(&self) -> usize {
        match self {
            Grid::Whole(n) => 6 * n * n,
            Grid::Tile(t) => t.cells(),
        }
    }

    /// Values per row of the storage (`n` for the whole planet, the tile's size for a tile).
    pub fn row(&self) -> usize {
        match self {
            Grid::Whole(n) => *n,
            Grid::Tile(t) => t.size,
        }
    }

    /// The planet's cell at the start of storage row `row` (the row's other values are the
    /// next cells along `i`).
    pub fn row_cell(&self, row: usize) -> Cell {
        match self {
            Grid::Whole(n) => Cell { face: Face::ALL[row / n], i: 0, j: row % n },
            Grid::Tile(t) => Cell { face: t.face, i: t.i0, j: t.j0 + row },
        }
    }

    /// The planet's cell at storage position `k`.
    pub fn cell(&self, k: usize) -> Cell {
        match self {
            Grid::Whole(n) => Cell::from_index(k, *n),
            Grid::Tile(t) => t.cell(k),
        }
    }

    /// Unit direction of the centre of the cell at storage position `k`.
    pub fn direction(&self, k: usize) -> Vec3 {
        self.cell(k).direction(self.n())
    }
}

impl std::fmt::Display for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Grid::Whole(n) => write!(f, "the whole planet at {n} cells per face edge"),
            Grid::Tile(t) => write!(f, "a tile of {} cells at level {} ({:?} face, column {}, row {})", t.size, t.n, t.face, t.i0, t.j0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_must_lie_on_its_face() {
        assert!(Tile::new(Face::Front, 64, 32, 32, 32).is_ok());
        assert_eq!(Tile::new(Face::Front, 64, 40, 0, 32), Err(TileError::Outside { i0: 40, j0: 0, size: 32, n: 64 }));
        assert_eq!(Tile::new(Face::Front, 64, 0, 0, 0), Err(TileError::Empty { size: 0, n: 64 }));
        assert!(Tile::new(Face::Front, 64, usize::MAX, 0, 2).is_err(), "no overflow");
        assert_eq!(Tile::new(Face::Front, MAX_LEVEL * 2, 0, 0, 8), Err(TileError::Level { n: MAX_LEVEL * 2 }));
        assert!(Tile::new(Face::Front, MAX_LEVEL, MAX_LEVEL - 8, 0, 8).is_ok());
        let all = Tile::cover(64, 16).expect("cover");
        assert_eq!(all.len(), 6 * 16);
        assert_eq!(all.iter().map(Tile::cells).sum::<usize>(), 6 * 64 * 64);
        assert!(Tile::cover(64, 24).is_err());
    }

    #[test]
    fn a_tile_s_cells_are_the_planet_s_cells() {
        let t = Tile::new(Face::Top, 32, 8, 4, 5).expect("tile");
        let g = Grid::Tile(t);
        assert_eq!(g.cell(0), Cell { face: Face::Top, i: 8, j: 4 });
        assert_eq!(g.cell(7), Cell { face: Face::Top, i: 10, j: 5 });
        assert_eq!(g.direction(7), Cell { face: Face::Top, i: 10, j: 5 }.direction(32));
        let whole = Grid::Whole(32);
        assert_eq!(whole.cells(), 6 * 32 * 32);
        assert_eq!(whole.cell(t.cell(7).index(32)), t.cell(7));
    }
}
