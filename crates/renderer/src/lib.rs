//! The planet renderer (wgpu): cube-sphere mesh displaced by elevation, elevation or face
//! colours, Lambert light, wireframe, orbit camera; drawn offscreen and shown by the editor or
//! written by `planetgraph render`. It takes plain data (an elevation field, an overlay
//! texture, arrow lines) and knows nothing of graphs, nodes or plates.
//!
//! A crate of its own (`planetgraph-renderer`): it depends on the domain crate for its plain data
//! and on wgpu, never on egui or the editor; the crates above name it `planetgraph_renderer`.

#![warn(missing_docs)]

// The domain's plain data, named `crate::planet` as inside the app crate.
use planetgraph_core::planet;

pub mod camera;
pub mod gpu_types;
pub mod layers;
pub mod lod;
pub mod mesh;
pub mod mode;
pub mod quadtree;
pub mod renderer;

pub use camera::OrbitCamera;
pub use layers::{DetailPatch, OverlayTexture, PATCH_MARGIN};
pub use lod::build_mesh_lod;
pub use mesh::{build_mesh, ground_radius_near, settle_camera, MeshOptions, PlanetMesh, Relief};
pub use mode::ColourMode;
pub use renderer::{headless_device, PlanetRenderer, RenderError, ViewSettings, SHADER_SOURCE};

use planet::Field;

/// What is drawn on and over the mesh, as plain data.
#[derive(Debug, Clone, Copy, Default)]
pub struct Layers<'a> {
    /// Overlay colours (albedo, plates, regions; borders in alpha).
    pub overlay: Option<OverlayTexture<'a>>,
    /// Per-pixel world-space normals (`0.5 + 0.5 n` in RGB).
    pub normals: Option<OverlayTexture<'a>>,
    /// Motion arrows: a line list in planet radii.
    pub arrows: &'a [[f32; 3]],
    /// The finer patches of a close-up, over the planet where they lie (at most
    /// [`gpu_types::MAX_PATCHES`] of one texel size are drawn).
    pub patches: &'a [DetailPatch<'a>],
}

/// The mesh for a view: refined near the camera (`build_mesh_lod`, following detail `patches`
/// where they lie, and noting where the `previous` patches put each vertex, for the relief to
/// morph from there) when the options ask for it and the planet is round, else the uniform
/// mesh.
pub fn view_mesh(elevation_m: &Field, radius_km: f32, mesh: &MeshOptions, view: &ViewSettings, patches: &[DetailPatch], previous: Option<&[DetailPatch]>) -> PlanetMesh {
    if mesh.refine && mesh.spherical {
        build_mesh_lod(elevation_m, radius_km, mesh, view.camera.eye(), patches, previous)
    } else {
        build_mesh(elevation_m, radius_km, mesh)
    }
}

/// Renders an elevation field (metres) to an RGBA8 image offscreen, with its layers.
pub fn render_offscreen(elevation_m: &Field, radius_km: f32, layers: Layers, mesh: &MeshOptions, view: &ViewSettings, width: u32, height: u32) -> Result<(u32, u32, Vec<u8>), RenderError> {
    for p in layers.patches {
        p.check()?;
    }
    let (device, queue) = headless_device()?;
    let mut r = PlanetRenderer::new(&device);
    r.set_mesh(&device, &view_mesh(elevation_m, radius_km, mesh, view, layers.patches, None));
    if !layers.patches.is_empty() {
        r.set_patches(&device, &queue, layers.patches);
    }
    if layers.overlay.is_some() {
        r.set_overlay(&device, &queue, layers.overlay);
    }
    if layers.normals.is_some() {
        r.set_normal_map(&device, &queue, layers.normals);
    }
    let arrows = layers.arrows;
    if view.arrows {
        r.set_arrows(&device, arrows);
    }
    r.render(&device, &queue, width, height, view);
    r.read_pixels(&device, &queue)
}
