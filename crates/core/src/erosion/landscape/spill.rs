//! Where each closed basin spills (see the notes of `super`): the passes between touching
//! basins, then a minimax search from the sea over them.
//!
//! Of the passes from one basin to a neighbouring one, the search can only ever take the one
//! that is lowest once raised to the basin's water level, ties going to the lowest pair of
//! cells. The level is not known before the search, so each basin keeps, for each neighbour,
//! the passes that no other pass beats at every level (none lower or as low with a lower pair
//! of cells); once the basin's level is known, one of them per neighbour goes on the heap. The
//! levels and outlets are those of a search over every pass. The work is in proportion to the
//! closed basins' cells, not the planet's.

use super::{is_sea, DRAINED};
use crate::erosion::landscape::grid::NONE;
use crate::erosion::landscape::solver::Level;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::Ordering;

/// Maps `f` to a `u32` of the same order (`total_cmp`'s order for finite values).
fn ordered(f: f32) -> u32 {
    let b = f.to_bits();
    if b >> 31 == 1 {
        !b
    } else {
        b | 0x8000_0000
    }
}

/// The `f32` that [`ordered`] mapped to `key`.
fn unordered(key: u32) -> f32 {
    f32::from_bits(if key >> 31 == 1 { key & 0x7fff_ffff } else { !key })
}

/// An edge between two basins: the pass height and the pair of neighbours it crosses.
#[derive(Clone, Copy)]
struct Edge {
    from: u32,
    to: u32,
    pass: f32,
    cell_from: u32,
    cell_to: u32,
}

/// A basin's entry in the search's heap: (pass, basin, its cell, the cell beyond), compared
/// in that order (the pass as [`ordered`]).
type Entry = (u32, u32, u32, u32);

impl Level {
    /// The water surface of every pit's basin (`-inf` for the outlet of a planet without sea)
    /// and the pass each spills through (its cell and the neighbour beyond).
    pub(super) fn spill(&self) -> (Vec<f32>, Vec<(u32, u32)>) {
        let s = &self.routing;
        let (h, ocean, grid) = (&self.h, &self.ocean, &self.grid);
        let label = |c: usize| s.label[c].load(Ordering::Relaxed);
        let height = |c: usize| if is_sea(ocean, h, c) { 0.0 } else { h[c] };
        // Each basin's passes, basin by basin on the threads: from each of its cells the
        // lowest pass to each other basin around it (at most eight), then reduced.
        let passes: Vec<(Vec<Edge>, Option<Entry>)> = s
            .basins
            .par_iter()
            .enumerate()
            .map_init(Vec::new, |edges: &mut Vec<Edge>, (k, cells)| {
                let from = k as u32;
                edges.clear();
                for &c in cells {
                    let first = edges.len();
                    for x in grid.neighbour_cells(c as usize) {
                        if x == NONE || label(x as usize) == from {
                            continue;
                        }
                        let e = Edge { from, to: label(x as usize), pass: height(c as usize).max(height(x as usize)), cell_from: c, cell_to: x };
                        match edges[first..].iter_mut().find(|o| o.to == e.to) {
                            Some(o) if e.pass < o.pass => *o = e,
                            Some(_) => {}
                            None => edges.push(e),
                        }
                    }
                }
                reduce(edges)
            })
            .collect();
        // The planet's outlet where no basin touches the sea (a planet without sea): its lowest pit.
        let lowest = || (0..s.pits.len()).min_by(|&a, &b| h[s.pits[a] as usize].total_cmp(&h[s.pits[b] as usize]).then(a.cmp(&b)));
        minimax(&passes, lowest)
    }
}

/// The minimax search over the basins' reduced `passes` ([`reduce`]; see the module notes):
/// each basin's water level and the pass it spills through. The search starts from the sea,
/// or where no pass reaches it from the basin `lowest` gives (whose level is `-inf`).
fn minimax(passes: &[(Vec<Edge>, Option<Entry>)], lowest: impl FnOnce() -> Option<usize>) -> (Vec<f32>, Vec<(u32, u32)>) {
    let pits = passes.len();
    let mut levels = vec![f32::INFINITY; pits];
    let mut outlets = vec![(NONE, NONE); pits];
    let mut done = vec![false; pits];
    // Smallest first.
    let mut heap: BinaryHeap<Reverse<Entry>> = passes.iter().filter_map(|p| p.1).map(Reverse).collect();
    if heap.is_empty() {
        if let Some(root) = lowest() {
            heap.push(Reverse((ordered(f32::NEG_INFINITY), root as u32, NONE, NONE)));
        }
    }
    while let Some(Reverse((key, k, cell, beyond))) = heap.pop() {
        let k = k as usize;
        if done[k] {
            continue;
        }
        done[k] = true;
        levels[k] = if cell == NONE { f32::NEG_INFINITY } else { unordered(key) };
        outlets[k] = (cell, beyond);
        // Each neighbour's passes, lowest first, each with a lower pair of cells than the
        // one before: raised to this level (`ordered` keeps the order), the last of them at
        // or below it wins on its cells, else the lowest above it.
        for group in passes[k].0.chunk_by(|a, b| a.to == b.to) {
            let to = group[0].to;
            if done[to as usize] {
                continue;
            }
            let below = group.partition_point(|e| ordered(e.pass) <= key);
            let e = group[below.saturating_sub(1)];
            heap.push(Reverse((ordered(e.pass).max(key), to, e.cell_to, e.cell_from)));
        }
    }
    (levels, outlets)
}

/// One basin's `edges` (all from it): the passes to each neighbour that can win, sorted by
/// neighbour then pass (each with a lower pair of cells than the one before), and the heap's
/// entry of its lowest pass to the sea, if any.
fn reduce(edges: &mut [Edge]) -> (Vec<Edge>, Option<Entry>) {
    let sea = edges.iter().filter(|e| e.to == DRAINED).map(|e| (ordered(e.pass), e.from, e.cell_from, e.cell_to)).min();
    // (neighbour, pass, cells) is unique: a cell gives one edge to each neighbour.
    let key = |e: &Edge| (u128::from(e.to) << 96) | (u128::from(ordered(e.pass)) << 64) | (u128::from(e.cell_to) << 32) | u128::from(e.cell_from);
    edges.sort_unstable_by_key(key);
    let mut kept = Vec::new();
    let mut best: Option<(u32, (u32, u32))> = None;
    for &e in edges.iter() {
        if e.to == DRAINED {
            break;
        }
        // Passes come lowest first, so this one can win only with a lower pair of cells than
        // every lower (or as low) pass to the same neighbour.
        let pair = (e.cell_to, e.cell_from);
        if best.is_none_or(|(to, lowest)| to != e.to || pair < lowest) {
            best = Some((e.to, pair));
            kept.push(e);
        }
    }
    (kept, sea)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search over all edges, as it was before the reduction.
    fn every_edge(pits: usize, edges: &[Edge], lowest: Option<usize>) -> (Vec<f32>, Vec<(u32, u32)>) {
        let mut levels = vec![f32::INFINITY; pits];
        let mut outlets = vec![(NONE, NONE); pits];
        let mut done = vec![false; pits];
        let mut heap = BinaryHeap::new();
        for e in edges.iter().filter(|e| e.to == DRAINED) {
            heap.push(Reverse((ordered(e.pass), e.from, e.cell_from, e.cell_to)));
        }
        if heap.is_empty() {
            if let Some(root) = lowest {
                heap.push(Reverse((ordered(f32::NEG_INFINITY), root as u32, NONE, NONE)));
            }
        }
        while let Some(Reverse((key, k, cell, beyond))) = heap.pop() {
            let k = k as usize;
            if done[k] {
                continue;
            }
            done[k] = true;
            let level = if cell == NONE { f32::NEG_INFINITY } else { unordered(key) };
            levels[k] = level;
            outlets[k] = (cell, beyond);
            for e in edges.iter().filter(|e| e.from as usize == k) {
                if e.to != DRAINED && !done[e.to as usize] {
                    heap.push(Reverse((ordered(e.pass.max(level)), e.to, e.cell_to, e.cell_from)));
                }
            }
        }
        (levels, outlets)
    }

    /// Random basins joined by many passes of few heights (ties of height and of cells), with
    /// and without a way to the sea: the reduced search gives every basin the same level, to
    /// the bit, and the same outlet as the search over every edge.
    #[test]
    fn reduced_passes_spill_as_every_pass_does() {
        let mut state = 0x2545_F491_u64;
        let mut random = |below: u32| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % u64::from(below)) as u32
        };
        for case in 0..60 {
            let pits = 2 + random(40) as usize;
            let with_sea = case % 4 != 0;
            let mut edges = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for _ in 0..pits * (1 + random(30) as usize) {
                let from = random(pits as u32);
                let to = if with_sea && random(6) == 0 { DRAINED } else { random(pits as u32) };
                let cell_from = from * 1000 + random(40);
                if to == from || !seen.insert((from, to, cell_from)) {
                    continue;
                }
                let cell_to = if to == DRAINED { 999_999 - random(30) } else { to * 1000 + random(40) };
                let pass = (random(12) as f32 - 3.0) * 25.0;
                edges.push(Edge { from, to, pass, cell_from, cell_to });
            }
            let lowest = Some(random(pits as u32) as usize);
            let (want_levels, want_outlets) = every_edge(pits, &edges, lowest);
            let mut grouped: Vec<Vec<Edge>> = vec![Vec::new(); pits];
            for e in &edges {
                grouped[e.from as usize].push(*e);
            }
            let passes: Vec<_> = grouped.iter_mut().map(|g| reduce(g)).collect();
            let (levels, outlets) = minimax(&passes, || lowest);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&levels), bits(&want_levels), "case {case}");
            assert_eq!(outlets, want_outlets, "case {case}");
        }
    }
}
