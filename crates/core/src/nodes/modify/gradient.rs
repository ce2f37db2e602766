//! The Gradient node: the surface gradient as a tangent vector field.

use crate::nodes::prelude::*;
use crate::planet::pipes::pipes4;
use crate::planet::{Cell, VectorField};
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

    fn run(_: &NoSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![gradient(inputs.port(FIELD_IN)?).into()])
    }
}

/// The surface gradient in field units per radian, as a 3D vector tangent to the sphere.
pub fn gradient(f: &Field) -> VectorField {
    let n = f.n();
    let table = pipes4(n);
    let dirs: Vec<glam::Vec3> = (0..6 * n * n).into_par_iter().map(|c| Cell::from_index(c, n).direction(n)).collect();
    let data = (0..6 * n * n)
        .into_par_iter()
        .map(|c| {
            let p = dirs[c];
            let h = f.data()[c];
            let mut g = glam::Vec3::ZERO;
            for &nb in &table.to[c] {
                let q = dirs[nb as usize];
                let t = q - p * p.dot(q); // tangent displacement (about the angle in radians)
                let len2 = t.length_squared();
                if len2 > 0.0 {
                    g += t * ((f.data()[nb as usize] - h) / len2);
                }
            }
            let g = g * 0.5;
            [g.x, g.y, g.z]
        })
        .collect();
    VectorField { n, tile: None, data }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::Face;

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
