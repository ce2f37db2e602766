//! The Box filter node (seed 003): a weighted sum over a user matrix.

use crate::nodes::prelude::*;
use crate::planet::coords::wrap_cell;
use crate::planet::diffusion::diffusion_passes;
use crate::planet::{Cell, Face};
use rayon::prelude::*;

crate::settings! {
    /// Settings of the Box filter node.
    pub struct BoxFilterSettings, keys BoxFilterKeys {
        /// Weights of an odd-sized square neighbourhood, row-major.
        matrix: Vec<f32> = matrix("Matrix", &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], "Weights of an odd-sized square neighbourhood (3x3 to 9x9). All ones: mean blur. If the weights sum to zero (edge detection) the sum is not divided."),
        /// Passes at the reference resolution 128.
        iterations: usize = int("Iterations", 2, 0, 200, "Passes at the reference resolution of 128 cells per face edge; scaled with the square of the resolution so the planet looks the same at any resolution."),
    }
}

/// The Box filter node.
pub struct BoxFilter;

impl Node for BoxFilter {
    type Settings = BoxFilterSettings;
    const META: NodeMeta = NodeMeta::new("Box filter", Category::Modify, "Each value becomes the weighted sum of its neighbourhood divided by the sum of the weights.", IN, OUT_AS_INPUT, file!()).costing(8);

    fn run(s: &BoxFilterSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![box_filter(inputs.port(FIELD_IN)?, &s.matrix, s.iterations, ctx)?.into()])
    }

    fn own_level(s: &BoxFilterSettings, n: usize) -> Option<usize> {
        Some(box_level(&s.matrix, s.iterations, n))
    }
}

/// Passes a smoothing box filter keeps at the level it works at: its reach is then about 4 of
/// that level's cells times the matrix's radius, as a Blur's standard deviation spans at most 4
/// cells of the level it works at.
const MIN_PASSES: usize = 16;

/// The level [`box_filter`] works at for `matrix` and `iterations` on a field at level `n`.
/// A smoothing matrix (no negative weight, a positive sum) works at `n` halved (while even, at
/// least 16 and at least twice the matrix's size) as long as the halved level still gets
/// [`MIN_PASSES`] passes: the passes grow with the square of the level, so at 1024 two
/// iterations are 128 passes over 6 M cells, and at 4096 2048 passes over 100 M. Any other
/// matrix (edge detection) works at `n`.
pub fn box_level(matrix: &[f32], iterations: usize, n: usize) -> usize {
    let k = (matrix.len() as f64).sqrt() as usize;
    let smoothing = matrix.iter().all(|w| *w >= 0.0) && matrix.iter().sum::<f32>() > 0.0;
    let mut m = n;
    while smoothing && m.is_multiple_of(2) && m >= 16 && m / 2 >= 2 * k && diffusion_passes(iterations, m / 2) >= MIN_PASSES {
        m /= 2;
    }
    m
}

/// Seed 003's box filter: weighted sum over an odd k x k neighbourhood divided by the sum of
/// the weights that exist (cells over a cube corner are skipped); not divided when the weights
/// sum to zero. A smoothing matrix with many passes works at a coarser level ([`box_level`]):
/// the field is averaged down to it, filtered there and sampled back up bilinearly.
pub fn box_filter(f: &Field, matrix: &[f32], iterations: usize, ctx: &OpContext) -> Result<Field, OpError> {
    let k = (matrix.len() as f64).sqrt() as usize;
    if k * k != matrix.len() || k.is_multiple_of(2) {
        return Err(OpError::Invalid(format!("matrix must be square with an odd size, found {} values", matrix.len())));
    }
    let m = box_level(matrix, iterations, f.n());
    if m != f.n() {
        return Ok(box_filter_at(&f.resample(m), matrix, k, iterations, ctx)?.resample(f.n()));
    }
    box_filter_at(f, matrix, k, iterations, ctx)
}

/// [`box_filter`] at the field's own level, `matrix` checked (square, `k` x `k`, `k` odd).
fn box_filter_at(f: &Field, matrix: &[f32], k: usize, iterations: usize, ctx: &OpContext) -> Result<Field, OpError> {
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
            let face = Face::ALL[row / n];
            let j = (row % n) as i64;
            for (i, v) in line.iter_mut().enumerate() {
                let i = i as i64;
                let interior = i >= r && j >= r && i < n as i64 - r && j < n as i64 - r;
                let (mut sum, mut wsum) = (0.0f32, 0.0f32);
                for dj in -r..=r {
                    for di in -r..=r {
                        let w = matrix[((dj + r) * k as i64 + di + r) as usize];
                        let idx = if interior { Some(face.index() * n * n + (j + dj) as usize * n + (i + di) as usize) } else { wrap_cell(face, i + di, j + dj, n).map(|c: Cell| c.index(n)) };
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    fn ctx(n: usize, cancel: &AtomicBool) -> OpContext<'_> {
        OpContext { tile: None, n, cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] }
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
    fn a_smoothing_box_filter_with_many_passes_works_at_a_coarser_level() {
        let ones = [1.0; 9];
        // Two iterations: 32 passes at 512, 8 at 256.
        assert_eq!(box_level(&ones, 2, 4096), 512);
        assert_eq!(box_level(&ones, 2, 512), 512);
        assert_eq!(box_level(&ones, 2, 128), 128);
        assert_eq!(box_level(&ones, 200, 1024), 64);
        let edge = [0.0, -1.0, 0.0, -1.0, 4.0, -1.0, 0.0, -1.0, 0.0];
        assert_eq!(box_level(&edge, 200, 1024), 1024, "edge detection keeps its level");
        assert_eq!(box_level(&[1.0; 81], 200, 1024), 64, "at least twice the matrix's size");
        // Eight iterations at 512: the filter at 256 (32 passes) sampled up, and close to the
        // 128 passes at 512 (the same spread on the planet).
        let c = AtomicBool::new(false);
        let f = Field::from_fn_dir(512, |d| (d.x * 7.0).sin() * (d.y * 5.0).cos() + if d.z > 0.3 { 1.0 } else { 0.0 });
        assert_eq!(box_level(&ones, 8, 512), 256);
        let coarse = box_filter(&f, &ones, 8, &ctx(512, &c)).expect("box");
        assert_eq!(coarse.data(), box_filter(&f.resample(256), &ones, 8, &ctx(256, &c)).expect("box").resample(512).data());
        let fine = box_filter_at(&f, &ones, 3, 8, &ctx(512, &c)).expect("box");
        let worst = coarse.data().iter().zip(fine.data()).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
        let mean = coarse.data().iter().zip(fine.data()).map(|(a, b)| (a - b).abs()).sum::<f32>() / fine.data().len() as f32;
        eprintln!("box filter at 256 sampled up against 128 passes at 512: largest difference {worst}, mean {mean} (the field spans -1 to 2)");
        assert!(worst < 0.01 && mean < 0.001, "largest difference {worst}, mean {mean}");
    }
}
