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
    const META: NodeMeta = NodeMeta::new("Curvature", Category::Masks, "Height above (+) or below (-) the mean of the surroundings at a scale: `curvature` in the input's unit, `convex` and `concave` masks 0..1.", IN, OUTPUTS, file!()).costing(40);

    fn run(s: &CurvatureSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let f = inputs.port(FIELD_IN)?;
        let mean = blur(f, s.radius_deg, ctx.cancel)?;
        Ok(outputs(s, f.zip(&mean, |h, m| h - m)).into_iter().map(Into::into).collect())
    }

    /// On a tile finer than the whole-planet run, the input's own relief on the tile (its
    /// detail at the tile's level) less the run's surroundings (the mean at the scale, input
    /// less curvature there, sampled bilinearly): a close-up's ridges and gullies finer than
    /// the run count, where the run's curvature, sampled, had none of them. The surroundings
    /// are the run's: a scale of a few of the tile's cells is measured against the run's cells.
    fn refine(s: &CurvatureSettings, r: &Refine) -> Result<Vec<Option<Value>>, OpError> {
        if !r.wanted.iter().any(|&w| w) {
            return Ok(Vec::new());
        }
        let field = |v: Option<&Value>| v.and_then(Value::as_field).cloned();
        let (Some(whole_in), Some(whole_c)) = (field(r.whole_inputs.first().and_then(Option::as_ref)), field(r.outputs.first().and_then(Option::as_ref))) else {
            return Err(OpError::Invalid("internal error: Curvature refines without its whole-planet input and output".to_string()));
        };
        let tile_in = field(Some(&(r.input_on)(FIELD_IN.index(), r.grid)?)).ok_or_else(|| OpError::Invalid("internal error: Curvature's input on a tile is not a field".to_string()))?;
        let m = whole_in.n();
        let c = Field::from_fn_cell_on(r.grid, |k| {
            let cell = r.grid.cell(k);
            let (a, b) = cell.center_ab(r.grid.n());
            tile_in.data()[k] - Field::sample_ab_by(m, cell.face, a, b, |c| whole_in.get(c) - whole_c.get(c))
        });
        Ok(outputs(s, c).into_iter().zip(r.wanted).map(|(v, &w)| w.then(|| v.into())).collect())
    }

    fn refines_from(_s: &CurvatureSettings) -> RefineFrom {
        RefineFrom::TileAndRunInputs
    }
}

/// The node's outputs from the curvature `c`: itself and its convex and concave masks.
fn outputs(s: &CurvatureSettings, c: Field) -> [Field; 3] {
    let a = s.amount;
    let convex = c.map(|v| smoothstep(0.0, a, v));
    let concave = c.map(|v| smoothstep(0.0, a, -v));
    [c, convex, concave]
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
        let ctx = OpContext { tile: None, n: 64, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        let out = NodeKind::Curvature.run(&NodeKind::Curvature.default_params(), &[Some(f.clone().into())], &ctx).expect("runs");
        let c = out[0].as_field().expect("field");
        let crest = c.sample_dir(glam::Vec3::Z);
        let foot = c.sample_dir(glam::Vec3::new(0.0, 0.05, 1.0).normalize());
        assert!(crest > 100.0, "crest {crest}");
        assert!(foot < 0.0, "foot {foot}");
        assert_eq!(out[1].as_field().expect("convex").sample_dir(glam::Vec3::Z), 1.0);
    }
}
