//! The viewport's control rows above the picture: relief, colouring, overlays, mesh, sun.

use super::super::viewer::{ViewedValue, ViewerRamp};
use super::Viewport;
use crate::render::ColourMode;

impl Viewport {
    /// The control rows above the picture. Returns true when the user asked to leave the
    /// viewer and see the planet again.
    pub fn controls(&mut self, ui: &mut egui::Ui) -> bool {
        if let Some(e) = &self.error {
            ui.colored_label(egui::Color32::from_rgb(255, 120, 110), format!("⚠ {e}"));
        }
        let before = (self.view, self.mesh, self.viewer_ramp);
        let mut back = false;
        if let Some(v) = &self.viewer {
            ui.horizontal_wrapped(|ui| {
                ui.label(egui::RichText::new(format!("Viewing {}", v.label)).strong()).on_hover_text("The viewport shows this node's output on the Planet's relief (right click a node > Show in viewport, or select it and press V)");
                if v.value.as_ref().is_some_and(|x| matches!(x, ViewedValue::Field(_))) {
                    egui::ComboBox::from_id_salt("viewer_ramp")
                        .selected_text(self.viewer_ramp.label())
                        .show_ui(ui, |ui| {
                            for r in ViewerRamp::ALL {
                                ui.selectable_value(&mut self.viewer_ramp, r, r.label());
                            }
                        })
                        .response
                        .on_hover_text("Colours of the field, from its minimum to its maximum (height colours: 0 is the coast)");
                }
                if let Some(note) = &v.note {
                    ui.label(egui::RichText::new(note).weak());
                }
                back = ui.button("Show the planet").on_hover_text("Back to the Planet node's colouring (V)").clicked();
            });
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("Relief").on_hover_text("Vertical exaggeration of the elevation (1 = true scale)");
            ui.add(egui::DragValue::new(&mut self.mesh.exaggeration).range(0.0..=200.0).speed(0.2).suffix(" x")).on_hover_text("Vertical exaggeration of the elevation (1 = true scale)");
            let shown = self.mesh.exaggeration * self.view.relief_ratio;
            let near = if self.auto_relief && self.view.relief_ratio < 0.999 { format!("Near ({shown:.1} x here)") } else { "Near".to_string() };
            ui.checkbox(&mut self.auto_relief, near).on_hover_text("Less relief near the ground: the whole Relief from 0.5 planet radii of altitude up, falling below it with the altitude's 0.6th power down to true scale at the ground (20 x: 5.6 x at 0.06 radii, 2.9 x at 0.02). A planet seen whole needs its ranges exaggerated; seen from near by, the same exaggeration crumples them.");
            egui::ComboBox::from_id_salt("colour_mode").selected_text(self.view.mode.label()).show_ui(ui, |ui| {
                for m in ColourMode::ALL {
                    ui.selectable_value(&mut self.view.mode, m, m.label());
                }
            }).response.on_hover_text("Colouring: albedo (the Planet node's albedo input, per pixel; the height tint without one); elevation; cube faces; plates (a colour per plate, border regions lighter); regions coloured by their cube face; normals (the lighting normals as colours); slope, biomes, temperature and precipitation from the graph's first Slope, Biomes, Temperature and Precipitation nodes (the height tint without them). Plates and regions come from the graph's first Tectonic plates or Regions node.");
            ui.checkbox(&mut self.view.borders, "Borders").on_hover_text("Region borders and centroids (needs a Regions node in the graph)");
            ui.checkbox(&mut self.view.arrows, "Motion").on_hover_text("Plate motion vectors as arrows (needs a Plate elevation or Earth-like relief node)");
            ui.checkbox(&mut self.view.wireframe, "Wireframe").on_hover_text("Show the cube-sphere grid (every few quads)");
            ui.checkbox(&mut self.mesh.spherical, "Sphere").on_hover_text("Normalise the cube onto the sphere (off: show the cube)");
            ui.checkbox(&mut self.mesh.warped, "Warp").on_hover_text("Tangent warp of the face grid (theta = 0.86873); off: linear grid, crowded cells at face edges");
            ui.checkbox(&mut self.mesh.ocean_surface, "Sea").on_hover_text("Draw the sea as a flat surface at sea level");
            ui.checkbox(&mut self.mesh.refine, "Refine").on_hover_text("Refine the mesh near the camera (chunks up to the evaluation's resolution), so a close-up keeps its relief");
            let closeups = ui.checkbox(&mut self.closeups.enabled, "Close-ups");
            // The tooltip's text only while it shows.
            if closeups.on_hover_ui(|ui| {
                ui.label(self.closeups.describe());
            })
            .changed()
            {
                self.closeups.clear();
                self.mesh_dirty = true;
            }
            egui::ComboBox::from_id_salt("mesh_res").selected_text(format!("mesh {}", self.mesh.resolution)).show_ui(ui, |ui| {
                for r in [32usize, 64, 128, 256] {
                    ui.selectable_value(&mut self.mesh.resolution, r, format!("{r} quads per face edge"));
                }
            }).response.on_hover_text("Mesh resolution of the viewport (quads per cube-face edge)");
            ui.label("Sun").on_hover_text("Direction of the sunlight: azimuth (0 towards +Z, 90 towards +X) and elevation above the equator");
            ui.add(egui::DragValue::new(&mut self.view.sun_azimuth_deg).range(-180.0..=180.0).speed(0.5).suffix("° az")).on_hover_text("Sun azimuth in degrees (0 towards +Z, 90 towards +X)");
            ui.add(egui::DragValue::new(&mut self.view.sun_elevation_deg).range(-90.0..=90.0).speed(0.5).suffix("° el")).on_hover_text("Sun elevation above the equatorial plane in degrees (90: over the north pole)");
            ui.checkbox(&mut self.view.atmosphere, "Atmosphere").on_hover_text("A thin atmosphere rim at the limb (albedo and elevation colourings)");
            if ui.button("Reset view").on_hover_text("Back to the default camera (double-click the planet)").clicked() {
                self.reset_view();
            }
        });
        if before.2 != self.viewer_ramp {
            self.overlay_dirty = true;
        }
        if before.1 != self.mesh {
            self.mesh_dirty = true;
            self.normals_dirty = true;
        }
        if before.0 != self.view {
            self.needs_render = true;
            if before.0.mode != self.view.mode || before.0.borders != self.view.borders {
                self.overlay_dirty = true;
            }
        }
        back
    }
}
