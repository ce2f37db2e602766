//! Builds the cube-sphere mesh of the planet from an elevation field (CPU only, no GPU types
//! beyond the vertex struct).

use super::camera::{relief_at, OrbitCamera, MIN_ALTITUDE};
use super::gpu_types::Vertex;
use super::layers::DetailPatch;
use crate::planet::{dir_to_face_ab, face_ab_to_cube, Face, Field};
use glam::Vec3;
use rayon::prelude::*;

/// How to build the mesh (the viewport's inspection modes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshOptions {
    /// Quads per face edge.
    pub resolution: usize,
    /// Vertical exaggeration of the relief (1 = true scale).
    pub exaggeration: f32,
    /// Project the cube onto the sphere (off: show the cube).
    pub spherical: bool,
    /// Use the tangent warp for the grid (off: linear face grid).
    pub warped: bool,
    /// Show the sea as a flat surface at sea level.
    pub ocean_surface: bool,
    /// Refine the mesh where the camera is close (chunks up to the field's resolution).
    pub refine: bool,
}

impl Default for MeshOptions {
    fn default() -> Self {
        MeshOptions { resolution: 128, exaggeration: 20.0, spherical: true, warped: true, ocean_surface: true, refine: true }
    }
}

/// Vertices and index lists (triangles and wireframe lines).
#[derive(Debug, Clone, Default)]
pub struct PlanetMesh {
    /// All vertices, face by face, `(resolution + 1)^2` per face.
    pub vertices: Vec<Vertex>,
    /// Triangle list.
    pub triangles: Vec<u32>,
    /// Line list of the grid (every `line_step` quads).
    pub lines: Vec<u32>,
}

/// The elevation the mesh follows: the planet's field, and where detail patches lie, theirs
/// (faded into the field's over each patch's margin, as their colours are).
#[derive(Debug, Clone, Copy)]
pub struct Relief<'a> {
    /// Elevation in metres of the whole planet.
    pub field: &'a Field,
    /// Finer patches over parts of the faces.
    pub patches: &'a [DetailPatch<'a>],
    /// Per cell of the field, whether it lies below sea level away from the ocean (an inland
    /// basin, [`inland_of`]); empty: no cell does.
    pub inland: &'a [bool],
    /// The patches the relief had before (the mesh on screen), when they differ: each vertex
    /// notes where that relief put it ([`Vertex::morph`]), for the relief to morph from there.
    pub previous: Option<&'a [DetailPatch<'a>]>,
}

/// Added to a vertex's face index ([`Vertex::face`]) where it lies below sea level away from
/// the ocean (an inland basin): the renderer draws its ground there, not a sea surface.
pub const INLAND: u32 = 8;

/// The field's cells below sea level away from the ocean ([`crate::planet::ocean::ocean_of`])
/// when the mesh shows a flat sea (empty otherwise: nothing to tell apart).
pub(crate) fn inland_of(elevation_m: &Field, opts: &MeshOptions) -> Vec<bool> {
    if !opts.ocean_surface {
        return Vec::new();
    }
    let ocean = crate::planet::ocean::ocean_of(elevation_m, 0.0);
    elevation_m.data().iter().zip(ocean).map(|(&e, sea)| e < 0.0 && !sea).collect()
}

impl Relief<'_> {
    /// Whether ground at elevation `e` (metres) in direction `d` is below an inland basin's
    /// sea level rather than the ocean's.
    fn inland(&self, e: f32, d: Vec3) -> bool {
        e < 0.0 && !self.inland.is_empty() && self.inland[crate::planet::dir_to_cell(d, self.field.n()).index(self.field.n())]
    }

    /// Elevation in metres in direction `d` (need not be normalised).
    pub fn at(&self, d: Vec3) -> f32 {
        self.with(self.patches, d)
    }

    /// Elevation in metres in direction `d` with `patches` over the field.
    fn with(&self, patches: &[DetailPatch], d: Vec3) -> f32 {
        let mut e = self.field.sample_dir(d);
        if patches.is_empty() {
            return e;
        }
        let (face, a, b) = dir_to_face_ab(d);
        for p in patches {
            let ([x, y], w) = p.place(face, a, b);
            if w > 0.0 {
                e += (p.elevation_at(x, y) - e) * w;
            }
        }
        e
    }
}

/// The mesh vertex at face coordinates `(a, b)`: displaced by the elevation (exaggerated),
/// with the normal of the displaced surface around it sampled `eps` radians away (seam-free:
/// sampled by direction).
pub(crate) fn vertex_at(relief: &Relief, radius_km: f32, opts: &MeshOptions, face: Face, a: f32, b: f32, eps: f32) -> Vertex {
    let scale = opts.exaggeration / (radius_km.max(1.0) * 1000.0);
    let shown = |e: f32, d: Vec3| 1.0 + (if opts.ocean_surface && !relief.inland(e, d) { e.max(0.0) } else { e }) * scale;
    let height = |d: Vec3| {
        let e = relief.at(d);
        (e, shown(e, d))
    };
    let cube = face_ab_to_cube(face, a, b, opts.warped);
    let dir = cube.normalize();
    let base = if opts.spherical { dir } else { cube };
    let (e, h) = height(dir);
    let (t1, t2) = dir.any_orthonormal_pair();
    let p = |d: Vec3| d.normalize() * height(d.normalize()).1;
    let du = p(dir + t1 * eps) - p(dir - t1 * eps);
    let dv = p(dir + t2 * eps) - p(dir - t2 * eps);
    let mut normal = du.cross(dv).normalize_or_zero();
    if normal.dot(dir) < 0.0 {
        normal = -normal;
    }
    if !opts.spherical {
        normal = face.normal();
    }
    let inland = if relief.inland(e, dir) { INLAND } else { 0 };
    let morph = match relief.previous {
        Some(before) if opts.spherical => {
            let e0 = relief.with(before, dir);
            [shown(e0, dir) - h, e0 - e]
        }
        _ => [0.0, 0.0],
    };
    Vertex { position: (base * h).to_array(), normal: normal.to_array(), elevation: e, face: face.index() as u32 + inland, uv: [a, b], morph }
}

/// The highest ground the mesh draws (radius in planet radii: the relief exaggerated as `opts`
/// asks, the sea flat at 1 with `opts.ocean_surface`) within `reach` radians of the direction
/// `d`, from `elevation_m` (metres) sampled at 25 points over that square of the tangent plane:
/// the floor under a camera ([`crate::OrbitCamera::keep_above`]). 1 for a cube (not spherical).
pub fn ground_radius_near(elevation_m: &Field, radius_km: f32, opts: &MeshOptions, d: Vec3, reach: f32) -> f32 {
    let Some(d) = d.try_normalize().filter(|_| opts.spherical) else { return 1.0 };
    let scale = opts.exaggeration / (radius_km.max(1.0) * 1000.0);
    let (t1, t2) = d.any_orthonormal_pair();
    let mut highest = f32::MIN;
    for j in -2..=2 {
        for i in -2..=2 {
            let e = elevation_m.sample_dir(d + (t1 * i as f32 + t2 * j as f32) * (0.5 * reach));
            highest = highest.max(if opts.ocean_surface { e.max(0.0) } else { e });
        }
    }
    1.0 + highest * scale
}

/// Puts `camera` at least [`MIN_ALTITUDE`] above the relief drawn from `ground` (when given:
/// the elevation in metres and the planet's radius in km) and returns the share of `opts.exaggeration` drawn at its altitude: all of it, or
/// with `near` (on a sphere) [`relief_at`]'s. Lifted, the camera sees more of the relief, which
/// may lift it again; a few rounds settle it (the relief grows slower than the altitude). The
/// viewport and `planetgraph render` both place their camera so.
pub fn settle_camera(camera: &mut OrbitCamera, ground: Option<(&Field, f32)>, opts: &MeshOptions, near: bool) -> f32 {
    let relief = opts.exaggeration;
    let follows = near && opts.spherical && relief > 0.0;
    let shown = |c: &OrbitCamera| if follows { relief_at(relief, c.altitude()) } else { relief };
    if let Some((field, radius_km)) = ground {
        for _ in 0..8 {
            let drawn = MeshOptions { exaggeration: shown(camera), ..*opts };
            if !camera.keep_above(ground_radius_near(field, radius_km, &drawn, camera.eye(), 2.0 * MIN_ALTITUDE)) {
                break;
            }
        }
    }
    if follows {
        shown(camera) / relief
    } else {
        1.0
    }
}

/// Builds the mesh for `elevation_m` (metres) on a planet of `radius_km`.
pub fn build_mesh(elevation_m: &Field, radius_km: f32, opts: &MeshOptions) -> PlanetMesh {
    let inland = inland_of(elevation_m, opts);
    let relief = Relief { field: elevation_m, patches: &[], inland: &inland, previous: None };
    let m = opts.resolution.max(1);
    let verts_per_face = (m + 1) * (m + 1);
    let vertices: Vec<Vertex> = (0..6 * verts_per_face)
        .into_par_iter()
        .map(|k| {
            let face = Face::ALL[k / verts_per_face];
            let r = k % verts_per_face;
            let (a, b) = ((r % (m + 1)) as f32 / m as f32, (r / (m + 1)) as f32 / m as f32);
            vertex_at(&relief, radius_km, opts, face, a, b, 0.5 / m as f32)
        })
        .collect();
    let mut triangles = Vec::with_capacity(6 * m * m * 6);
    let mut lines = Vec::new();
    let line_step = (m / 16).max(1);
    for f in 0..6 {
        let base = (f * verts_per_face) as u32;
        let at = |i: usize, j: usize| base + (j * (m + 1) + i) as u32;
        for j in 0..m {
            for i in 0..m {
                // right x down points inward, so (i,j) -> (i,j+1) -> (i+1,j) is counter-clockwise
                // seen from outside.
                let (v00, v10, v01, v11) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
                triangles.extend([v00, v01, v10, v10, v01, v11]);
            }
        }
        for j in (0..=m).step_by(line_step) {
            for i in 0..m {
                lines.extend([at(i, j), at(i + 1, j)]);
            }
        }
        for i in (0..=m).step_by(line_step) {
            for j in 0..m {
                lines.extend([at(i, j), at(i, j + 1)]);
            }
        }
    }
    PlanetMesh { vertices, triangles, lines }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangles_face_outwards_and_mesh_is_closed() {
        let f = Field::filled(8, 0.0);
        let mesh = build_mesh(&f, 6371.0, &MeshOptions { resolution: 4, ..Default::default() });
        assert_eq!(mesh.vertices.len(), 6 * 25);
        for t in mesh.triangles.chunks(3) {
            let p = |k: u32| Vec3::from(mesh.vertices[k as usize].position);
            let (a, b, c) = (p(t[0]), p(t[1]), p(t[2]));
            let n = (b - a).cross(c - a);
            assert!(n.dot(a + b + c) > 0.0, "counter-clockwise seen from outside");
        }
        for v in &mesh.vertices {
            assert!((Vec3::from(v.position).length() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn the_camera_stays_above_the_exaggerated_relief() {
        // A 9000 m range on the front face, sea elsewhere.
        let f = Field::from_fn_dir(64, |d| if d.z > 0.95 { 9000.0 } else { -4000.0 });
        let opts = MeshOptions { exaggeration: 20.0, ..Default::default() };
        let top = 1.0 + 9000.0 * 20.0 / 6_371_000.0;
        let over = ground_radius_near(&f, 6371.0, &opts, Vec3::Z, 0.01);
        assert!((over - top).abs() < 1e-4, "{over} against {top}");
        assert_eq!(ground_radius_near(&f, 6371.0, &opts, -Vec3::Z, 0.01), 1.0, "the sea is flat");
        let mut camera = OrbitCamera { yaw: 0.0, pitch: 0.0, distance: 1.01, tilt: 1.2, ..Default::default() };
        assert!(camera.keep_above(over));
        assert!((camera.distance - (top + MIN_ALTITUDE)).abs() < 1e-5);
        assert!(camera.tilt <= camera.max_tilt());
        assert!(!camera.keep_above(over), "already above");
        let mut high = OrbitCamera { distance: 1.5, ..camera };
        assert!(!high.keep_above(over), "far enough");
        // With the relief drawn less near the ground the camera settles lower, above what is
        // drawn at its altitude.
        let mut low = OrbitCamera { distance: 1.004, ..camera };
        let ratio = settle_camera(&mut low, Some((&f, 6371.0)), &opts, true);
        let drawn = relief_at(20.0, low.altitude());
        assert!((ratio - drawn / 20.0).abs() < 1e-6 && ratio < 0.2, "{ratio}");
        assert!(low.distance >= 1.0 + 9000.0 * drawn / 6_371_000.0 + MIN_ALTITUDE - 1e-5 && low.distance < camera.distance, "{}", low.distance);
        let mut whole = OrbitCamera { distance: 1.004, ..camera };
        assert_eq!(settle_camera(&mut whole, Some((&f, 6371.0)), &opts, false), 1.0);
        assert!((whole.distance - camera.distance).abs() < 1e-6, "all of the relief: as keep_above");
    }

    #[test]
    fn relief_is_exaggerated_and_the_sea_is_flat() {
        let f = Field::from_fn_dir(16, |d| if d.z > 0.0 { 5000.0 } else { -3000.0 });
        let mesh = build_mesh(&f, 6371.0, &MeshOptions { resolution: 8, exaggeration: 10.0, ..Default::default() });
        let front = mesh.vertices.iter().find(|v| v.position[2] > 0.99).expect("front centre");
        assert!((Vec3::from(front.position).length() - (1.0 + 5000.0 * 10.0 / 6_371_000.0)).abs() < 1e-4);
        let back = mesh.vertices.iter().find(|v| v.position[2] < -0.99).expect("back centre");
        assert!((Vec3::from(back.position).length() - 1.0).abs() < 1e-6);
        assert!(back.elevation < 0.0);
    }

    /// A hollow below sea level inside a continent is an inland basin: its ground is drawn
    /// where it lies, marked [`INLAND`]; the ocean's floor is drawn as a flat sea.
    #[test]
    fn an_inland_basin_is_ground_and_the_ocean_is_flat() {
        let f = Field::from_fn_dir(128, |d| {
            if d.z < -0.5 {
                -3000.0
            } else if d.z > 0.9995 {
                -200.0
            } else {
                800.0
            }
        });
        let mesh = build_mesh(&f, 6371.0, &MeshOptions { resolution: 16, exaggeration: 10.0, ..Default::default() });
        let hollow = mesh.vertices.iter().find(|v| v.position[2] > 0.9 && v.elevation < 0.0).expect("the hollow's centre");
        assert_eq!(hollow.face, Face::Front.index() as u32 + INLAND);
        assert!(Vec3::from(hollow.position).length() < 1.0, "drawn below sea level");
        let sea = mesh.vertices.iter().find(|v| v.position[2] < -0.99).expect("the ocean");
        assert_eq!(sea.face, Face::Back.index() as u32);
        assert!((Vec3::from(sea.position).length() - 1.0).abs() < 1e-6);
    }
}
