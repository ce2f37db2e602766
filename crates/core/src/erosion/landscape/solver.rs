//! One level of the landscape evolution: routing over depressions, drainage area, the implicit
//! stream-power update, hillslope diffusion and landslides (see the module notes of
//! `super`). Heights are metres above sea level; cells below 0 are sea.

use super::grid::{Grid, NONE};
use rayon::prelude::*;
use std::collections::VecDeque;

/// Height of one bin of the flood's queue, m.
const BIN_M: f32 = 0.25;

/// The flood's priority queue: cells in bins of [`BIN_M`] of height, popped bin by bin from
/// the lowest (last in, first out within a bin). Constant time per cell; cells of one bin pop
/// in an order fixed by the pushes, which only decides among near-equal heights (receivers
/// are chosen by the true slopes among the cells already taken).
struct Bins {
    bins: Vec<Vec<u32>>,
    current: usize,
}

impl Bins {
    fn new(max_height_m: f32) -> Bins {
        let count = (max_height_m.max(0.0) / BIN_M) as usize + 2;
        Bins { bins: (0..count).map(|_| Vec::new()).collect(), current: 0 }
    }

    #[inline]
    fn push(&mut self, h: f32, c: u32) {
        let b = ((h.max(0.0) / BIN_M) as usize).clamp(self.current, self.bins.len() - 1);
        self.bins[b].push(c);
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        while self.current < self.bins.len() {
            if let Some(c) = self.bins[self.current].pop() {
                return Some(c);
            }
            self.current += 1;
        }
        None
    }

    fn is_empty(&self) -> bool {
        self.bins[self.current..].iter().all(Vec::is_empty)
    }
}

/// The physical constants of a run, in SI-like units (metres and years).
#[derive(Debug, Clone, Copy)]
pub struct Physics {
    /// Erodibility K, m^(1-2m)/yr.
    pub k: f64,
    /// Drainage-area exponent m.
    pub m: f64,
    /// Slope exponent n.
    pub n: f64,
    /// Hillslope diffusivity, m²/yr.
    pub diffusion: f64,
    /// Tangent of the critical hillslope angle (landslides), or infinity for none.
    pub max_slope: f64,
    /// Whether depressions stay as lakes (else they are filled with sediment each step).
    pub lakes: bool,
}

/// The state of one level and its scratch arrays.
pub struct Level {
    /// Geometry.
    pub grid: Grid,
    /// Elevation, m above sea level.
    pub h: Vec<f32>,
    /// Uplift, m/yr.
    pub uplift: Vec<f32>,
    /// Rain weight of each cell (precipitation over 1000 mm/yr; 1 without precipitation).
    pub rain: Vec<f32>,
    /// Erodibility factor of each cell (1 without a mask).
    pub erodibility: Vec<f32>,
    /// Water surface: the elevation with depressions filled to their spill height, m.
    pub filled: Vec<f32>,
    /// Cells of the ocean: below sea level and connected to a body of water below sea level
    /// at least [`crate::planet::ocean::SEA_MIN_SHARE`] of the planet (or the largest), fixed
    /// when the level starts.
    /// Ground below sea level elsewhere is an inland basin: land whose water fills it to its
    /// sill as a lake and spills on towards the sea, like the Dead Sea or the Caspian.
    pub ocean: Vec<bool>,
    /// Receiver of each land cell (a neighbour; a sea cell at the coast), [`NONE`] for sea
    /// cells and for the outlet of a planet without sea.
    pub receiver: Vec<u32>,
    /// Distance to the receiver, m.
    pub receiver_m: Vec<f32>,
    /// Land cells in stack order: every cell after its receiver.
    pub order: Vec<u32>,
    /// Rain-weighted drainage area, m² (the cell's own area included; 0 at sea).
    pub area: Vec<f64>,
    /// Sediment that left the land into the sea, m³ (summed over steps).
    pub to_sea_m3: f64,
    /// Sediment that filled depressions (lakes off), m³ (summed over steps).
    pub filled_m3: f64,
    /// The grid's shortest edge, m (once the diffusion needs it).
    shortest_edge: Option<f32>,
    /// Scratch: the flood's per-cell state.
    slots: Vec<Slot>,
    /// Scratch: sediment volume passing each cell in a step, m³.
    sediment: Vec<f64>,
}

/// The ocean of heights `h` (m above sea level) on `grid`: see [`Level::ocean`].
pub fn ocean_cells(grid: &Grid, h: &[f32]) -> Vec<bool> {
    crate::planet::ocean::ocean_cells(grid.cells(), |c| h[c] < 0.0, |c| f64::from(grid.area(c)), |c| grid.neighbours(c).map(|(x, _)| x))
}

const UNREACHED: u32 = 0;
const QUEUED: u32 = 1;
const DONE: u32 = 2;

/// The flood's state of one cell (see [`Level::route`]).
#[derive(Clone, Copy)]
struct Slot {
    filled: f32,
    receiver: u32,
    receiver_m: f32,
    state: u32,
}

impl Level {
    /// A level with elevation `h` (m) and per-cell uplift (m/yr), rain weights and
    /// erodibility factors.
    pub fn new(grid: Grid, h: Vec<f32>, uplift: Vec<f32>, rain: Vec<f32>, erodibility: Vec<f32>) -> Level {
        let cells = grid.cells();
        let ocean = ocean_cells(&grid, &h);
        Level {
            ocean,
            grid,
            h,
            uplift,
            rain,
            erodibility,
            filled: vec![0.0; cells],
            receiver: vec![NONE; cells],
            receiver_m: vec![1.0; cells],
            order: Vec::with_capacity(cells),
            area: vec![0.0; cells],
            to_sea_m3: 0.0,
            filled_m3: 0.0,
            slots: Vec::new(),
            shortest_edge: None,
            sediment: Vec::new(),
        }
    }

    /// Routes the water: a priority flood from the coasts over the filled surface. Each cell,
    /// when the flood reaches the top of the queue with it, takes as receiver its steepest
    /// downhill neighbour among the cells already visited (on the filled surface), or, on a
    /// lake's flat, the cell the flood came from; so every receiver comes earlier in
    /// [`Level::order`] and no depression holds water back.
    pub fn route(&mut self) {
        let cells = self.grid.cells();
        let h = &self.h;
        let sea = |c: usize| self.ocean[c] && h[c] < 0.0;
        self.order.clear();
        let top = h.iter().cloned().fold(0.0f32, f32::max);
        let mut heap = Bins::new(top);
        let mut pit: VecDeque<u32> = VecDeque::new();
        // What the flood reads and writes per cell, side by side (one cache line per
        // neighbour): water surface, receiver, distance to it, state.
        let mut slots = std::mem::take(&mut self.slots);
        slots.clear();
        slots.extend(h.iter().enumerate().map(|(c, &v)| if sea(c) { Slot { filled: 0.0, receiver: NONE, receiver_m: 1.0, state: DONE } } else { Slot { filled: v, receiver: NONE, receiver_m: 1.0, state: UNREACHED } }));
        // The coast: land cells next to the sea.
        for c in 0..cells {
            if slots[c].state != UNREACHED {
                continue;
            }
            let coast = self.grid.neighbours(c).into_iter().find(|&(x, _)| x != NONE && sea(x as usize));
            if let Some((x, d)) = coast {
                slots[c] = Slot { filled: h[c], receiver: x, receiver_m: d, state: QUEUED };
                heap.push(h[c], c as u32);
            }
        }
        // A planet without sea drains to its lowest cell.
        if heap.is_empty() {
            if let Some(c) = (0..cells).min_by(|&a, &b| h[a].total_cmp(&h[b]).then(a.cmp(&b))) {
                slots[c].state = QUEUED;
                heap.push(h[c], c as u32);
            }
        }
        loop {
            let c = match pit.pop_front() {
                Some(c) => c as usize,
                None => match heap.pop() {
                    Some(c) => c as usize,
                    None => break,
                },
            };
            self.order.push(c as u32);
            let level = slots[c].filled;
            let mut best = (0.0f32, NONE, 1.0f32);
            for (x, d) in self.grid.neighbours(c) {
                if x == NONE {
                    continue;
                }
                let slot = &mut slots[x as usize];
                if slot.state == DONE {
                    let s = (level - slot.filled) / d;
                    if s > best.0 {
                        best = (s, x, d);
                    }
                } else if slot.state == UNREACHED {
                    slot.state = QUEUED;
                    slot.receiver = c as u32;
                    slot.receiver_m = d;
                    if slot.filled <= level {
                        slot.filled = level;
                        pit.push_back(x);
                    } else {
                        heap.push(slot.filled, x);
                    }
                }
            }
            let slot = &mut slots[c];
            if best.1 != NONE {
                slot.receiver = best.1;
                slot.receiver_m = best.2;
            }
            slot.state = DONE;
        }
        for (c, slot) in slots.iter().enumerate() {
            self.filled[c] = slot.filled;
            self.receiver[c] = slot.receiver;
            self.receiver_m[c] = slot.receiver_m;
        }
        self.slots = slots;
    }

    /// Whether cell `c` is sea: a cell of the [`Level::ocean`] still below sea level.
    pub fn is_sea(&self, c: usize) -> bool {
        self.ocean[c] && self.h[c] < 0.0
    }

    /// Rain-weighted drainage area: every land cell's area summed down the receivers.
    pub fn accumulate(&mut self) {
        self.area.iter_mut().for_each(|a| *a = 0.0);
        for &c in &self.order {
            let c = c as usize;
            self.area[c] = f64::from(self.grid.area(c)) * f64::from(self.rain[c]);
        }
        for &c in self.order.iter().rev() {
            let r = self.receiver[c as usize];
            if r != NONE && !self.is_sea(r as usize) {
                self.area[r as usize] += self.area[c as usize];
            }
        }
    }

    /// One time step of `dt` years: routing, drainage area, uplift with implicit stream-power
    /// incision from the outlets upwards, hillslope diffusion and landslides.
    pub fn step(&mut self, dt: f64, p: &Physics) {
        self.route();
        if !p.lakes {
            // Depressions fill with sediment up to their spill height.
            for &c in &self.order {
                let c = c as usize;
                let add = self.filled[c] - self.h[c];
                if add > 0.0 {
                    self.filled_m3 += f64::from(add) * f64::from(self.grid.area(c));
                    self.h[c] = self.filled[c];
                }
            }
        }
        self.accumulate();
        self.incise(dt, p);
        if p.diffusion > 0.0 {
            self.diffuse(dt, p.diffusion);
        }
        if p.max_slope.is_finite() {
            self.landslides(p.max_slope);
        }
    }

    /// Uplift and the implicit stream-power update in stack order (every receiver is updated
    /// before the cells that drain into it), after Braun and Willett (2013). Also counts the
    /// sediment that reaches the sea.
    fn incise(&mut self, dt: f64, p: &Physics) {
        let unit_n = (p.n - 1.0).abs() < 1e-9;
        let mut eroded = std::mem::take(&mut self.sediment);
        eroded.clear();
        eroded.resize(self.h.len(), 0.0);
        for &c in &self.order {
            let c = c as usize;
            let h0 = f64::from(self.h[c]) + dt * f64::from(self.uplift[c]);
            let r = self.receiver[c];
            let new = if r == NONE {
                h0
            } else {
                let hr = f64::from(self.h[r as usize]).max(0.0);
                if h0 <= hr {
                    h0
                } else {
                    let l = f64::from(self.receiver_m[c]);
                    let l_n = if unit_n { l } else { l.powf(p.n) };
                    let g = dt * p.k * f64::from(self.erodibility[c]) * self.area[c].powf(p.m) / l_n;
                    hr + solve(h0 - hr, g, p.n)
                }
            };
            eroded[c] = (h0 - new) * f64::from(self.grid.area(c));
            self.h[c] = new as f32;
        }
        // Sediment volumes summed down the receivers to the coast.
        for &c in self.order.iter().rev() {
            let c = c as usize;
            let r = self.receiver[c];
            if r == NONE {
                continue;
            }
            if self.is_sea(r as usize) {
                self.to_sea_m3 += eroded[c];
            } else {
                eroded[r as usize] += eroded[c];
            }
        }
        self.sediment = eroded;
    }

    /// Explicit hillslope diffusion `D lap(h)` on land over the four edge neighbours (sea
    /// neighbours count at sea level), in as many sub-steps as stability needs.
    fn diffuse(&mut self, dt: f64, d: f64) {
        let shortest = *self.shortest_edge.get_or_insert_with(|| self.grid.shortest_edge());
        let min_l2 = f64::from(shortest).powi(2);
        let subs = (4.0 * d * dt / min_l2).ceil().max(1.0) as usize;
        let k = (d * dt / subs as f64) as f32;
        let mut next = self.h.clone();
        for _ in 0..subs {
            let h = &self.h;
            let grid = &self.grid;
            next.par_chunks_mut(4096).enumerate().for_each(|(chunk, out)| {
                for (o, v) in out.iter_mut().enumerate() {
                    let c = chunk * 4096 + o;
                    let hc = h[c];
                    if hc < 0.0 {
                        *v = hc;
                        continue;
                    }
                    let mut lap = 0.0;
                    for (x, l) in grid.neighbours4(c) {
                        lap += (h[x as usize].max(0.0) - hc) / (l * l);
                    }
                    *v = (hc + k * lap).max(0.0);
                }
            });
            std::mem::swap(&mut self.h, &mut next);
        }
    }

    /// Slopes steeper than the critical angle collapse to it, from the outlets upwards along
    /// the receivers (the steepest way down, so no downhill slope stays steeper).
    fn landslides(&mut self, max_slope: f64) {
        let t = max_slope as f32;
        for &c in &self.order {
            let c = c as usize;
            let r = self.receiver[c];
            if r == NONE {
                continue;
            }
            let hr = self.h[r as usize].max(0.0);
            let cap = hr + t * self.receiver_m[c];
            if self.h[c] > cap {
                self.h[c] = cap;
            }
        }
    }
}

/// The height `y` above the receiver after a step: the root in `(0, y0]` of
/// `y - y0 + g y^n = 0` (the implicit stream-power update). Closed form for `n = 1`, else
/// Newton's method kept inside its bracket (bisection where a step would leave it).
pub fn solve(y0: f64, g: f64, n: f64) -> f64 {
    if (n - 1.0).abs() < 1e-9 {
        return y0 / (1.0 + g);
    }
    let (mut lo, mut hi) = (0.0f64, y0);
    let mut y = y0;
    let tolerance = 1e-9 * y0.max(1.0);
    for _ in 0..200 {
        let f = y - y0 + g * y.powf(n);
        if f.abs() <= tolerance {
            return y;
        }
        if f > 0.0 {
            hi = y;
        } else {
            lo = y;
        }
        if hi - lo <= 1e-15 * y0 {
            return y;
        }
        let df = 1.0 + g * n * y.powf(n - 1.0);
        let next = y - f / df;
        y = if next > lo && next < hi { next } else { 0.5 * (lo + hi) };
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_implicit_update_solves_its_equation() {
        for &n in &[0.5, 1.0, 1.5, 2.0, 3.0] {
            for &g in &[1e-6, 1e-2, 1.0, 1e3, 1e6] {
                for &y0 in &[0.01, 1.0, 300.0, 5000.0] {
                    let y = solve(y0, g, n);
                    assert!(y > 0.0 && y <= y0, "n={n} g={g} y0={y0}: {y}");
                    let f = y - y0 + g * y.powf(n);
                    assert!(f.abs() < 1e-4 * y0.max(1.0), "n={n} g={g} y0={y0}: residual {f}");
                }
            }
        }
    }
}
