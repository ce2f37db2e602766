//! The Blur node: seam-aware smoothing with a radius in degrees of arc.

use crate::nodes::prelude::*;
use crate::planet::diffusion::{blur, blur_level};

crate::settings! {
    /// Settings of the Blur node.
    pub struct BlurSettings, keys BlurKeys {
        /// Standard deviation of the blur, degrees of arc.
        radius: f32 = float("Radius", 1.0, 0.0, 30.0, Unit::Degree, 0.02, "Standard deviation of the blur in degrees of arc on the planet (1 deg is about 111 km on Earth). Independent of resolution."),
    }
}

/// The Blur node.
pub struct Blur;

impl Node for Blur {
    type Settings = BlurSettings;
    const META: NodeMeta = NodeMeta::new("Blur", Category::Modify, "Seam-aware smoothing (repeated diffusion, close to a Gaussian) with a radius in degrees of arc.", IN, OUT_AS_INPUT, file!()).costing(36);

    fn run(s: &BlurSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![blur(inputs.port(FIELD_IN)?, s.radius, ctx.cancel)?.into()])
    }

    fn own_level(s: &BlurSettings, n: usize) -> Option<usize> {
        Some(blur_level(s.radius, n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::{Cell, Face};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn blur_conserves_the_mean_and_smooths() {
        let c = AtomicBool::new(false);
        let f = Field::from_fn_dir(32, |d| if d.x > 0.3 { 1.0 } else { 0.0 });
        let b = blur(&f, 5.0, &c).expect("blur");
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
        let b = blur(&f, 6.0, &c).expect("blur");
        let mut g = Field::filled(n, 0.0);
        g.data_mut()[Cell { face: Face::Front, i: 0, j: 16 }.index(n)] = 1.0;
        let bg = blur(&g, 6.0, &c).expect("blur");
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
