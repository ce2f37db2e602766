//! Drainage networks on the whole cube-sphere: depressions filled by a priority flood from the
//! coasts (across face seams, over the 8-neighbour pipes), flow along the flood's tree, the
//! discharge accumulated downstream, rivers where it passes a threshold, and valleys carved
//! with a depth and a width that grow as powers of the discharge.
//!
//! The flood visits land cells in order of their filled height, so the first neighbour to
//! reach a cell is its lowest one: that neighbour is where the cell drains. Cells inside a
//! depression are raised to its spill height and reached in rings from the spill point, which
//! gives every cell of a lake a way out. The visit order is a topological order of the flow,
//! so the discharge is summed in one backward sweep.

use super::SECONDS_PER_YEAR;
use crate::planet::pipes::{pipes8, PipeTable, NONE};
use crate::planet::radix_heap::RadixHeap;
use crate::planet::SimError;
use crate::planet::{Cell, Field};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};

/// What the drainage needs besides the elevation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrainageSettings {
    /// Elevation below which a cell is sea (the input's unit).
    pub sea_level: f32,
    /// Precipitation where no precipitation field is given, mm per year.
    pub rain_mm: f32,
    /// Planet radius, km (turns cells into areas and distances).
    pub radius_km: f32,
    /// Discharge from which a cell is a river, m³/s.
    pub threshold_m3s: f32,
    /// Valley depth at the threshold discharge (the input's unit).
    pub depth: f32,
    /// Exponent of the depth's growth with discharge.
    pub depth_exponent: f32,
    /// Valley half-width at the threshold discharge, km.
    pub width_km: f32,
    /// Exponent of the width's growth with discharge.
    pub width_exponent: f32,
    /// Depth a filled depression must reach to count as a lake (the input's unit).
    pub min_lake_depth: f32,
}

/// The result of [`drainage`].
#[derive(Debug, Clone)]
pub struct Drainage {
    /// Elevation with depressions filled to their spill height and valleys carved (the
    /// input's unit). Sea cells are unchanged; land never goes below the sea level.
    pub elevation: Field,
    /// Mean discharge through each land cell, m³/s (0 at sea).
    pub discharge: Field,
    /// 1 on river cells (discharge at or above the threshold, outside lakes), else 0.
    pub rivers: Field,
    /// 1 on lake cells (filled depressions at least the minimum lake depth deep), else 0.
    pub lakes: Field,
    /// For every land cell, the cell it drains into (a neighbour; a sea cell at the mouth), or
    /// [`NONE`] for sea cells and for the outlet of a planet without sea.
    pub downstream: Vec<u32>,
}

/// A sort key of a float that orders like the float (negative values included).
#[inline]
fn key(v: f32) -> u32 {
    let b = v.to_bits();
    if b & 0x8000_0000 != 0 {
        !b
    } else {
        b | 0x8000_0000
    }
}

/// Fills, routes, accumulates and carves (see the module notes). `precipitation_mm` is the
/// annual precipitation per cell, in mm, where given. Errs with `SimError::Cancelled` when `cancel` was set.
pub fn drainage(h: &Field, precipitation_mm: Option<&Field>, s: &DrainageSettings, cancel: &AtomicBool) -> Result<Drainage, SimError> {
    let n = h.n();
    let cells = 6 * n * n;
    let table = pipes8(n);
    let hv = h.data();
    let sea = |c: usize| hv[c] < s.sea_level;
    let (filled, down, order) = flood(hv, &sea, &table);
    if cancel.load(Ordering::Relaxed) {
        return Err(SimError::Cancelled);
    }

    // Lakes: each raised cell's lake is named by the first raised cell on its way out (the
    // visit order puts a cell's downstream before it); a lake counts when its deepest cell
    // reaches the minimum depth.
    let raised = |c: usize| filled[c] > hv[c];
    let mut lake_root = vec![NONE; cells];
    let mut lake_depth = vec![0f32; cells];
    for &c in &order {
        let c = c as usize;
        if raised(c) {
            let d = down[c];
            let root = if d != NONE && lake_root[d as usize] != NONE { lake_root[d as usize] } else { c as u32 };
            lake_root[c] = root;
            let r = root as usize;
            lake_depth[r] = lake_depth[r].max(filled[c] - hv[c]);
        }
    }
    let lake: Vec<bool> = (0..cells).map(|c| lake_root[c] != NONE && lake_depth[lake_root[c] as usize] >= s.min_lake_depth).collect();

    // Discharge: every land cell's rain, summed down the tree (children before parents).
    let radius_m = f64::from(s.radius_km) * 1000.0;
    let cell_m2 = 4.0 * std::f64::consts::PI * radius_m * radius_m / cells as f64;
    let rain_m3s = |c: usize| {
        let mm = precipitation_mm.map_or(s.rain_mm, |p| p.data()[c]).max(0.0);
        cell_m2 * f64::from(mm) / 1000.0 / SECONDS_PER_YEAR
    };
    let mut q = vec![0f64; cells];
    for &c in &order {
        q[c as usize] = rain_m3s(c as usize);
    }
    for &c in order.iter().rev() {
        let d = down[c as usize];
        if d != NONE && !sea(d as usize) {
            q[d as usize] += q[c as usize];
        }
    }
    if cancel.load(Ordering::Relaxed) {
        return Err(SimError::Cancelled);
    }

    let threshold = f64::from(s.threshold_m3s.max(1e-6));
    let carvable: Vec<bool> = (0..cells).map(|c| !sea(c) && !lake[c]).collect();
    let river: Vec<bool> = (0..cells).map(|c| carvable[c] && q[c] >= threshold).collect();
    let carve = carve_valleys(n, &table, &q, threshold, &river, &carvable, s);

    // Carved heights, never below the sea, then made non-increasing downstream (a bank carved
    // deeper than the cell it drains into is lifted to it).
    let mut elevation = h.clone();
    let out = elevation.data_mut();
    for c in 0..cells {
        if !sea(c) {
            out[c] = (filled[c] - carve[c]).max(s.sea_level);
        }
    }
    for &c in &order {
        let d = down[c as usize];
        if d != NONE && !sea(d as usize) {
            out[c as usize] = out[c as usize].max(out[d as usize]);
        }
    }
    let mask = |m: &[bool]| Field::from_fn_cell(n, |c| if m[c] { 1.0 } else { 0.0 });
    Ok(Drainage { elevation, discharge: Field::from_fn_cell(n, |c| q[c] as f32), rivers: mask(&river), lakes: mask(&lake), downstream: down })
}

/// The priority flood: filled heights, the downstream cell of every land cell, and the land
/// cells in visit order (a cell's downstream comes before it).
fn flood(hv: &[f32], sea: &dyn Fn(usize) -> bool, table: &PipeTable<8>) -> (Vec<f32>, Vec<u32>, Vec<u32>) {
    let cells = hv.len();
    // Per cell, side by side (one memory read per neighbour): the filled height (the height
    // itself until the cell is reached) and the downstream cell ([`UNREACHED`] until then).
    const UNREACHED: u32 = NONE - 1;
    let mut cell: Vec<(f32, u32)> = hv.iter().enumerate().map(|(c, &h)| (h, if sea(c) { NONE } else { UNREACHED })).collect();
    let mut order = Vec::with_capacity(cells);
    // Cells pop in order of height, ties in the order of their pushes (so the result depends
    // on nothing but the input). A cell pushed is higher than the level it was reached from,
    // as the monotone queue needs.
    let mut heap: RadixHeap<u32> = RadixHeap::new();
    let mut pit: VecDeque<u32> = VecDeque::new();
    let push = |heap: &mut RadixHeap<u32>, v: f32, c: usize| heap.push(u64::from(key(v)), c as u32);
    // The coast: land cells next to the sea drain into their lowest sea neighbour.
    for c in 0..cells {
        if cell[c].1 != UNREACHED {
            continue;
        }
        let lowest = table.neighbours_of(c).into_iter().filter(|&x| x != NONE && sea(x as usize)).min_by(|&a, &b| hv[a as usize].total_cmp(&hv[b as usize]).then(a.cmp(&b)));
        if let Some(s) = lowest {
            cell[c].1 = s;
            push(&mut heap, hv[c], c);
        }
    }
    // A planet without sea drains to its lowest cell.
    if heap.is_empty() {
        if let Some(c) = (0..cells).min_by(|&a, &b| hv[a].total_cmp(&hv[b]).then(a.cmp(&b))) {
            cell[c].1 = NONE;
            push(&mut heap, hv[c], c);
        }
    }
    loop {
        let c = match pit.pop_front() {
            Some(c) => c as usize,
            None => match heap.pop() {
                Some((_, c)) => c as usize,
                None => break,
            },
        };
        order.push(c as u32);
        let level = cell[c].0;
        for x in table.neighbours_of(c) {
            if x == NONE || cell[x as usize].1 != UNREACHED {
                continue;
            }
            let state = &mut cell[x as usize];
            state.1 = c as u32;
            if state.0 <= level {
                state.0 = level;
                pit.push_back(x);
            } else {
                push(&mut heap, state.0, x as usize);
            }
        }
    }
    let (filled, down) = cell.into_iter().unzip();
    (filled, down, order)
}

/// How deep each cell is carved: every river cell cuts a valley of depth `d (Q / Qt)^a` and
/// half-width `w (Q / Qt)^b` km with a parabolic cross-section; a cell takes the deepest cut
/// that reaches it. Cuts spread from the deepest outwards over the neighbours (across seams),
/// each measured by the straight-line distance to its river cell (within 0.1 % of the arc up
/// to 500 km on an Earth-sized planet).
fn carve_valleys(n: usize, table: &PipeTable<8>, q: &[f64], threshold: f64, river: &[bool], carvable: &[bool], s: &DrainageSettings) -> Vec<f32> {
    let cells = q.len();
    let dir = |c: u32| Cell::from_index(c as usize, n).direction(n);
    // Per river cell: its depth and its half-width in units of the radius, inverse squared.
    let cut = |src: usize| {
        let ratio = (q[src] / threshold) as f32;
        let width = (s.width_km * ratio.powf(s.width_exponent) / s.radius_km).max(1e-6);
        (s.depth * ratio.powf(s.depth_exponent), 1.0 / (width * width))
    };
    // Cells that cannot be carved (sea, lakes) start at infinity, so no cut reaches them.
    let mut carve: Vec<f32> = carvable.iter().map(|&ok| if ok { 0.0 } else { f32::INFINITY }).collect();
    // The deepest cut first (keys are the depth's order reversed); a cell's cut is never
    // deeper than the one it spreads from, as the monotone queue needs. Entries carry the
    // cell, the river cell that cuts it, its depth and inverse squared half-width.
    let mut heap: RadixHeap<(u32, u32, f32, f32)> = RadixHeap::new();
    let deepest_first = |v: f32| u64::from(!key(v));
    for c in (0..cells).filter(|&c| river[c]) {
        let (depth, inv_w2) = cut(c);
        carve[c] = depth;
        heap.push(deepest_first(depth), (c as u32, c as u32, depth, inv_w2));
    }
    while let Some((k, (c, src, depth, inv_w2))) = heap.pop() {
        if k != deepest_first(carve[c as usize]) {
            continue;
        }
        let from = dir(src);
        for x in table.neighbours_of(c as usize) {
            // Nothing this cut can give is deeper than its depth (this also skips the sea).
            if x == NONE || carve[x as usize] >= depth {
                continue;
            }
            let v = depth * (1.0 - from.distance_squared(dir(x)) * inv_w2).max(0.0);
            if v > carve[x as usize] {
                carve[x as usize] = v;
                heap.push(deepest_first(v), (x, src, depth, inv_w2));
            }
        }
    }
    carve.iter_mut().filter(|v| v.is_infinite()).for_each(|v| *v = 0.0);
    carve
}

#[cfg(test)]
#[path = "drainage_tests.rs"]
mod tests;
