//! The Fault planet node (seed 001): repeated random plane cuts raise one side of the planet
//! and lower the other.

use crate::nodes::prelude::*;
use crate::planet::Rng;
use glam::Vec3;

crate::choices! {
    /// Where the fault planes pass.
    pub enum FaultVariant {
        /// The fix: planes through a random point inside the planet with a random sign.
        RandomInnerPoint = ("random_inner_point", "Random inner point"),
        /// Seed 001's original method: planes through the centre (the far side mirrors the near).
        ThroughCentre = ("through_centre", "Through centre"),
    }
}

crate::settings! {
    /// Settings of the Fault planet node.
    pub struct FaultPlanetSettings, keys FaultPlanetKeys {
        /// Where the planes pass.
        variant: FaultVariant = FaultVariant::RandomInnerPoint.param("Variant", "Through centre: the original method (the far side mirrors the near side with land and sea swapped). Random inner point: the fix, planes through a random point inside the planet with a random sign."),
        /// Number of plane cuts.
        cuts: usize = int("Cuts", 1000, 1, 20000, "Number of plane cuts: about 100 give continents, 1000 mountains and islands, 10000 complex coasts."),
        /// Height added on one side of each cut and removed on the other (unitless).
        step: f32 = float("Step height", 0.01, 0.0001, 1.0, Unit::None, 0.0005, "Height added on one side of each cut and removed on the other (unitless)."),
        /// Random seed.
        seed: u32 = seed(7),
    }
}

/// The Fault planet node.
pub struct FaultPlanet;

impl Node for FaultPlanet {
    type Settings = FaultPlanetSettings;
    const META: NodeMeta = NodeMeta::new("Fault planet", Category::Sources, "Repeated random plane cuts raise one side of the planet and lower the other.", &[], OUT, file!()).costing(5);

    fn run(s: &FaultPlanetSettings, _: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![fault_planet(s, ctx)?.into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

/// One fault plane: points `x` with `sign * normal . (x - point) >= 0` are raised.
#[derive(Debug, Clone, Copy)]
struct Cut {
    normal: Vec3,
    offset: f32,
    sign: f32,
}

/// The fault planet field. "Through centre" cuts with planes through the origin (the original
/// method, whose far side mirrors the near side); "Random inner point" uses a plane through a
/// random point inside the unit sphere with normal along that point's direction and a random
/// sign, which removes the mirror artefact.
pub fn fault_planet(s: &FaultPlanetSettings, ctx: &OpContext) -> Result<Field, OpError> {
    let cuts = s.cuts.clamp(1, 20000);
    let step = s.step;
    let centre = s.variant == FaultVariant::ThroughCentre;
    let mut rng = Rng::new(s.seed, 0xFA17);
    let planes: Vec<Cut> = (0..cuts)
        .map(|_| {
            let dir = rng.unit_vector();
            if centre {
                Cut { normal: dir, offset: 0.0, sign: 1.0 }
            } else {
                // n = dir * len with len < 1; plane n . (x - n) = 0, i.e. dir . x >= len.
                let len = rng.f32();
                let sign = if rng.f32() < 0.5 { -1.0 } else { 1.0 };
                Cut { normal: dir, offset: len, sign }
            }
        })
        .collect();
    ctx.check()?;
    let field = Field::from_fn_dir_on(ctx.grid(), |d| {
        let mut h = 0.0f32;
        for c in &planes {
            let s = c.sign * (c.normal.dot(d) - c.offset);
            h += if s >= 0.0 { step } else { -step };
        }
        h
    });
    ctx.check()?;
    Ok(field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    fn run(variant: FaultVariant, cuts: usize, seed: u32, n: usize) -> Field {
        let cancel = AtomicBool::new(false);
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        fault_planet(&FaultPlanetSettings { variant, cuts, step: 0.01, seed }, &ctx).expect("fault planet")
    }

    fn antipode_sum(f: &Field) -> f32 {
        // Mean |f(x) + f(-x)|: 0 when the far side mirrors the near side with land and sea swapped.
        let n = f.n();
        let mut s = 0.0;
        for c in 0..6 * n * n {
            let d = crate::planet::Cell::from_index(c, n).direction(n);
            s += (f.sample_dir(d) + f.sample_dir(-d)).abs();
        }
        s / (6 * n * n) as f32
    }

    #[test]
    fn fault_planet_through_centre_mirrors_and_the_fix_does_not() {
        let centre = run(FaultVariant::ThroughCentre, 300, 7, 16);
        let fixed = run(FaultVariant::RandomInnerPoint, 300, 7, 16);
        let (lo, hi) = centre.min_max();
        assert!(hi - lo > 0.1, "cuts make relief");
        assert!(antipode_sum(&centre) < 1e-3, "the original method is antisymmetric");
        assert!(antipode_sum(&fixed) > 0.05, "the fix breaks the mirror: {}", antipode_sum(&fixed));
        // Each cell moves by whole steps: value / step is an integer with the parity of the cuts.
        let step = 0.01;
        for v in centre.data() {
            let k = v / step;
            assert!((k - k.round()).abs() < 1e-2 && (k.round() as i64).rem_euclid(2) == 0, "{v}");
        }
    }

    #[test]
    fn fault_planet_is_deterministic_per_seed() {
        let a = run(FaultVariant::RandomInnerPoint, 1000, 3, 8);
        let b = run(FaultVariant::RandomInnerPoint, 1000, 3, 8);
        let c = run(FaultVariant::RandomInnerPoint, 1000, 4, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
