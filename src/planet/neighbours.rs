//! Precomputed von Neumann neighbour tables, shared by every stencil operation at a resolution.

use super::coords::{neighbour, Cell, NEIGHBOURS_4};
use super::cache::PerResolution;
use std::sync::Arc;

/// For every cell of a resolution `n`, the linear indices of its left, right, up and down
/// neighbours (across seams). 16 bytes per cell.
#[derive(Debug)]
pub struct NeighbourTable {
    /// Cells per face edge.
    pub n: usize,
    /// `4 * 6 n^2` indices: left, right, up, down per cell.
    pub idx: Vec<u32>,
}

impl NeighbourTable {
    fn build(n: usize) -> NeighbourTable {
        let cells = 6 * n * n;
        let mut idx = Vec::with_capacity(cells * 4);
        for c in 0..cells {
            let cell = Cell::from_index(c, n);
            for (di, dj) in NEIGHBOURS_4 {
                // 4-neighbours always exist on a cube-sphere; fall back to the cell itself.
                let nb = neighbour(cell, di, dj, n).map(|x| x.index(n)).unwrap_or(c);
                idx.push(nb as u32);
            }
        }
        NeighbourTable { n, idx }
    }

    /// The four neighbour indices of cell `c`.
    #[inline]
    pub fn of(&self, c: usize) -> &[u32] {
        &self.idx[4 * c..4 * c + 4]
    }
}

/// The shared table for resolution `n` (built once, then cached for the process).
pub fn neighbour_table(n: usize) -> Arc<NeighbourTable> {
    static TABLES: PerResolution<NeighbourTable> = PerResolution::new();
    TABLES.get(n, || NeighbourTable::build(n))
}
