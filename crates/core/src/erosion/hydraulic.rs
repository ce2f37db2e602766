//! Hydraulic erosion with the virtual-pipe model (seed 002 section 2.2.1; Mei, Decaudin & Hu
//! 2007) on the whole cube-sphere: pipes cross the seams, so water and sediment flow around
//! the planet without borders.
//!
//! Units: heights are the project's elevation values times `relief`, horizontal distances are
//! measured in cells of the reference resolution 128 (one cell at resolution `n` is `128 / n`
//! long), time in steps of the reference resolution. At resolution `n` the model runs
//! `iterations * n / 128` steps of `dt * 128 / n`, so the same simulated time passes and water
//! travels the same distance on the planet at any resolution (the CFL number stays the same).

use super::flush;
use crate::planet::pipes::{border_cells, pipes4, PipeTable, Run};
use crate::planet::Field;
use crate::planet::SimError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Reference resolution of the step counts and lengths.
pub const REFERENCE_N: usize = 128;

/// Parameters of [`hydraulic`] (seed 002's constants; units in the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HydraulicSettings {
    /// Steps at the reference resolution 128 (scaled with `n / 128`).
    pub iterations: usize,
    /// Time step at the reference resolution (scaled with `128 / n`).
    pub dt: f32,
    /// Height units per elevation unit (how steep the terrain is for the water).
    pub relief: f32,
    /// Rain per unit time, height units (`r`).
    pub rain: f32,
    /// Gravity times pipe cross-section over pipe length (`g A / l`, folded into one constant).
    pub gravity: f32,
    /// Sediment capacity constant (`k_S` of seed 002's capacity `S = k_S |v| sin(alpha)`).
    pub capacity: f32,
    /// Smallest slope sine used for the capacity (flat ground still erodes a little).
    pub min_slope: f32,
    /// Water depth (height units) from which the capacity is full; shallower water carries
    /// proportionally less (the depth ramp of Št'ava et al. 2008). Without it a thin film of
    /// rain, fast because it is thin, erodes as much as a river and the ground turns to
    /// spikes; with it erosion follows where water gathers, which carves channels. 0 turns
    /// the ramp off (seed 002's capacity).
    pub full_depth: f32,
    /// Dissolving rate per unit time (seed 002's `k_E`).
    pub dissolve: f32,
    /// Deposition rate per unit time (seed 002's `k_D`).
    pub deposit: f32,
    /// Evaporation per unit time (fraction of the water, seed 002's `k_T`).
    pub evaporation: f32,
    /// Sediment diffusion per unit time (0..1; seed 002's Jacobi step against streaks).
    pub sediment_diffusion: f32,
    /// Hillslope creep: land heights diffuse with this coefficient, in reference cells squared
    /// per unit time (material moves between neighbouring land cells, conserved). It gives
    /// valleys a width on the planet instead of on the grid, so channels stay one or two cells
    /// wide at no resolution, and previews look like builds.
    pub creep: f32,
    /// Elevation (project units) below which water is ocean: water reaching it leaves the
    /// simulation and its sediment settles there.
    pub sea_level: f32,
    /// Sediment transport by seed 002's semi-Lagrangian back-trace (each cell takes the
    /// sediment found where its water came from, sampled bilinearly across seams), with the
    /// total rescaled after each step so that no sediment is made or lost. `false`: sediment
    /// moves with the water the pipes carry (donor cell, conservative by construction, less
    /// smearing).
    pub semi_lagrangian: bool,
}

impl HydraulicSettings {
    /// The defaults, which the node's parameters also start from (one source of truth).
    pub const DEFAULT: HydraulicSettings = HydraulicSettings {
        iterations: 100,
        dt: 0.15,
        relief: 20.0,
        rain: 0.1,
        gravity: 10.0,
        capacity: 1.0,
        min_slope: 0.05,
        full_depth: 0.5,
        dissolve: 0.5,
        deposit: 0.5,
        evaporation: 0.3,
        sediment_diffusion: 0.2,
        creep: 0.02,
        sea_level: 0.0,
        semi_lagrangian: false,
    };
}

impl Default for HydraulicSettings {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// What [`hydraulic`] returns (all in project elevation units except speed and presence).
#[derive(Debug, Clone)]
pub struct HydraulicResult {
    /// Eroded elevation (suspended sediment left at the end is deposited where it is).
    pub elevation: Field,
    /// Water depth at the end.
    pub water: Field,
    /// Suspended sediment at the end (before it is deposited into `elevation`).
    pub sediment: Field,
    /// Material deposited: `max(0, elevation - input)`.
    pub deposited: Field,
    /// Water speed at the end, reference cells per unit time.
    pub speed: Field,
    /// Water-presence counter, 0..1: up while wet, down while dry (seed 002), for texturing
    /// where rivers ran.
    pub presence: Field,
    /// Total of terrain + suspended sediment at the start and the end, in height units
    /// (conservation check).
    pub totals: (f64, f64),
}

/// Runs the pipe model on `input`. `progress` counts finished steps (of
/// [`steps_at`]`(iterations, n)`); returns `None` when `cancel` is set.
pub fn hydraulic(input: &Field, s: &HydraulicSettings, cancel: &AtomicBool, progress: &AtomicUsize) -> Result<HydraulicResult, SimError> {
    let cells = input.data().len();
    simulate(input, vec![0.0; cells], vec![0.0; cells], s, cancel, progress)
}

/// The model from a given water depth and suspended sediment per cell (project units).
pub fn simulate(input: &Field, water: Vec<f32>, sediment: Vec<f32>, s: &HydraulicSettings, cancel: &AtomicBool, progress: &AtomicUsize) -> Result<HydraulicResult, SimError> {
    let n = input.n();
    let cells = 6 * n * n;
    let pipes = pipes4(n);
    let scale = REFERENCE_N as f32 / n as f32;
    let (l, dt) = (scale, s.dt * scale);
    let steps = steps_at(s.iterations, n);
    let relief = s.relief.max(1e-6);
    let sea = s.sea_level * relief;
    let mut h: Vec<f32> = input.data().iter().map(|&x| x * relief).collect();
    let mut sed: Vec<f32> = sediment.iter().map(|&x| x.max(0.0) * relief).collect();
    if water.len() != cells || sed.len() != cells {
        return Err(SimError::Invalid(format!("internal error: {} water and {} sediment values for {cells} cells", water.len(), sed.len())));
    }
    // Rain per step on land (seed 002's step 1), none after the last step so that the water
    // reported is what stands at the end.
    let rain = |step: usize| if step < steps { s.rain.max(0.0) * dt } else { 0.0 };
    // Water depth at the start of a step, rain included.
    let mut d1: Vec<f32> = water.iter().zip(&h).map(|(&w, &hc)| if hc >= sea { w.max(0.0) * relief + rain(0) } else { 0.0 }).collect();
    // Outflow flux through each pipe (one array per pipe: left, right, up, down).
    let mut flux: [Vec<f32>; 4] = std::array::from_fn(|_| vec![0.0f32; cells]);
    let mut presence = vec![0.0f32; cells];
    // Water velocity in cells per unit time along the face's axes (for the semi-Lagrangian
    // transport and the speed output).
    let (mut vx, mut vy) = (vec![0.0f32; cells], vec![0.0f32; cells]);
    let mut d2 = vec![0.0f32; cells];
    let mut h_next = vec![0.0f32; cells];
    let mut sed2 = vec![0.0f32; cells];
    let total = |h: &[f32], s: &[f32]| h.iter().map(|&x| x as f64).sum::<f64>() + s.iter().map(|&x| x as f64).sum::<f64>();
    let start = total(&h, &sed);
    let clamp01 = |x: f32| x.clamp(0.0, 1.0);
    let k = Constants {
        dt,
        l,
        sea,
        // Flux gain per unit of height difference is dt g / (l * pipe length).
        dt_gravity: dt * s.gravity,
        evap: clamp01(s.evaporation * dt),
        diffusion: clamp01(s.sediment_diffusion * dt).min(0.25) * 4.0,
        // Creep exchange per pipe and unit height difference is kappa dt / length^2 (kept
        // below 0.2 per pipe so that four pipes together stay stable).
        creep: s.creep.max(0.0) * dt / (l * l),
        inv_full_depth: if s.full_depth > 0.0 { 1.0 / s.full_depth } else { 0.0 },
        dissolve: (s.dissolve * dt).min(1.0),
        deposit: (s.deposit * dt).min(1.0),
        capacity: s.capacity,
        min_slope: s.min_slope,
        // Water deeper than this counts as wet for the presence counter, which moves by
        // `scale` times its rate per reference step.
        wet_depth: 1e-3 * relief,
        scale,
    };
    // Every pass below runs the same per-cell kernel twice: for the cells on a face's border,
    // with neighbours from the table, and for each row's interior run, with neighbours at
    // fixed offsets (slices that line up, so the loop compiles to vector code).
    for step in 0..steps {
        if cancel.load(Ordering::Relaxed) {
            return Err(SimError::Cancelled);
        }
        // 2a. Outflow fluxes scaled so no cell sends more than it has (the rain of step 1 is
        // added at the end of the step before).
        {
            let [f0, f1, f2, f3] = &mut flux;
            let rows = f0.par_chunks_mut(n).zip(f1.par_chunks_mut(n)).zip(f2.par_chunks_mut(n)).zip(f3.par_chunks_mut(n));
            rows.enumerate().for_each(|(row, (((f0, f1), f2), f3))| {
                let run = border_cells(&pipes, row, |nbs, i| {
                    let c = nbs.c;
                    let f = outflow(&k, [f0[i], f1[i], f2[i], f3[i]], h[c], d1[c], |p| h[nbs.to_existing(p)], |p| d1[nbs.to_existing(p)], |p| pipes.length(p, c));
                    (f0[i], f1[i], f2[i], f3[i]) = (f[0], f[1], f[2], f[3]);
                });
                if let Some(run) = run {
                    outflow_run(&k, &run, &pipes, &h, &d1, run.of_row(f0), run.of_row(f1), run.of_row(f2), run.of_row(f3));
                }
            });
        }
        // 2b. Water depth, velocity; 3. dissolve or deposit; hillslope creep.
        let rows = h_next.par_chunks_mut(n).zip(sed.par_chunks_mut(n)).zip(d2.par_chunks_mut(n)).zip(vx.par_chunks_mut(n)).zip(vy.par_chunks_mut(n));
        rows.enumerate().for_each(|(row, ((((hr, sr), wr), vxr), vyr))| {
            let run = border_cells(&pipes, row, |nbs, i| {
                let c = nbs.c;
                let e = erode(&k, [flux[0][c], flux[1][c], flux[2][c], flux[3][c]], |p| flux[nbs.back(p)][nbs.to_existing(p)], d1[c], h[c], |p| h[nbs.to_existing(p)], |p| pipes.length(p, c), sr[i]);
                (hr[i], sr[i], wr[i], vxr[i], vyr[i]) = (e.h, e.sediment, e.water, e.velocity[0], e.velocity[1]);
            });
            if let Some(run) = run {
                erode_run(&k, &run, &pipes, &flux, &d1, &h, run.of_row(hr), run.of_row(sr), run.of_row(wr), run.of_row(vxr), run.of_row(vyr));
            }
        });
        std::mem::swap(&mut h, &mut h_next);
        // 4. Sediment moves with the water: semi-Lagrangian (seed 002) or with what the pipes
        // carried (donor cell: what leaves one cell arrives in the other, so sediment is
        // conserved exactly).
        if s.semi_lagrangian {
            // Seed 002: s(x) = s(x - v dt), back-traced at most 2 cells, sampled bilinearly
            // across seams; then the total is restored (the back-trace alone neither keeps
            // nor conserves it).
            let field = Field::from_vec(n, std::mem::take(&mut sed))?;
            sed2.par_chunks_mut(n).enumerate().for_each(|(row, out)| {
                let face = crate::planet::Face::ALL[row / n];
                let j = row % n;
                for (i, o) in out.iter_mut().enumerate() {
                    let c = row * n + i;
                    let (dx, dy) = ((vx[c] * dt).clamp(-2.0, 2.0), (vy[c] * dt).clamp(-2.0, 2.0));
                    *o = field.sample_ab(face, (i as f32 + 0.5 - dx) / n as f32, (j as f32 + 0.5 - dy) / n as f32).max(0.0);
                }
            });
            // Sequential sums: the same result for any thread count.
            sed = field.into_vec();
            let before: f64 = sed.iter().map(|&x| x as f64).sum();
            let after: f64 = sed2.iter().map(|&x| x as f64).sum();
            if after > 0.0 {
                let k = (before / after) as f32;
                sed2.par_iter_mut().for_each(|x| *x *= k);
            }
        } else {
            sed2.par_chunks_mut(n).enumerate().for_each(|(row, out)| {
                let run = border_cells(&pipes, row, |nbs, i| {
                    let c = nbs.c;
                    let nb = |p| nbs.to_existing(p);
                    out[i] = carry(&k, sed[c], d1[c], [flux[0][c], flux[1][c], flux[2][c], flux[3][c]], |p| sed[nb(p)], |p| d1[nb(p)], |p| flux[nbs.back(p)][nb(p)]);
                });
                if let Some(run) = run {
                    carry_run(&k, &run, &flux, &sed, &d1, run.of_row(out));
                }
            });
        }
        std::mem::swap(&mut sed, &mut sed2);
        // 5. Diffusion between wet neighbours; the ocean takes water and settles its sediment;
        // 6. evaporation; the presence counter; 1. the next step's rain. One pass over the cells.
        let rain_next = rain(step + 1);
        let rows = sed2.par_chunks_mut(n).zip(h.par_chunks_mut(n)).zip(d1.par_chunks_mut(n)).zip(presence.par_chunks_mut(n));
        rows.enumerate().for_each(|(row, (((out, hr), wr), pr))| {
            let run = border_cells(&pipes, row, |nbs, i| {
                let c = nbs.c;
                let sc = diffuse(&k, sed[c], d2[c], |p| sed[nbs.to_existing(p)], |p| d2[nbs.to_existing(p)]);
                (hr[i], out[i], wr[i], pr[i]) = finish(&k, hr[i], sc, d2[c], pr[i], rain_next);
            });
            if let Some(run) = run {
                finish_run(&k, &run, &sed, &d2, rain_next, run.of_row(out), run.of_row(hr), run.of_row(wr), run.of_row(pr));
            }
        });
        std::mem::swap(&mut sed, &mut sed2);
        progress.fetch_add(1, Ordering::Relaxed);
    }
    let end = total(&h, &sed);
    let suspended = Field::from_vec(n, sed.iter().map(|&x| x / relief).collect())?;
    let elevation: Vec<f32> = h.iter().zip(&sed).map(|(&hc, &sc)| (hc + sc) / relief).collect();
    let deposited = elevation.iter().zip(input.data()).map(|(&a, &b)| (a - b).max(0.0)).collect();
    Ok(HydraulicResult {
        elevation: Field::from_vec(n, elevation)?,
        water: Field::from_vec(n, d1.iter().map(|&x| x / relief).collect())?,
        sediment: suspended,
        deposited: Field::from_vec(n, deposited)?,
        speed: Field::from_vec(n, vx.iter().zip(&vy).map(|(&x, &y)| speed([x, y], l)).collect())?,
        presence: Field::from_vec(n, presence)?,
        totals: (start, end),
    })
}

/// Speed in reference cells per unit time of a velocity in cells per unit time, for cells
/// `l` reference cells long. (Not `hypot`: a libm call that took a tenth of the run.)
fn speed(v: [f32; 2], l: f32) -> f32 {
    (v[0] * v[0] + v[1] * v[1]).sqrt() * l
}

/// Per-run constants of the step kernels (rates already multiplied by the time step).
struct Constants {
    dt: f32,
    l: f32,
    sea: f32,
    dt_gravity: f32,
    evap: f32,
    diffusion: f32,
    creep: f32,
    inv_full_depth: f32,
    dissolve: f32,
    deposit: f32,
    capacity: f32,
    min_slope: f32,
    wet_depth: f32,
    scale: f32,
}

// The step kernels below work on one cell, and read its neighbours through closures indexed
// by pipe (left, right, up, down): from the table on face borders, from slices inside faces.
// They are branch-free where it matters (selects), so runs of cells compile to vector code.

/// Step 2a: the outflow fluxes `f` grow with the drop of the water level to each neighbour
/// (heights `h_at`, water `d_at`, pipe lengths `len`) and are scaled down so that the cell
/// sends no more water than it has.
#[inline(always)]
fn outflow(k: &Constants, f: [f32; 4], h: f32, d: f32, h_at: impl Fn(usize) -> f32, d_at: impl Fn(usize) -> f32, len: impl Fn(usize) -> f32) -> [f32; 4] {
    let level = h + d;
    let mut f = f;
    let mut out = 0.0;
    for (p, fp) in f.iter_mut().enumerate() {
        let dh = level - h_at(p) - d_at(p);
        *fp = (*fp + k.dt_gravity / (k.l * len(p)) * dh).max(0.0);
        out += *fp;
    }
    if out * k.dt > d {
        let scale = if out > 0.0 { d / (out * k.dt) } else { 0.0 };
        for fp in f.iter_mut() {
            *fp = flush(*fp * scale);
        }
    }
    f
}

/// [`outflow`] over an interior run (separate `&mut` outputs, as in [`erode_run`]).
#[allow(clippy::too_many_arguments)]
fn outflow_run(k: &Constants, run: &Run<4>, pipes: &PipeTable<4>, h: &[f32], d1: &[f32], f0: &mut [f32], f1: &mut [f32], f2: &mut [f32], f3: &mut [f32]) {
    let (hc, hn, dc, dn, len) = (run.at(h), run.around(h), run.at(d1), run.around(d1), run.lengths(pipes));
    for x in 0..run.len {
        let f = outflow(k, [f0[x], f1[x], f2[x], f3[x]], hc[x], dc[x], |p| hn[p][x], |p| dn[p][x], |p| len[p][x]);
        (f0[x], f1[x], f2[x], f3[x]) = (f[0], f[1], f[2], f[3]);
    }
}

/// What [`erode`] gives for one cell.
struct Eroded {
    h: f32,
    sediment: f32,
    water: f32,
    velocity: [f32; 2],
}

/// Steps 2b and 3, and hillslope creep: the new water depth from the fluxes out (`f`) and in
/// (`inflow`), the velocity, the capacity from speed, slope (heights `h_at` over pipe lengths
/// `len`) and depth, and the move between ground and suspension.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the cell's inputs, kept apart so that runs vectorise
fn erode(k: &Constants, f: [f32; 4], inflow: impl Fn(usize) -> f32, d: f32, h: f32, h_at: impl Fn(usize) -> f32, len: impl Fn(usize) -> f32, sediment: f32) -> Eroded {
    let (in_l, in_r, in_u, in_d) = (inflow(0), inflow(1), inflow(2), inflow(3));
    let sum_in = in_l + in_r + in_u + in_d;
    let sum_out = f[0] + f[1] + f[2] + f[3];
    let water = flush((d + k.dt * (sum_in - sum_out)).max(0.0));
    let mean_depth = 0.5 * (d + water);
    let wx = 0.5 * (in_l - f[0] + f[1] - in_r);
    let wy = 0.5 * (in_u - f[2] + f[3] - in_d);
    let velocity = if mean_depth > 1e-6 { [wx / mean_depth, wy / mean_depth] } else { [0.0; 2] };
    let v = speed(velocity, k.l);
    // Slope from the four neighbours (height units per length), over the true distances on
    // the sphere.
    let gx = (h_at(1) - h_at(0)) / (k.l * (len(0) + len(1)));
    let gy = (h_at(3) - h_at(2)) / (k.l * (len(2) + len(3)));
    let g2 = gx * gx + gy * gy;
    let sin_a = (g2 / (1.0 + g2)).sqrt().max(k.min_slope);
    let ramp = if k.inv_full_depth > 0.0 { (mean_depth * k.inv_full_depth).min(1.0) } else { 1.0 };
    let cap = k.capacity * sin_a * v.min(100.0) * ramp;
    // Dissolve below capacity, deposit above: a move between ground and suspension.
    let moved = if cap > sediment { k.dissolve * (cap - sediment) } else { -k.deposit * (sediment - cap) };
    let mut new_h = h - moved;
    // Hillslope creep between land cells (both ends of a pipe use its one length, so the
    // exchange is symmetric and conserves material). Selects, not branches: the loop
    // vectorises, and a zero rate adds nothing.
    let land = h >= k.sea;
    for p in 0..4 {
        let (hn, lp) = (h_at(p), len(p));
        let rate = if land && hn >= k.sea { (k.creep / (lp * lp)).min(0.2) } else { 0.0 };
        new_h += rate * (hn - h);
    }
    Eroded { h: new_h, sediment: sediment + moved, water, velocity }
}

/// [`erode`] over an interior run. The outputs are separate `&mut` slices so that the
/// compiler knows they overlap nothing else, and vectorises the loop.
#[allow(clippy::too_many_arguments)]
fn erode_run(k: &Constants, run: &Run<4>, pipes: &PipeTable<4>, flux: &[Vec<f32>; 4], d1: &[f32], h: &[f32], hr: &mut [f32], sr: &mut [f32], wr: &mut [f32], vxr: &mut [f32], vyr: &mut [f32]) {
    let (fc, fin, dc, hc, hn, len) = (flux.each_ref().map(|f| run.at(f)), run.inflow(flux), run.at(d1), run.at(h), run.around(h), run.lengths(pipes));
    for x in 0..run.len {
        let e = erode(k, [fc[0][x], fc[1][x], fc[2][x], fc[3][x]], |p| fin[p][x], dc[x], hc[x], |p| hn[p][x], |p| len[p][x], sr[x]);
        (hr[x], sr[x], wr[x], vxr[x], vyr[x]) = (e.h, e.sediment, e.water, e.velocity[0], e.velocity[1]);
    }
}

/// Step 4 (donor cell): the cell keeps the sediment its water did not send away and takes the
/// share each neighbour sent it. A pipe carries the share of its cell's water it moved this
/// step; both ends compute that share alike from the fluxes and the water `d` at the start of
/// the step, so what leaves one cell arrives in the other.
#[inline(always)]
fn carry(k: &Constants, sediment: f32, d: f32, f: [f32; 4], sed_at: impl Fn(usize) -> f32, d_at: impl Fn(usize) -> f32, inflow: impl Fn(usize) -> f32) -> f32 {
    let share = |flux: f32, water: f32| (flux * if water > 0.0 { k.dt / water } else { 0.0 }).min(1.0);
    let leaving = (share(f[0], d) + share(f[1], d) + share(f[2], d) + share(f[3], d)).min(1.0);
    let mut v = sediment * (1.0 - leaving);
    for p in 0..4 {
        v += sed_at(p) * share(inflow(p), d_at(p));
    }
    v
}

/// [`carry`] over an interior run.
fn carry_run(k: &Constants, run: &Run<4>, flux: &[Vec<f32>; 4], sed: &[f32], d1: &[f32], out: &mut [f32]) {
    let (sc, sn, dc, dn, fc, fin) = (run.at(sed), run.around(sed), run.at(d1), run.around(d1), flux.each_ref().map(|f| run.at(f)), run.inflow(flux));
    for (x, o) in out.iter_mut().enumerate() {
        *o = carry(k, sc[x], dc[x], [fc[0][x], fc[1][x], fc[2][x], fc[3][x]], |p| sn[p][x], |p| dn[p][x], |p| fin[p][x]);
    }
}

/// Step 5: sediment diffuses between wet neighbours (water `d`; a pair trades
/// `k (s_a - s_b) / 4`, symmetric).
#[inline(always)]
fn diffuse(k: &Constants, sediment: f32, d: f32, sed_at: impl Fn(usize) -> f32, d_at: impl Fn(usize) -> f32) -> f32 {
    let mut s = sediment;
    let wet = d > 0.0;
    for p in 0..4 {
        let rate = if wet && d_at(p) > 0.0 { k.diffusion * 0.25 } else { 0.0 };
        s += rate * (sed_at(p) - sediment);
    }
    s
}

/// The end of a step: under the sea the water leaves and the sediment settles; on land tiny
/// sediment settles, water evaporates, the presence counter moves, and the next step's `rain`
/// falls. Returns the new height, suspended sediment, water and presence.
#[inline(always)]
fn finish(k: &Constants, h: f32, sediment: f32, water: f32, presence: f32, rain: f32) -> (f32, f32, f32, f32) {
    let (mut h, mut s) = (h, sediment);
    let w = if h < k.sea {
        h += s;
        s = 0.0;
        0.0
    } else {
        if s < 1e-12 {
            h += s;
            s = 0.0;
        }
        flush(water * (1.0 - k.evap))
    };
    let change = if w > k.wet_depth { 0.05 } else { -0.01 };
    let presence = (presence + change * k.scale).clamp(0.0, 1.0);
    (h, s, if h >= k.sea { w + rain } else { 0.0 }, presence)
}

/// [`diffuse`] and [`finish`] over an interior run, with the next step's `rain`.
#[allow(clippy::too_many_arguments)]
fn finish_run(k: &Constants, run: &Run<4>, sed: &[f32], d2: &[f32], rain: f32, out: &mut [f32], hr: &mut [f32], wr: &mut [f32], pr: &mut [f32]) {
    let (sc, sn, dc, dn) = (run.at(sed), run.around(sed), run.at(d2), run.around(d2));
    for x in 0..run.len {
        let s = diffuse(k, sc[x], dc[x], |p| sn[p][x], |p| dn[p][x]);
        (hr[x], out[x], wr[x], pr[x]) = finish(k, hr[x], s, dc[x], pr[x], rain);
    }
}

/// Steps the model runs at resolution `n` for `iterations` at the reference resolution.
pub fn steps_at(iterations: usize, n: usize) -> usize {
    if iterations == 0 {
        0
    } else {
        (iterations * n).div_ceil(REFERENCE_N).max(1)
    }
}

#[cfg(test)]
#[path = "hydraulic_tests.rs"]
mod tests;
