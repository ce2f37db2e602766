//! One level of the landscape evolution: routing over depressions, drainage area, the implicit
//! stream-power update, hillslope diffusion and landslides (see the module notes of
//! `super`). Heights are metres above sea level; cells below 0 are sea.

use super::grid::{Grid, NONE};
use super::routing::{split_chunks, Scratch};
use rayon::prelude::*;
use std::sync::atomic::Ordering;
use std::sync::Arc;

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
    /// Geometry (shared with other runs of the same level: [`Grid::shared`]).
    pub grid: Arc<Grid>,
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
    /// Land cells in stack order: every cell after its receiver, each outlet's tree in one
    /// piece.
    pub order: Vec<u32>,
    /// Sediment that left the land into the sea, m³ (summed over steps).
    pub to_sea_m3: f64,
    /// Sediment that filled depressions (lakes off), m³ (summed over steps).
    pub filled_m3: f64,
    /// Where a depression may hold a lake when lakes are on: every cell (`None`, also whenever
    /// lakes are off), or at a finer level the lakes of the coarser one (other depressions fill with sediment, as with lakes
    /// off). The detail a finer level adds and its shorter time would otherwise dam the rivers
    /// of flat plains into lakes the coarser run never had.
    pub lakes_allowed: Option<Vec<bool>>,
    /// The grid's shortest edge, m (once the diffusion needs it).
    shortest_edge: Option<f32>,
    /// Scratch of the routing (basins, donors, stack positions and chunks).
    pub(super) routing: Scratch,
    /// Scratch in stack order: heights, m.
    stack_h: Vec<f32>,
    /// Scratch in stack order: drainage area, m², then that area to the power m.
    stack_area: Vec<f64>,
    /// Scratch in stack order: sediment volume passing each cell in a step, m³.
    stack_sediment: Vec<f64>,
    /// Scratch of the diffusion: the heights of the next sub-step, m.
    next_h: Vec<f32>,
}

/// The ocean of heights `h` (m above sea level) on `grid`: see [`Level::ocean`].
pub fn ocean_cells(grid: &Grid, h: &[f32]) -> Vec<bool> {
    crate::planet::ocean::ocean_cells(grid.n, |c| h[c] < 0.0, |c| f64::from(grid.area(c)), |c| grid.neighbour_cells(c))
}

impl Level {
    /// A level with elevation `h` (m) and per-cell uplift (m/yr), rain weights and
    /// erodibility factors.
    pub fn new(grid: impl Into<Arc<Grid>>, h: Vec<f32>, uplift: Vec<f32>, rain: Vec<f32>, erodibility: Vec<f32>) -> Level {
        let grid = grid.into();
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
            to_sea_m3: 0.0,
            filled_m3: 0.0,
            lakes_allowed: None,
            shortest_edge: None,
            routing: Scratch::default(),
            stack_h: Vec::new(),
            stack_area: Vec::new(),
            stack_sediment: Vec::new(),
            next_h: Vec::new(),
        }
    }

    /// Whether cell `c` is sea: a cell of the [`Level::ocean`] still below sea level.
    pub fn is_sea(&self, c: usize) -> bool {
        super::routing::is_sea(&self.ocean, &self.h, c)
    }

    /// Cells whose water stands at least `depth_m` over the ground away from the sea where a lake
    /// may stay ([`Level::lakes_allowed`]): the lakes after [`Level::route`].
    pub fn lake_cells(&self, depth_m: f32) -> Vec<bool> {
        (0..self.h.len()).into_par_iter().map(|c| self.holds_lake(c, depth_m)).collect()
    }

    /// The diffusion's scratch of heights (empty before any diffusion), for a caller that is
    /// done with the level's steps.
    pub fn take_diffusion_scratch(&mut self) -> Vec<f32> {
        std::mem::take(&mut self.next_h)
    }

    /// Whether cell `c` is one of [`Level::lake_cells`].
    #[inline]
    pub fn holds_lake(&self, c: usize, depth_m: f32) -> bool {
        !self.is_sea(c) && self.filled[c] - self.h[c] >= depth_m && may_hold_lake(&self.lakes_allowed, true, c)
    }

    /// Drainage area of every land cell, m² (the cell's own included), rain-weighted and
    /// plain, in stack order (see [`Level::stack_position`]): both summed down the receivers in
    /// one pass over the stack, outlet by outlet on the threads (after [`Level::route`]).
    pub fn drainage_areas(&self) -> Vec<(f64, f64)> {
        let (order, grid, rain, receiver_pos, chunks) = (&self.order, &self.grid, &self.rain, &self.routing.receiver_pos, &self.routing.chunks);
        let mut out = vec![(0.0, 0.0); order.len()];
        split_chunks(&mut out, chunks).into_par_iter().zip(chunks.par_iter()).for_each(|(area, &(start, _))| {
            let own = |c: usize| {
                let own = f64::from(grid.area(c));
                (own * f64::from(rain[c]), own)
            };
            accumulate_chunk(area, start, order, receiver_pos, own, |to, (weighted, plain)| {
                to.0 += weighted;
                to.1 += plain;
            });
        });
        out
    }

    /// Position of cell `c` in the stack ([`Level::order`]) after [`Level::route`]; `None` at
    /// sea.
    #[inline]
    pub fn stack_position(&self, c: usize) -> Option<usize> {
        let p = self.routing.pos[c].load(Ordering::Relaxed);
        (p != NONE).then_some(p as usize)
    }

    /// One time step of `dt` years: routing, drainage area, uplift with implicit stream-power
    /// incision from the outlets upwards, hillslope diffusion and landslides.
    pub fn step(&mut self, dt: f64, p: &Physics) {
        self.route();
        self.incise(dt, p);
        if p.diffusion > 0.0 {
            self.diffuse(dt, p.diffusion);
        }
        if p.max_slope.is_finite() {
            self.landslides(p.max_slope);
        }
    }

    /// Uplift and the implicit stream-power update in stack order (every receiver is updated
    /// before the cells that drain into it), after Braun and Willett (2013), outlet by outlet on
    /// the threads. Depressions where no lake may stay are first filled with sediment up to
    /// their spill height; ground under a lake's water is not cut. Also counts the sediment
    /// that fills depressions and the sediment that reaches the sea (each summed chunk by chunk,
    /// then over the chunks in order, so the sums do not depend on the threads).
    fn incise(&mut self, dt: f64, p: &Physics) {
        let unit_n = (p.n - 1.0).abs() < 1e-9;
        let n = self.order.len();
        // Every entry of the three is written below before it is read.
        self.stack_h.resize(n, 0.0);
        self.stack_sediment.resize(n, 0.0);
        self.stack_area.resize(n, 0.0);
        let (order, grid, routing) = (&self.order, &self.grid, &self.routing);
        let (h, filled, uplift, erodibility, receiver, receiver_m, rain) = (&self.h, &self.filled, &self.uplift, &self.erodibility, &self.receiver, &self.receiver_m, &self.rain);
        let lakes_allowed = &self.lakes_allowed;
        let chunks = &routing.chunks;
        let pieces = split_chunks(&mut self.stack_h, chunks).into_par_iter().zip(split_chunks(&mut self.stack_sediment, chunks)).zip(split_chunks(&mut self.stack_area, chunks));
        let sums: Vec<(f64, f64)> = pieces
            .zip(chunks.par_iter())
            .map(|(((heights, eroded), area), &(start, _))| {
                // The drainage area of the chunk's trees, while its cells are in the cache.
                accumulate_chunk(area, start, order, &routing.receiver_pos, |c| f64::from(grid.area(c)) * f64::from(rain[c]), |to, from| *to += from);
                // Every area to the power m at once, in vector lanes.
                crate::planet::power::powers_in_place(area, p.m);
                let mut filled_m3 = 0.0;
                for i in 0..heights.len() {
                    let c = order[start + i] as usize;
                    let add = filled[c] - h[c];
                    let ground = if add > 0.0 && !may_hold_lake(lakes_allowed, p.lakes, c) {
                        filled_m3 += f64::from(add) * f64::from(grid.area(c));
                        filled[c]
                    } else {
                        h[c]
                    };
                    let h0 = f64::from(ground) + dt * f64::from(uplift[c]);
                    let hr = receiver_height(heights, start, routing.receiver_pos[start + i], receiver[c]).map(f64::from);
                    let new = match hr {
                        Some(hr) if h0 > hr && !(filled[c] > ground && may_hold_lake(lakes_allowed, p.lakes, c)) => {
                            let l = f64::from(receiver_m[c]);
                            let l_n = if unit_n { l } else { l.powf(p.n) };
                            let g = dt * p.k * f64::from(erodibility[c]) * area[i] / l_n;
                            hr + solve(h0 - hr, g, p.n)
                        }
                        _ => h0,
                    };
                    eroded[i] = (h0 - new) * f64::from(grid.area(c));
                    heights[i] = new as f32;
                }
                // Sediment volumes summed down the receivers to the coast.
                let mut to_sea = 0.0;
                for i in (0..eroded.len()).rev() {
                    let r = routing.receiver_pos[start + i];
                    if r != NONE {
                        eroded[r as usize - start] += eroded[i];
                    } else if receiver[order[start + i] as usize] != NONE {
                        to_sea += eroded[i];
                    }
                }
                (to_sea, filled_m3)
            })
            .collect();
        self.to_sea_m3 += sums.iter().map(|s| s.0).sum::<f64>();
        self.filled_m3 += sums.iter().map(|s| s.1).sum::<f64>();
        self.scatter_heights();
    }

    /// Writes the stack's heights back to the cells.
    fn scatter_heights(&mut self) {
        let (pos, stack) = (&self.routing.pos, &self.stack_h);
        self.h.par_iter_mut().enumerate().for_each(|(c, h)| {
            let p = pos[c].load(Ordering::Relaxed);
            if p != NONE {
                *h = stack[p as usize];
            }
        });
    }

    /// Explicit hillslope diffusion `D lap(h)` on land over the four edge neighbours (sea
    /// neighbours count at sea level), in as many sub-steps as stability needs.
    fn diffuse(&mut self, dt: f64, d: f64) {
        let shortest = *self.shortest_edge.get_or_insert_with(|| self.grid.shortest_edge());
        let min_l2 = f64::from(shortest).powi(2);
        let subs = (4.0 * d * dt / min_l2).ceil().max(1.0) as usize;
        let k = (d * dt / subs as f64) as f32;
        // Every cell of `next` is written in each sub-step.
        let mut next = std::mem::take(&mut self.next_h);
        next.resize(self.h.len(), 0.0);
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
                    for (x, w) in grid.neighbours4_weights(c) {
                        lap += (h[x as usize].max(0.0) - hc) * w;
                    }
                    *v = (hc + k * lap).max(0.0);
                }
            });
            std::mem::swap(&mut self.h, &mut next);
        }
        self.next_h = next;
    }

    /// Slopes steeper than the critical angle collapse to it, from the outlets upwards along
    /// the receivers (the steepest way down, so no downhill slope stays steeper), outlet by
    /// outlet on the threads. Only the cells that slid are written back (few of them: the
    /// other cells keep their height).
    fn landslides(&mut self, max_slope: f64) {
        let t = max_slope as f32;
        let (order, routing, h, receiver, receiver_m) = (&self.order, &self.routing, &self.h, &self.receiver, &self.receiver_m);
        self.stack_h.resize(order.len(), 0.0);
        let slid: Vec<Vec<(u32, f32)>> = split_chunks(&mut self.stack_h, &routing.chunks)
            .into_par_iter()
            .zip(routing.chunks.par_iter())
            .map(|(heights, &(start, _))| {
                let mut slid = Vec::new();
                for i in 0..heights.len() {
                    let c = order[start + i] as usize;
                    heights[i] = match receiver_height(heights, start, routing.receiver_pos[start + i], receiver[c]) {
                        Some(hr) => h[c].min(hr + t * receiver_m[c]),
                        None => h[c],
                    };
                    if heights[i] != h[c] {
                        slid.push((c as u32, heights[i]));
                    }
                }
                slid
            })
            .collect();
        for (c, v) in slid.into_iter().flatten() {
            self.h[c as usize] = v;
        }
    }
}

/// Drainage area of one chunk of the stack (`area`, starting at stack position `start`): each
/// cell's `own`, summed down the receivers within the chunk by `add`.
#[inline]
fn accumulate_chunk<T: Copy>(area: &mut [T], start: usize, order: &[u32], receiver_pos: &[u32], own: impl Fn(usize) -> T, add: impl Fn(&mut T, T)) {
    for (i, a) in area.iter_mut().enumerate() {
        *a = own(order[start + i] as usize);
    }
    for i in (0..area.len()).rev() {
        let r = receiver_pos[start + i];
        if r != NONE {
            let from = area[i];
            add(&mut area[r as usize - start], from);
        }
    }
}

/// Whether cell `c` may hold a lake's water: lakes are on (`lakes`) and, at a finer level,
/// the coarser level had a lake there (`allowed`, see [`Level::lakes_allowed`]).
#[inline]
fn may_hold_lake(allowed: &Option<Vec<bool>>, lakes: bool, c: usize) -> bool {
    lakes && allowed.as_ref().is_none_or(|a| a[c])
}

/// The height, m, of the receiver of the stack entry whose receiver is at stack position
/// `receiver_pos` (in the chunk of `heights`, which starts at `start`) and is the cell
/// `receiver`: from the chunk's heights, not below sea level; sea level for an outlet into the
/// sea; `None` for the outlet of a planet without sea.
#[inline]
fn receiver_height(heights: &[f32], start: usize, receiver_pos: u32, receiver: u32) -> Option<f32> {
    if receiver_pos != NONE {
        Some(heights[receiver_pos as usize - start].max(0.0))
    } else {
        // An outlet's receiver is a sea cell, below sea level.
        (receiver != NONE).then_some(0.0)
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
