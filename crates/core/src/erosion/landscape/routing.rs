//! Water routing of one level: receivers by steepest descent (a parallel pass over the cells),
//! closed depressions resolved on the graph of their basins, and the stack (every cell after
//! its receiver) grouped by outlet so the solve can run basin by basin on several threads.
//!
//! **Depressions** (after Cordonnier, Bovy and Braun 2019). Cells without a lower neighbour
//! that are not at the coast are pits; the cells draining to a pit form its basin. Between two
//! touching basins (or a basin and the drained land and sea) the pass is the lowest of
//! `max(h_a, h_b)` over the pairs of neighbours that join them. A minimax search from the sea
//! over the basins (a heap of passes, Dijkstra-like) gives every basin the height of its water
//! surface (its pass, or the surface of the lake it spills into if that is higher) and the pass
//! it spills through. The receivers from the pass down to the pit are then reversed, so the
//! water crosses the lake's floor to the pass and on to the neighbour beyond it. Every
//! receiver stays a neighbour, and the filled surface is exactly the priority flood's.
//!
//! Results are the same for any number of threads: the parallel passes write one cell each,
//! and everything that orders or sums runs in an order fixed by the cell indices.

use super::grid::NONE;
use super::solver::Level;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// Label of a cell that drains to the sea (or is sea) in [`Scratch::label`].
const DRAINED: u32 = u32::MAX - 1;
/// Outlets whose trees make one chunk of the stack, solved by one thread.
const OUTLETS_PER_CHUNK: usize = 64;

#[path = "donors.rs"]
mod donors;
#[path = "spill.rs"]
mod spill;

/// The routing's per-cell scratch arrays, kept between steps (no allocation per step once
/// they have grown).
#[derive(Default)]
pub struct Scratch {
    /// Basin of each land cell: the pit's index in `pits`, or [`DRAINED`].
    label: Vec<AtomicU32>,
    /// Pits (cells without a receiver) in index order.
    pits: Vec<u32>,
    /// The cells of each pit's basin, the pit first (breadth first up the donors).
    basins: Vec<Vec<u32>>,
    /// Land cells whose steepest descent leads into the sea, in cell order.
    coast: Vec<u32>,
    /// Outlets: land cells draining into the sea (or nowhere), in cell order.
    outlets: Vec<u32>,
    /// Each cell's donors as bits (see [`donors::donor_masks`]).
    donors: Vec<u8>,
    /// Position of every land cell in the stack ([`NONE`] at sea).
    pub pos: Vec<AtomicU32>,
    /// Stack position of each stack entry's receiver ([`NONE`] for an outlet).
    pub receiver_pos: Vec<u32>,
    /// Ranges of the stack made of whole outlets' trees, each solved by one thread.
    pub chunks: Vec<(usize, usize)>,
    /// Each chunk's trees as its thread built them: cells, and each one's receiver's index
    /// within the chunk.
    trees: Vec<(Vec<u32>, Vec<u32>)>,
}

/// Whether cell `c` is sea: a cell of the level's ocean still below sea level (the test of
/// [`Level::is_sea`], for closures that borrow the level's arrays one by one).
#[inline]
pub fn is_sea(ocean: &[bool], h: &[f32], c: usize) -> bool {
    ocean[c] && h[c] < 0.0
}

/// The cells whose receiver is `x` (its donors), among its neighbours.
#[inline]
fn donors<'a>(grid: &'a super::grid::Grid, receiver: &'a [u32], x: u32) -> impl Iterator<Item = u32> + 'a {
    grid.neighbour_cells(x as usize).into_iter().filter(move |&d| d != NONE && receiver[d as usize] == x)
}

impl Level {
    /// Routes the water (see the module notes): fills [`Level::receiver`],
    /// [`Level::receiver_m`], [`Level::filled`], [`Level::order`] and the stack's chunks.
    pub fn route(&mut self) {
        self.steepest_descent();
        self.label_basins();
        let (levels, outlets) = self.spill();
        self.reverse_to_passes(&levels, &outlets);
        self.gather_outlets(&outlets);
        self.build_stack();
    }

    /// Every land cell's receiver: its steepest downhill neighbour (sea counting at sea level),
    /// else at the coast its first sea neighbour; [`NONE`] for a pit and at sea (see
    /// [`descend_run`]). Also lists the pits and the land cells that drain into the sea, in cell order.
    fn steepest_descent(&mut self) {
        let (h, ocean, grid) = (&self.h, &self.ocean, &self.grid);
        let found: Vec<(Vec<u32>, Vec<u32>)> = self
            .receiver
            .par_chunks_mut(4096)
            .zip(self.receiver_m.par_chunks_mut(4096))
            .enumerate()
            .map(|(chunk, (receivers, distances))| {
                let first = chunk * 4096;
                descend_run(h, ocean, grid, first, receivers, distances);
                let (mut pits, mut coast) = (Vec::new(), Vec::new());
                for (c, &r) in (first..).zip(receivers.iter()) {
                    if r == NONE {
                        if !is_sea(ocean, h, c) {
                            pits.push(c as u32);
                        }
                    } else if is_sea(ocean, h, r as usize) {
                        coast.push(c as u32);
                    }
                }
                (pits, coast)
            })
            .collect();
        let s = &mut self.routing;
        s.pits.clear();
        s.coast.clear();
        for (pits, coast) in found {
            s.pits.extend(pits);
            s.coast.extend(coast);
        }
    }

    /// Labels every land cell with the pit its water reaches, or [`DRAINED`]: each pit's
    /// basin breadth first up its donors (pits on the threads), so the work is in proportion
    /// to the closed basins.
    fn label_basins(&mut self) {
        let (receiver, grid) = (&self.receiver, &self.grid);
        let s = &mut self.routing;
        // Only the last step's basins carry labels to clear.
        if s.label.len() == grid.cells() {
            let label = &s.label;
            s.basins.par_iter().flatten().for_each(|&c| label[c as usize].store(DRAINED, Ordering::Relaxed));
        } else {
            s.label = (0..grid.cells()).into_par_iter().map(|_| AtomicU32::new(DRAINED)).collect();
        }
        let label = &s.label;
        s.basins = s
            .pits
            .par_iter()
            .enumerate()
            .map(|(k, &pit)| {
                let mut queue = vec![pit];
                let mut read = 0;
                while read < queue.len() {
                    let x = queue[read];
                    read += 1;
                    label[x as usize].store(k as u32, Ordering::Relaxed);
                    queue.extend(donors(grid, receiver, x));
                }
                queue
            })
            .collect();
    }

    /// The water surface and the receivers inside closed basins: from each basin's pass down
    /// to its pit the receivers turn round, and the pass drains into the cell beyond it.
    fn reverse_to_passes(&mut self, levels: &[f32], outlets: &[(u32, u32)]) {
        let s = &self.routing;
        let (h, ocean) = (&self.h, &self.ocean);
        let label = |c: usize| s.label[c].load(Ordering::Relaxed);
        self.filled.par_iter_mut().enumerate().for_each(|(c, f)| {
            *f = if is_sea(ocean, h, c) {
                0.0
            } else {
                match label(c) {
                    DRAINED => h[c],
                    k => h[c].max(levels[k as usize]),
                }
            }
        });
        for &(pass, beyond) in outlets {
            if pass == NONE {
                continue;
            }
            let (mut previous, mut cell) = (beyond, pass);
            loop {
                let next = self.receiver[cell as usize];
                // `previous` is a neighbour (the cell beyond the pass, then the path's cells):
                // the distance as `cell` sees it, like every other receiver's.
                let d = self.grid.neighbours(cell as usize).into_iter().find(|&(x, _)| x == previous).map(|(_, d)| d);
                debug_assert!(d.is_some(), "the path to a pass runs through neighbours");
                let d = d.unwrap_or(self.receiver_m[previous as usize]);
                self.receiver[cell as usize] = previous;
                self.receiver_m[cell as usize] = d;
                if next == NONE {
                    break;
                }
                (previous, cell) = (cell, next);
            }
        }
    }

    /// The outlets, in cell order, after [`Level::reverse_to_passes`] turned the closed basins
    /// round to the passes `spills` gives: the cells whose descent led into the sea, the passes
    /// that spill into it, and pits left without a receiver (the outlet of a planet without sea).
    /// No other cell's receiver changed, so no scan of every cell is needed.
    fn gather_outlets(&mut self, spills: &[(u32, u32)]) {
        let (h, ocean) = (&self.h, &self.ocean);
        let s = &mut self.routing;
        let mut more: Vec<u32> = spills.iter().filter(|&&(pass, beyond)| pass != NONE && is_sea(ocean, h, beyond as usize)).map(|&(pass, _)| pass).collect();
        more.extend(s.pits.iter().filter(|&&p| self.receiver[p as usize] == NONE));
        more.sort_unstable();
        s.outlets.clear();
        let (mut i, mut j) = (0, 0);
        while i < s.coast.len() && j < more.len() {
            if s.coast[i] < more[j] {
                s.outlets.push(s.coast[i]);
                i += 1;
            } else {
                s.outlets.push(more[j]);
                j += 1;
            }
        }
        s.outlets.extend(&s.coast[i..]);
        s.outlets.extend(&more[j..]);
    }

    /// The stack: every outlet's tree breadth first from the outlet, groups of
    /// [`OUTLETS_PER_CHUNK`] outlets (in cell order) on the threads, every cell after its
    /// receiver; each group is a chunk for the solve.
    fn build_stack(&mut self) {
        let (receiver, grid, h, ocean) = (&self.receiver, &self.grid, &self.h, &self.ocean);
        let s = &mut self.routing;
        donors::donor_masks(grid, receiver, &|c| is_sea(ocean, h, c), &mut s.donors);
        let masks = &s.donors;
        // Each group's trees into buffers kept between steps: the cells, and each one's
        // receiver's position within the group.
        s.trees.resize_with(s.outlets.len().div_ceil(OUTLETS_PER_CHUNK), Default::default);
        s.outlets.par_chunks(OUTLETS_PER_CHUNK).zip(s.trees.par_iter_mut()).for_each(|(group, (order, up))| {
            order.clear();
            up.clear();
            for &outlet in group {
                let mut read = order.len();
                order.push(outlet);
                up.push(NONE);
                while read < order.len() {
                    let x = order[read];
                    // The donors in the order of the neighbours (none for most cells).
                    let mut bits = masks[x as usize];
                    if bits != 0 {
                        let around = grid.neighbour_cells(x as usize);
                        while bits != 0 {
                            order.push(around[bits.trailing_zeros() as usize]);
                            up.push(read as u32);
                            bits &= bits - 1;
                        }
                    }
                    read += 1;
                }
            }
        });
        s.chunks.clear();
        let mut at = 0;
        for (order, _) in &s.trees {
            s.chunks.push((at, at + order.len()));
            at += order.len();
        }
        // Only the last stack's cells hold a position to clear.
        if s.pos.len() == grid.cells() {
            let pos = &s.pos;
            self.order.par_iter().for_each(|&c| pos[c as usize].store(NONE, Ordering::Relaxed));
        } else {
            s.pos = (0..grid.cells()).into_par_iter().map(|_| AtomicU32::new(NONE)).collect();
        }
        self.order.resize(at, 0);
        s.receiver_pos.resize(at, 0);
        let pos = &s.pos;
        split_chunks(&mut self.order, &s.chunks).into_par_iter().zip(split_chunks(&mut s.receiver_pos, &s.chunks)).zip(s.chunks.par_iter().zip(&s.trees)).for_each(|((order, up), (&(start, _), tree))| {
            order.copy_from_slice(&tree.0);
            for (u, &t) in up.iter_mut().zip(&tree.1) {
                *u = if t == NONE { NONE } else { start as u32 + t };
            }
            for (i, &c) in order.iter().enumerate() {
                pos[c as usize].store((start + i) as u32, Ordering::Relaxed);
            }
        });
    }
}

/// Cells [`descend_lanes`] takes at once: eight `f32` lanes of AVX2.
const LANES: usize = 8;

/// The receiver of cell `c` and the distance to it, m, as [`Level::steepest_descent`] finds
/// it: `(NONE, 1.0)` for a pit and at sea.
#[inline]
fn descend(h: &[f32], ocean: &[bool], grid: &super::grid::Grid, c: usize) -> (u32, f32) {
    let sea = |c: usize| is_sea(ocean, h, c);
    let mut best = (0.0f32, NONE, 1.0f32);
    if !sea(c) {
        let hc = h[c];
        let mut coast = None;
        for (x, d) in grid.neighbours(c) {
            if x == NONE {
                continue;
            }
            let hx = if sea(x as usize) {
                coast.get_or_insert((x, d));
                0.0
            } else {
                h[x as usize]
            };
            let s = (hc - hx) / d;
            if s > best.0 {
                best = (s, x, d);
            }
        }
        if best.1 == NONE {
            if let Some((x, d)) = coast {
                best = (0.0, x, d);
            }
        }
    }
    (best.1, best.2)
}

/// The receivers and distances of the cells from `first` on (as many as `receivers` holds):
/// in AVX2 where the CPU has it, plainly elsewhere.
fn descend_run(h: &[f32], ocean: &[bool], grid: &super::grid::Grid, first: usize, receivers: &mut [u32], distances: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 support was detected at run time just above.
        unsafe { descend_run_avx2(h, ocean, grid, first, receivers, distances) };
        return;
    }
    descend_run_plain(h, ocean, grid, first, receivers, distances);
}

/// [`descend_run_plain`] compiled with AVX2 (without FMA: nothing here multiplies and adds).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn descend_run_avx2(h: &[f32], ocean: &[bool], grid: &super::grid::Grid, first: usize, receivers: &mut [u32], distances: &mut [f32]) {
    descend_run_plain(h, ocean, grid, first, receivers, distances);
}

/// [`descend_run`] as the compiler's target allows: [`LANES`] cells of sea at a time (no
/// receiver; most of a planet), runs of cells inside a face row [`LANES`] at a time
/// ([`descend_lanes`]), the rest one by one ([`descend`]).
#[inline(always)]
fn descend_run_plain(h: &[f32], ocean: &[bool], grid: &super::grid::Grid, first: usize, receivers: &mut [u32], distances: &mut [f32]) {
    let n = grid.n;
    let mut o = 0;
    while o < receivers.len() {
        let c = first + o;
        if o + LANES <= receivers.len() && donors::all_sea(c, |x| is_sea(ocean, h, x)) {
            receivers[o..o + LANES].fill(NONE);
            distances[o..o + LANES].fill(1.0);
            o += LANES;
            continue;
        }
        let (_, i, j) = grid.position(c);
        // Cells left in this row inside the face, and in this run.
        let run = if i >= 1 && j >= 1 && j + 1 < n && i + 1 < n { (n - 1 - i).min(receivers.len() - o) } else { 0 };
        if run >= LANES {
            let (r, m) = descend_lanes(h, ocean, grid, c);
            receivers[o..o + LANES].copy_from_slice(&r);
            distances[o..o + LANES].copy_from_slice(&m);
            o += LANES;
        } else {
            (receivers[o], distances[o]) = descend(h, ocean, grid, c);
            o += 1;
        }
    }
}

/// [`descend`] of the [`LANES`] cells from `c` on, all inside one face row (none on the
/// face's border): the same comparisons in the same order, lane by lane (plain loops, which
/// the compiler turns into vector instructions), so each cell gets the same receiver and
/// distance to the bit.
#[inline(always)]
fn descend_lanes(h: &[f32], ocean: &[bool], grid: &super::grid::Grid, c: usize) -> ([u32; LANES], [f32; LANES]) {
    let (p, _, _) = grid.position(c);
    let (hc, oc) = (&h[c..c + LANES], &ocean[c..c + LANES]);
    // Best slope, its direction (8 for none) and distance; first sea direction (8 for none)
    // and its distance. Choices are bit masks (all ones or zero), so they stay in lanes.
    let mut best = [0.0f32; LANES];
    let mut best_k = [8u32; LANES];
    let mut best_d = [1.0f32; LANES];
    let mut coast_k = [8u32; LANES];
    let mut coast_d = [1.0f32; LANES];
    let tables = grid.interior_tables();
    for (k, &(table, at, step)) in tables.iter().enumerate() {
        let x = (c as isize + step) as usize;
        let q = (p as isize + at) as usize;
        let (hx, ox, d) = (&h[x..x + LANES], &ocean[x..x + LANES], &table[q..q + LANES]);
        let k = k as u32;
        for l in 0..LANES {
            let sea = (u32::from(ox[l]) & u32::from(hx[l] < 0.0)).wrapping_neg();
            let ground = f32::from_bits(hx[l].to_bits() & !sea);
            let s = (hc[l] - ground) / d[l];
            let better = u32::from(s > best[l]).wrapping_neg();
            best[l] = f32::from_bits((s.to_bits() & better) | (best[l].to_bits() & !better));
            best_k[l] = (k & better) | (best_k[l] & !better);
            best_d[l] = f32::from_bits((d[l].to_bits() & better) | (best_d[l].to_bits() & !better));
            let first_sea = sea & u32::from(coast_k[l] == 8).wrapping_neg();
            coast_k[l] = (k & first_sea) | (coast_k[l] & !first_sea);
            coast_d[l] = f32::from_bits((d[l].to_bits() & first_sea) | (coast_d[l].to_bits() & !first_sea));
        }
    }
    let mut receivers = [NONE; LANES];
    let mut distances = [1.0f32; LANES];
    for l in 0..LANES {
        let (k, d) = if best_k[l] != 8 { (best_k[l], best_d[l]) } else { (coast_k[l], coast_d[l]) };
        if !(oc[l] && hc[l] < 0.0) && k != 8 {
            receivers[l] = (c as isize + l as isize + tables[k as usize].2) as u32;
            distances[l] = d;
        }
    }
    (receivers, distances)
}

/// `v` cut into the disjoint ranges `chunks` (sorted, touching, covering `v`).
pub fn split_chunks<'a, T>(mut v: &'a mut [T], chunks: &[(usize, usize)]) -> Vec<&'a mut [T]> {
    let mut out = Vec::with_capacity(chunks.len());
    let mut at = 0;
    for &(a, b) in chunks {
        let (_, rest) = v.split_at_mut(a - at);
        let (piece, rest) = rest.split_at_mut(b - a);
        out.push(piece);
        v = rest;
        at = b;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::erosion::landscape::grid::Grid;

    /// The receivers of whole rows in lanes are the ones each cell finds alone, to the bit,
    /// over land, sea below and above sea level, flats and ties, on grids whose rows are and
    /// are not whole numbers of lane groups.
    #[test]
    fn receivers_in_lanes_are_each_cell_s_own() {
        for n in [16usize, 37, 64] {
            let grid = Grid::new(n, 1000.0);
            let cells = grid.cells();
            // Terraced hills (ties and flats) with sea and basins below sea level.
            let h: Vec<f32> = (0..cells).map(|c| (((c * 7919) % 23) as f32 - 6.0).round() * 50.0 + if c % 11 == 0 { 300.0 } else { 0.0 }).collect();
            let ocean: Vec<bool> = (0..cells).map(|c| c % 3 != 0).collect();
            let mut receivers = vec![0u32; cells];
            let mut distances = vec![0f32; cells];
            descend_run(&h, &ocean, &grid, 0, &mut receivers, &mut distances);
            let mut draining = 0;
            for c in 0..cells {
                let (r, d) = descend(&h, &ocean, &grid, c);
                assert_eq!((receivers[c], distances[c].to_bits()), (r, d.to_bits()), "n={n} cell {c}");
                draining += usize::from(r != NONE);
            }
            assert!(draining > cells / 4, "n={n}: too few receivers ({draining}) to test");
        }
    }

    /// The pits and outlets that the routing gathers as it goes are those a scan of every cell
    /// finds, and the stack positions it keeps are the stack's: hills full of closed basins,
    /// inland basins below sea level, passes that spill into the sea, (with no sea) the
    /// planet's outlet, and sea cells that rise into the stack and sink out of it again.
    #[test]
    fn pits_and_outlets_are_those_of_a_scan_of_every_cell() {
        use crate::erosion::landscape::solver::Physics;
        let n = 40;
        let physics = Physics { k: 2e-6, m: 0.45, n: 1.0, diffusion: 0.01, max_slope: 0.6, lakes: true };
        for offset in [-80.0f32, 400.0, 1500.0] {
            let grid = Grid::new(n, 1000.0);
            let field = crate::planet::Field::from_fn_dir(n, |d| 1000.0 * (d.x * 11.0).sin() * (d.y * 9.0).cos() * (d.z * 7.0).sin() + offset);
            // Rough ground: closed hollows everywhere.
            let h: Vec<f32> = field.data().iter().enumerate().map(|(c, &v)| v + ((c * 7919) % 23) as f32 * 20.0).collect();
            let cells = grid.cells();
            let mut level = Level::new(grid, h, vec![1e-3; cells], vec![1.0; cells], vec![1.0; cells]);
            let coast_sea: Vec<usize> = (0..cells).filter(|&c| level.is_sea(c) && level.grid.neighbour_cells(c).iter().any(|&x| x != NONE && !level.is_sea(x as usize))).step_by(3).collect();
            let (mut pitted, mut spilled) = (0, 0);
            for step in 0..4 {
                level.steepest_descent();
                let sea = |c: usize| level.is_sea(c);
                let pits: Vec<u32> = (0..cells).filter(|&c| level.receiver[c] == NONE && !sea(c)).map(|c| c as u32).collect();
                assert_eq!(level.routing.pits, pits, "offset {offset}, step {step}");
                pitted += pits.len();
                level.route();
                let sea = |c: usize| level.is_sea(c);
                let outlets: Vec<u32> = (0..cells).filter(|&c| !sea(c) && (level.receiver[c] == NONE || sea(level.receiver[c] as usize))).map(|c| c as u32).collect();
                assert_eq!(level.routing.outlets, outlets, "offset {offset}, step {step}");
                // Every stack position is current, and every other cell has none.
                let mut pos = vec![NONE; cells];
                for (p, &c) in level.order.iter().enumerate() {
                    pos[c as usize] = p as u32;
                }
                assert!(level.routing.pos.iter().map(|p| p.load(Ordering::Relaxed)).eq(pos), "offset {offset}, step {step}");
                spilled += outlets.len() - level.routing.coast.len();
                level.step(1e5, &physics);
                // Sea at the coast raised to land for one step, then sunk again: cells that
                // join the stack and leave it (evolution alone never sinks land into the sea).
                for c in coast_sea.iter() {
                    level.h[*c] = if step == 0 { 5.0 } else { -5.0 };
                }
            }
            assert!(pitted > 10 && spilled > 0, "offset {offset}: closed basins that spill");
        }
    }
}
