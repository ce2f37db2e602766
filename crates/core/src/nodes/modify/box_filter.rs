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
    const META: NodeMeta = NodeMeta::new("Box filter", Category::Modify, "Seed 003: each value becomes the weighted sum of its neighbourhood divided by the sum of the weights.", IN, OUT_AS_INPUT, file!());

    fn run(s: &BoxFilterSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![box_filter(inputs.port(FIELD_IN)?, &s.matrix, s.iterations, ctx)?.into()])
    }
}

/// Seed 003's box filter: weighted sum over an odd k x k neighbourhood divided by the sum of
/// the weights that exist (cells over a cube corner are skipped); not divided when the weights
/// sum to zero.
pub fn box_filter(f: &Field, matrix: &[f32], iterations: usize, ctx: &OpContext) -> Result<Field, OpError> {
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
        OpContext { tile: None, n, cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH) }
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
}
