//! The planet renderer (wgpu): cube-sphere mesh displaced by elevation, elevation or face
//! colours, Lambert light, wireframe, orbit camera; drawn offscreen and shown by the editor or
//! written by `planetgraph render`. It takes plain data (an elevation field, an overlay
//! texture, arrow lines) and knows nothing of graphs, nodes or plates.

pub mod camera;
pub mod gpu_types;
pub mod mesh;
pub mod mode;
pub mod renderer;

pub use camera::OrbitCamera;
pub use mesh::{build_mesh, MeshOptions, PlanetMesh};
pub use mode::ColourMode;
pub use renderer::{headless_device, OverlayTexture, PlanetRenderer, RenderError, ViewSettings, SHADER_SOURCE};

use crate::planet::Field;

/// Renders an elevation field (metres) to an RGBA8 image offscreen, with an optional overlay
/// texture (plates and regions modes, borders) and motion arrows (a line list in planet radii).
// One argument per input of the picture; a settings struct would only wrap them.
#[allow(clippy::too_many_arguments)]
pub fn render_offscreen(elevation_m: &Field, radius_km: f32, overlay: Option<OverlayTexture>, arrows: &[[f32; 3]], mesh: &MeshOptions, view: &ViewSettings, width: u32, height: u32) -> Result<(u32, u32, Vec<u8>), RenderError> {
    let (device, queue) = headless_device()?;
    let mut r = PlanetRenderer::new(&device);
    r.set_mesh(&device, &build_mesh(elevation_m, radius_km, mesh));
    if overlay.is_some() {
        r.set_overlay(&device, &queue, overlay);
    }
    if view.arrows {
        r.set_arrows(&device, arrows);
    }
    r.render(&device, &queue, width, height, view);
    r.read_pixels(&device, &queue)
}
