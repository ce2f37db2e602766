//! Stencil nodes on the cube-sphere: Blur, Box filter, Gradient. All cross face seams.

use super::context::{OpContext, OpError};
use super::value::VectorField;
use crate::planet::coords::wrap_cell;
use crate::planet::pipes::pipes4;
use crate::planet::{Cell, Face, Field};
use rayon::prelude::*;

/// Mean angular size of a cell edge in radians at resolution `n`.
pub fn cell_angle(n: usize) -> f32 {
    std::f32::consts::FRAC_PI_2 / n as f32
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
fn diffuse_variance(f: &Field, var: f32, ctx: &OpContext) -> Result<Field, OpError> {
    const K: f32 = 0.25; // variance per step per axis = 2 K
    let full = (var / (2.0 * K)).floor() as usize;
    let rest = var - full as f32 * 2.0 * K;
    let mut cur = f.clone();
    let mut next = Field::filled(f.n(), 0.0);
    let steps = (0..full).map(|_| K).chain((rest > 1e-6).then_some(rest / 2.0));
    for k in steps {
        ctx.check()?;
        diffuse(&cur, &mut next, k);
        std::mem::swap(&mut cur, &mut next);
    }
    Ok(cur)
}

/// Blur with a standard deviation of `radius_deg` degrees of arc. Large radii are blurred at a
/// coarser resolution (at most 4 cells of standard deviation there) and sampled back up, so the
/// cost stays bounded and the result does not depend on the resolution.
pub fn blur(f: &Field, radius_deg: f32, ctx: &OpContext) -> Result<Field, OpError> {
    let n = f.n();
    let sigma_rad = radius_deg.to_radians();
    if sigma_rad <= 0.0 {
        return Ok(f.clone());
    }
    let mut m = n;
    while sigma_rad / cell_angle(m) > 4.0 && m.is_multiple_of(2) && m >= 16 {
        m /= 2;
    }
    let small = if m == n { f.clone() } else { f.resample(m) };
    let sigma = sigma_rad / cell_angle(m);
    let blurred = diffuse_variance(&small, sigma * sigma, ctx)?;
    Ok(if m == n { blurred } else { blurred.resample(n) })
}

/// Passes of a local smoothing (box filter, Jacobi step) at resolution `n` for `passes` at the
/// reference resolution 128: such a diffusion reaches about `sqrt(passes)` cells, so the count
/// grows with `(n / 128)^2` to smooth the same distance on the planet.
pub fn diffusion_passes(iterations: i64, n: usize) -> usize {
    let scale = (n as f64 / 128.0).powi(2);
    (iterations.max(0) as f64 * scale).round() as usize
}

/// Seed 003's box filter: weighted sum over an odd k x k neighbourhood divided by the sum of
/// the weights that exist (cells over a cube corner are skipped); not divided when the weights
/// sum to zero.
pub fn box_filter(f: &Field, matrix: &[f32], iterations: i64, ctx: &OpContext) -> Result<Field, OpError> {
    let k = (matrix.len() as f64).sqrt() as usize;
    if k * k != matrix.len() || k.is_multiple_of(2) {
        return Err(OpError::Invalid(format!("matrix must be square with an odd size, found {} values", matrix.len())));
    }
    let n = f.n();
    let r = (k / 2) as i64;
    if n < k {
        return Err(OpError::Invalid(format!("the {k}x{k} matrix is larger than a face at resolution {n}")));
    }
    let total: f32 = matrix.iter().sum();
    let normalise = total.abs() > 1e-6;
    let mut cur = f.clone();
    let mut next = Field::filled(n, 0.0);
    for _ in 0..diffusion_passes(iterations, n) {
        ctx.check()?;
        let src = cur.data();
        next.data_mut().par_chunks_mut(n).enumerate().for_each(|(row, line)| {
            let face = Face::from_index(row / n).unwrap_or(Face::Bottom);
            let j = (row % n) as i64;
            for (i, v) in line.iter_mut().enumerate() {
                let i = i as i64;
                let interior = i >= r && j >= r && i < n as i64 - r && j < n as i64 - r;
                let (mut sum, mut wsum) = (0.0f32, 0.0f32);
                for dj in -r..=r {
                    for di in -r..=r {
                        let w = matrix[((dj + r) * k as i64 + di + r) as usize];
                        let idx = if interior {
                            Some(face.index() * n * n + (j + dj) as usize * n + (i + di) as usize)
                        } else {
                            wrap_cell(face, i + di, j + dj, n).map(|c: Cell| c.index(n))
                        };
                        if let Some(idx) = idx {
                            sum += w * src[idx];
                            wsum += w;
                        }
                    }
                }
                *v = if normalise && wsum.abs() > 1e-12 { sum / wsum } else { sum };
            }
        });
        std::mem::swap(&mut cur, &mut next);
    }
    Ok(cur)
}

/// The surface gradient in field units per radian, as a 3D vector tangent to the sphere.
pub fn gradient(f: &Field) -> VectorField {
    let n = f.n();
    let table = pipes4(n);
    let dirs: Vec<glam::Vec3> = (0..6 * n * n).into_par_iter().map(|c| Cell::from_index(c, n).direction(n)).collect();
    let data = (0..6 * n * n)
        .into_par_iter()
        .map(|c| {
            let p = dirs[c];
            let h = f.data()[c];
            let mut g = glam::Vec3::ZERO;
            for &nb in &table.to[c] {
                let q = dirs[nb as usize];
                let t = q - p * p.dot(q); // tangent displacement (about the angle in radians)
                let len2 = t.length_squared();
                if len2 > 0.0 {
                    g += t * ((f.data()[nb as usize] - h) / len2);
                }
            }
            let g = g * 0.5;
            [g.x, g.y, g.z]
        })
        .collect();
    VectorField { n, data }
}

/// Length of each vector.
pub fn vector_length(v: &VectorField) -> Field {
    let data = v.data.par_iter().map(|g| (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).sqrt()).collect();
    Field::from_vec(v.n, data).unwrap_or_else(|| Field::filled(v.n, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    fn ctx(n: usize, cancel: &AtomicBool) -> OpContext<'_> {
        OpContext { n, cancel, steps: None }
    }

    #[test]
    fn blur_conserves_the_mean_and_smooths() {
        let c = AtomicBool::new(false);
        let f = Field::from_fn_dir(32, |d| if d.x > 0.3 { 1.0 } else { 0.0 });
        let b = blur(&f, 5.0, &ctx(32, &c)).expect("blur");
        let mean = |x: &Field| x.data().iter().sum::<f32>() / x.data().len() as f32;
        assert!((mean(&f) - mean(&b)).abs() < 0.01);
        let (lo, hi) = b.min_max();
        assert!(lo > -1e-4 && hi < 1.0 + 1e-4, "no overshoot");
        assert!(b.data().iter().filter(|&&v| v > 0.05 && v < 0.95).count() > f.data().iter().filter(|&&v| v > 0.05 && v < 0.95).count());
    }

    #[test]
    fn blur_treats_a_seam_like_a_face_middle() {
        // A spike in the middle of a face and one at a face corner spread the same amount.
        let c = AtomicBool::new(false);
        let n = 32;
        let mut f = Field::filled(n, 0.0);
        f.data_mut()[Cell { face: Face::Front, i: 16, j: 16 }.index(n)] = 1.0;
        let b = blur(&f, 6.0, &ctx(n, &c)).expect("blur");
        let mut g = Field::filled(n, 0.0);
        g.data_mut()[Cell { face: Face::Front, i: 0, j: 16 }.index(n)] = 1.0;
        let bg = blur(&g, 6.0, &ctx(n, &c)).expect("blur");
        let sum = |x: &Field| x.data().iter().sum::<f32>();
        assert!((sum(&b) - 1.0).abs() < 1e-3 && (sum(&bg) - 1.0).abs() < 1e-3);
        // The spike on the edge spread onto the left face as much as to its own face's side.
        let left: f32 = bg.data()[Face::Left.index() * n * n..(Face::Left.index() + 1) * n * n].iter().sum();
        assert!(left > 0.3, "{left}");
        let peak_mid = b.min_max().1;
        let peak_edge = bg.min_max().1;
        assert!((peak_mid - peak_edge).abs() / peak_mid < 0.2, "{peak_mid} vs {peak_edge}");
    }

    #[test]
    fn box_filter_all_ones_averages_and_sharpen_keeps_flat() {
        let c = AtomicBool::new(false);
        let f = Field::from_fn_dir(16, |d| d.x);
        let ones = [1.0; 9];
        assert_eq!(diffusion_passes(128, 16), 2);
        let b = box_filter(&f, &ones, 128, &ctx(16, &c)).expect("box");
        let var = |x: &Field| {
            let m = x.data().iter().sum::<f32>() / x.data().len() as f32;
            x.data().iter().map(|v| (v - m).powi(2)).sum::<f32>()
        };
        assert!(var(&b) < var(&f));
        let edge = [0.0, -1.0, 0.0, -1.0, 4.0, -1.0, 0.0, -1.0, 0.0];
        let flat = box_filter(&Field::filled(16, 2.0), &edge, 128, &ctx(16, &c)).expect("box");
        assert!(flat.data().iter().all(|v| v.abs() < 1e-5), "edge detection of a flat field is 0");
        assert!(box_filter(&f, &[1.0, 1.0], 1, &ctx(16, &c)).is_err());
    }

    #[test]
    fn gradient_of_height_along_y_points_north() {
        let f = Field::from_fn_dir(32, |d| d.y);
        let g = gradient(&f);
        let c = Cell { face: Face::Front, i: 16, j: 16 };
        let v = g.data[c.index(32)];
        assert!(v[1] > 0.9 && v[1] < 1.1, "{v:?}");
        let len = vector_length(&g);
        assert!((len.get(c) - 1.0).abs() < 0.1);
    }
}
