//! The planet renderer (wgpu): cube-sphere mesh displaced by elevation, elevation or face
//! colours, Lambert light, wireframe, orbit camera; drawn offscreen and shown by the editor or
//! written by `planetgraph render`.

pub mod camera;
pub mod gpu_types;
pub mod mesh;
pub mod renderer;

pub use camera::OrbitCamera;
pub use mesh::{build_mesh, MeshOptions, PlanetMesh};
pub use renderer::{headless_device, PlanetRenderer, RenderError, ViewSettings, SHADER_SOURCE};

use crate::planet::Field;

/// Renders an elevation field (metres) to an RGBA8 image offscreen.
pub fn render_offscreen(elevation_m: &Field, radius_km: f32, mesh: &MeshOptions, view: &ViewSettings, width: u32, height: u32) -> Result<(u32, u32, Vec<u8>), RenderError> {
    let (device, queue) = headless_device()?;
    let mut r = PlanetRenderer::new(&device);
    r.set_mesh(&device, &build_mesh(elevation_m, radius_km, mesh));
    r.render(&device, &queue, width, height, view);
    r.read_pixels(&device, &queue)
}
