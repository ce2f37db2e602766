//! Direction <-> face coordinates <-> cells, for a cube-sphere of `n` cells per face edge.
//!
//! Face-local coordinates `(a, b)` lie in [0, 1] with the origin at the face's top-left corner
//! seen from outside. Cell `(i, j)` of a face covers `a` in `[i/n, (i+1)/n)` and `b` in
//! `[j/n, (j+1)/n)` of the *linear* (unwarped) coordinates; its index in a [`super::Field`] is
//! `face * n * n + j * n + i`.

use super::face::Face;
use super::rounding::{floor32, floor64};
use super::warp::{unwarp, warp};
use glam::Vec3;

/// A cell of the cube-sphere: face, column `i` (along `a`), row `j` (along `b`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The face.
    pub face: Face,
    /// Column, 0..n, along `a`.
    pub i: usize,
    /// Row, 0..n, along `b`.
    pub j: usize,
}

impl Cell {
    /// Linear index of the cell in a field of resolution `n`.
    pub fn index(self, n: usize) -> usize {
        self.face.index() * n * n + self.j * n + self.i
    }

    /// The cell with linear index `idx` at resolution `n`.
    ///
    /// # Panics
    /// If `idx >= 6 n²` (a bug in the caller: every field has exactly `6 n²` cells).
    pub fn from_index(idx: usize, n: usize) -> Cell {
        let face = Face::ALL[idx / (n * n)];
        let rem = idx % (n * n);
        Cell { face, i: rem % n, j: rem / n }
    }

    /// Linear face coordinates `(a, b)` of the cell centre.
    pub fn center_ab(self, n: usize) -> (f32, f32) {
        ((self.i as f32 + 0.5) / n as f32, (self.j as f32 + 0.5) / n as f32)
    }

    /// Unit direction of the cell centre (tangent warp on).
    pub fn direction(self, n: usize) -> Vec3 {
        let (a, b) = self.center_ab(n);
        face_ab_to_dir(self.face, a, b, true)
    }
}

/// Point on the cube surface (each coordinate in [-1, 1]) for face coordinates `(a, b)`,
/// with or without the tangent warp.
pub fn face_ab_to_cube(face: Face, a: f32, b: f32, warped: bool) -> Vec3 {
    let (u, v) = if warped { (warp(2.0 * a - 1.0), warp(2.0 * b - 1.0)) } else { (2.0 * a - 1.0, 2.0 * b - 1.0) };
    face_uv_to_cube(face, u, v)
}

/// Point on the cube surface for cube coordinates `(u, v)`, each in [-1, 1] (warped already
/// where the caller wants the warp).
#[inline]
pub fn face_uv_to_cube(face: Face, u: f32, v: f32) -> Vec3 {
    face.normal() + u * face.right() + v * face.down()
}

/// Unit direction for cube coordinates `(u, v)` ([`face_uv_to_cube`] normalised).
#[inline]
pub fn face_uv_to_dir(face: Face, u: f32, v: f32) -> Vec3 {
    face_uv_to_cube(face, u, v).normalize()
}

/// Unit direction for face coordinates `(a, b)`.
pub fn face_ab_to_dir(face: Face, a: f32, b: f32, warped: bool) -> Vec3 {
    face_ab_to_cube(face, a, b, warped).normalize()
}

/// The face a direction points into and its face coordinates `(a, b)` (tangent warp on).
/// The direction need not be normalised but must not be zero.
pub fn dir_to_face_ab(dir: Vec3) -> (Face, f32, f32) {
    let face = Face::from_normal(dir);
    let (a, b) = dir_on_face_ab(face, dir, 1.0);
    (face, a, b)
}

/// Face coordinates `(a, b)` (tangent warp on) of `dir` projected onto the plane of `face`,
/// which may be a neighbour of the face `dir` points into: then `a` or `b` lies outside
/// 0..1. The cube-plane coordinates are clamped to `±reach` (1 keeps the point on the face;
/// up to about 1.9 reaches into the neighbouring faces, where the warp is still defined).
pub fn dir_on_face_ab(face: Face, dir: Vec3, reach: f32) -> (f32, f32) {
    let p = dir / dir.dot(face.normal()).max(1e-6);
    let u = p.dot(face.right()).clamp(-reach, reach);
    let v = p.dot(face.down()).clamp(-reach, reach);
    ((unwarp(u) + 1.0) * 0.5, (unwarp(v) + 1.0) * 0.5)
}

/// The cell containing a direction at resolution `n`.
pub fn dir_to_cell(dir: Vec3, n: usize) -> Cell {
    let (face, a, b) = dir_to_face_ab(dir);
    let clamp = |x: f32| (floor32(x * n as f32).max(0.0) as usize).min(n - 1);
    Cell { face, i: clamp(a), j: clamp(b) }
}

/// Re-expresses an integer cell position that may lie up to `n` cells outside its face on one
/// axis (seed 000's wrap, Algorithm 2) on the face where it really lies. Returns `None` when
/// both axes are outside (a diagonal step over a cube corner), which has no cell.
pub fn wrap_cell(face: Face, i: i64, j: i64, n: usize) -> Option<Cell> {
    let ni = n as i64;
    let out_i = !(0..ni).contains(&i);
    let out_j = !(0..ni).contains(&j);
    if !out_i && !out_j {
        return Some(Cell { face, i: i as usize, j: j as usize });
    }
    if out_i && out_j {
        return None;
    }
    // Cell centre in cube-plane coordinates of this face's (extended) plane, linear scale:
    // s in [-1, 1] inside the face; beyond the edge by `excess`.
    let s = |k: i64| (2.0 * (k as f64 + 0.5) / n as f64) - 1.0;
    let (su, sv) = (s(i), s(j));
    let (nrm, r, d) = (face.normal().as_dvec3(), face.right().as_dvec3(), face.down().as_dvec3());
    // Fold over the edge: the excess beyond the edge is measured on the neighbouring face from
    // that edge towards its centre.
    let (edge_dir, excess, along) = if out_i { (if su < 0.0 { -r } else { r }, su.abs() - 1.0, sv * d) } else { (if sv < 0.0 { -d } else { d }, sv.abs() - 1.0, su * r) };
    if excess > 2.0 {
        return None;
    }
    let folded = edge_dir + (1.0 - excess) * nrm + along;
    let nface = Face::from_normal(edge_dir.as_vec3());
    let (nr, nd) = (nface.right().as_dvec3(), nface.down().as_dvec3());
    let a = (folded.dot(nr) + 1.0) * 0.5 * n as f64;
    let b = (folded.dot(nd) + 1.0) * 0.5 * n as f64;
    let (ci, cj) = (floor64(a) as i64, floor64(b) as i64);
    if (0..ni).contains(&ci) && (0..ni).contains(&cj) {
        Some(Cell { face: nface, i: ci as usize, j: cj as usize })
    } else {
        None
    }
}

/// The cell at integer position `(i, j)` of `face` as [`wrap_cell`] finds it, or, where it
/// finds none (over a cube corner), the nearest cell of `face` itself.
pub fn wrap_or_nearest(face: Face, i: i64, j: i64, n: usize) -> Cell {
    let last = n as i64 - 1;
    wrap_cell(face, i, j, n).unwrap_or(Cell { face, i: i.clamp(0, last) as usize, j: j.clamp(0, last) as usize })
}

/// Offsets of the von Neumann (4) neighbourhood: left, right, up, down in face coordinates.
pub const NEIGHBOURS_4: [(i64, i64); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// Offsets of the Moore (8) neighbourhood.
pub const NEIGHBOURS_8: [(i64, i64); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// The neighbour of `cell` at offset `(di, dj)` across seams; `None` over a cube corner.
pub fn neighbour(cell: Cell, di: i64, dj: i64, n: usize) -> Option<Cell> {
    wrap_cell(cell.face, cell.i as i64 + di, cell.j as i64 + dj, n)
}

/// Solid angle in steradians of each cell of one face, indexed `j * n + i` (the same on every
/// face): the gnomonic area element `(1 + u² + v²)^(-3/2)` times the warp's stretch along each
/// axis, for a step of `2 / n` in linear face coordinates. The six faces sum to `4 PI`.
pub fn face_solid_angles(n: usize) -> Vec<f64> {
    use super::warp::warp_slope;
    use rayon::prelude::*;
    let linear = |i: usize| (2.0 * (i as f32 + 0.5) / n as f32) - 1.0;
    let w: Vec<f64> = (0..n).map(|i| f64::from(warp(linear(i)))).collect();
    let step = 2.0 / n as f64;
    let stretch: Vec<f64> = (0..n).map(|i| f64::from(warp_slope(linear(i))) * step).collect();
    (0..n * n)
        .into_par_iter()
        .map(|p| {
            let (i, j) = (p % n, p / n);
            let (u, v) = (w[i], w[j]);
            let r2 = 1.0 + u * u + v * v;
            stretch[i] * stretch[j] / (r2 * r2.sqrt())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_cell_round_trip_every_cell() {
        for n in [1usize, 2, 3, 8, 33] {
            for idx in 0..6 * n * n {
                let c = Cell::from_index(idx, n);
                assert_eq!(c.index(n), idx);
                assert_eq!(dir_to_cell(c.direction(n), n), c, "n={n} idx={idx}");
            }
        }
    }

    #[test]
    fn face_ab_round_trip() {
        for f in Face::ALL {
            for k in 0..=20 {
                for l in 0..=20 {
                    let (a, b) = (k as f32 / 20.0, l as f32 / 20.0);
                    let (f2, a2, b2) = dir_to_face_ab(face_ab_to_dir(f, a, b, true));
                    let d1 = face_ab_to_dir(f, a, b, true);
                    let d2 = face_ab_to_dir(f2, a2, b2, true);
                    assert!((d1 - d2).length() < 1e-5);
                    if (0.01..0.99).contains(&a) && (0.01..0.99).contains(&b) {
                        assert_eq!(f2, f);
                        assert!((a - a2).abs() < 1e-5 && (b - b2).abs() < 1e-5);
                    }
                }
            }
        }
    }

    #[test]
    fn four_neighbours_are_adjacent_and_symmetric_everywhere() {
        for n in [1usize, 2, 5, 16] {
            let spacing = std::f32::consts::FRAC_PI_2 / n as f32;
            for idx in 0..6 * n * n {
                let c = Cell::from_index(idx, n);
                for (di, dj) in NEIGHBOURS_4 {
                    let nb = neighbour(c, di, dj, n).expect("4-neighbours always exist");
                    assert_ne!(nb, c);
                    let ang = c.direction(n).angle_between(nb.direction(n));
                    assert!(ang < 1.6 * spacing, "n={n} {c:?} -> {nb:?}: {ang}");
                    // Symmetry: c is among nb's 4-neighbours.
                    let back = NEIGHBOURS_4.iter().filter_map(|&(a, b)| neighbour(nb, a, b, n)).any(|x| x == c);
                    assert!(back, "n={n} {c:?} -> {nb:?} not symmetric");
                }
                let mut all: Vec<_> = NEIGHBOURS_4.iter().filter_map(|&(a, b)| neighbour(c, a, b, n)).collect();
                all.sort_by_key(|x| x.index(n));
                all.dedup();
                assert_eq!(all.len(), 4);
            }
        }
    }

    #[test]
    fn moore_neighbourhood_skips_only_cube_corners() {
        let n = 6;
        let mut corner_cells = 0;
        for idx in 0..6 * n * n {
            let c = Cell::from_index(idx, n);
            let count = NEIGHBOURS_8.iter().filter_map(|&(a, b)| neighbour(c, a, b, n)).count();
            let is_corner = (c.i == 0 || c.i == n - 1) && (c.j == 0 || c.j == n - 1);
            if is_corner {
                corner_cells += 1;
                assert_eq!(count, 7, "{c:?}");
            } else {
                assert_eq!(count, 8, "{c:?}");
            }
            // Symmetry of the Moore neighbourhood.
            for &(a, b) in NEIGHBOURS_8.iter() {
                if let Some(nb) = neighbour(c, a, b, n) {
                    let back = NEIGHBOURS_8.iter().filter_map(|&(x, y)| neighbour(nb, x, y, n)).any(|x| x == c);
                    assert!(back, "{c:?} -> {nb:?}");
                }
            }
        }
        // 8 cube corners, each touching 3 faces.
        assert_eq!(corner_cells, 24);
    }

    #[test]
    fn every_edge_joins_the_right_faces() {
        // Each of the 12 cube edges is crossed from both sides, and the 24 face sides pair up.
        let n = 4;
        let mut pairs = std::collections::BTreeSet::new();
        for f in Face::ALL {
            for (di, dj, i, j) in [(-1i64, 0i64, 0usize, 1usize), (1, 0, n - 1, 1), (0, -1, 1, 0), (0, 1, 1, n - 1)] {
                let c = Cell { face: f, i, j };
                let nb = neighbour(c, di, dj, n).expect("edge neighbour");
                assert_ne!(nb.face, f);
                assert!(f.normal().dot(nb.face.normal()).abs() < 1e-6, "adjacent faces are perpendicular");
                let key = if f.index() < nb.face.index() { (f.index(), nb.face.index()) } else { (nb.face.index(), f.index()) };
                pairs.insert(key);
            }
        }
        assert_eq!(pairs.len(), 12);
    }
}
