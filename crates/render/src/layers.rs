//! Six-layer textures addressed by face coordinates (the overlay and the normal map): the
//! plain data the renderer takes, checked, and their upload.

use super::renderer::RenderError;

/// An overlay texture as plain data: six square RGBA8 layers (faces in order), RGB the colour
/// (sRGB), A the darkening of borders (0 none, 255 black).
#[derive(Debug, Clone, Copy)]
pub struct OverlayTexture<'a> {
    pub(crate) size: u32,
    pub(crate) rgba: &'a [u8],
}

impl<'a> OverlayTexture<'a> {
    /// Checks that `rgba` holds `6 size² 4` bytes.
    pub fn new(size: u32, rgba: &'a [u8]) -> Result<OverlayTexture<'a>, RenderError> {
        let expected = 6 * size as usize * size as usize * 4;
        if size == 0 || rgba.len() != expected {
            return Err(RenderError::Overlay { size, expected, found: rgba.len() });
        }
        Ok(OverlayTexture { size, rgba })
    }
}

fn descriptor(size: u32, label: &str) -> wgpu::TextureDescriptor<'_> {
    wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: size, height: size, depth_or_array_layers: 6 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    }
}

fn array_view(texture: &wgpu::Texture) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor { dimension: Some(wgpu::TextureViewDimension::D2Array), ..Default::default() })
}

/// A one-texel-per-face placeholder bound while a layer is off (its contents are never used).
pub(crate) fn blank_view(device: &wgpu::Device, label: &str) -> wgpu::TextureView {
    array_view(&device.create_texture(&descriptor(1, label)))
}

/// Uploads `img` as a six-layer texture (or the placeholder for `None`).
pub(crate) fn layers_view(device: &wgpu::Device, queue: &wgpu::Queue, img: Option<OverlayTexture>, label: &str) -> wgpu::TextureView {
    use wgpu::util::DeviceExt;
    match img {
        Some(img) => array_view(&device.create_texture_with_data(queue, &descriptor(img.size, label), wgpu::util::TextureDataOrder::LayerMajor, img.rgba)),
        None => blank_view(device, label),
    }
}
