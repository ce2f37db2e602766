//! The planet viewport panel: inspection controls, orbit camera input, and the wgpu render
//! shown as an egui texture.

use super::viewer::{viewer_image, ViewedValue, ViewerContent, ViewerRamp};
use crate::app::closeup_jobs::{CloseUps, Shown};
use planetgraph_core::inspect::{albedo_image, elevation_image, motion_arrows, normal_image, precipitation_image, slope_image, temperature_image, OverlayColours, OverlayImage, TectonicValues, TextureValues};
use planetgraph_core::nodes::output::planet::PlanetSettings;
use planetgraph_core::planet::{ColourField, Field};
use planetgraph_renderer::{ColourMode, MeshOptions, OrbitCamera, OverlayTexture, PlanetMesh, PlanetRenderer, ViewSettings};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;

/// What the background mesh job sends back: the mesh, the motion arrows (a line list), the
/// normal map when it was rebuilt (`Some(None)`: none, off the sphere), and the close-ups it
/// was built with and morphs from ([`CloseUps::mesh_sets`]).
type MeshJob = (PlanetMesh, Vec<[f32; 3]>, Option<Option<OverlayImage>>, (Shown, Option<Shown>));

/// Makes the overlay image of an inspection mode on a background thread.
type LayerJob = Box<dyn FnOnce() -> OverlayImage + Send>;

/// Viewport state.
pub struct Viewport {
    /// Camera and colour modes.
    pub view: ViewSettings,
    /// Mesh modes.
    pub mesh: MeshOptions,
    field: Option<(Arc<Field>, PlanetSettings)>,
    albedo: Option<Arc<ColourField>>,
    mesh_dirty: bool,
    /// The normal map needs rebuilding (new field or mesh options; not for camera moves).
    normals_dirty: bool,
    /// The normal map last bound (the normals mode shows it).
    normal_map: Option<Arc<OverlayImage>>,
    /// The camera position, coarsely, for which the refined mesh was built.
    lod_key: [i32; 4],
    needs_render: bool,
    renderer: Option<PlanetRenderer>,
    texture: Option<egui::TextureId>,
    last_size: (u32, u32),
    /// A mesh (and the motion arrows on it) being built on a background thread (the newest
    /// request wins).
    mesh_job: Option<Receiver<MeshJob>>,
    tectonics: TectonicValues,
    textures: TextureValues,
    overlay_dirty: bool,
    overlay_job: Option<Receiver<OverlayImage>>,
    /// A rendering problem to show above the picture.
    error: Option<String>,
    /// Another node's output shown instead of the planet's colouring.
    viewer: Option<ViewerContent>,
    /// The viewer's ramp for scalar fields.
    pub viewer_ramp: ViewerRamp,
    /// Why there is no planet to show, once an evaluation has finished without one.
    why_empty: Option<String>,
    /// While the picture is not the final stage of the newest evaluation: what is under way.
    refining: Option<String>,
    /// Where the picture was drawn in the last frame (screen points).
    picture_rect: egui::Rect,
    /// Close-ups near the ground.
    pub closeups: crate::app::closeup_jobs::CloseUps,
    /// Turn the camera to the land when the next planet arrives (a document was opened).
    aim_at_land: bool,
    /// Draw less of the Relief near the ground ([`planetgraph_renderer::camera::relief_at`]).
    pub auto_relief: bool,
}

/// A screen point as normalised device coordinates of the picture `rect` (-1..1, y up).
pub fn to_ndc(rect: egui::Rect, p: egui::Pos2) -> glam::Vec2 {
    glam::Vec2::new((p.x - rect.left()) / rect.width().max(1.0) * 2.0 - 1.0, 1.0 - (p.y - rect.top()) / rect.height().max(1.0) * 2.0)
}

fn same<T>(a: &Option<Arc<T>>, b: &Option<Arc<T>>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => Arc::ptr_eq(x, y),
        (None, None) => true,
        _ => false,
    }
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            view: ViewSettings::default(),
            mesh: MeshOptions::default(),
            field: None,
            albedo: None,
            mesh_dirty: false,
            normals_dirty: false,
            normal_map: None,
            lod_key: [0; 4],
            needs_render: true,
            renderer: None,
            texture: None,
            last_size: (0, 0),
            mesh_job: None,
            tectonics: TectonicValues::default(),
            textures: TextureValues::default(),
            overlay_dirty: false,
            overlay_job: None,
            why_empty: None,
            refining: None,
            picture_rect: egui::Rect::NOTHING,
            closeups: Default::default(),
            error: None,
            viewer: None,
            viewer_ramp: ViewerRamp::default(),
            aim_at_land: true,
            auto_relief: true,
        }
    }
}

impl Viewport {
    /// Says why the planet is missing after an evaluation finished without one (`None` once
    /// there is one): shown in place of the picture when there is none, and as an "out of
    /// date" banner over the last picture when there is one.
    pub fn set_why_empty(&mut self, why: Option<String>) {
        self.why_empty = why;
    }

    /// Marks the picture as not yet the newest evaluation's last stage, saying what is under
    /// way (`None` once it is): a small banner at the picture's foot.
    pub fn set_refining(&mut self, what: Option<String>) {
        self.refining = what;
    }

    /// What the picture is waiting for, if it is not up to date (see [`Self::set_refining`]).
    pub fn refining(&self) -> Option<&str> {
        self.refining.as_deref()
    }

    /// Shows a new planet (elevation in metres) with its albedo, if it has one.
    pub fn set_field(&mut self, field: Arc<Field>, albedo: Option<Arc<ColourField>>, planet: PlanetSettings) {
        self.view.max_depth_m = planet.max_depth_m;
        self.view.max_elevation_m = planet.max_elevation_m;
        self.field = Some((field, planet));
        if std::mem::take(&mut self.aim_at_land) {
            // A new document: its land in daylight.
            self.face_land(true);
        }
        if !same(&albedo, &self.albedo) {
            self.albedo = albedo;
            self.overlay_dirty = true;
        }
        if self.view.mode == ColourMode::Elevation {
            self.overlay_dirty = true;
        }
        self.mesh_dirty = true;
        self.normals_dirty = true;
        self.closeups.clear();
    }

    /// Shows new tectonic data in the plates / regions / motion modes (unchanged values are
    /// recognised and not rebuilt).
    pub fn set_tectonics(&mut self, t: TectonicValues) {
        if !same(&t.regions, &self.tectonics.regions) || !same(&t.plates, &self.tectonics.plates) {
            self.overlay_dirty = true;
        }
        if !same(&t.motion, &self.tectonics.motion) {
            self.mesh_dirty = true;
        }
        self.tectonics = t;
    }

    /// Shows new texture values in the slope, biome, temperature and precipitation modes.
    pub fn set_textures(&mut self, t: TextureValues) {
        let changed = !same(&t.slope, &self.textures.slope) || !same(&t.biome, &self.textures.biome) || !same(&t.temperature, &self.textures.temperature) || !same(&t.precipitation, &self.textures.precipitation);
        if changed && self.view.mode.inspects_field() {
            self.overlay_dirty = true;
        }
        self.textures = t;
    }

    /// Shows a node's output instead of the planet's colouring (`None`: back to the planet).
    /// The relief stays the Planet node's.
    pub fn set_viewer(&mut self, viewer: Option<ViewerContent>) {
        let same_value = match (self.viewer.as_ref().and_then(|v| v.value.as_ref()), viewer.as_ref().and_then(|v| v.value.as_ref())) {
            (Some(ViewedValue::Field(a)), Some(ViewedValue::Field(b))) => Arc::ptr_eq(a, b),
            (Some(ViewedValue::Colour(a)), Some(ViewedValue::Colour(b))) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same_value || self.viewer.is_some() != viewer.is_some() {
            self.overlay_dirty = true;
            self.needs_render = true;
        }
        self.view.viewer = viewer.as_ref().is_some_and(|v| v.value.is_some());
        self.viewer = viewer;
    }

    /// The node the viewer shows, by label, if any.
    pub fn viewer_label(&self) -> Option<&str> {
        self.viewer.as_ref().map(|v| v.label.as_str())
    }

    /// The job that makes the overlay of an inspection mode (`None` without its values).
    fn field_layer(&self) -> Option<LayerJob> {
        if let Some(value) = self.viewer.as_ref().and_then(|v| v.value.clone()) {
            let ramp = self.viewer_ramp;
            return Some(Box::new(move || viewer_image(&value, ramp)));
        }
        let t = &self.textures;
        match self.view.mode {
            ColourMode::Elevation if !self.view.borders => {
                let (f, _) = self.field.clone()?;
                let (depth, peak) = (self.view.max_depth_m, self.view.max_elevation_m);
                Some(Box::new(move || elevation_image(&f, depth, peak)))
            }
            ColourMode::Normals => self.normal_map.clone().map(|m| Box::new(move || OverlayImage::clone(&m)) as LayerJob),
            ColourMode::Slope => t.slope.clone().map(|f| Box::new(move || slope_image(&f)) as LayerJob),
            ColourMode::Biome => t.biome.clone().map(|c| Box::new(move || albedo_image(&c)) as LayerJob),
            ColourMode::Temperature => t.temperature.clone().map(|f| Box::new(move || temperature_image(&f)) as LayerJob),
            ColourMode::Precipitation => t.precipitation.clone().map(|f| Box::new(move || precipitation_image(&f)) as LayerJob),
            _ => None,
        }
    }

    /// Why the viewport has no current planet, if it has none (see [`Self::set_why_empty`]).
    pub fn why_empty(&self) -> Option<&str> {
        self.why_empty.as_deref()
    }

    /// Where the picture was drawn in the last frame, in screen points.
    pub fn picture_rect(&self) -> egui::Rect {
        self.picture_rect
    }

    /// Cells per face edge of the planet on screen.
    pub fn field_n(&self) -> Option<usize> {
        self.field.as_ref().map(|(f, _)| f.n())
    }

    /// Whether a planet is on screen (possibly out of date; see [`Self::why_empty`]).
    pub fn has_planet(&self) -> bool {
        self.field.is_some()
    }

    /// Forgets the planet (a new document is coming); camera and GPU resources stay.
    pub fn clear_field(&mut self) {
        self.field = None;
        self.albedo = None;
        self.normal_map = None;
        self.mesh_dirty = false;
        self.mesh_job = None;
        self.tectonics = TectonicValues::default();
        self.textures = TextureValues::default();
        self.overlay_dirty = true;
        self.closeups.clear();
    }

    /// Resets the camera: the default distance, looking down at the middle of the land. The sun
    /// stays over the same place of the planet.
    pub fn reset_view(&mut self) {
        self.view.camera = OrbitCamera::default();
        self.face_land(false);
        self.needs_render = true;
    }

    /// Turns the camera to the land when the next planet arrives (a new document).
    pub fn aim_at_land_next(&mut self) {
        self.aim_at_land = true;
    }

    /// The picture: rendered with the GPU when there is one, else a map as a fallback.
    pub fn picture(&mut self, ui: &mut egui::Ui, gpu: Option<&egui_wgpu::RenderState>) {
        let (rect, response) = ui.allocate_exact_size(ui.available_size().max(egui::vec2(32.0, 32.0)), egui::Sense::click_and_drag());
        self.picture_rect = rect;
        self.steer(ui, &response, rect);
        // A close-up that has just been assembled goes into the next mesh; those made for
        // another relief are dropped.
        self.mesh_dirty |= self.closeups.poll(self.mesh.exaggeration);
        let Some(gpu) = gpu else {
            ui.painter().rect_filled(rect, 0.0, egui::Color32::from_gray(10));
            ui.painter().text(rect.center(), egui::Align2::CENTER_CENTER, "No GPU renderer available", egui::FontId::proportional(16.0), egui::Color32::GRAY);
            return;
        };
        // The inspection layer's job, taken before the renderer is borrowed.
        let layer = if self.overlay_dirty { self.field_layer() } else { None };
        let renderer = self.renderer.get_or_insert_with(|| PlanetRenderer::new(&gpu.device));
        if self.mesh_dirty {
            // Build the mesh off the UI thread; the frame keeps showing the previous picture.
            if let Some((f, p)) = &self.field {
                let (tx, rx) = channel();
                let (f, radius, opts, view, ctx, motion) = (f.clone(), p.radius_km, self.mesh, self.view, ui.ctx().clone(), self.tectonics.motion.clone());
                // Cleared once a job that rebuilt them lands (a newer job replaces an older one's
                // result, so until then each job rebuilds them).
                let (normals_needed, close) = (self.normals_dirty, self.closeups.mesh_sets());
                std::thread::spawn(move || {
                    let mesh = CloseUps::mesh(&f, radius, &opts, &view, &close);
                    let arrows = motion.map(|m| motion_arrows(&m, &f, radius, opts.exaggeration, opts.ocean_surface, 600)).unwrap_or_default();
                    // Per-pixel light from the field's own normals (on the sphere only), rebuilt
                    // only when the field or the mesh options changed, not as the camera moves.
                    let normals = normals_needed.then(|| opts.spherical.then(|| normal_image(&f, radius, opts.exaggeration, opts.ocean_surface)));
                    // The viewport may have moved on and dropped the receiver: the result is not wanted.
                    let _ = tx.send((mesh, arrows, normals, close));
                    ctx.request_repaint();
                });
                self.mesh_job = Some(rx);
            }
            self.mesh_dirty = false;
        }
        if let Some(rx) = &self.mesh_job {
            match rx.try_recv() {
                Ok((mesh, arrows, normals, close)) => {
                    renderer.set_mesh(&gpu.device, &mesh);
                    self.closeups.meshed(close.0, close.1);
                    renderer.set_arrows(&gpu.device, &arrows);
                    if let Some(normals) = normals {
                        self.normals_dirty = false;
                        match normals.as_ref().map(|n| OverlayTexture::new(n.size, &n.rgba)).transpose() {
                            Ok(t) => renderer.set_normal_map(&gpu.device, &gpu.queue, t),
                            Err(e) => self.error = Some(e.to_string()),
                        }
                        self.normal_map = normals.map(Arc::new);
                        // The normals mode shows the map that just landed.
                        self.overlay_dirty |= self.view.mode == ColourMode::Normals;
                    }
                    self.mesh_job = None;
                    self.needs_render = true;
                }
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.mesh_job = None,
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
            }
        }
        if self.overlay_dirty {
            let wanted = self.view.mode.uses_overlay() || self.view.borders;
            match (&self.tectonics.regions, wanted) {
                _ if layer.is_some() => {
                    let (tx, rx) = channel();
                    let ctx = ui.ctx().clone();
                    std::thread::spawn(move || {
                        if let Some(job) = layer {
                            // The viewport may have moved on and dropped the receiver: the result is not wanted.
                            let _ = tx.send(job());
                        }
                        ctx.request_repaint();
                    });
                    self.overlay_job = Some(rx);
                }
                _ if self.view.mode == ColourMode::Albedo && self.albedo.is_some() => {
                    let (tx, rx) = channel();
                    let (albedo, ctx) = (self.albedo.clone(), ui.ctx().clone());
                    std::thread::spawn(move || {
                        if let Some(a) = albedo {
                            // The viewport may have moved on and dropped the receiver: the result is not wanted.
                            let _ = tx.send(albedo_image(&a));
                        }
                        ctx.request_repaint();
                    });
                    self.overlay_job = Some(rx);
                }
                (Some(_), true) => {
                    let (tx, rx) = channel();
                    let colours = if self.view.mode == ColourMode::Plates { OverlayColours::Plates } else { OverlayColours::Regions };
                    let (tectonics, borders, ctx) = (self.tectonics.clone(), self.view.borders, ui.ctx().clone());
                    std::thread::spawn(move || {
                        if let Some(img) = tectonics.overlay(colours, borders) {
                            // The viewport may have moved on and dropped the receiver: the result is not wanted.
                            let _ = tx.send(img);
                        }
                        ctx.request_repaint();
                    });
                    self.overlay_job = Some(rx);
                }
                _ => {
                    // Only drop an overlay that is there (not on every new result).
                    if renderer.has_overlay() {
                        renderer.set_overlay(&gpu.device, &gpu.queue, None);
                        self.needs_render = true;
                    }
                    self.overlay_job = None;
                }
            }
            self.overlay_dirty = false;
        }
        if let Some(rx) = &self.overlay_job {
            match rx.try_recv() {
                Ok(img) => {
                    // The overlay module makes six square layers; a mismatch would be its bug.
                    match OverlayTexture::new(img.size, &img.rgba) {
                        Ok(t) => renderer.set_overlay(&gpu.device, &gpu.queue, Some(t)),
                        Err(e) => self.error = Some(e.to_string()),
                    }
                    self.overlay_job = None;
                    self.needs_render = true;
                }
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.overlay_job = None,
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
            }
        }
        let ppp = ui.ctx().pixels_per_point();
        let size = ((rect.width() * ppp) as u32, (rect.height() * ppp) as u32);
        if size != self.last_size {
            self.needs_render = true;
            self.last_size = size;
        }
        let colours = self.view.mode == ColourMode::Albedo && !self.view.viewer;
        self.needs_render |= self.closeups.sync(renderer, &gpu.device, &gpu.queue, colours);
        if self.closeups.fading() {
            ui.ctx().request_repaint();
        }
        if self.needs_render && renderer.has_mesh() {
            let recreated = renderer.render(&gpu.device, &gpu.queue, size.0, size.1, &self.view);
            if let Some(view) = renderer.target_view() {
                let mut r = gpu.renderer.write();
                match self.texture {
                    Some(id) if recreated => r.update_egui_texture_from_wgpu_texture(&gpu.device, view, wgpu::FilterMode::Linear, id),
                    Some(_) => {}
                    None => self.texture = Some(r.register_native_texture(&gpu.device, view, wgpu::FilterMode::Linear)),
                }
            }
            self.needs_render = false;
        }
        match self.texture.filter(|_| self.field.is_some()) {
            Some(id) => {
                ui.painter().image(id, rect, egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)), egui::Color32::WHITE);
                if let Some(why) = &self.why_empty {
                    // The picture is from an earlier evaluation: say so, and what is missing.
                    let banner = egui::Rect::from_min_size(rect.min, egui::vec2(rect.width(), 44.0));
                    ui.painter().rect_filled(banner, 0.0, egui::Color32::from_rgba_unmultiplied(90, 60, 0, 220));
                    let galley = ui.painter().layout(format!("Out of date: {why}"), egui::FontId::proportional(14.0), egui::Color32::WHITE, rect.width() - 16.0);
                    ui.painter().galley(banner.min + egui::vec2(8.0, 4.0), galley, egui::Color32::WHITE);
                } else if let Some(what) = &self.refining {
                    let galley = ui.painter().layout_no_wrap(format!("⟳ Updating: {what}"), egui::FontId::proportional(13.0), egui::Color32::WHITE);
                    let banner = egui::Rect::from_min_size(egui::pos2(rect.min.x, rect.max.y - 26.0), egui::vec2(galley.size().x + 16.0, 26.0));
                    ui.painter().rect_filled(banner, 4.0, egui::Color32::from_rgba_unmultiplied(20, 40, 80, 200));
                    ui.painter().galley(banner.min + egui::vec2(8.0, 5.0), galley, egui::Color32::WHITE);
                }
            }
            None => {
                ui.painter().rect_filled(rect, 0.0, egui::Color32::from_gray(10));
                let text = self.why_empty.as_deref().filter(|_| self.field.is_none()).unwrap_or("Evaluating…");
                let galley = ui.painter().layout(text.to_string(), egui::FontId::proportional(16.0), egui::Color32::GRAY, (rect.width() - 40.0).max(100.0));
                let at = rect.center() - galley.size() * 0.5;
                ui.painter().galley(at, galley, egui::Color32::GRAY);
            }
        }
    }
}

#[path = "viewport_steer.rs"]
mod steer;

#[path = "viewport_controls.rs"]
mod controls;
