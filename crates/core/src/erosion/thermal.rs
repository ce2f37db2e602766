//! Thermal erosion (seed 002 section 2.2.2, after Jako and Toth): material slides to Moore
//! neighbours that lie lower than the talus angle allows, through flux buffers, so every
//! step conserves material exactly (up to float rounding) and runs in parallel.
//!
//! Units as in [`super::hydraulic`]: heights are elevation times `relief`, lengths in cells of
//! the reference resolution 128; steps scale with `n / 128`.

use super::hydraulic::{steps_at, REFERENCE_N};
use crate::planet::pipes::{border_cells, pipes8};
use crate::planet::Field;
use crate::planet::SimError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Parameters of [`thermal`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThermalSettings {
    /// Steps at the reference resolution 128 (scaled with `n / 128`).
    pub iterations: usize,
    /// Talus angle in degrees: steeper slopes shed material.
    pub talus_deg: f32,
    /// Share of the movable amount moved per step, 0..1 (1 is the stability limit: the seed's
    /// `M = H / 2`; more would make slopes oscillate).
    pub amount: f32,
    /// Height units per elevation unit.
    pub relief: f32,
}

impl ThermalSettings {
    /// The defaults, which the node's parameters also start from (one source of truth).
    pub const DEFAULT: ThermalSettings = ThermalSettings { iterations: 40, talus_deg: 35.0, amount: 0.5, relief: 20.0 };
}

impl Default for ThermalSettings {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Runs thermal erosion on `input`; `SimError::Cancelled` when cancelled. `progress` counts steps.
pub fn thermal(input: &Field, s: &ThermalSettings, cancel: &AtomicBool, progress: &AtomicUsize) -> Result<Field, SimError> {
    let n = input.n();
    let table = pipes8(n);
    let l = REFERENCE_N as f32 / n as f32;
    let relief = s.relief.max(1e-6);
    let tan_talus = s.talus_deg.clamp(0.0, 89.0).to_radians().tan();
    // A pipe allows a height drop of the talus slope times its true length on the sphere
    // (`talus * length`; cells are narrow along the face edges).
    let talus = tan_talus * l;
    let amount = s.amount.clamp(0.0, 1.0);
    let mut h: Vec<f32> = input.data().iter().map(|&x| x * relief).collect();
    // Per cell the share `rate` of each excess it sends: a pipe carries
    // `rate[c] * (h[c] - h[nb] - talus * length)` when positive. Both ends of a pipe compute that
    // from the same values (pipe lengths are symmetric), so what leaves one cell arrives in
    // the other, and only one number per cell goes through memory between the passes.
    let mut rate = vec![0.0f32; h.len()];
    let mut next = vec![0.0f32; h.len()];
    for _ in 0..steps_at(s.iterations, n) {
        if cancel.load(Ordering::Relaxed) {
            return Err(SimError::Cancelled);
        }
        // The share of each excess a cell sends.
        rate.par_chunks_mut(n).enumerate().for_each(|(row, out)| {
            let run = border_cells(&table, row, |nbs, i| {
                let c = nbs.c;
                out[i] = shed_rate(h[c], |k| nbs.to(k).map_or(h[c], |x| h[x]), |k| table.length(k, c), talus, amount);
            });
            if let Some(run) = run {
                let (hc, hn, len) = (run.at(&h), run.around(&h), run.lengths(&table));
                for (x, r) in run.of_row(out).iter_mut().enumerate() {
                    *r = shed_rate(hc[x], |k| hn[k][x], |k| len[k][x], talus, amount);
                }
            }
        });
        // What leaves and arrives through each pipe.
        next.par_chunks_mut(n).enumerate().for_each(|(row, out)| {
            let run = border_cells(&table, row, |nbs, i| {
                let c = nbs.c;
                // A missing diagonal (over a cube corner) is a neighbour at the same height that
                // sends nothing: no excess either way.
                let (hn, rn) = (|k| nbs.to(k).map_or(h[c], |x| h[x]), |k| nbs.to(k).map_or(0.0, |x| rate[x]));
                out[i] = relax(h[c], hn, rate[c], rn, |k| table.length(k, c), talus);
            });
            if let Some(run) = run {
                let (hc, hn, rc, rn, len) = (run.at(&h), run.around(&h), run.at(&rate), run.around(&rate), run.lengths(&table));
                for (x, v) in run.of_row(out).iter_mut().enumerate() {
                    *v = relax(hc[x], |k| hn[k][x], rc[x], |k| rn[k][x], |k| len[k][x], talus);
                }
            }
        });
        std::mem::swap(&mut h, &mut next);
        progress.fetch_add(1, Ordering::Relaxed);
    }
    Ok(Field::from_vec(n, h.iter().map(|&x| x / relief).collect())?)
}

/// The share of each of its excesses a cell of height `hc` sends to neighbours of heights
/// `hn` over pipes of lengths `len`: at most half the largest excess moves (the pair then meets
/// at the talus slope), shared in proportion to each neighbour's excess. Branch-free, so runs
/// of cells compile to vector code.
#[inline(always)]
fn shed_rate(hc: f32, hn: impl Fn(usize) -> f32, len: impl Fn(usize) -> f32, talus: f32, amount: f32) -> f32 {
    let (mut sum, mut max) = (0.0f32, 0.0f32);
    for k in 0..8 {
        let e = hc - hn(k) - talus * len(k);
        sum += e.max(0.0);
        max = max.max(e);
    }
    if sum > 0.0 {
        amount * 0.5 * max / sum
    } else {
        0.0
    }
}

/// The new height of a cell of height `hc` sending at rate `rc`, with neighbours of heights
/// `hn` sending at rates `rn`: a pipe carries `rate * (high - low - talus * length)` when
/// that is positive, computed alike at both ends, so what leaves one cell arrives in the other.
#[inline(always)]
fn relax(hc: f32, hn: impl Fn(usize) -> f32, rc: f32, rn: impl Fn(usize) -> f32, len: impl Fn(usize) -> f32, talus: f32) -> f32 {
    let (mut out, mut inflow) = (0.0f32, 0.0f32);
    for k in 0..8 {
        let (a, hk) = (talus * len(k), hn(k));
        out += rc * (hc - hk - a).max(0.0);
        inflow += rn(k) * (hk - hc - a).max(0.0);
    }
    hc - out + inflow
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::pipes::NONE;
    use crate::planet::{Cell, Face};

    fn run(f: &Field, s: &ThermalSettings) -> Field {
        thermal(f, s, &AtomicBool::new(false), &AtomicUsize::new(0)).expect("run")
    }

    #[test]
    fn material_is_conserved_exactly_up_to_rounding() {
        let f = Field::from_fn_dir(32, |d| (d.x * 9.0).sin() * (d.y * 7.0).cos() * 0.8 + 0.2);
        let r = run(&f, &ThermalSettings { iterations: 100, talus_deg: 20.0, ..Default::default() });
        let (a, b): (f64, f64) = (f.data().iter().map(|&x| x as f64).sum(), r.data().iter().map(|&x| x as f64).sum());
        // Pairwise moves of f32 values: only the rounding of each addition remains.
        assert!((a - b).abs() < 1e-6 * f.data().iter().map(|&x| x.abs() as f64).sum::<f64>(), "{a} vs {b}");
        assert_ne!(f, r);
    }

    #[test]
    fn slopes_relax_to_the_talus_angle() {
        let n = 16;
        let spike = Cell { face: Face::Front, i: 8, j: 8 }.index(n);
        let mut f = Field::filled(n, 0.0);
        f.data_mut()[spike] = 1.0;
        let s = ThermalSettings { iterations: 2000, talus_deg: 30.0, amount: 1.0, relief: 10.0 };
        let r = run(&f, &s);
        let table = pipes8(n);
        let l = REFERENCE_N as f32 / n as f32;
        let tan = 30f32.to_radians().tan();
        let mut worst = 0.0f32;
        for c in 0..6 * n * n {
            for k in 0..8 {
                let nb = table.to[c][k];
                if nb != NONE {
                    let diag = crate::planet::coords::NEIGHBOURS_8[k];
                    let d = if diag.0 != 0 && diag.1 != 0 { l * std::f32::consts::SQRT_2 } else { l };
                    worst = worst.max((r.data()[c] - r.data()[nb as usize]) * s.relief / d);
                }
            }
        }
        assert!(worst <= tan * 1.02 + 1e-4, "steepest slope {worst} vs talus {tan}");
        assert!(r.data()[spike] < 1.0);
    }

    #[test]
    fn no_nan_at_the_extremes() {
        let f = Field::from_fn_dir(8, |d| d.x * 100.0);
        for talus in [0.0, 89.0] {
            for amount in [0.0, 1.0] {
                for relief in [1e-3, 1e3] {
                    let r = run(&f, &ThermalSettings { iterations: 30, talus_deg: talus, amount, relief });
                    assert!(r.data().iter().all(|v| v.is_finite()));
                }
            }
        }
    }
}
