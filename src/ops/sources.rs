//! Source nodes other than Noise: Constant, Fault planet (seed 001), Latitude.

use super::context::{OpContext, OpError, Params};
use super::rng::Rng;
use crate::planet::Field;
use glam::Vec3;

/// The Constant node.
pub fn constant(p: &Params, ctx: &OpContext) -> Field {
    Field::filled(ctx.n, p.float("value"))
}

/// One fault plane: points `x` with `sign * normal . (x - point) >= 0` are raised.
#[derive(Debug, Clone, Copy)]
struct Cut {
    normal: Vec3,
    offset: f32,
    sign: f32,
}

/// The Fault planet node (seed 001). "Through centre" cuts with planes through the origin
/// (the original method, whose far side mirrors the near side); "Random inner point" uses a
/// plane through a random point inside the unit sphere with normal along that point's
/// direction and a random sign, which removes the mirror artefact.
pub fn fault_planet(p: &Params, ctx: &OpContext) -> Result<Field, OpError> {
    let cuts = p.int("cuts").clamp(1, 20000) as usize;
    let step = p.float("step");
    let centre = p.choice("variant") == "Through centre";
    let mut rng = Rng::new(p.seed(), 0xFA17);
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
    let field = Field::from_fn_dir(ctx.n, |d| {
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

/// The Latitude node: latitude / 90 degrees, signed or absolute.
pub fn latitude(p: &Params, ctx: &OpContext) -> Field {
    let absolute = p.choice("mode") == "Absolute";
    Field::from_fn_dir(ctx.n, |d| {
        let lat = d.y.clamp(-1.0, 1.0).asin() / std::f32::consts::FRAC_PI_2;
        if absolute {
            lat.abs()
        } else {
            lat
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{NodeKind, ParamValue};
    use std::collections::BTreeMap;
    use std::sync::atomic::AtomicBool;

    fn run(kind: NodeKind, params: &[(&str, ParamValue)], n: usize) -> Field {
        let values: BTreeMap<String, ParamValue> = params.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        let cancel = AtomicBool::new(false);
        let ctx = OpContext { n, cancel: &cancel, steps: None };
        let p = Params::new(kind, &values);
        match kind {
            NodeKind::FaultPlanet => fault_planet(&p, &ctx).expect("fault planet"),
            NodeKind::Latitude => latitude(&p, &ctx),
            _ => constant(&p, &ctx),
        }
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
        let cuts = ("cuts", ParamValue::Int(300));
        let centre = run(NodeKind::FaultPlanet, &[cuts.clone(), ("variant", ParamValue::Choice("Through centre".into()))], 16);
        let fixed = run(NodeKind::FaultPlanet, &[cuts, ("variant", ParamValue::Choice("Random inner point".into()))], 16);
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
        let a = run(NodeKind::FaultPlanet, &[("seed", ParamValue::Seed(3))], 8);
        let b = run(NodeKind::FaultPlanet, &[("seed", ParamValue::Seed(3))], 8);
        let c = run(NodeKind::FaultPlanet, &[("seed", ParamValue::Seed(4))], 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn latitude_and_constant() {
        let signed = run(NodeKind::Latitude, &[("mode", ParamValue::Choice("Signed".into()))], 16);
        let abs = run(NodeKind::Latitude, &[("mode", ParamValue::Choice("Absolute".into()))], 16);
        let (lo, hi) = signed.min_max();
        assert!(lo < -0.95 && hi > 0.95 && lo >= -1.0 && hi <= 1.0);
        assert!(abs.data().iter().zip(signed.data()).all(|(a, s)| (a - s.abs()).abs() < 1e-6));
        let top = crate::planet::Cell { face: crate::planet::Face::Top, i: 8, j: 8 };
        assert!(signed.get(top) > 0.95, "north is up");
        let c = run(NodeKind::Constant, &[("value", ParamValue::Float(2.5))], 4);
        assert!(c.data().iter().all(|&v| v == 2.5));
    }
}
