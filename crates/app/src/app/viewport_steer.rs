//! Steering the viewport's camera with the pointer: drag, tilt, wheel zoom towards the
//! pointer, double-click to reset; and rebuilding the refined mesh as the camera moves.

use super::{to_ndc, Viewport};
use crate::planet::coords::face_solid_angles;
use crate::planet::{Cell, Field};
use glam::Vec3;

/// The middle of the land of `elevation_m` (metres; land above 0): the mean direction of its
/// land cells, weighted by their share of the sphere. `None` without land, or when the land is
/// spread so evenly that the mean is nearly the centre (no side shows more of it).
pub fn land_centre(elevation_m: &Field) -> Option<Vec3> {
    let n = elevation_m.n();
    let solid = face_solid_angles(n);
    let sum: Vec3 = elevation_m.data().iter().enumerate().filter(|(_, &h)| h > 0.0).map(|(c, _)| Cell::from_index(c, n).direction(n) * solid[c % (n * n)] as f32).sum();
    // Land all round the sphere sums to about 0 (the whole sphere is 4 pi).
    (sum.length() > 0.01 * 4.0 * std::f32::consts::PI).then(|| sum.normalize())
}

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
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
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
    /// Turns the camera to [`land_centre`] of the planet on screen, if it has land, with the
    /// sun behind the viewer ([`crate::render::ViewSettings::face`]).
    pub(super) fn face_land(&mut self) {
        if let Some(centre) = self.field.as_ref().and_then(|(f, _)| land_centre(f)) {
            self.view.face(centre);
            self.needs_render = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_land_centre_is_the_middle_of_one_continent_and_none_without_land() {
        let n = 32;
        let towards = Vec3::new(0.5, 0.3, -0.8).normalize();
        let continent = Field::from_fn_dir(n, |d| if d.dot(towards) > 0.8 { 500.0 } else { -4000.0 });
        let centre = land_centre(&continent).expect("land");
        assert!(centre.dot(towards) > 0.999, "{centre}");
        assert_eq!(land_centre(&Field::filled(n, -3000.0)), None, "an ocean planet");
        assert_eq!(land_centre(&Field::filled(n, 100.0)), None, "land everywhere: no side shows more of it");
    }
}
