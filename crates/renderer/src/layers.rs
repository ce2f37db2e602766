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

/// A finer square of one face, drawn over the planet where it lies (a close-up): its corner and
/// edge in face coordinates, and per texel its elevation (for the mesh) and optionally its
/// colours and normals, laid out like [`OverlayTexture`]'s layers but one layer only. Towards
/// the sides it [`fades`](DetailPatch::fades) on, it fades into whatever lies under it (the
/// planet's own layers, or a coarser patch) over [`PATCH_MARGIN`] of its edge, so no seam shows
/// where it ends; a side that meets another patch stays sharp. Towards the sides it
/// [`softens`](DetailPatch::softens) on (those that meet a coarser patch), it fades over
/// [`SOFT_MARGIN`] of its edge into the patch of a coarser level under it (its underlay, as
/// much as [`underlay`](DetailPatch::underlay) says): the underlay's level meets the coarser patch
/// without a seam, so the finer relief (the gullies of an octave the coarser level does not
/// resolve, or resolves fainter) fades out where the coarser patch begins instead of ending
/// along a straight line. For the rest (no underlay yet, or one still fading in) its colours
/// and normals are drawn from its coarser mipmaps over that margin, which blurs the finer
/// relief.
#[derive(Debug, Clone, Copy)]
pub struct DetailPatch<'a> {
    /// The face it lies on.
    pub face: crate::planet::Face,
    /// Face coordinates `(a, b)` of its top-left corner.
    pub corner: [f32; 2],
    /// Its edge length in face coordinates (0..1 of the face).
    pub span: f32,
    /// Texels per edge.
    pub size: u32,
    /// Elevation in metres per texel, row-major (`size²` values).
    pub elevation_m: &'a [f32],
    /// RGBA8 colours per texel as an [`OverlayTexture`] layer (`size² 4` bytes), if any.
    pub overlay: Option<&'a [u8]>,
    /// Normals per texel (`0.5 + 0.5 n`), if any.
    pub normals: Option<&'a [u8]>,
    /// Whether it fades towards each side: low `a`, high `a`, low `b`, high `b`.
    pub fades: [bool; 4],
    /// Whether each side (same order) meets a coarser patch: towards it the patch blends into
    /// its underlay ([`DetailPatch::place`]) and, as far as it does not, its detail blurs
    /// towards the coarser patch's resolution ([`DetailPatch::softness`]).
    pub softens: [bool; 4],
    /// How far it blends into its underlay towards the sides it softens on: the opacity of the
    /// most opaque coarser patch under all of it (0..1; 0 without one, 1 once it has faded
    /// in).
    pub underlay: f32,
    /// How much of its colours and normals show (0..1; 1 once it has faded in), over whatever
    /// lies under it. The mesh's relief morphs on its own clock ([`crate::gpu_types::Vertex::morph`]).
    pub opacity: f32,
}

/// Share of a patch's edge over which it fades into the planet's layers.
pub const PATCH_MARGIN: f32 = 0.08;

/// Share of a patch's edge over which it softens towards a coarser neighbour, or blends into
/// the underlay that meets it ([`DetailPatch::softness`], [`DetailPatch::place`];
/// `SOFT_MARGIN` in `shaders/planet.wgsl`).
pub const SOFT_MARGIN: f32 = 0.25;

/// Mipmap level a patch is drawn at where it meets a coarser patch (`SOFT_LOD` in
/// `shaders/planet.wgsl`): level 1 has the coarser patch's texel size; level 2 also averages
/// away the octave of relief that only the finer level resolves (four texels per wavelength),
/// which level 1.5 left visible along the border.
pub const SOFT_LOD: f32 = 2.0;

/// Mipmap levels of the patches' textures (the finest and two coarser).
pub const PATCH_MIPS: u32 = 3;

impl DetailPatch<'_> {
    /// Checks the lengths of the per-texel data.
    pub fn check(&self) -> Result<(), RenderError> {
        let cells = self.size as usize * self.size as usize;
        let bad = |expected: usize, found: usize| Err(RenderError::Overlay { size: self.size, expected, found });
        if self.size == 0 || self.elevation_m.len() != cells {
            return bad(cells, self.elevation_m.len());
        }
        for bytes in [self.overlay, self.normals].into_iter().flatten() {
            if bytes.len() != 4 * cells {
                return bad(4 * cells, bytes.len());
            }
        }
        Ok(())
    }

    /// Position `(x, y)` in 0..1 across the patch of face coordinates `(a, b)` of `face`, and
    /// the weight of the patch there: 1 inside, fading to 0 over [`PATCH_MARGIN`] towards the
    /// sides it [`fades`](DetailPatch::fades) on, and over [`SOFT_MARGIN`] towards those it
    /// [`softens`](DetailPatch::softens) on to 1 less its [`underlay`](DetailPatch::underlay);
    /// 0 outside.
    pub fn place(&self, face: crate::planet::Face, a: f32, b: f32) -> ([f32; 2], f32) {
        let (x, y) = ((a - self.corner[0]) / self.span, (b - self.corner[1]) / self.span);
        if face != self.face || !(0.0..=1.0).contains(&x) || !(0.0..=1.0).contains(&y) {
            return ([x, y], 0.0);
        }
        let fade = (to_sides(x, y, self.fades) / PATCH_MARGIN).clamp(0.0, 1.0);
        let blend = 1.0 - self.underlay.clamp(0.0, 1.0) * (1.0 - self.soft_ramp(x, y));
        ([x, y], fade.min(blend))
    }

    /// How soft the patch is drawn at `(x, y)` in 0..1 across it: towards a side it
    /// [`softens`](DetailPatch::softens) on, 1 less its [`underlay`](DetailPatch::underlay)
    /// at that side, falling to 0 over [`SOFT_MARGIN`] of its edge (the shader draws it at
    /// mipmap level `SOFT_LOD` times this).
    pub fn softness(&self, x: f32, y: f32) -> f32 {
        (1.0 - self.soft_ramp(x, y)) * (1.0 - self.underlay.clamp(0.0, 1.0))
    }

    /// How far `(x, y)` (0..1 across the patch) lies in from the nearest side it
    /// [`softens`](DetailPatch::softens) on, over [`SOFT_MARGIN`]: 0 at the side, 1 from the
    /// margin on (and with no such side).
    fn soft_ramp(&self, x: f32, y: f32) -> f32 {
        (to_sides(x, y, self.softens) / SOFT_MARGIN).clamp(0.0, 1.0)
    }

    /// Keeps sharp every side of the patches whose outside lies on other patches somewhere
    /// along it: the leaves of a close-up's quadtree meet without fading into the coarser
    /// planet between them; a side facing only the planet's own layers keeps its fade. (Where
    /// such a side meets other leaves along part of its length only, the rest faces nodes the
    /// picture does not show. A side on the face's edge never fades: the next face's patch, or
    /// the planet, meets it there with the same values, region evaluation being continuous
    /// across face edges.) A side that meets a coarser patch somewhere along it
    /// [`softens`](DetailPatch::softens); the [`underlay`](DetailPatch::underlay) is how much
    /// the most opaque coarser patch under all of it shows.
    pub fn joined(patches: &mut [DetailPatch]) {
        const ALONG: usize = 8;
        let boxes: Vec<(crate::planet::Face, [f32; 2], f32, f32)> = patches.iter().map(|p| (p.face, p.corner, p.span, p.opacity)).collect();
        for (k, p) in patches.iter_mut().enumerate() {
            // The span of the finest patch other than this one that holds (a, b), if any (the
            // one drawn on top there).
            let other_at = |a: f32, b: f32| boxes.iter().enumerate().filter(|&(j, &(face, c, s, _))| j != k && face == p.face && (c[0]..=c[0] + s).contains(&a) && (c[1]..=c[1] + s).contains(&b)).map(|(_, b)| b.2).reduce(f32::min);
            let slack = 1e-3 * p.span;
            p.underlay = boxes
                .iter()
                .enumerate()
                .filter(|&(j, &(face, c, s, _))| j != k && face == p.face && s > 1.5 * p.span && c[0] <= p.corner[0] + slack && c[1] <= p.corner[1] + slack && c[0] + s + slack >= p.corner[0] + p.span && c[1] + s + slack >= p.corner[1] + p.span)
                .map(|(_, b)| b.3.clamp(0.0, 1.0))
                .fold(0.0, f32::max);
            let out = 1e-3 * p.span;
            for side in 0..4 {
                let spans: Vec<f32> = (0..ALONG)
                    .filter_map(|i| {
                        let t = p.span * (i as f32 + 0.5) / ALONG as f32;
                        let across = if side % 2 == 0 { -out } else { p.span + out };
                        let (a, b) = if side < 2 { (p.corner[0] + across, p.corner[1] + t) } else { (p.corner[0] + t, p.corner[1] + across) };
                        other_at(a, b)
                    })
                    .collect();
                p.fades[side] &= spans.is_empty();
                p.softens[side] = spans.iter().any(|&s| s > 1.5 * p.span);
            }
        }
    }

    /// Bilinear elevation at `(x, y)` in 0..1 across the patch (texel centres at
    /// `(i + 0.5) / size`).
    pub fn elevation_at(&self, x: f32, y: f32) -> f32 {
        let s = self.size as usize;
        let last = (s - 1) as f32;
        let (fx, fy) = ((x * s as f32 - 0.5).clamp(0.0, last), (y * s as f32 - 0.5).clamp(0.0, last));
        let (i0, j0) = (fx.floor() as usize, fy.floor() as usize);
        let (i1, j1) = ((i0 + 1).min(s - 1), (j0 + 1).min(s - 1));
        let (tx, ty) = (fx - i0 as f32, fy - j0 as f32);
        let e = |i: usize, j: usize| self.elevation_m[j * s + i];
        let top = e(i0, j0) + (e(i1, j0) - e(i0, j0)) * tx;
        let bottom = e(i0, j1) + (e(i1, j1) - e(i0, j1)) * tx;
        top + (bottom - top) * ty
    }
}

fn descriptor(size: u32, label: &str) -> wgpu::TextureDescriptor<'_> {
    layered(size, 6, label)
}

/// Distance from `(x, y)` (0..1 across a patch) to the nearest of the sides marked in `sides`
/// (low `a`, high `a`, low `b`, high `b`); infinite when none is.
fn to_sides(x: f32, y: f32, sides: [bool; 4]) -> f32 {
    [x, 1.0 - x, y, 1.0 - y].iter().zip(sides).filter(|(_, on)| *on).map(|(d, _)| *d).fold(f32::INFINITY, f32::min)
}

fn layered(size: u32, layers: u32, label: &str) -> wgpu::TextureDescriptor<'_> {
    wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: size, height: size, depth_or_array_layers: layers },
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

/// Uploads patch layers (each `size² 4` bytes, one layer per patch) as a texture array with
/// [`PATCH_MIPS`] mipmap levels (or the placeholder when there are none).
pub(crate) fn patch_view(device: &wgpu::Device, queue: &wgpu::Queue, size: u32, layers: &[&[u8]], label: &str) -> wgpu::TextureView {
    use wgpu::util::DeviceExt;
    if layers.is_empty() {
        return blank_view(device, label);
    }
    let mips = PATCH_MIPS.min(size.ilog2() + 1);
    // Layer by layer, each layer's levels in order.
    let mut bytes = Vec::with_capacity(layers.iter().map(|l| l.len() * 4 / 3 + 4).sum());
    for layer in layers {
        let mut level = layer.to_vec();
        let mut s = size as usize;
        bytes.extend_from_slice(&level);
        for _ in 1..mips {
            level = half_size(&level, s);
            s = (s / 2).max(1);
            bytes.extend_from_slice(&level);
        }
    }
    let descriptor = wgpu::TextureDescriptor { mip_level_count: mips, ..layered(size, layers.len() as u32, label) };
    array_view(&device.create_texture_with_data(queue, &descriptor, wgpu::util::TextureDataOrder::LayerMajor, &bytes))
}

/// The next mipmap level of an RGBA8 square of `size` texels per edge: each texel the mean of
/// the 2 x 2 it covers (the last row and column repeated where `size` is odd).
pub(crate) fn half_size(rgba: &[u8], size: usize) -> Vec<u8> {
    let half = (size / 2).max(1);
    let at = |i: usize, j: usize, c: usize| u32::from(rgba[(j.min(size - 1) * size + i.min(size - 1)) * 4 + c]);
    let mut out = vec![0u8; half * half * 4];
    for j in 0..half {
        for i in 0..half {
            for c in 0..4 {
                let sum = at(2 * i, 2 * j, c) + at(2 * i + 1, 2 * j, c) + at(2 * i, 2 * j + 1, c) + at(2 * i + 1, 2 * j + 1, c);
                out[(j * half + i) * 4 + c] = ((sum + 2) / 4) as u8;
            }
        }
    }
    out
}

/// Uploads `img` as a six-layer texture (or the placeholder for `None`).
pub(crate) fn layers_view(device: &wgpu::Device, queue: &wgpu::Queue, img: Option<OverlayTexture>, label: &str) -> wgpu::TextureView {
    use wgpu::util::DeviceExt;
    match img {
        Some(img) => array_view(&device.create_texture_with_data(queue, &descriptor(img.size, label), wgpu::util::TextureDataOrder::LayerMajor, img.rgba)),
        None => blank_view(device, label),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mipmap_level_averages_each_two_by_two_block() {
        // 2 x 2 texels: black, white, grey 100, grey 201 (alpha 255) average to one texel.
        let rgba = [0, 0, 0, 255, 255, 255, 255, 255, 100, 100, 100, 255, 201, 201, 201, 255];
        assert_eq!(half_size(&rgba, 2), vec![139, 139, 139, 255]);
        // An odd size repeats its last row and column: 3 x 3 gives 1 x 1 of the top-left 2 x 2.
        let odd: Vec<u8> = (0..9u8).flat_map(|k| [k * 10, 0, 0, 255]).collect();
        assert_eq!(half_size(&odd, 3), vec![20, 0, 0, 255]);
    }
}
