//! File > New from template: the example graphs with their renders, and the hint on an empty
//! canvas.

use super::files::{Dialog, Pending};
use super::PlanetApp;
use planetgraph_examples::templates::TEMPLATES;

/// Shown size of a template's render, in points.
const THUMB: f32 = 120.0;

impl PlanetApp {
    /// The renders of the templates as textures (made once; a render that cannot be decoded
    /// is left out and its template shown by name only).
    fn template_textures(&mut self, ctx: &egui::Context) -> Vec<Option<egui::TextureHandle>> {
        if self.template_textures.is_empty() {
            self.template_textures = TEMPLATES
                .iter()
                .map(|t| {
                    let img = image::load_from_memory(t.thumbnail_png).ok()?.to_rgb8();
                    let colour = egui::ColorImage::from_rgb([img.width() as usize, img.height() as usize], img.as_raw());
                    Some(ctx.load_texture(format!("template-{}", t.file), colour, egui::TextureOptions::LINEAR))
                })
                .collect();
        }
        self.template_textures.clone()
    }

    /// The template picker: a grid of renders with titles; a click starts a new graph from
    /// one (after the unsaved-changes question).
    pub(super) fn templates_window(&mut self, ctx: &egui::Context) {
        let textures = self.template_textures(ctx);
        let mut picked = None;
        let mut open = true;
        egui::Window::new("New from template").collapsible(false).resizable(true).open(&mut open).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).default_width(760.0).show(ctx, |ui| {
            ui.label("Start from one of the example graphs (a new, untitled document; the example files are not changed).");
            egui::ScrollArea::vertical().max_height(ctx.content_rect().height() * 0.7).show(ui, |ui| {
                egui::Grid::new("templates").spacing([12.0, 12.0]).show(ui, |ui| {
                    for (k, t) in TEMPLATES.iter().enumerate() {
                        let r = ui
                            .vertical(|ui| {
                                ui.set_width(THUMB + 20.0);
                                let mut r = match textures.get(k).cloned().flatten() {
                                    Some(tex) => ui.add(egui::Button::image(egui::Image::new((tex.id(), egui::vec2(THUMB, THUMB))))),
                                    None => ui.add_sized([THUMB, THUMB], egui::Button::new("no picture")),
                                };
                                r = r.on_hover_text(format!("{}\n\n{}\n\ngraphs/{}", t.title, t.description, t.file));
                                ui.label(egui::RichText::new(t.title).strong());
                                r
                            })
                            .inner;
                        if r.clicked() {
                            picked = Some(k);
                        }
                        if k % 5 == 4 {
                            ui.end_row();
                        }
                    }
                });
            });
        });
        if !open {
            self.dialogs.question = None;
        }
        if let Some(k) = picked {
            self.dialogs.question = None;
            self.try_action(Pending::Template(k), ctx);
        }
    }

    /// Opens the template picker.
    pub fn open_templates(&mut self) {
        self.dialogs.question = Some(Dialog::Templates);
    }

    /// Whether the template picker is on screen.
    pub fn shows_templates(&self) -> bool {
        matches!(self.dialogs.question, Some(Dialog::Templates))
    }

    /// Over an empty canvas: what to do next.
    pub(super) fn empty_canvas_hint(&mut self, ui: &mut egui::Ui) {
        // Not over a dialog (the hint's layer is above the windows).
        if !self.doc.graph.nodes.is_empty() || !self.doc.graph.groups.is_empty() || self.dialogs.question.is_some() {
            return;
        }
        let centre = ui.max_rect().center();
        let width = (ui.max_rect().width() - 40.0).clamp(200.0, 480.0);
        // Above the canvas's own layer, which paints its background over the panel and takes
        // the clicks on it.
        let clicked = egui::Area::new(egui::Id::unique("empty-canvas-hint"))
            .order(egui::Order::Foreground)
            .pivot(egui::Align2::CENTER_CENTER)
            .fixed_pos(centre)
            .show(ui.ctx(), |ui| {
                ui.set_max_width(width);
                ui.vertical_centered(|ui| {
                    ui.label(egui::RichText::new("This graph is empty").size(22.0).color(egui::Color32::from_gray(210)));
                    ui.add_space(6.0);
                    ui.label(egui::RichText::new("Right click or Shift+A on the canvas to add a node. A Planet node shows its elevation in the viewport.").size(15.0).color(egui::Color32::from_gray(160)));
                    ui.add_space(10.0);
                    ui.add_sized([220.0, 30.0], egui::Button::new("Start from a template…")).clicked()
                })
                .inner
            })
            .inner;
        if clicked {
            self.open_templates();
        }
    }
}
