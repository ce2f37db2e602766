//! Smoothing on the cube-sphere: the seam-aware blur with a radius in degrees of arc and
//! resolution-independent pass counts, shared by the blur, box-filter and curvature nodes, the
//! sea floor and the tectonic elevation.

use super::pipes::pipes4;
use super::Field;
use crate::planet::SimError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Mean angular size of a cell edge in radians at resolution `n` (cells per face edge).
pub fn cell_angle(n: usize) -> f32 {
    std::f32::consts::FRAC_PI_2 / n as f32
}

/// Passes of a local smoothing (box filter, Jacobi step) at resolution `n` for `passes` at the
/// reference resolution 128: such a diffusion reaches about `sqrt(passes)` cells, so the count
/// grows with `(n / 128)^2` to smooth the same distance on the planet.
pub fn diffusion_passes(iterations: usize, n: usize) -> usize {
    let scale = (n as f64 / 128.0).powi(2);
    (iterations as f64 * scale).round() as usize
}

/// One explicit diffusion step from `src` into `dst`: `h += k (sum of 4 neighbours - 4 h)`,
/// `k <= 0.25`.
fn diffuse(src: &Field, dst: &mut Field, k: f32) {
    let table = pipes4(src.n());
    let s = src.data();
    dst.data_mut().par_iter_mut().enumerate().for_each(|(c, v)| {
        let nb = &table.to[c];
        let sum = s[nb[0] as usize] + s[nb[1] as usize] + s[nb[2] as usize] + s[nb[3] as usize];
        *v = s[c] + k * (sum - 4.0 * s[c]);
    });
}

/// Diffuses until the added variance is `var` cells^2 per axis (two buffers, swapped).
fn diffuse_variance(f: &Field, var: f32, cancel: &AtomicBool) -> Result<Field, SimError> {
    const K: f32 = 0.25; // variance per step per axis = 2 K
    let full = (var / (2.0 * K)).floor() as usize;
    let rest = var - full as f32 * 2.0 * K;
    let mut cur = f.clone();
    let mut next = Field::filled(f.n(), 0.0);
    let steps = (0..full).map(|_| K).chain((rest > 1e-6).then_some(rest / 2.0));
    for k in steps {
        if cancel.load(Ordering::Relaxed) {
            return Err(SimError::Cancelled);
        }
        diffuse(&cur, &mut next, k);
        std::mem::swap(&mut cur, &mut next);
    }
    Ok(cur)
}

/// The level [`blur`] works at for a radius of `radius_deg` degrees of arc on a field at level
/// `n`: `n` halved (while even and at least 16) until the standard deviation spans at most 4
/// cells; `n` for no blur (radius 0). A finer field is averaged down to it, blurred there and
/// sampled back up, so this is the finest level the blur's result has detail at.
pub fn blur_level(radius_deg: f32, n: usize) -> usize {
    let sigma_rad = radius_deg.to_radians();
    let mut m = n;
    while sigma_rad > 0.0 && sigma_rad / cell_angle(m) > 4.0 && m.is_multiple_of(2) && m >= 16 {
        m /= 2;
    }
    m
}

/// Blur with a standard deviation of `radius_deg` degrees of arc. Large radii are blurred at a
/// coarser resolution (at most 4 cells of standard deviation there) and sampled back up, so the
/// cost stays bounded and the result does not depend on the resolution.
/// `SimError::Cancelled` when cancelled.
pub fn blur(f: &Field, radius_deg: f32, cancel: &AtomicBool) -> Result<Field, SimError> {
    let n = f.n();
    let sigma_rad = radius_deg.to_radians();
    if sigma_rad <= 0.0 {
        return Ok(f.clone());
    }
    let m = blur_level(radius_deg, n);
    let small = if m == n { f.clone() } else { f.resample(m) };
    let sigma = sigma_rad / cell_angle(m);
    let blurred = diffuse_variance(&small, sigma * sigma, cancel)?;
    Ok(if m == n { blurred } else { blurred.resample(n) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blur_works_at_its_own_level() {
        // 1.5 degrees: 4.27 cells at 256, 2.1 at 128.
        assert_eq!(blur_level(1.5, 1024), 128);
        assert_eq!(blur_level(1.5, 96), 96);
        assert_eq!(blur_level(1.5, 384), 192);
        assert_eq!(blur_level(0.0, 512), 512);
        assert_eq!(blur_level(30.0, 4096), 8);
        assert_eq!(blur_level(0.01, 65536), 32768);
        // The blur of a field at 512 is its blur at the blur's level, sampled back up.
        let c = AtomicBool::new(false);
        let f = Field::from_fn_dir(512, |d| (d.x * 9.0).sin() + (d.y * 23.0).cos() * d.z);
        let at_level = blur(&f.resample(128), 1.5, &c).expect("blur");
        assert_eq!(at_level.n(), 128);
        assert_eq!(blur(&f, 1.5, &c).expect("blur").data(), at_level.resample(512).data());
    }

    #[test]
    fn passes_scale_with_the_square_of_the_resolution() {
        assert_eq!(diffusion_passes(128, 16), 2);
        assert_eq!(diffusion_passes(20, 512), 320);
        assert_eq!(diffusion_passes(0, 512), 0);
    }
}
