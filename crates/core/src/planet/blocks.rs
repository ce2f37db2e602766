//! Blocks: the squares of one size, aligned on a face's grid, that hold a set of cells, for a
//! node that reads its input at scattered places on a tile (a warp on a close-up) and has the
//! input evaluated there only.

use super::coords::Cell;
use super::tile::Tile;
use std::collections::HashMap;

/// The blocks of `size` x `size` cells at level `n` that hold some cells: block `(face, bi,
/// bj)` covers columns `bi size ..` and rows `bj size ..` of its face (the last block of a row
/// or column, where the face's edge is not a multiple of the size, is moved inwards to stay on
/// the face, overlapping its neighbour).
#[derive(Debug, Clone)]
pub struct Blocks {
    /// Level: cells per face edge.
    pub n: usize,
    /// Cells per block edge (at most `n`).
    pub size: usize,
    /// The blocks by their key, each a tile without halo.
    pub tiles: HashMap<(usize, usize, usize), Tile>,
}

impl Blocks {
    /// The blocks of `size` cells (at least 1, at most `n`) at level `n` that hold `cells`.
    pub fn holding(n: usize, size: usize, cells: impl IntoIterator<Item = Cell>) -> Blocks {
        let size = size.clamp(1, n.max(1));
        let mut tiles = HashMap::new();
        for c in cells {
            let key = (c.face.index(), c.i / size, c.j / size);
            tiles.entry(key).or_insert_with(|| Tile { face: c.face, n, i0: (key.1 * size).min(n - size), j0: (key.2 * size).min(n - size), size, halo: 0 });
        }
        Blocks { n, size, tiles }
    }

    /// Cells in all the blocks together.
    pub fn cells(&self) -> usize {
        self.tiles.len() * self.size * self.size
    }

    /// The key of the block that holds `cell` (whether or not it is among the blocks).
    pub fn key(&self, cell: Cell) -> (usize, usize, usize) {
        (cell.face.index(), cell.i / self.size, cell.j / self.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::Face;

    #[test]
    fn blocks_hold_their_cells_and_stay_on_the_face() {
        let n = 100;
        let cells = [Cell { face: Face::Top, i: 0, j: 0 }, Cell { face: Face::Top, i: 99, j: 99 }, Cell { face: Face::Left, i: 35, j: 64 }, Cell { face: Face::Left, i: 36, j: 65 }];
        let b = Blocks::holding(n, 32, cells);
        assert_eq!(b.tiles.len(), 3, "the two Left cells share a block");
        assert_eq!(b.cells(), 3 * 32 * 32);
        for c in cells {
            let t = b.tiles[&b.key(c)];
            assert!(t.index_of(c).is_some(), "{c:?} in {t:?}");
            assert!(t.i0 + t.size <= n && t.j0 + t.size <= n);
        }
        // The last block of the face's row is moved inwards: columns 68..100.
        assert_eq!(b.tiles[&b.key(cells[1])].i0, 68);
    }
}
