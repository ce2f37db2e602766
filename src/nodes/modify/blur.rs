//! The Blur node: seam-aware smoothing with a radius in degrees of arc.

use crate::nodes::prelude::*;
use crate::planet::diffusion::cell_angle;
use crate::planet::pipes::pipes4;
use rayon::prelude::*;

crate::settings! {
    /// Settings of the Blur node.
    pub struct BlurSettings, keys BlurKeys {
        /// Standard deviation of the blur, degrees of arc.
        radius: f32 = float("Radius", 1.0, 0.0, 30.0, "deg", 0.02, "Standard deviation of the blur in degrees of arc on the planet (1 deg is about 111 km on Earth). Independent of resolution."),
    }
}

/// The Blur node.
pub struct Blur;

impl Node for Blur {
    type Settings = BlurSettings;
    const META: NodeMeta = NodeMeta::new("Blur", Category::Modify, "Seam-aware smoothing (repeated diffusion, close to a Gaussian) with a radius in degrees of arc.", IN, OUT, file!());

    fn run(s: &BlurSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![blur(inputs.field(0)?, s.radius, ctx)?.into()])
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::{Cell, Face};
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
}
