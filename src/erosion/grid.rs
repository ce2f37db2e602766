//! Neighbour tables for flux-based simulations on the cube-sphere: for every cell and every
//! pipe, the neighbour it leads to and the index of the pipe that leads back, so that what one
//! cell sends the other receives exactly (conservation across seams, whatever their
//! orientation).

use crate::planet::coords::{neighbour, Cell, NEIGHBOURS_4, NEIGHBOURS_8};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

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
}

impl<const K: usize> PipeTable<K> {
    fn build(n: usize, offsets: &[(i64, i64); K]) -> PipeTable<K> {
        let cells = 6 * n * n;
        let to: Vec<[u32; K]> = (0..cells)
            .map(|c| {
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
            .map(|c| {
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
        PipeTable { n, to, back }
    }
}

/// The von Neumann table (left, right, up, down) of resolution `n`, cached.
pub fn pipes4(n: usize) -> Arc<PipeTable<4>> {
    static T: OnceLock<Mutex<HashMap<usize, Arc<PipeTable<4>>>>> = OnceLock::new();
    let m = T.get_or_init(|| Mutex::new(HashMap::new()));
    let mut g = m.lock().unwrap_or_else(|p| p.into_inner());
    g.entry(n).or_insert_with(|| Arc::new(PipeTable::build(n, &NEIGHBOURS_4))).clone()
}

/// The Moore table of resolution `n` (corner cells miss one diagonal), cached.
pub fn pipes8(n: usize) -> Arc<PipeTable<8>> {
    static T: OnceLock<Mutex<HashMap<usize, Arc<PipeTable<8>>>>> = OnceLock::new();
    let m = T.get_or_init(|| Mutex::new(HashMap::new()));
    let mut g = m.lock().unwrap_or_else(|p| p.into_inner());
    g.entry(n).or_insert_with(|| Arc::new(PipeTable::build(n, &NEIGHBOURS_8))).clone()
}

/// Zeroes values too small to matter (also keeps denormals out of the inner loops).
#[inline]
pub fn flush(x: f32) -> f32 {
    if x.abs() < 1e-20 {
        0.0
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                        assert_eq!(t8.to[nb as usize][t8.back[c][k] as usize] as usize, c);
                    }
                }
            }
        }
    }
}
