//! The Curvature node: how far each point stands above (convex: ridges, peaks) or below
//! (concave: valleys, basins) the mean of its surroundings at a chosen scale.

use super::smoothstep;
use crate::nodes::prelude::*;
use crate::planet::diffusion::blur;

crate::settings! {
    /// Settings of the Curvature node.
    pub struct CurvatureSettings, keys CurvatureKeys {
        /// The scale: the blur radius of the surroundings, degrees of arc.
        radius_deg: f32 = float("Scale", 1.0, 0.05, 30.0, Unit::Degree, 0.02, "Radius of the surroundings a point is compared with, in degrees of arc (1 deg is about 111 km on Earth). Larger: only broad ridges and basins count. Independent of resolution."),
        /// Height difference that makes a full mask.
        amount: f32 = float("Full at", 200.0, 0.001, 100000.0, Unit::None, 1.0, "Height above (convex) or below (concave) the surroundings at which the masks reach 1, in the input's unit (metres after To metres)."),
    }
}

/// The Curvature node.
pub struct Curvature;

crate::ports! {
    const OUTPUTS: Out = [
        /// Height above (+) or below (-) the surroundings' mean, in the input's unit.
        CURVATURE: Field = PortDef::field("curvature"),
        /// Convex mask, 0..1.
        CONVEX: Field = PortDef::field("convex"),
        /// Concave mask, 0..1.
        CONCAVE: Field = PortDef::field("concave"),
    ];
}

impl Node for Curvature {
    type Settings = CurvatureSettings;
    const META: NodeMeta = NodeMeta::new("Curvature", Category::Masks, "Height above (+) or below (-) the mean of the surroundings at a scale: `curvature` in the input's unit, `convex` and `concave` masks 0..1.", IN, OUTPUTS, file!());

    fn run(s: &CurvatureSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let f = inputs.port(FIELD_IN)?;
        let mean = blur(f, s.radius_deg, ctx.cancel)?;
        let c = f.zip(&mean, |h, m| h - m);
        let a = s.amount;
        let convex = c.map(|v| smoothstep(0.0, a, v));
        let concave = c.map(|v| smoothstep(0.0, a, -v));
        Ok(vec![c.into(), convex.into(), concave.into()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn a_ridge_is_convex_and_its_flanks_feet_concave() {
        // A ridge along the equator, 3000 m high and about 400 km wide.
        let f = Field::from_fn_dir(64, |d| 3000.0 * (-(d.y / 0.03).powi(2)).exp());
        let cancel = AtomicBool::new(false);
        let ctx = OpContext { tile: None, n: 64, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH) };
        let out = NodeKind::Curvature.run(&NodeKind::Curvature.default_params(), &[Some(f.clone().into())], &ctx).expect("runs");
        let c = out[0].as_field().expect("field");
        let crest = c.sample_dir(glam::Vec3::Z);
        let foot = c.sample_dir(glam::Vec3::new(0.0, 0.05, 1.0).normalize());
        assert!(crest > 100.0, "crest {crest}");
        assert!(foot < 0.0, "foot {foot}");
        assert_eq!(out[1].as_field().expect("convex").sample_dir(glam::Vec3::Z), 1.0);
    }
}
