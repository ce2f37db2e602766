//! The planet renderer (wgpu): cube-sphere mesh displaced by elevation, elevation or face
//! colours, Lambert light, wireframe, orbit camera; drawn offscreen and shown by the editor or
//! written by `planetgraph render`.

pub mod camera;
pub mod gpu_types;
pub mod mesh;
pub mod overlay;
pub mod renderer;

pub use camera::OrbitCamera;
pub use mesh::{build_mesh, MeshOptions, PlanetMesh};
pub use overlay::{motion_arrows, overlay_image, overlay_size, ColourMode, OverlayImage};
pub use renderer::{headless_device, PlanetRenderer, RenderError, ViewSettings, SHADER_SOURCE};

use crate::eval::TectonicValues;
use crate::planet::Field;

/// Renders an elevation field (metres) to an RGBA8 image offscreen, with the inspection
/// modes of `view` fed from `tectonics`.
pub fn render_offscreen(elevation_m: &Field, radius_km: f32, tectonics: &TectonicValues, mesh: &MeshOptions, view: &ViewSettings, width: u32, height: u32) -> Result<(u32, u32, Vec<u8>), RenderError> {
    let (device, queue) = headless_device()?;
    let mut r = PlanetRenderer::new(&device);
    r.set_mesh(&device, &build_mesh(elevation_m, radius_km, mesh));
    if let (Some(regions), true) = (&tectonics.regions, view.mode.uses_overlay() || view.borders) {
        r.set_overlay(&device, &queue, Some(&overlay_image(regions, tectonics.plates.as_deref(), view.mode, view.borders, overlay_size(regions))));
    }
    if let (Some(m), true) = (&tectonics.motion, view.arrows) {
        r.set_arrows(&device, &motion_arrows(m, elevation_m, radius_km, mesh.exaggeration, mesh.ocean_surface, 600));
    }
    r.render(&device, &queue, width, height, view);
    r.read_pixels(&device, &queue)
}
