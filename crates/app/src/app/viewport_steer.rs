//! Steering the viewport's camera with the pointer: drag, tilt, wheel zoom towards the
//! pointer, double-click to reset; the relief drawn following the altitude and the camera kept
//! above it; and rebuilding the refined mesh as the camera moves.

use super::{to_ndc, Viewport};
use planetgraph_core::inspect::realism::land_centre;

impl Viewport {
    /// Applies this frame's pointer input on the picture (`response`, drawn in `rect`) to the
    /// camera.
    pub(super) fn steer(&mut self, ui: &egui::Ui, response: &egui::Response, rect: egui::Rect) {
        let aspect = rect.width() / rect.height().max(1.0);
        if response.dragged() {
            let d = response.drag_delta();
            // A drag carries the ground under the pointer along with it; with Shift or the
            // secondary button, its vertical part tilts the view towards the horizon instead.
            if ui.input(|i| i.modifiers.shift) || response.dragged_by(egui::PointerButton::Secondary) {
                self.view.camera.tilt_by(d.y);
                self.view.camera.orbit(d.x, 0.0);
            } else if let Some(now) = response.interact_pointer_pos() {
                let (from, to) = (to_ndc(rect, now - d), to_ndc(rect, now));
                self.view.camera.drag_ground(from, to, aspect, glam::Vec2::new(d.x, d.y));
            }
            self.needs_render = true;
        }
        if response.hovered() {
            // The wheel's own steps this frame, not egui's smoothed delta (which goes on
            // after the wheel stops): the zoom stops with the wheel.
            let line = ui.ctx().options(|o| o.input_options.line_scroll_speed);
            let scroll: f32 = ui.input(|i| {
                i.events
                    .iter()
                    .map(|e| match e {
                        egui::Event::MouseWheel { unit: egui::MouseWheelUnit::Point, delta, .. } => delta.y,
                        egui::Event::MouseWheel { unit: egui::MouseWheelUnit::Line, delta, .. } => line * delta.y,
                        egui::Event::MouseWheel { unit: egui::MouseWheelUnit::Page, delta, .. } => i.viewport_rect().height() * delta.y,
                        _ => 0.0,
                    })
                    .sum()
            });
            if scroll != 0.0 {
                // Towards the pointer.
                match response.hover_pos() {
                    Some(p) => self.view.camera.zoom_at(scroll, to_ndc(rect, p), aspect),
                    None => self.view.camera.zoom(scroll),
                }
                self.needs_render = true;
            }
        }
        if response.double_clicked() {
            self.reset_view();
        }
        self.keep_above_ground();
        // Close to the planet the mesh is refined around the camera: rebuild it once the camera
        // has moved by a fraction of a chunk or of its height.
        let key = if self.mesh.refine && self.view.camera.distance < 2.2 {
            let (e, altitude) = (self.view.camera.eye(), self.view.camera.altitude());
            let step = 0.05 * altitude.max(0.02);
            [(e.x / step) as i32, (e.y / step) as i32, (e.z / step) as i32, (altitude.max(1e-3).log2() * 4.0) as i32]
        } else {
            [0; 4]
        };
        if key != self.lod_key {
            self.lod_key = key;
            self.mesh_dirty = true;
        }
    }
}

impl Viewport {
    /// Sets the share of the Relief drawn at the camera's altitude (all of it unless
    /// [`Viewport::auto_relief`]; a cube is drawn as built), and keeps the camera above the
    /// relief as drawn: a zoom into a range, or a larger exaggeration, lifts it rather than
    /// putting it inside a mountain ([`planetgraph_renderer::settle_camera`]).
    fn keep_above_ground(&mut self) {
        let before = (self.view.camera, self.view.relief_ratio);
        let ground = self.field.as_ref().map(|(f, p)| (f.as_ref(), p.radius_km));
        self.view.relief_ratio = planetgraph_renderer::settle_camera(&mut self.view.camera, ground, &self.mesh, self.auto_relief);
        if before != (self.view.camera, self.view.relief_ratio) {
            self.needs_render = true;
        }
    }

    /// Turns the camera to [`land_centre`] of the planet on screen, if it has land; with `sun`
    /// the sun goes behind the viewer too ([`planetgraph_renderer::ViewSettings::face`]), else it stays
    /// where it is over the planet.
    pub(super) fn face_land(&mut self, sun: bool) {
        if let Some(centre) = self.field.as_ref().and_then(|(f, _)| land_centre(f)) {
            if sun {
                self.view.face(centre);
            } else {
                self.view.camera.face(centre);
            }
            self.needs_render = true;
        }
    }
}
