//! The surface gradient of a field on the cube-sphere: per cell, a 3D vector tangent to the
//! sphere in field units per radian, exact for a linear slope across face edges and cube
//! corners. One definition for every part of the program that needs it (the Gradient node,
//! the Erosion filter, exported normal maps whole and tiled, the viewport's normals), so they
//! agree to the bit.

use super::stencil::Neighbours4;
use super::{Field, VectorField};
use rayon::prelude::*;

/// The surface gradient of the whole field `f` in field units per radian, as a 3D vector
/// tangent to the sphere (see [`gradient_on`]; a field on a tile goes through the node, which
/// gets it with a halo).
pub fn gradient(f: &Field) -> VectorField {
    gradient_on(f, &Neighbours4::whole(f.n()))
}

/// The gradient of `f` (on `stencil`'s input grid) on the stencil's output grid: per cell, the
/// tangent vector `g` that best explains the value's changes towards its four neighbours as
/// `g . t` over their tangent displacements `t` (least squares in the cell's tangent plane,
/// field units per radian). Where the neighbours sit in opposite pairs at equal distances, as
/// inside a face, this is the central difference; along a face edge and at a cube corner, where
/// the neighbour across the seam lies at another distance and angle, it stays exact for a
/// linear slope, so the gradient shows no face edge.
pub fn gradient_on(f: &Field, stencil: &Neighbours4) -> VectorField {
    let out = stencil.out();
    let data = (0..out.cells())
        .into_par_iter()
        .map(|k| {
            let (c, to) = stencil.at(k);
            let h = f.data()[c];
            let g = tangent_gradient(stencil.direction(c), to.into_iter().map(|nb| (stencil.direction(nb), f.data()[nb] - h)));
            [g.x, g.y, g.z]
        })
        .collect();
    VectorField { n: out.n(), tile: out.tile(), data }
}

/// The tangent vector `g` at the point `p` of the unit sphere that best explains the changes
/// `dh` towards neighbours at `q` as `g . t`, `t` their tangent displacements (least squares in
/// the tangent plane; zero where the neighbours do not span it). The one gradient every part of
/// the program computes (the Gradient node, exported normal maps whole and tiled), so they
/// agree to the bit.
pub fn tangent_gradient(p: glam::Vec3, to: impl IntoIterator<Item = (glam::Vec3, f32)>) -> glam::Vec3 {
    // An orthonormal basis of the tangent plane at p.
    let e1 = p.any_orthonormal_vector();
    let e2 = p.cross(e1);
    let (mut aa, mut ab, mut bb, mut ra, mut rb) = (0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for (q, dh) in to {
        let t = q - p * p.dot(q); // tangent displacement (about the angle in radians)
        let (a, b) = (t.dot(e1), t.dot(e2));
        aa += a * a;
        ab += a * b;
        bb += b * b;
        ra += a * dh;
        rb += b * dh;
    }
    let det = aa * bb - ab * ab;
    if det.abs() <= 1e-12 * (aa * bb).max(f32::MIN_POSITIVE) {
        return glam::Vec3::ZERO;
    }
    e1 * ((bb * ra - ab * rb) / det) + e2 * ((aa * rb - ab * ra) / det)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::{Cell, Face};

    #[test]
    fn a_linear_slope_has_the_same_gradient_across_face_edges_and_corners() {
        // h = d . a: its surface gradient is a's tangent part, everywhere.
        let a = glam::Vec3::new(0.3, 0.8, -0.5);
        let n = 32;
        let f = Field::from_fn_dir(n, |d| d.dot(a));
        let g = gradient(&f);
        let mut worst = 0.0f32;
        for c in 0..6 * n * n {
            let p = Cell::from_index(c, n).direction(n).normalize();
            let want = a - p * p.dot(a);
            worst = worst.max((glam::Vec3::from(g.data[c]) - want).length() / want.length().max(0.1));
        }
        // Curvature of the sphere over one cell leaves a few per cent.
        assert!(worst < 0.05, "worst relative error {worst}");
    }

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
