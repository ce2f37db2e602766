//! A mesh refined where the camera is close: each face is split into chunks whose quad count
//! grows as the camera nears them (up to the field's own resolution), with skirts along chunk
//! edges that hide the cracks between chunks of different detail.

use super::gpu_types::Vertex;
use super::layers::DetailPatch;
use super::mesh::{vertex_at, MeshOptions, PlanetMesh, Relief};
use crate::planet::{face_ab_to_cube, Face, Field};
use glam::Vec3;
use rayon::prelude::*;

/// Chunks per face edge.
pub const CHUNKS: usize = 8;

/// How far a skirt hangs below its chunk's edge, in planet radii.
const SKIRT: f32 = 0.004;

/// Most quads per chunk edge (a detail patch's level can be far finer than a mesh needs: its
/// normals and colours carry the rest per pixel).
pub const MAX_CHUNK_QUADS: usize = 512;

/// Quads per chunk edge for a chunk whose centre lies `distance` planet radii from the eye:
/// the mesh's own density far away, doubled each time the distance halves below `near`, at
/// most the field's resolution (`field_n` cells per face edge) and [`MAX_CHUNK_QUADS`].
pub fn chunk_quads(opts: &MeshOptions, field_n: usize, distance: f32) -> usize {
    let base = (opts.resolution / CHUNKS).max(1);
    let finest = (field_n / CHUNKS).min(MAX_CHUNK_QUADS).max(base);
    const NEAR: f32 = 1.0;
    let mut q = base;
    let mut d = NEAR;
    while distance < d && q * 2 <= finest {
        q *= 2;
        d *= 0.5;
    }
    q
}

/// The mesh of `elevation_m` seen from `eye` (planet radii): chunks near the eye are finer, up
/// to a patch's level on chunks that detail `patches` overlap. With `previous` (the patches of
/// the mesh on screen, when they differ), each vertex notes where that relief put it
/// ([`Vertex::morph`]).
pub fn build_mesh_lod(elevation_m: &Field, radius_km: f32, opts: &MeshOptions, eye: Vec3, patches: &[DetailPatch], previous: Option<&[DetailPatch]>) -> PlanetMesh {
    let inland = super::mesh::inland_of(elevation_m, opts);
    let relief = Relief { field: elevation_m, patches, inland: &inland, previous };
    let chunks: Vec<(Face, usize, usize)> = Face::ALL.iter().flat_map(|&f| (0..CHUNKS * CHUNKS).map(move |k| (f, k % CHUNKS, k / CHUNKS))).collect();
    // Each chunk: its vertices (grid then skirt) and local triangle indices.
    let parts: Vec<(Vec<Vertex>, Vec<u32>, Vec<u32>)> = chunks
        .par_iter()
        .map(|&(face, cx, cy)| {
            let centre = face_ab_to_cube(face, (cx as f32 + 0.5) / CHUNKS as f32, (cy as f32 + 0.5) / CHUNKS as f32, opts.warped).normalize();
            let span = 1.0 / CHUNKS as f32;
            let corner = [cx as f32 * span, cy as f32 * span];
            let level = patches.iter().filter(|p| overlaps(p, face, corner, span)).map(|p| (p.size as f32 / p.span) as usize).fold(elevation_m.n(), usize::max);
            let q = chunk_quads(opts, level, (eye - centre).length());
            let eps = 0.5 * span / q as f32;
            let mut vertices = Vec::with_capacity((q + 1) * (q + 1) + 4 * (q + 1));
            for j in 0..=q {
                for i in 0..=q {
                    let (a, b) = ((cx as f32 + i as f32 / q as f32) * span, (cy as f32 + j as f32 / q as f32) * span);
                    vertices.push(vertex_at(&relief, radius_km, opts, face, a, b, eps));
                }
            }
            let at = |i: usize, j: usize| (j * (q + 1) + i) as u32;
            let mut triangles = Vec::with_capacity(6 * q * q + 24 * q);
            for j in 0..q {
                for i in 0..q {
                    let (v00, v10, v01, v11) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
                    triangles.extend([v00, v01, v10, v10, v01, v11]);
                }
            }
            // Skirts: each edge's vertices again, lowered, joined to the edge by a strip drawn
            // from both sides (no culling question at the cracks they fill).
            let edges: [Vec<u32>; 4] = [(0..=q).map(|i| at(i, 0)).collect(), (0..=q).map(|i| at(i, q)).collect(), (0..=q).map(|j| at(0, j)).collect(), (0..=q).map(|j| at(q, j)).collect()];
            for edge in edges {
                let first = vertices.len() as u32;
                for &k in &edge {
                    let mut v = vertices[k as usize];
                    let p = Vec3::from(v.position);
                    v.position = (p - p.normalize() * SKIRT).to_array();
                    vertices.push(v);
                }
                for s in 0..edge.len() - 1 {
                    let (a, b, c, d) = (edge[s], edge[s + 1], first + s as u32, first + s as u32 + 1);
                    triangles.extend([a, c, b, b, c, d, a, b, c, b, d, c]);
                }
            }
            let step = (q / 4).max(1);
            let mut lines = Vec::new();
            for j in (0..=q).step_by(step) {
                for i in 0..q {
                    lines.extend([at(i, j), at(i + 1, j)]);
                }
            }
            for i in (0..=q).step_by(step) {
                for j in 0..q {
                    lines.extend([at(i, j), at(i, j + 1)]);
                }
            }
            (vertices, triangles, lines)
        })
        .collect();
    let mut mesh = PlanetMesh::default();
    for (vertices, triangles, lines) in parts {
        let offset = mesh.vertices.len() as u32;
        mesh.vertices.extend(vertices);
        mesh.triangles.extend(triangles.into_iter().map(|k| k + offset));
        mesh.lines.extend(lines.into_iter().map(|k| k + offset));
    }
    mesh
}

/// Whether the square of `face` from `corner` with edge `span` (face coordinates) overlaps
/// the patch.
fn overlaps(p: &DetailPatch, face: Face, corner: [f32; 2], span: f32) -> bool {
    face == p.face && corner[0] < p.corner[0] + p.span && p.corner[0] < corner[0] + span && corner[1] < p.corner[1] + p.span && p.corner[1] < corner[1] + span
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_near_the_eye_are_finer_up_to_the_field() {
        let opts = MeshOptions { resolution: 64, ..Default::default() };
        assert_eq!(chunk_quads(&opts, 512, 3.0), 8, "far: the mesh's own density");
        assert!(chunk_quads(&opts, 512, 0.3) > 8);
        assert_eq!(chunk_quads(&opts, 512, 0.001), 64, "at most the field's resolution");
        assert_eq!(chunk_quads(&opts, 64, 0.001), 8, "no finer than the field");
        // A close eye over the front face: its chunks there carry most of the triangles.
        let f = Field::filled(128, 100.0);
        let mesh = build_mesh_lod(&f, 6371.0, &MeshOptions { resolution: 32, ..Default::default() }, Vec3::new(0.0, 0.0, 1.2), &[], None);
        let front = mesh.vertices.iter().filter(|v| v.position[2] > 0.9).count();
        let back = mesh.vertices.iter().filter(|v| v.position[2] < -0.9).count();
        assert!(front > 4 * back, "{front} vs {back}");
        for t in mesh.triangles.chunks(3) {
            assert!(t.iter().all(|&k| (k as usize) < mesh.vertices.len()));
        }
    }

    /// A mesh built with a patch over the field, from a relief without it, notes for each
    /// vertex where the earlier relief put it: moved back by its morph, every vertex lies on
    /// the field alone; vertices under the patch move, those far from it do not.
    #[test]
    fn vertices_note_the_earlier_relief_for_the_morph() {
        let f = Field::filled(64, 1000.0);
        let tile = crate::planet::Tile { face: Face::Front, n: 512, i0: 192, j0: 192, size: 128, halo: 0 };
        let raised = vec![3000.0; 128 * 128];
        let patches = [DetailPatch::on_tile(tile, &raised, None, None)];
        let opts = MeshOptions { resolution: 32, ..Default::default() };
        let eye = Vec3::new(0.0, 0.0, 1.2);
        let scale = opts.exaggeration / 6_371_000.0;
        let mesh = build_mesh_lod(&f, 6371.0, &opts, eye, &patches, Some(&[]));
        let mut moved = 0;
        for v in &mesh.vertices {
            let p = Vec3::from(v.position);
            let before = p + p.normalize() * v.morph[0];
            // Back on the field's relief (a skirt's vertex that far below it), at the field's
            // elevation.
            let off = before.length() - (1.0 + 1000.0 * scale);
            assert!(off.abs() < 1e-5 || (off + SKIRT).abs() < 1e-5, "{} {:?}", before.length(), v.morph);
            assert!((v.elevation + v.morph[1] - 1000.0).abs() < 1e-2);
            if v.morph[0] < -1000.0 * scale {
                moved += 1;
                assert!(p.z > 0.9, "only under the patch");
            }
        }
        assert!(moved > 10, "{moved}");
        // Without an earlier relief nothing morphs.
        let still = build_mesh_lod(&f, 6371.0, &opts, eye, &patches, None);
        assert!(still.vertices.iter().all(|v| v.morph == [0.0, 0.0]));
    }
}
