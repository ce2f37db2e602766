//! Coral reef growth after Nakamura and Nakamori, as simplified in seed 002 section 2.4:
//! calcification that fades with depth and needs dissolved inorganic carbon, carbon used up by
//! growth and resupplied by diffusion from the open sea, and a slowly rising sea.

use crate::planet::pipes::pipes4;
use crate::planet::Field;
use crate::planet::SimError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Parameters of [`coral`]. Depths in metres through `metres_per_unit` (the Planet node's
/// scale: 1.0 of elevation is this many metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoralSettings {
    /// Growth steps (time step `dt` each).
    pub iterations: usize,
    /// Time step, years.
    pub dt: f32,
    /// Metres per elevation unit.
    pub metres_per_unit: f32,
    /// Sea level at the start (elevation units).
    pub sea_level: f32,
    /// Sea-level rise, metres per year (`k_W`).
    pub sea_rise: f32,
    /// Calcification rate at the surface with full carbon, metres per year (`k_B`).
    pub growth_rate: f32,
    /// Light absorption of water, per metre (`k_A`).
    pub absorption: f32,
    /// Deepest growth, metres (`k_G`).
    pub max_depth: f32,
    /// Carbon used per metre of growth and metre of depth, relative (1 / `k_U`).
    pub carbon_use: f32,
    /// Depth beyond which the sea counts as open ocean with full carbon (`O_0`), metres.
    pub open_sea_depth: f32,
    /// Carbon diffusion passes per step (Jacobi over underwater neighbours).
    pub diffusion: usize,
}

impl CoralSettings {
    /// The defaults, which the node's parameters also start from (one source of truth).
    pub const DEFAULT: CoralSettings = CoralSettings { iterations: 200, dt: 10.0, metres_per_unit: 6000.0, sea_level: 0.0, sea_rise: 0.002, growth_rate: 0.01, absorption: 0.06, max_depth: 60.0, carbon_use: 0.02, open_sea_depth: 200.0, diffusion: 4 };
}

impl Default for CoralSettings {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The reef: new elevation and the growth counter (metres grown per cell).
#[derive(Debug, Clone)]
pub struct CoralResult {
    /// Elevation after growth (elevation units, same sea-level reference as the input).
    pub elevation: Field,
    /// Total reef growth per cell, metres.
    pub growth: Field,
}

/// Grows reefs on `input`; `SimError::Cancelled` when cancelled. `progress` counts steps.
pub fn coral(input: &Field, s: &CoralSettings, cancel: &AtomicBool, progress: &AtomicUsize) -> Result<CoralResult, SimError> {
    let n = input.n();
    let table = pipes4(n);
    let m = s.metres_per_unit.max(1e-3);
    let mut h: Vec<f32> = input.data().iter().map(|&x| x * m).collect();
    let mut sea = s.sea_level * m;
    let mut carbon: Vec<f32> = h.iter().map(|&x| if sea - x > 0.0 { 1.0 } else { 0.0 }).collect();
    let mut next = carbon.clone();
    let mut growth = vec![0.0f32; h.len()];
    for _ in 0..s.iterations {
        if cancel.load(Ordering::Relaxed) {
            return Err(SimError::Cancelled);
        }
        // Calcification, carbon use and growth.
        h.par_iter_mut().zip(carbon.par_iter_mut()).zip(growth.par_iter_mut()).for_each(|((hc, o), gr)| {
            let depth = sea - *hc;
            if depth > 0.0 && depth < s.max_depth {
                let c = (*o * *o * s.growth_rate * (-depth * s.absorption).exp()).max(0.0);
                // Never grow above the water.
                let dh = (c * s.dt).min(depth);
                *hc += dh;
                *gr += dh;
                *o = (*o - dh * depth * s.carbon_use).max(0.0);
            }
        });
        // Carbon diffuses between underwater cells; open sea is full, land has none.
        for _ in 0..s.diffusion {
            next.par_iter_mut().enumerate().for_each(|(c, v)| {
                let depth = sea - h[c];
                *v = if depth <= 0.0 {
                    0.0
                } else if depth > s.open_sea_depth {
                    1.0
                } else {
                    let (mut sum, mut k) = (carbon[c], 1.0);
                    for &nb in &table.to[c] {
                        if sea - h[nb as usize] > 0.0 {
                            sum += carbon[nb as usize];
                            k += 1.0;
                        }
                    }
                    sum / k
                };
            });
            std::mem::swap(&mut carbon, &mut next);
        }
        sea += s.sea_rise * s.dt;
        progress.fetch_add(1, Ordering::Relaxed);
    }
    Ok(CoralResult { elevation: Field::from_vec(n, h.iter().map(|&x| x / m).collect())?, growth: Field::from_vec(n, growth)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reefs_grow_in_shallow_water_only_and_never_above_the_sea() {
        // A sloping shore: land, shallows and deep sea.
        let f = Field::from_fn_dir(32, |d| d.x * 0.05);
        let s = CoralSettings::default();
        let r = coral(&f, &s, &AtomicBool::new(false), &AtomicUsize::new(0)).expect("run");
        let top = s.sea_level + s.sea_rise * s.dt * s.iterations as f32 / s.metres_per_unit;
        let mut grew = 0;
        for ((a, b), g) in f.data().iter().zip(r.elevation.data()).zip(r.growth.data()) {
            assert!(g.is_finite() && *g >= 0.0);
            if *g > 0.0 {
                grew += 1;
                assert!(*a < top, "grew on land");
                assert!(*b <= top + 1e-6, "grew above the sea");
                // Deeper than the growth limit below the highest sea it ever had: never.
                let rise = s.sea_rise * s.dt * s.iterations as f32;
                assert!((top - a) * s.metres_per_unit < s.max_depth + rise + 1e-3, "grew too deep");
            }
        }
        assert!(grew > 10, "{grew} reef cells");
    }
}
