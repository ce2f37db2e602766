//! Plain-old-data structs shared with the shader (bytemuck), in one place.

use bytemuck::{Pod, Zeroable};

/// One mesh vertex.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub struct Vertex {
    /// Position in planet radii.
    pub position: [f32; 3],
    /// Unit surface normal.
    pub normal: [f32; 3],
    /// Elevation in metres relative to sea level.
    pub elevation: f32,
    /// Cube face 0..6, plus [`crate::mesh::INLAND`] below sea level away from the ocean.
    pub face: u32,
    /// Face coordinates `(a, b)` in [0, 1] (overlay texture coordinates).
    pub uv: [f32; 2],
    /// Where the relief was before the close-ups changed, as offsets from this vertex: along
    /// the radius (planet radii) and in elevation (metres). The vertex shader moves the vertex
    /// by `(1 - t)` of them while the relief morphs (`t` from 0 to 1,
    /// [`crate::PlanetRenderer::set_relief_morph`]), so a landing tile's relief grows in
    /// instead of popping. Zero where nothing changed.
    pub morph: [f32; 2],
}

/// Most detail patches drawn at once (the shader's `MAX_PATCHES`).
pub const MAX_PATCHES: usize = 32;

/// Uniform block of `shaders/planet.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub struct Uniforms {
    /// Column-major view-projection matrix.
    pub view_proj: [[f32; 4]; 4],
    /// Direction towards the light (xyz) and ambient term (w).
    pub light: [f32; 4],
    /// Deepest ocean (m), highest peak (m), colour mode (0 elevation, 1 faces, 2 overlay
    /// colours, 3 albedo with water over the sea floor), overlay darkening on (1) or off (0).
    pub ramp: [f32; 4],
    /// Wireframe colour (linear RGB) and outward scale of line vertices.
    pub line: [f32; 4],
    /// Camera position (xyz, planet radii) and the atmosphere rim's strength (w, 0 off).
    pub eye: [f32; 4],
    /// Colour of deep water (linear RGB; w unused).
    pub water: [f32; 4],
    /// Attenuation of light per metre of water depth, red, green and blue (w unused): the sea
    /// floor under a depth `d` shows by `exp(-d k)` per channel, so shallows turn turquoise.
    pub water_attenuation: [f32; 4],
    /// x: 1 to light by the normal map, 0 by the vertex normals; y: how far the relief has
    /// morphed from the vertices' earlier relief (0..1); z: share of the mesh's relief drawn
    /// ([`crate::ViewSettings::relief_ratio`]).
    pub detail: [f32; 4],
    /// The detail patches, one per layer of the patch textures: face coordinates of the
    /// corner (xy), the edge (z), the face (w).
    pub patch_area: [[f32; 4]; MAX_PATCHES],
    /// Per patch, 1 where it fades towards a side and 0 where it stays sharp (low `a`, high
    /// `a`, low `b`, high `b`: [`crate::DetailPatch::fades`]).
    pub patch_fades: [[f32; 4]; MAX_PATCHES],
    /// Per patch, how much of it shows ([`crate::DetailPatch::opacity`]), four to a vector.
    pub patch_opacity: [[f32; 4]; MAX_PATCHES / 4],
    /// x: 1 when the patches have colours, y: 1 when they have normals, z: their fading margin
    /// (share of the edge), w: how many patches are drawn.
    pub patch_flags: [f32; 4],
    /// The inverse of `view_proj` (column-major), for the sky's view rays.
    pub inv_view_proj: [[f32; 4]; 4],
}
