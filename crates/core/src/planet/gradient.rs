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
    let mut data = vec![[0.0f32; 3]; out.cells()];
    data.par_chunks_mut(PIECE).enumerate().for_each(|(piece, values)| gradients(f, stencil, piece * PIECE, values));
    VectorField { n: out.n(), tile: out.tile(), data }
}

/// Output cells per piece of work on the threads.
const PIECE: usize = 4096;

/// Cells whose gradients are computed together: eight `f32` lanes of AVX2.
const LANES: usize = 8;

/// The gradients of output cells `first..` into `values`: [`WIDE_LANES`] at a time in AVX-512
/// vector instructions where the CPU has them, [`LANES`] at a time in AVX2 where it has those
/// (both without FMA, so every lane rounds as [`tangent_gradient`] does), plainly elsewhere.
fn gradients(f: &Field, stencil: &Neighbours4, first: usize, values: &mut [[f32; 3]]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: AVX-512F support was detected at run time just above.
        unsafe { gradients_avx512(f, stencil, first, values) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 support was detected at run time just above.
        unsafe { gradients_avx2(f, stencil, first, values) };
        return;
    }
    gradients_plain(f, stencil, first, values);
}

/// [`gradients`] compiled with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn gradients_avx2(f: &Field, stencil: &Neighbours4, first: usize, values: &mut [[f32; 3]]) {
    gradients_plain(f, stencil, first, values);
}

/// [`gradients`] compiled with AVX-512, [`WIDE_LANES`] cells at a time.
///
/// # Safety
/// The CPU must support AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn gradients_avx512(f: &Field, stencil: &Neighbours4, first: usize, values: &mut [[f32; 3]]) {
    gradients_in::<WIDE_LANES>(f, stencil, first, values);
}

/// The gradients of all output cells by each path this CPU can run, named (for the tests:
/// each must give every cell's own bits).
#[cfg(test)]
fn gradients_by_every_path(f: &Field, stencil: &Neighbours4) -> Vec<(&'static str, Vec<[f32; 3]>)> {
    let cells = stencil.out().cells();
    let mut paths = vec![("plain", vec![[f32::NAN; 3]; cells])];
    gradients_plain(f, stencil, 0, &mut paths[0].1);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        let mut values = vec![[f32::NAN; 3]; cells];
        // SAFETY: AVX2 support was detected at run time just above.
        unsafe { gradients_avx2(f, stencil, 0, &mut values) };
        paths.push(("avx2", values));
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        let mut values = vec![[f32::NAN; 3]; cells];
        // SAFETY: AVX-512F support was detected at run time just above.
        unsafe { gradients_avx512(f, stencil, 0, &mut values) };
        paths.push(("avx512", values));
    }
    paths
}

/// Cells whose gradients the AVX-512 path computes together.
const WIDE_LANES: usize = 16;

/// [`gradients`] as the compiler's target allows.
#[inline(always)]
fn gradients_plain(f: &Field, stencil: &Neighbours4, first: usize, values: &mut [[f32; 3]]) {
    gradients_in::<LANES>(f, stencil, first, values);
}

/// [`gradients`] in chunks of `L` cells, the rest one by one.
#[inline(always)]
fn gradients_in<const L: usize>(f: &Field, stencil: &Neighbours4, first: usize, values: &mut [[f32; 3]]) {
    let (lanes, rest) = values.as_chunks_mut::<L>();
    for (k, out) in lanes.iter_mut().enumerate() {
        *out = gradient_lanes(f, stencil, first + k * L);
    }
    let done = lanes.len() * L;
    for (k, out) in rest.iter_mut().enumerate() {
        let (c, to) = stencil.at(first + done + k);
        let h = f.data()[c];
        let g = tangent_gradient(stencil.direction(c), to.into_iter().map(|nb| (stencil.direction(nb), f.data()[nb] - h)));
        *out = [g.x, g.y, g.z];
    }
}

/// [`tangent_gradient`] of output cells `first..first + L`, each lane with the same
/// operations in the same order as a lone cell (so the same bits).
#[inline(always)]
fn gradient_lanes<const L: usize>(f: &Field, stencil: &Neighbours4, first: usize) -> [[f32; 3]; L] {
    let mut p = [[0.0f32; L]; 3];
    let mut q = [[[0.0f32; L]; 3]; 4];
    let mut dh = [[0.0f32; L]; 4];
    // A row inside a tile: the cells and their neighbours lie side by side in the input, so
    // the stencil is not asked cell by cell.
    let run = stencil.straight_run(first, L);
    let (dirs, h) = (stencil.directions(), f.data());
    for l in 0..L {
        let (c, to) = match run {
            Some((c, w)) => (c + l, [c + l - 1, c + l + 1, c + l - w, c + l + w]),
            None => stencil.at(first + l),
        };
        let at = dirs[c];
        (p[0][l], p[1][l], p[2][l]) = (at.x, at.y, at.z);
        for (k, nb) in to.into_iter().enumerate() {
            let d = dirs[nb];
            (q[k][0][l], q[k][1][l], q[k][2][l]) = (d.x, d.y, d.z);
            dh[k][l] = h[nb] - h[c];
        }
    }
    let mut out = [[0.0f32; 3]; L];
    for (l, o) in out.iter_mut().enumerate() {
        let mut fit = Fit::at([p[0][l], p[1][l], p[2][l]]);
        for k in 0..4 {
            fit.add([q[k][0][l], q[k][1][l], q[k][2][l]], dh[k][l]);
        }
        *o = fit.gradient();
    }
    out
}

/// The least-squares fit of [`tangent_gradient`] at one point, on plain arrays (so a loop over
/// lanes of it runs in vector instructions): the tangent basis at the point and the sums of
/// the normal equations.
struct Fit {
    p: [f32; 3],
    e1: [f32; 3],
    e2: [f32; 3],
    /// `aa, ab, bb, ra, rb`: the sums of the tangent offsets' products and of their products
    /// with the changes.
    sums: [f32; 5],
}

impl Fit {
    /// A fit at the unit vector `p` with no neighbour yet: an orthonormal basis of the
    /// tangent plane (glam's `any_orthonormal_vector` and `cross`, written out).
    #[inline(always)]
    fn at(p: [f32; 3]) -> Fit {
        let [x, y, z] = p;
        let sign = 1.0f32.copysign(z);
        let a = -1.0 / (sign + z);
        let b = x * y * a;
        let e1 = [b, sign + y * y * a, -y];
        let e2 = [y * e1[2] - e1[1] * z, z * e1[0] - e1[2] * x, x * e1[1] - e1[0] * y];
        Fit { p, e1, e2, sums: [0.0; 5] }
    }

    /// Adds a neighbour at `q` whose value differs by `dh`.
    #[inline(always)]
    fn add(&mut self, q: [f32; 3], dh: f32) {
        let dot = |u: [f32; 3], v: [f32; 3]| (u[0] * v[0]) + (u[1] * v[1]) + (u[2] * v[2]);
        let along = dot(self.p, q);
        // The tangent displacement (about the angle in radians).
        let t = [q[0] - self.p[0] * along, q[1] - self.p[1] * along, q[2] - self.p[2] * along];
        let (a, b) = (dot(t, self.e1), dot(t, self.e2));
        let s = &mut self.sums;
        s[0] += a * a;
        s[1] += a * b;
        s[2] += b * b;
        s[3] += a * dh;
        s[4] += b * dh;
    }

    /// The gradient that fits the neighbours added (zero where they do not span the plane).
    #[inline(always)]
    fn gradient(&self) -> [f32; 3] {
        let [aa, ab, bb, ra, rb] = self.sums;
        let det = aa * bb - ab * ab;
        let flat = det.abs() <= 1e-12 * (aa * bb).max(f32::MIN_POSITIVE);
        let (s1, s2) = ((bb * ra - ab * rb) / det, (aa * rb - ab * ra) / det);
        let (e1, e2) = (self.e1, self.e2);
        let g = [e1[0] * s1 + e2[0] * s2, e1[1] * s1 + e2[1] * s2, e1[2] * s1 + e2[2] * s2];
        if flat {
            [0.0; 3]
        } else {
            g
        }
    }
}

/// The tangent vector `g` at the point `p` of the unit sphere that best explains the changes
/// `dh` towards neighbours at `q` as `g . t`, `t` their tangent displacements (least squares in
/// the tangent plane; zero where the neighbours do not span it). The one gradient every part of
/// the program computes (the Gradient node, exported normal maps whole and tiled), so they
/// agree to the bit.
pub fn tangent_gradient(p: glam::Vec3, to: impl IntoIterator<Item = (glam::Vec3, f32)>) -> glam::Vec3 {
    let mut fit = Fit::at(p.to_array());
    for (q, dh) in to {
        fit.add(q.to_array(), dh);
    }
    glam::Vec3::from_array(fit.gradient())
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

    /// The least-squares fit written with glam's vector operations, as the gradient was
    /// before its arithmetic went onto plain arrays.
    fn with_glam(p: glam::Vec3, to: [(glam::Vec3, f32); 4]) -> glam::Vec3 {
        let e1 = p.any_orthonormal_vector();
        let e2 = p.cross(e1);
        let (mut aa, mut ab, mut bb, mut ra, mut rb) = (0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32);
        for (q, dh) in to {
            let t = q - p * p.dot(q);
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

    /// The gradients in lanes are [`tangent_gradient`]'s of each cell alone, and those are
    /// glam's formula's, to the bit, on the whole planet (face edges and cube corners
    /// included, and flat ground) and on a tile.
    #[test]
    fn gradients_in_lanes_are_each_cell_s_own() {
        let n = 37;
        let height = |d: glam::Vec3| if d.x > 0.6 { 0.25 } else { (d.x * 7.0).sin() * (d.y * 5.0).cos() + 0.3 * d.z };
        let whole = Field::from_fn_dir(n, height);
        // A tile of 29 x 29 cells (not a multiple of the lanes) at the corner of a face, with
        // its halo across the seams.
        let tile = crate::planet::Tile::new(Face::Front, 64, 35, 35, 29).expect("tile");
        let input = crate::planet::Grid::Tile(tile.with_halo(1));
        let on_tile = Field::from_fn_cell_on(input, |k| height(input.cell(k).direction(64)));
        let tiled = Neighbours4::new(input, crate::planet::Grid::Tile(tile)).expect("stencil");
        for (f, stencil) in [(&whole, Neighbours4::whole(n)), (&on_tile, tiled)] {
            let g = gradient_on(f, &stencil);
            for (path, values) in gradients_by_every_path(f, &stencil) {
                assert!(values.iter().zip(&g.data).all(|(a, b)| a.map(f32::to_bits) == b.map(f32::to_bits)), "the {path} path");
            }
            for k in 0..stencil.out().cells() {
                let (c, to) = stencil.at(k);
                let h = f.data()[c];
                let to = to.map(|nb| (stencil.direction(nb), f.data()[nb] - h));
                let alone = tangent_gradient(stencil.direction(c), to);
                assert_eq!(g.data[k].map(f32::to_bits), [alone.x, alone.y, alone.z].map(f32::to_bits), "cell {k}");
                assert_eq!(alone.to_array().map(f32::to_bits), with_glam(stencil.direction(c), to).to_array().map(f32::to_bits), "cell {k}");
            }
        }
    }
}
