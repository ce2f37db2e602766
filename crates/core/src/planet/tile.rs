//! Tiles: a square of cells on one face of the cube-sphere at some level (cells per face edge),
//! the unit region evaluation works on; and [`Grid`], where a field's values lie (the whole
//! planet or one tile).

use super::coords::{wrap_or_nearest, Cell};
use super::face::Face;
use glam::Vec3;
use thiserror::Error;

/// A square of `size` x `size` cells of `face` at level `n` (cells per face edge), whose
/// top-left cell is column `i0`, row `j0`, with a *halo* of `halo` cells around it: values on
/// a tile are stored row-major over the square grown by the halo on every side, `w = size + 2
/// halo` values a row, the tile's own cell `(i, j)` at `(j - j0 + halo) * w + (i - i0 + halo)`.
/// A halo is what a node that reads its neighbours ([`crate::nodes::Locality::Halo`]) needs
/// around the cells it produces. Halo positions beyond the face's edge continue onto the
/// neighbouring face (the face's grid folded over the edge, so a position's neighbours there are
/// the cell's neighbours on the sphere); in the corner squares beyond both edges of a cube
/// corner, where no cell lies, a position repeats the nearest cell of the tile's own face.
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
    /// Cells of halo stored around the tile on every side (0 for a plain tile).
    pub halo: usize,
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
        Ok(Tile { face, n, i0, j0, size, halo: 0 })
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
                    out.push(Tile { face, n, i0: ti * size, j0: tj * size, size, halo: 0 });
                }
            }
        }
        Ok(out)
    }

    /// Values stored for the tile: its cells and its halo.
    pub fn cells(&self) -> usize {
        self.width() * self.width()
    }

    /// Values per stored row: the tile's edge and the halo on both sides.
    pub fn width(&self) -> usize {
        self.size + 2 * self.halo
    }

    /// Face coordinates `(a, b)` of its own cells' top-left corner, and their edge (0..1 of
    /// the face; the halo left out).
    pub fn area_ab(&self) -> ([f32; 2], f32) {
        let n = self.n as f32;
        ([self.i0 as f32 / n, self.j0 as f32 / n], self.size as f32 / n)
    }

    /// Whether face coordinates `(a, b)` of `face` lie on its own cells (borders included).
    pub fn contains_ab(&self, face: Face, a: f32, b: f32) -> bool {
        let (corner, span) = self.area_ab();
        face == self.face && (corner[0]..=corner[0] + span).contains(&a) && (corner[1]..=corner[1] + span).contains(&b)
    }

    /// Whether its own cells and `other`'s cover some of the same ground (of any levels;
    /// touching along a border does not count).
    pub fn overlaps(&self, other: &Tile) -> bool {
        // `x / n < y / m` without rounding.
        let below = |x: usize, n: usize, y: usize, m: usize| x * m < y * n;
        let (s, t) = (self, other);
        s.face == t.face && below(s.i0, s.n, t.i0 + t.size, t.n) && below(t.i0, t.n, s.i0 + s.size, s.n) && below(s.j0, s.n, t.j0 + t.size, t.n) && below(t.j0, t.n, s.j0 + s.size, s.n)
    }

    /// Storage position of `cell` among its own cells (the halo not counted: a tile without
    /// halo), or `None` where the tile does not hold it.
    pub fn index_of(&self, cell: Cell) -> Option<usize> {
        let (x, y) = (cell.i.checked_sub(self.i0)?, cell.j.checked_sub(self.j0)?);
        (cell.face == self.face && x < self.size && y < self.size && self.halo == 0).then_some(y * self.size + x)
    }

    /// The same tile with `halo` cells of halo instead of its own.
    pub fn with_halo(self, halo: usize) -> Tile {
        Tile { halo, ..self }
    }

    /// The planet's cell at storage position `k` (see [`Tile`] for the halo beyond a face's
    /// edge and over a cube corner).
    pub fn cell(&self, k: usize) -> Cell {
        let w = self.width();
        let (x, y) = (k % w, k / w);
        if self.halo == 0 {
            return Cell { face: self.face, i: self.i0 + x, j: self.j0 + y };
        }
        let i = self.i0 as i64 + x as i64 - self.halo as i64;
        let j = self.j0 as i64 + y as i64 - self.halo as i64;
        wrap_or_nearest(self.face, i, j, self.n)
    }

    /// The storage positions, in a copy of this tile with `halo` cells of halo (at most this
    /// tile's), of each of its values: `(start, width)`, where the copy's row `r` is this
    /// tile's values `start + r * width ..` (as many as the copy's [`Tile::width`]).
    fn crop_rows(&self, halo: usize) -> (usize, usize) {
        let d = self.halo - halo;
        (d * self.width() + d, self.width())
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

    /// Values per row of the storage (`n` for the whole planet, the tile's [`Tile::width`] for
    /// a tile).
    pub fn row(&self) -> usize {
        match self {
            Grid::Whole(n) => *n,
            Grid::Tile(t) => t.width(),
        }
    }

    /// The first cell of storage row `row` when the row's cells are consecutive cells along
    /// `i` of one face (every row of the whole planet, and of a tile whose halo stays on its
    /// face); `None` for a row of a tile whose halo crosses a face's edge.
    pub fn straight_row(&self, row: usize) -> Option<Cell> {
        match self {
            Grid::Whole(n) => Some(Cell { face: Face::ALL[row / n], i: 0, j: row % n }),
            Grid::Tile(t) if t.i0 >= t.halo && t.j0 >= t.halo && t.i0 + t.size + t.halo <= t.n && t.j0 + t.size + t.halo <= t.n => Some(Cell { face: t.face, i: t.i0 - t.halo, j: t.j0 - t.halo + row }),
            Grid::Tile(_) => None,
        }
    }

    /// The cells of storage row `row` in order: consecutive cells along `i` where the row is
    /// straight ([`Grid::straight_row`]), else each position's own cell.
    pub fn row_cells(&self, row: usize) -> impl Iterator<Item = Cell> + '_ {
        let (start, w) = (self.straight_row(row), self.row());
        (0..w).map(move |i| match start {
            Some(s) => Cell { i: s.i + i, ..s },
            None => self.cell(row * w + i),
        })
    }

    /// The values of a field on this grid (`data`) on `to`: the same grid, or the same tile
    /// with a smaller halo; `None` when `to` is neither.
    pub fn crop<T: Copy>(&self, data: &[T], to: Grid) -> Option<Vec<T>> {
        if *self == to {
            return Some(data.to_vec());
        }
        let (Grid::Tile(from), Grid::Tile(t)) = (self, to) else { return None };
        if from.with_halo(0) != t.with_halo(0) || t.halo > from.halo {
            return None;
        }
        let (start, width) = from.crop_rows(t.halo);
        let w = t.width();
        Some((0..w).flat_map(|r| data[start + r * width..start + r * width + w].iter().copied()).collect())
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
            Grid::Tile(t) if t.halo == 0 => write!(f, "a tile of {} cells at level {} ({:?} face, column {}, row {})", t.size, t.n, t.face, t.i0, t.j0),
            Grid::Tile(t) => write!(f, "a tile of {} cells at level {} ({:?} face, column {}, row {}) with a halo of {}", t.size, t.n, t.face, t.i0, t.j0, t.halo),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tiles of different levels overlap where they share ground, not where they only touch;
    /// face coordinates lie on a tile up to its border.
    #[test]
    fn tiles_overlap_across_levels_and_contain_their_ground() {
        let coarse = Tile::new(Face::Front, 64, 16, 16, 16).expect("tile");
        let inside = Tile::new(Face::Front, 256, 96, 96, 16).expect("tile");
        let beside = Tile::new(Face::Front, 256, 128, 64, 16).expect("tile");
        let other_face = Tile::new(Face::Back, 64, 16, 16, 16).expect("tile");
        assert!(coarse.overlaps(&inside) && inside.overlaps(&coarse));
        assert!(!coarse.overlaps(&beside) && !beside.overlaps(&coarse), "touching along a border");
        assert!(!coarse.overlaps(&other_face));
        assert_eq!(coarse.area_ab(), ([0.25, 0.25], 0.25));
        assert!(coarse.contains_ab(Face::Front, 0.5, 0.3) && !coarse.contains_ab(Face::Front, 0.51, 0.3) && !coarse.contains_ab(Face::Back, 0.3, 0.3));
    }

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

    /// A row's cells are each storage position's cell, whether the row is straight (a halo on
    /// the tile's face) or not (a halo over a face's edge or a cube corner).
    #[test]
    fn row_cells_are_the_storage_positions_cells() {
        let inside = Tile::new(Face::Top, 32, 8, 4, 5).expect("tile").with_halo(2);
        let corner = Tile::new(Face::Left, 32, 0, 27, 5).expect("tile").with_halo(1);
        assert!(Grid::Tile(inside).straight_row(0).is_some() && Grid::Tile(corner).straight_row(0).is_none());
        assert!(Grid::Tile(Tile::new(Face::Top, 32, 8, 4, 5).expect("tile").with_halo(5)).straight_row(0).is_none(), "a halo beyond the face's edge");
        for t in [inside, corner] {
            let g = Grid::Tile(t);
            for row in 0..t.width() {
                let cells: Vec<Cell> = g.row_cells(row).collect();
                assert_eq!(cells, (0..t.width()).map(|i| g.cell(row * t.width() + i)).collect::<Vec<_>>(), "{t:?} row {row}");
            }
        }
    }
}
