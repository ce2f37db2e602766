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
