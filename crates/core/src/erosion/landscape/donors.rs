//! Each cell's donors (the neighbours whose receiver it is) as eight bits, found in one pass
//! over the cells with eight cells of a face row at a time, so the stack's walk up the trees
//! reads one byte per cell instead of eight neighbours' receivers.

use super::LANES;
use crate::erosion::landscape::grid::{Grid, NONE};
use rayon::prelude::*;

/// Cells per piece of the parallel pass.
const PIECE: usize = 4096;

/// Whether the [`LANES`] cells from `c` on are all sea (`sea` of each), without branches, so
/// the test itself runs in lanes: the passes over every cell (the donor masks, the steepest
/// descent) skip such groups.
#[inline(always)]
pub(super) fn all_sea(c: usize, sea: impl Fn(usize) -> bool) -> bool {
    (0..LANES).fold(true, |all, l| all & sea(c + l))
}

/// The donors of every land cell into `masks` (resized to the cells): bit `k` set where the
/// neighbour `k` of [`Grid::neighbour_cells`] has the cell as its receiver. The stack holds
/// land alone, so sea cells' masks are never read: where [`LANES`] cells in a row are all sea
/// (`sea` of each), theirs are 0 without a look at their neighbours.
pub(super) fn donor_masks(grid: &Grid, receiver: &[u32], sea: &(impl Fn(usize) -> bool + Sync), masks: &mut Vec<u8>) {
    masks.resize(grid.cells(), 0);
    masks.par_chunks_mut(PIECE).enumerate().for_each(|(piece, out)| mask_run(grid, receiver, sea, piece * PIECE, out));
}

/// The donors of cell `c` as bits (see [`donor_masks`]).
#[inline]
pub(super) fn mask_of(grid: &Grid, receiver: &[u32], c: usize) -> u8 {
    let mut mask = 0;
    for (k, d) in grid.neighbour_cells(c).into_iter().enumerate() {
        if d != NONE && receiver[d as usize] == c as u32 {
            mask |= 1 << k;
        }
    }
    mask
}

/// The masks of the cells from `first` on (as many as `out` holds): in AVX2 where the CPU has
/// it, plainly elsewhere.
fn mask_run(grid: &Grid, receiver: &[u32], sea: &impl Fn(usize) -> bool, first: usize, out: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 support was detected at run time just above.
        unsafe { mask_run_avx2(grid, receiver, sea, first, out) };
        return;
    }
    mask_run_plain(grid, receiver, sea, first, out);
}

/// [`mask_run_plain`] compiled with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mask_run_avx2(grid: &Grid, receiver: &[u32], sea: &impl Fn(usize) -> bool, first: usize, out: &mut [u8]) {
    mask_run_plain(grid, receiver, sea, first, out);
}

/// [`mask_run`] as the compiler's target allows: [`LANES`] cells of sea at a time (0), runs
/// of cells inside a face row [`LANES`] at a time (their neighbours at fixed offsets,
/// compared lane by lane), the rest one by one ([`mask_of`]).
#[inline(always)]
fn mask_run_plain(grid: &Grid, receiver: &[u32], sea: &impl Fn(usize) -> bool, first: usize, out: &mut [u8]) {
    let n = grid.n;
    let steps = grid.interior_tables().map(|(_, _, step)| step);
    let mut o = 0;
    while o < out.len() {
        let c = first + o;
        if o + LANES <= out.len() && all_sea(c, sea) {
            out[o..o + LANES].fill(0);
            o += LANES;
            continue;
        }
        let (_, i, j) = grid.position(c);
        // Cells left in this row inside the face, and in this run.
        let run = if i >= 1 && j >= 1 && j + 1 < n && i + 1 < n { (n - 1 - i).min(out.len() - o) } else { 0 };
        if run >= LANES {
            let mut masks = [0u8; LANES];
            for (k, &step) in steps.iter().enumerate() {
                let x = (c as isize + step) as usize;
                let r = &receiver[x..x + LANES];
                for l in 0..LANES {
                    masks[l] |= u8::from(r[l] == (c + l) as u32) << k;
                }
            }
            out[o..o + LANES].copy_from_slice(&masks);
            o += LANES;
        } else {
            out[o] = mask_of(grid, receiver, c);
            o += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The masks of whole rows in lanes are each cell's own, and name its donors: on grids
    /// whose rows are and are not whole numbers of lane groups, with receivers every way
    /// across the seams, and every land cell's where stripes of sea are skipped.
    #[test]
    fn masks_in_lanes_name_each_cell_s_donors() {
        for n in [16usize, 37, 64] {
            let grid = Grid::new(n, 1000.0);
            let cells = grid.cells();
            // Each cell drains to one of its neighbours (or nowhere), picked by a hash.
            let receiver: Vec<u32> = (0..cells).map(|c| if c % 13 == 0 { NONE } else { grid.neighbour_cells(c)[(c * 7919 + c / 5) % 8] }).collect();
            // Sea in stripes of every width, and none.
            let stripes = |c: usize| (c / 3 + c / 200).is_multiple_of(5) || (c / 40).is_multiple_of(3);
            for sea in [&stripes as &(dyn Fn(usize) -> bool + Sync), &|_| false] {
                let mut masks = Vec::new();
                donor_masks(&grid, &receiver, &sea, &mut masks);
                for (c, &mask) in masks.iter().enumerate() {
                    if !sea(c) {
                        assert_eq!(mask, mask_of(&grid, &receiver, c), "n={n} land cell {c}");
                    }
                }
            }
            let mut masks = Vec::new();
            donor_masks(&grid, &receiver, &|_| false, &mut masks);
            let mut donors = 0;
            for (c, &mask) in masks.iter().enumerate() {
                assert_eq!(mask, mask_of(&grid, &receiver, c), "n={n} cell {c}");
                let named: Vec<u32> = grid.neighbour_cells(c).into_iter().enumerate().filter(|&(k, _)| mask >> k & 1 == 1).map(|(_, d)| d).collect();
                let actual: Vec<u32> = grid.neighbour_cells(c).into_iter().filter(|&d| d != NONE && receiver[d as usize] == c as u32).collect();
                assert_eq!(named, actual, "n={n} cell {c}");
                donors += actual.len();
            }
            assert!(donors > cells / 2, "n={n}: most cells drain somewhere");
        }
    }
}
