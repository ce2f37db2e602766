//! The viewport's control rows above the picture: relief, colouring, overlays, mesh, sun.

use super::super::viewer::{ViewedValue, ViewerRamp};
use super::Viewport;
use planetgraph_renderer::ColourMode;

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
            ui.checkbox(&mut self.auto_relief, "Near").on_hover_text("Less relief near the ground: the whole Relief from 0.5 planet radii of altitude up, falling below it with the altitude's 0.6th power down to true scale at the ground (20 x: 5.6 x at 0.06 radii, 2.9 x at 0.02). A planet seen whole needs its ranges exaggerated; seen from near by, the same exaggeration crumples them.");
            let here = if self.auto_relief && self.view.relief_ratio < 0.999 { format!("{shown:.1} x here") } else { String::new() };
            // Fixed widths: the row does not reflow as the numbers change.
            fixed_label(ui, 64.0, here).on_hover_text("The relief drawn at this altitude");
            if let Some((altitude, cells)) = self.readout() {
                fixed_label(ui, 88.0, altitude).on_hover_text("The camera's height above the ground (or the sea) straight below it");
                fixed_label(ui, 88.0, cells).on_hover_text("Width of the finest cells shown straight below the camera: the planet's, or a close-up's where one has landed");
            }
            egui::ComboBox::from_id_salt("colour_mode").selected_text(self.view.mode.label()).show_ui(ui, |ui| {
                for m in ColourMode::ALL {
                    ui.selectable_value(&mut self.view.mode, m, m.label());
                }
            }).response.on_hover_text("Colouring: albedo (the Planet node's albedo input, per pixel; the height tint without one); elevation; cube faces; plates (a colour per plate, border regions lighter); regions coloured by their cube face; normals (the lighting normals as colours); slope, biomes, temperature and precipitation from the graph's first Slope, Biomes, Temperature and Precipitation nodes (the height tint without them). Plates and regions come from the graph's first Tectonic plates or Regions node.");
            ui.menu_button("Overlays ⏷", |ui| self.display_options(ui)).response.on_hover_text("What is drawn over and around the planet: borders, motion arrows, the grid, the sea surface, the atmosphere, the mesh and close-ups");
            // The sun's label and numbers wrap together.
            ui.horizontal(|ui| sun_controls(ui, &mut self.view));
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

impl Viewport {
    /// The Overlays menu: the drawing options that are set once and left (grid, sea surface,
    /// atmosphere, mesh, close-ups).
    fn display_options(&mut self, ui: &mut egui::Ui) {
        ui.checkbox(&mut self.view.borders, "Borders").on_hover_text("Region borders and centroids (needs a Regions node in the graph)");
        ui.checkbox(&mut self.view.arrows, "Motion").on_hover_text("Plate motion vectors as arrows (needs a Plate elevation or Earth-like relief node)");
        ui.checkbox(&mut self.view.wireframe, "Wireframe").on_hover_text("Show the cube-sphere grid (every few quads)");
        ui.checkbox(&mut self.mesh.spherical, "Sphere").on_hover_text("Normalise the cube onto the sphere (off: show the cube)");
        ui.checkbox(&mut self.mesh.warped, "Warp").on_hover_text("Tangent warp of the face grid (theta = 0.86873); off: linear grid, crowded cells at face edges");
        ui.checkbox(&mut self.mesh.ocean_surface, "Sea").on_hover_text("Draw the sea as a flat surface at sea level");
        ui.checkbox(&mut self.mesh.refine, "Refine").on_hover_text("Refine the mesh near the camera (chunks up to the evaluation's resolution), so a close-up keeps its relief");
        let closeups = ui.checkbox(&mut self.closeups.enabled, "Close-ups");
        // The tooltip's text only while it shows.
        if closeups
            .on_hover_ui(|ui| {
                ui.label(self.closeups.describe());
            })
            .changed()
        {
            self.closeups.clear();
            self.mesh_dirty = true;
        }
        egui::ComboBox::from_id_salt("mesh_res")
            .selected_text(format!("mesh {}", self.mesh.resolution))
            .show_ui(ui, |ui| {
                for r in [32usize, 64, 128, 256] {
                    ui.selectable_value(&mut self.mesh.resolution, r, format!("{r} quads per face edge"));
                }
            })
            .response
            .on_hover_text("Mesh resolution of the viewport (quads per cube-face edge)");
        ui.checkbox(&mut self.view.atmosphere, "Atmosphere").on_hover_text("A thin atmosphere rim at the limb (albedo and elevation colourings)");
    }

    /// The camera's altitude above the ground straight below it, and the width of the finest
    /// cells shown there, as readouts (`None` without a planet).
    pub fn readout(&self) -> Option<(String, String)> {
        let (field, planet) = self.field.as_ref()?;
        let dir = self.view.camera.eye().try_normalize()?;
        let radius_km = planet.radius_km;
        let ground_km = field.sample_dir(dir).max(0.0) / 1000.0;
        let altitude_km = self.view.camera.altitude() * radius_km - ground_km;
        let (face, a, b) = planetgraph_core::planet::coords::dir_to_face_ab(dir);
        let n = self.closeups.current().iter().filter(|c| c.tile.contains_ab(face, a, b)).map(|c| c.tile.n).max().unwrap_or(0).max(field.n());
        // A face spans a quarter of a great circle; the warp makes its cells near equal.
        let cell_km = std::f32::consts::FRAC_PI_2 * radius_km / n as f32;
        Some((format!("alt {}", distance(altitude_km)), format!("cells {}", distance(cell_km))))
    }
}

/// A distance in km as a short readout: metres below 10 km.
fn distance(km: f32) -> String {
    if km >= 100.0 {
        format!("{km:.0} km")
    } else if km >= 10.0 {
        format!("{km:.1} km")
    } else {
        format!("{:.0} m", km * 1000.0)
    }
}

/// A label in a slot of fixed width, so the row around it keeps its place.
fn fixed_label(ui: &mut egui::Ui, width: f32, text: String) -> egui::Response {
    let height = ui.spacing().interact_size.y;
    ui.add_sized([width, height], egui::Label::new(text).truncate())
}

/// The sun as the place on the planet where it stands overhead: its longitude (east positive)
/// and latitude in degrees, so the numbers stay with the planet when the camera moves or the
/// view is reset.
fn sun_controls(ui: &mut egui::Ui, view: &mut planetgraph_renderer::ViewSettings) {
    let tip = "Where the sun stands overhead on the planet: longitude (0 at the map's centre, east positive) and latitude. The light stays with the planet when the camera moves; a new graph starts with its land in daylight.";
    ui.label("Sun over").on_hover_text(tip);
    ui.add(egui::DragValue::new(&mut view.sun_azimuth_deg).range(-180.0..=180.0).speed(0.5).max_decimals(1).custom_formatter(|v, _| degrees(v, "E", "W")).custom_parser(|t| parse_degrees(t, "E", "W")))
        .on_hover_text("Longitude of the point under the sun, degrees (east positive; type 30W or -30)");
    ui.add(egui::DragValue::new(&mut view.sun_elevation_deg).range(-90.0..=90.0).speed(0.5).max_decimals(1).custom_formatter(|v, _| degrees(v, "N", "S")).custom_parser(|t| parse_degrees(t, "N", "S")))
        .on_hover_text("Latitude of the point under the sun, degrees (north positive; 23.4 at the June solstice; type 10S or -10)");
}

/// `v` degrees as a fixed-width readout with the hemisphere's letter (`12.5° E`), so the row
/// does not reflow as the value changes.
fn degrees(v: f64, positive: &str, negative: &str) -> String {
    let side = if v < 0.0 { negative } else { positive };
    format!("{:>5.1}° {side}", v.abs())
}

/// Reads `12.5`, `-12.5`, `12.5° W` or `12.5W` (the negative hemisphere's letter negates).
fn parse_degrees(t: &str, positive: &str, negative: &str) -> Option<f64> {
    let t = t.trim().to_ascii_uppercase();
    let (body, sign) = if let Some(b) = t.strip_suffix(&negative.to_ascii_uppercase()) {
        (b, -1.0)
    } else if let Some(b) = t.strip_suffix(&positive.to_ascii_uppercase()) {
        (b, 1.0)
    } else {
        (t.as_str(), 1.0)
    };
    body.trim().trim_end_matches('°').trim().parse::<f64>().ok().filter(|v| v.is_finite()).map(|v| sign * v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sun_degrees_read_back_what_they_show() {
        assert_eq!(degrees(-30.3, "E", "W"), " 30.3° W");
        assert_eq!(degrees(12.0, "N", "S"), " 12.0° N");
        assert_eq!(parse_degrees(" 30.3° W", "E", "W"), Some(-30.3));
        assert_eq!(parse_degrees("10s", "N", "S"), Some(-10.0));
        assert_eq!(parse_degrees("-5", "N", "S"), Some(-5.0));
        assert_eq!(parse_degrees("east", "E", "W"), None);
        assert_eq!(distance(1234.4), "1234 km");
        assert_eq!(distance(12.34), "12.3 km");
        assert_eq!(distance(2.5), "2500 m");
        assert_eq!(parse_degrees("nan", "E", "W"), None);
    }
}
