//! The planet renderer: draws the mesh into its own colour + depth target, used by the editor
//! viewport (shown as an egui texture) and by `planetgraph render` and tests (read back).

use super::camera::OrbitCamera;
use super::gpu_types::{Uniforms, Vertex};
use super::layers::{blank_view, layers_view, OverlayTexture};
use super::mesh::PlanetMesh;
use super::mode::ColourMode;
use patches::PatchUniforms;
use thiserror::Error;

mod patches;
mod readback;
pub use readback::headless_device;
use wgpu::util::DeviceExt;

/// Colour format of the render target.
pub const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The planet shader source.
pub const SHADER_SOURCE: &str = include_str!("../../../shaders/planet.wgsl");

/// Rendering failed.
#[derive(Debug, Error)]
pub enum RenderError {
    /// No GPU or software adapter is available.
    #[error("no graphics adapter found (install a Vulkan driver, for example Mesa's lavapipe: apt-get install mesa-vulkan-drivers)")]
    NoAdapter,
    /// The device could not be created.
    #[error("cannot open the graphics device: {0}")]
    Device(String),
    /// Reading the image back failed.
    #[error("cannot read the rendered image back: {0}")]
    Readback(String),
    /// Overlay texels that do not fill six square layers.
    #[error("an overlay of {size} texels per face edge needs {expected} bytes, found {found}")]
    Overlay {
        /// Texels per face edge.
        size: u32,
        /// 6 size² 4 bytes.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
}

/// What to draw besides the mesh.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewSettings {
    /// The camera.
    pub camera: OrbitCamera,
    /// How the surface is coloured.
    pub mode: ColourMode,
    /// Darken region borders and centroids (needs an overlay, see
    /// [`PlanetRenderer::set_overlay`]).
    pub borders: bool,
    /// Draw the plate-motion arrows (see [`PlanetRenderer::set_arrows`]).
    pub arrows: bool,
    /// Draw the grid lines.
    pub wireframe: bool,
    /// Deepest ocean in metres (colour ramp).
    pub max_depth_m: f32,
    /// Highest peak in metres (colour ramp).
    pub max_elevation_m: f32,
    /// The sun's azimuth in degrees (0 towards +Z, 90 towards +X).
    pub sun_azimuth_deg: f32,
    /// The sun's elevation above the equatorial plane in degrees (90: over the north pole).
    pub sun_elevation_deg: f32,
    /// Thin atmosphere rim at the planet's limb.
    pub atmosphere: bool,
    /// The overlay is another node's output shown by the editor's viewer: it colours the
    /// surface whatever the mode (no water tint, no atmosphere).
    pub viewer: bool,
    /// Share of the mesh's relief drawn, 0..1: the mesh and the normals are made for the
    /// Relief setting, and the shaders scale their heights and slopes by this, so the relief
    /// drawn can follow the camera's altitude without building anything again
    /// ([`crate::camera::relief_at`]). 1 draws the mesh as built.
    pub relief_ratio: f32,
}

impl Default for ViewSettings {
    fn default() -> Self {
        ViewSettings {
            camera: OrbitCamera::default(),
            mode: ColourMode::Albedo,
            borders: false,
            arrows: false,
            wireframe: false,
            max_depth_m: 7000.0,
            max_elevation_m: 6000.0,
            sun_azimuth_deg: 36.87,
            sun_elevation_deg: 26.57,
            atmosphere: true,
            viewer: false,
            relief_ratio: 1.0,
        }
    }
}

impl ViewSettings {
    /// Turns the camera to look down at `direction` ([`OrbitCamera::face`]) and puts the sun
    /// where the defaults have it from the camera (about 8 degrees to the east of the viewer and
    /// 7 above), so the point looked at is in daylight.
    pub fn face(&mut self, direction: glam::Vec3) {
        let default = ViewSettings::default();
        self.camera.face(direction);
        let az = self.camera.yaw.to_degrees() + default.sun_azimuth_deg - default.camera.yaw.to_degrees();
        self.sun_azimuth_deg = (az + 180.0).rem_euclid(360.0) - 180.0;
        self.sun_elevation_deg = (self.camera.pitch.to_degrees() + default.sun_elevation_deg - default.camera.pitch.to_degrees()).clamp(-90.0, 90.0);
    }

    /// The unit direction towards the sun.
    pub fn sun_direction(&self) -> glam::Vec3 {
        let (az, el) = (self.sun_azimuth_deg.to_radians(), self.sun_elevation_deg.to_radians());
        glam::Vec3::new(el.cos() * az.sin(), el.sin(), el.cos() * az.cos())
    }
}

/// Colour of deep sea water seen from above (linear RGB).
const WATER: [f32; 4] = [0.004, 0.03, 0.09, 0.0];

/// Attenuation of light per metre of sea water, red, green and blue: water over a depth `d`
/// covers the sea floor by `1 - exp(-d k)` (seed 002), per channel. About twice clear ocean
/// water's diffuse attenuation at 650, 550 and 470 nm (the light goes down and comes back up),
/// so red is gone within a few metres and blue reaches some 50 m: sand under 3 m of water is
/// turquoise, under 20 m blue, and the sea floor under 60 m barely shows.
const WATER_ATTENUATION: [f32; 4] = [0.6, 0.12, 0.05, 0.0];

struct MeshBuffers {
    vertices: wgpu::Buffer,
    triangles: wgpu::Buffer,
    triangle_count: u32,
    lines: wgpu::Buffer,
    line_count: u32,
}

struct Target {
    color: wgpu::Texture,
    color_view: wgpu::TextureView,
    depth_view: wgpu::TextureView,
    size: (u32, u32),
}

/// GPU state of the planet renderer. Takes the device as a parameter everywhere so the app
/// (eframe's device) and headless rendering share one code path.
pub struct PlanetRenderer {
    pipeline: wgpu::RenderPipeline,
    line_pipeline: wgpu::RenderPipeline,
    arrow_pipeline: wgpu::RenderPipeline,
    /// The sky behind the planet (space and the atmosphere's glow over the horizon).
    sky_pipeline: wgpu::RenderPipeline,
    uniforms: wgpu::Buffer,
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    bind_group: wgpu::BindGroup,
    overlay_view: wgpu::TextureView,
    normal_view: wgpu::TextureView,
    /// Whether a real overlay (not the blank placeholder) is bound.
    has_overlay: bool,
    /// Whether a normal map is bound.
    has_normals: bool,
    patch_overlay_view: wgpu::TextureView,
    patch_normal_view: wgpu::TextureView,
    /// The detail patches' uniforms; zero when none is drawn.
    patch: PatchUniforms,
    /// Whether the patch textures uploaded last hold colours, and normals.
    patch_textures: (bool, bool),
    /// How far the mesh's relief has morphed from its vertices' earlier relief (0..1,
    /// [`Vertex::morph`]).
    relief_morph: f32,
    mesh: Option<MeshBuffers>,
    arrows: Option<(wgpu::Buffer, u32)>,
    target: Option<Target>,
}

impl PlanetRenderer {
    /// Creates pipelines on `device`.
    pub fn new(device: &wgpu::Device) -> PlanetRenderer {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor { label: Some("planet.wgsl"), source: wgpu::ShaderSource::Wgsl(SHADER_SOURCE.into()) });
        let uniforms = device.create_buffer(&wgpu::BufferDescriptor { label: Some("planet uniforms"), size: std::mem::size_of::<Uniforms>() as u64, usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST, mapped_at_creation: false });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("planet bind group layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry { binding: 0, visibility: wgpu::ShaderStages::VERTEX_FRAGMENT, ty: wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Uniform, has_dynamic_offset: false, min_binding_size: None }, count: None },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture { sample_type: wgpu::TextureSampleType::Float { filterable: true }, view_dimension: wgpu::TextureViewDimension::D2Array, multisampled: false },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry { binding: 2, visibility: wgpu::ShaderStages::FRAGMENT, ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering), count: None },
                wgpu::BindGroupLayoutEntry {
                    binding: 3,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture { sample_type: wgpu::TextureSampleType::Float { filterable: true }, view_dimension: wgpu::TextureViewDimension::D2Array, multisampled: false },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 4,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture { sample_type: wgpu::TextureSampleType::Float { filterable: true }, view_dimension: wgpu::TextureViewDimension::D2Array, multisampled: false },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 5,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture { sample_type: wgpu::TextureSampleType::Float { filterable: true }, view_dimension: wgpu::TextureViewDimension::D2Array, multisampled: false },
                    count: None,
                },
            ],
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("overlay sampler"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            // Between the patches' mipmap levels (a softening side, DetailPatch::softness).
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            ..Default::default()
        });
        let (overlay_view, normal_view) = (blank_view(device, "overlay"), blank_view(device, "normal map"));
        let (patch_overlay_view, patch_normal_view) = (blank_view(device, "patch colours"), blank_view(device, "patch normals"));
        let bind_group = Self::bind_group(device, &layout, &uniforms, &sampler, [&overlay_view, &normal_view, &patch_overlay_view, &patch_normal_view]);
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor { label: Some("planet pipeline layout"), bind_group_layouts: &[Some(&layout)], immediate_size: 0 });
        let attributes = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32, 3 => Uint32, 4 => Float32x2, 5 => Float32x2];
        let buffers = [Some(wgpu::VertexBufferLayout { array_stride: std::mem::size_of::<Vertex>() as u64, step_mode: wgpu::VertexStepMode::Vertex, attributes: &attributes })];
        let make = |vs: &str, fs: &str, topology: wgpu::PrimitiveTopology, cull: Option<wgpu::Face>| {
            // The sky: no vertices (one triangle from the vertex index), under everything.
            let sky = fs == "fs_sky";
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(fs),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState { module: &shader, entry_point: Some(vs), compilation_options: Default::default(), buffers: if sky { &[] } else { &buffers } },
                fragment: Some(wgpu::FragmentState {
                    module: &shader,
                    entry_point: Some(fs),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState { format: COLOR_FORMAT, blend: None, write_mask: wgpu::ColorWrites::ALL })],
                }),
                primitive: wgpu::PrimitiveState { topology, front_face: wgpu::FrontFace::Ccw, cull_mode: cull, ..Default::default() },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(!sky),
                    depth_compare: Some(if sky { wgpu::CompareFunction::Always } else { wgpu::CompareFunction::LessEqual }),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: Default::default(),
                multiview_mask: None,
                cache: None,
            })
        };
        let pipeline = make("vs_main", "fs_main", wgpu::PrimitiveTopology::TriangleList, Some(wgpu::Face::Back));
        let line_pipeline = make("vs_line", "fs_line", wgpu::PrimitiveTopology::LineList, None);
        let arrow_pipeline = make("vs_line", "fs_arrow", wgpu::PrimitiveTopology::LineList, None);
        let sky_pipeline = make("vs_sky", "fs_sky", wgpu::PrimitiveTopology::TriangleList, None);
        PlanetRenderer {
            sky_pipeline,
            pipeline,
            line_pipeline,
            arrow_pipeline,
            uniforms,
            layout,
            sampler,
            bind_group,
            overlay_view,
            normal_view,
            has_overlay: false,
            has_normals: false,
            patch_overlay_view,
            patch_normal_view,
            patch: PatchUniforms::default(),
            relief_morph: 1.0,
            patch_textures: (false, false),
            mesh: None,
            arrows: None,
            target: None,
        }
    }

    /// The bind group of the uniforms, the sampler and the views of the overlay, the normal
    /// map, the patch's colours and the patch's normals.
    fn bind_group(device: &wgpu::Device, layout: &wgpu::BindGroupLayout, uniforms: &wgpu::Buffer, sampler: &wgpu::Sampler, views: [&wgpu::TextureView; 4]) -> wgpu::BindGroup {
        let [overlay, normals, patch_overlay, patch_normals] = views;
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("planet bind group"),
            layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: uniforms.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(overlay) },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(sampler) },
                wgpu::BindGroupEntry { binding: 3, resource: wgpu::BindingResource::TextureView(normals) },
                wgpu::BindGroupEntry { binding: 4, resource: wgpu::BindingResource::TextureView(patch_overlay) },
                wgpu::BindGroupEntry { binding: 5, resource: wgpu::BindingResource::TextureView(patch_normals) },
            ],
        })
    }

    fn rebind(&mut self, device: &wgpu::Device) {
        self.bind_group = Self::bind_group(device, &self.layout, &self.uniforms, &self.sampler, [&self.overlay_view, &self.normal_view, &self.patch_overlay_view, &self.patch_normal_view]);
    }

    /// Uploads the overlay image of the plates / regions modes (or removes it with `None`).
    pub fn set_overlay(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, img: Option<OverlayTexture>) {
        self.has_overlay = img.is_some();
        self.overlay_view = layers_view(device, queue, img, "overlay");
        self.rebind(device);
    }

    /// Uploads the per-pixel normals (six layers, `0.5 + 0.5 n` of the world-space normal in
    /// RGB), or removes them with `None` (the mesh's vertex normals light the planet).
    pub fn set_normal_map(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, img: Option<OverlayTexture>) {
        self.has_normals = img.is_some();
        self.normal_view = layers_view(device, queue, img, "normal map");
        self.rebind(device);
    }

    /// Uploads the motion arrows (a line list of points in planet radii; empty removes them).
    pub fn set_arrows(&mut self, device: &wgpu::Device, points: &[[f32; 3]]) {
        let lines: Vec<Vertex> = points.iter().map(|&p| Vertex { position: p, normal: glam::Vec3::from(p).normalize_or_zero().to_array(), elevation: 0.0, face: 0, uv: [0.0, 0.0], morph: [0.0, 0.0] }).collect();
        self.arrows = (!lines.is_empty()).then(|| {
            let buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some("arrows"), contents: bytemuck::cast_slice(&lines), usage: wgpu::BufferUsages::VERTEX });
            (buf, lines.len() as u32)
        });
    }

    /// Uploads a new mesh.
    pub fn set_mesh(&mut self, device: &wgpu::Device, mesh: &PlanetMesh) {
        let buf = |label, contents: &[u8], usage| device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage });
        self.mesh = Some(MeshBuffers {
            vertices: buf("planet vertices", bytemuck::cast_slice(&mesh.vertices), wgpu::BufferUsages::VERTEX),
            triangles: buf("planet triangles", bytemuck::cast_slice(&mesh.triangles), wgpu::BufferUsages::INDEX),
            triangle_count: mesh.triangles.len() as u32,
            lines: buf("planet lines", bytemuck::cast_slice(&mesh.lines), wgpu::BufferUsages::INDEX),
            line_count: mesh.lines.len() as u32,
        });
    }

    /// Whether a real overlay (not the blank placeholder) is bound.
    pub fn has_overlay(&self) -> bool {
        self.has_overlay
    }

    /// Whether a mesh has been uploaded.
    pub fn has_mesh(&self) -> bool {
        self.mesh.is_some()
    }

    fn ensure_target(&mut self, device: &wgpu::Device, width: u32, height: u32) -> bool {
        if self.target.as_ref().map(|t| t.size) == Some((width, height)) {
            return false;
        }
        let tex = |label, format, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let color = tex("planet colour", COLOR_FORMAT, wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_SRC);
        let depth = tex("planet depth", DEPTH_FORMAT, wgpu::TextureUsages::RENDER_ATTACHMENT);
        let color_view = color.create_view(&Default::default());
        let depth_view = depth.create_view(&Default::default());
        self.target = Some(Target { color, color_view, depth_view, size: (width, height) });
        true
    }

    /// Draws into the internal `width` x `height` target. Returns true when the target texture
    /// was (re)created, so a caller that shows it must re-register it.
    pub fn render(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, width: u32, height: u32, view: &ViewSettings) -> bool {
        let (width, height) = (width.max(1), height.max(1));
        let recreated = self.ensure_target(device, width, height);
        let view_proj = view.camera.view_proj(width as f32 / height as f32);
        let u = Uniforms {
            view_proj: view_proj.to_cols_array_2d(),
            inv_view_proj: view_proj.inverse().to_cols_array_2d(),
            light: {
                let l = view.sun_direction();
                [l.x, l.y, l.z, 0.12]
            },
            ramp: [
                view.max_depth_m,
                view.max_elevation_m,
                match view.mode {
                    _ if view.viewer && self.has_overlay => 2.0,
                    // The height tint per pixel from the overlay, unless it carries borders.
                    ColourMode::Elevation if self.has_overlay && !view.borders => 2.0,
                    ColourMode::Elevation => 0.0,
                    ColourMode::Faces => 1.0,
                    ColourMode::Albedo if self.has_overlay => 3.0,
                    ColourMode::Plates | ColourMode::Regions if self.has_overlay => 2.0,
                    ColourMode::Normals | ColourMode::Slope | ColourMode::Biome | ColourMode::Temperature | ColourMode::Precipitation if self.has_overlay => 2.0,
                    // A planet without albedo, or without the inspected node: the height tint.
                    ColourMode::Albedo | ColourMode::Normals | ColourMode::Slope | ColourMode::Biome | ColourMode::Temperature | ColourMode::Precipitation => 0.0,
                    // No regions to show (yet): face colours rather than a blank planet.
                    ColourMode::Plates | ColourMode::Regions => 1.0,
                },
                if view.borders && self.has_overlay { 1.0 } else { 0.0 },
            ],
            line: [0.02, 0.02, 0.02, 1.0015],
            eye: {
                let e = view.camera.eye();
                let rim = if view.atmosphere && !view.viewer && matches!(view.mode, ColourMode::Albedo | ColourMode::Elevation) { 1.0 } else { 0.0 };
                [e.x, e.y, e.z, rim]
            },
            water: WATER,
            water_attenuation: WATER_ATTENUATION,
            detail: [if self.has_normals { 1.0 } else { 0.0 }, self.relief_morph, view.relief_ratio.clamp(0.0, 1.0), 0.0],
            patch_area: self.patch.area,
            patch_fades: self.patch.fades,
            patch_opacity: self.patch.opacity,
            patch_flags: self.patch.flags,
        };
        queue.write_buffer(&self.uniforms, 0, bytemuck::bytes_of(&u));
        let Some(target) = &self.target else { return recreated };
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("planet") });
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("planet pass"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &target.color_view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color { r: 0.008, g: 0.009, b: 0.015, a: 1.0 }), store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment { view: &target.depth_view, depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Store }), stencil_ops: None }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_bind_group(0, &self.bind_group, &[]);
            pass.set_pipeline(&self.sky_pipeline);
            pass.draw(0..3, 0..1);
            if let Some(mesh) = &self.mesh {
                pass.set_vertex_buffer(0, mesh.vertices.slice(..));
                pass.set_pipeline(&self.pipeline);
                pass.set_index_buffer(mesh.triangles.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(0..mesh.triangle_count, 0, 0..1);
                if view.wireframe {
                    pass.set_pipeline(&self.line_pipeline);
                    pass.set_index_buffer(mesh.lines.slice(..), wgpu::IndexFormat::Uint32);
                    pass.draw_indexed(0..mesh.line_count, 0, 0..1);
                }
                if let (true, Some((buf, count))) = (view.arrows, &self.arrows) {
                    pass.set_pipeline(&self.arrow_pipeline);
                    pass.set_vertex_buffer(0, buf.slice(..));
                    pass.draw(0..*count, 0..1);
                }
            }
        }
        queue.submit([encoder.finish()]);
        recreated
    }

    /// The colour target view (after [`Self::render`]).
    pub fn target_view(&self) -> Option<&wgpu::TextureView> {
        self.target.as_ref().map(|t| &t.color_view)
    }
}
