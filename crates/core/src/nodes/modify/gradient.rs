//! The Gradient node: the surface gradient as a tangent vector field.

use crate::nodes::prelude::*;
use crate::planet::stencil::Neighbours4;
use crate::planet::VectorField;
use rayon::prelude::*;

/// The Gradient node.
pub struct Gradient;

crate::ports! {
    const OUTPUTS: Out = [
        /// Tangent vector per cell, field units per radian.
        VECTOR: VectorField = PortDef::of("out", PortType::Vector),
    ];
}

impl Node for Gradient {
    type Settings = NoSettings;
    const META: NodeMeta = NodeMeta::new("Gradient", Category::Modify, "The direction and steepness of the surface: a tangent vector per cell, in field units per radian.", IN, OUTPUTS, file!());

    fn run(_: &NoSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![gradient_on(inputs.port(FIELD_IN)?, &Neighbours4::new(inputs.port(FIELD_IN)?.grid(), ctx.grid())?).into()])
    }

    /// The gradient of a cell reads its four neighbours.
    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Halo(1)
    }
}

/// The surface gradient of the whole field `f` in field units per radian, as a 3D vector
/// tangent to the sphere (see [`gradient_on`]; a field on a tile goes through the node, which
/// gets it with a halo).
pub fn gradient(f: &Field) -> VectorField {
    gradient_on(f, &Neighbours4::whole(f.n()))
}

/// The gradient of `f` (on `stencil`'s input grid) on the stencil's output grid: per cell, the
/// mean over its four neighbours of the tangent displacement towards each, weighted by the
/// value's change over the squared displacement (field units per radian).
pub fn gradient_on(f: &Field, stencil: &Neighbours4) -> VectorField {
    let out = stencil.out();
    let data = (0..out.cells())
        .into_par_iter()
        .map(|k| {
            let (c, to) = stencil.at(k);
            let p = stencil.direction(c);
            let h = f.data()[c];
            let mut g = glam::Vec3::ZERO;
            for nb in to {
                let q = stencil.direction(nb);
                let t = q - p * p.dot(q); // tangent displacement (about the angle in radians)
                let len2 = t.length_squared();
                if len2 > 0.0 {
                    g += t * ((f.data()[nb] - h) / len2);
                }
            }
            let g = g * 0.5;
            [g.x, g.y, g.z]
        })
        .collect();
    VectorField { n: out.n(), tile: out.tile(), data }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::{Cell, Face};

    #[test]
    fn gradient_of_height_along_y_points_north() {
        let f = Field::from_fn_dir(32, |d| d.y);
        let g = gradient(&f);
        let c = Cell { face: Face::Front, i: 16, j: 16 };
        let v = g.data[c.index(32)];
        assert!(v[1] > 0.9 && v[1] < 1.1, "{v:?}");
        let v = glam::Vec3::from(v);
        assert!((v.length() - 1.0).abs() < 0.1);
    }
}
