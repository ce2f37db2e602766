//! The renderer's detail patches (close-ups): their textures and their part of the uniforms.

use super::super::gpu_types::MAX_PATCHES;
use super::super::layers::{patch_view, DetailPatch, PATCH_MARGIN};
use super::PlanetRenderer;

impl PlanetRenderer {
    /// Uploads detail patches' colours and normals, drawn over the planet's layers where they
    /// lie (none removes them). Their elevation goes into the mesh ([`crate::view_mesh`]). At
    /// most [`MAX_PATCHES`] of the same texel size are drawn; colours (normals) only when every
    /// patch has them.
    pub fn set_patches(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, patches: &[DetailPatch]) {
        let drawn = drawn_patches(patches);
        let colours: Option<Vec<&[u8]>> = drawn.iter().map(|p| p.overlay).collect();
        let normals: Option<Vec<&[u8]>> = drawn.iter().map(|p| p.normals).collect();
        let size = drawn.first().map_or(1, |p| p.size);
        self.patch_overlay_view = patch_view(device, queue, size, colours.as_deref().unwrap_or(&[]), "patch colours");
        self.patch_normal_view = patch_view(device, queue, size, normals.as_deref().unwrap_or(&[]), "patch normals");
        self.patch_textures = (colours.is_some(), normals.is_some());
        self.set_patch_uniforms(patches);
        self.rebind(device);
    }

    /// Sets where the patches uploaded last lie, how they fade and how much of each shows,
    /// without uploading their textures again: `patches` must be those given to
    /// [`Self::set_patches`] last, in the same order (their opacity may change, as a patch
    /// fades in).
    pub fn set_patch_uniforms(&mut self, patches: &[DetailPatch]) {
        let drawn = drawn_patches(patches);
        let flag = |on: bool| if on { 1.0 } else { 0.0 };
        let mut u = PatchUniforms::default();
        for (k, p) in drawn.iter().enumerate() {
            u.area[k] = [p.corner[0], p.corner[1], p.span, p.face.index() as f32];
            // 1: fades into what lies under it; 2 to 3: softens towards a coarser patch,
            // blending into its underlay as far as the fraction says; 0: sharp.
            u.fades[k] = std::array::from_fn(|side| {
                if p.fades[side] {
                    1.0
                } else if p.softens[side] {
                    2.0 + p.underlay.clamp(0.0, 1.0)
                } else {
                    0.0
                }
            });
            u.opacity[k / 4][k % 4] = p.opacity.clamp(0.0, 1.0);
        }
        let some = !drawn.is_empty();
        u.flags = [flag(some && self.patch_textures.0), flag(some && self.patch_textures.1), PATCH_MARGIN, drawn.len() as f32];
        self.patch = u;
    }
}

impl PlanetRenderer {
    /// Sets how far the mesh's relief has morphed from the relief its vertices had before the
    /// close-ups changed ([`crate::gpu_types::Vertex::morph`]): 0 draws the earlier relief, 1
    /// (the default) the mesh's own.
    pub fn set_relief_morph(&mut self, t: f32) {
        self.relief_morph = t.clamp(0.0, 1.0);
    }
}

/// The detail patches' part of uniforms: where each lies (`area`), towards which sides it
/// fades, how much of it shows (four to a vector), and the flags (colours, normals, margin,
/// count).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct PatchUniforms {
    pub(super) area: [[f32; 4]; MAX_PATCHES],
    pub(super) fades: [[f32; 4]; MAX_PATCHES],
    pub(super) opacity: [[f32; 4]; MAX_PATCHES / 4],
    pub(super) flags: [f32; 4],
}

/// The patches drawn of `patches`: at most [`MAX_PATCHES`], of the first one's texel size.
fn drawn_patches<'p, 'a>(patches: &'p [DetailPatch<'a>]) -> Vec<&'p DetailPatch<'a>> {
    let first = patches.first().map(|p| p.size);
    patches.iter().filter(|p| Some(p.size) == first).take(MAX_PATCHES).collect()
}
