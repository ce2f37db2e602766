//! Blocks: the squares of one size, aligned on a face's grid, that hold a set of cells, for a
//! node that reads its input at scattered places on a tile (a warp on a close-up) and has the
//! input evaluated there only.

use super::coords::Cell;
use super::tile::Tile;
use std::collections::BTreeMap;

/// The blocks of `size` x `size` cells at level `n`: block `(face, bi, bj)` covers columns
/// `bi size ..` and rows `bj size ..` of its face (the last block of a row or column, where
/// the face's edge is not a multiple of the size, is moved inwards to stay on the face,
/// overlapping its neighbour).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocks {
    /// Level: cells per face edge.
    pub n: usize,
    /// Cells per block edge (1 to `n`).
    pub size: usize,
}

/// A block's key: face index, block column, block row.
pub type BlockKey = (usize, usize, usize);

impl Blocks {
    /// Blocks of `size` cells (clamped to 1..=`n`) at level `n`.
    pub fn new(n: usize, size: usize) -> Blocks {
        Blocks { n, size: size.clamp(1, n.max(1)) }
    }

    /// The key of the block that holds `cell`.
    pub fn key(&self, cell: Cell) -> BlockKey {
        (cell.face.index(), cell.i / self.size, cell.j / self.size)
    }

    /// The tile of block `key` (without halo).
    pub fn tile(&self, (face, bi, bj): BlockKey) -> Tile {
        let edge = self.n - self.size;
        Tile { face: super::Face::ALL[face % 6], n: self.n, i0: (bi * self.size).min(edge), j0: (bj * self.size).min(edge), size: self.size, halo: 0 }
    }

    /// For each block that holds some of `cells`, the positions in `cells` of those it holds,
    /// blocks in key order.
    pub fn group(&self, cells: impl IntoIterator<Item = Cell>) -> BTreeMap<BlockKey, Vec<u32>> {
        let mut out: BTreeMap<BlockKey, Vec<u32>> = BTreeMap::new();
        for (k, c) in cells.into_iter().enumerate() {
            out.entry(self.key(c)).or_default().push(k as u32);
        }
        out
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
        let b = Blocks::new(n, 32);
        let groups = b.group(cells);
        assert_eq!(groups.len(), 3, "the two Left cells share a block");
        assert_eq!(groups[&b.key(cells[2])], vec![2, 3]);
        for c in cells {
            let t = b.tile(b.key(c));
            assert!(t.index_of(c).is_some(), "{c:?} in {t:?}");
            assert!(t.i0 + t.size <= n && t.j0 + t.size <= n);
        }
        // The last block of the face's row is moved inwards: columns 68..100.
        assert_eq!(b.tile(b.key(cells[1])).i0, 68);
    }
}
