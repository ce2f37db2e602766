//! Frames on the canvas: named, coloured boxes with a comment, drawn beneath the wires and
//! nodes. Dragging a frame's bar moves it with the nodes inside; the corner handle resizes it;
//! a double click or its menu edits the name and comment; Ctrl+J frames the selection. Every
//! change is an undoable edit saved in the graph file.

use super::edit::{name_field, ok_cancel};
use super::PlanetApp;
use egui::{Color32, Rect, Sense, Vec2};
use planetgraph_core::graph::Frame;

/// Height of a frame's title bar in editor points.
const BAR_H: f32 = 26.0;
/// Space between the selection and a new frame's border, in editor points.
const MARGIN: f32 = 24.0;
/// Smallest frame size in editor points.
const MIN_SIZE: Vec2 = Vec2::new(120.0, 60.0);

/// The colours offered for frames (sRGB).
pub const FRAME_COLOURS: [(&str, [u8; 3]); 6] = [("Grey", [120, 120, 130]), ("Blue", [70, 110, 190]), ("Green", [70, 150, 90]), ("Amber", [200, 150, 50]), ("Red", [190, 70, 70]), ("Violet", [140, 90, 180])];

/// What the user did to a frame this frame.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum FrameAction {
    /// Dragged the bar by this many editor points.
    Move(usize, Vec2),
    /// Dragged the corner handle.
    Resize(usize, Vec2),
    /// Asked to edit the name and comment.
    Edit(usize),
    /// Chose a colour.
    Colour(usize, [u8; 3]),
    /// Deleted the frame (its nodes stay).
    Delete(usize),
}

/// The frame whose name and comment are being edited.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct FrameEdit {
    index: usize,
    label: String,
    comment: String,
    /// The name field takes the keyboard when the window opens.
    focus: bool,
}

/// A frame's rectangle in graph points.
pub(super) fn rect_of(f: &Frame) -> Rect {
    Rect::from_min_size(egui::pos2(f.rect.0, f.rect.1), egui::vec2(f.rect.2, f.rect.3))
}

/// A frame's colour.
pub(super) fn colour_of(f: &Frame) -> Color32 {
    Color32::from_rgb(f.colour[0], f.colour[1], f.colour[2])
}

/// Draws the frames into the canvas (editor coordinates) and collects what the user does.
pub(super) fn draw_frames(ui: &mut egui::Ui, frames: &[Frame], actions: &mut Vec<FrameAction>) {
    for (i, f) in frames.iter().enumerate() {
        let rect = rect_of(f);
        let c = colour_of(f);
        let painter = ui.painter().clone();
        painter.rect(rect, 6.0, c.gamma_multiply(0.16), egui::Stroke::new(1.5, c.gamma_multiply(0.8)), egui::StrokeKind::Inside);
        let bar = Rect::from_min_size(rect.min, egui::vec2(rect.width(), BAR_H));
        painter.rect_filled(bar, egui::CornerRadius { nw: 6, ne: 6, sw: 0, se: 0 }, c.gamma_multiply(0.6));
        painter.text(bar.left_center() + egui::vec2(8.0, 0.0), egui::Align2::LEFT_CENTER, &f.label, egui::FontId::proportional(15.0), Color32::WHITE);
        if !f.comment.is_empty() {
            let galley = painter.layout(f.comment.clone(), egui::FontId::proportional(12.0), Color32::from_gray(200), (rect.width() - 16.0).max(10.0));
            painter.galley(rect.min + egui::vec2(8.0, BAR_H + 6.0), galley, Color32::from_gray(200));
        }
        let r = ui.interact(bar, ui.scope_id().with(("frame", i)), Sense::click_and_drag()).on_hover_text("Drag to move the frame with its nodes; double-click to rename; right click for its menu");
        if r.dragged() {
            actions.push(FrameAction::Move(i, r.drag_delta()));
        }
        if r.double_clicked() {
            actions.push(FrameAction::Edit(i));
        }
        r.context_menu(|ui| {
            if ui.button("Rename and comment…").clicked() {
                actions.push(FrameAction::Edit(i));
                ui.close();
            }
            ui.menu_button("Colour", |ui| {
                for (name, rgb) in FRAME_COLOURS {
                    if ui.button(name).clicked() {
                        actions.push(FrameAction::Colour(i, rgb));
                        ui.close();
                    }
                }
            });
            if ui.button("Delete frame (keep its nodes)").clicked() {
                actions.push(FrameAction::Delete(i));
                ui.close();
            }
        });
        let handle = Rect::from_min_size(rect.max - egui::vec2(16.0, 16.0), egui::vec2(16.0, 16.0));
        let h = ui.interact(handle, ui.scope_id().with(("frame_resize", i)), Sense::drag()).on_hover_text("Drag to resize the frame");
        for k in [4.0, 9.0] {
            painter.line_segment([handle.right_bottom() - egui::vec2(k, 2.0), handle.right_bottom() - egui::vec2(2.0, k)], egui::Stroke::new(1.5, c));
        }
        if h.dragged() {
            actions.push(FrameAction::Resize(i, h.drag_delta()));
        }
    }
}

/// The smallest zoom at which a newly opened graph, or Home, shows the graph: node text stays
/// at least 11 px high (egui's 14 px body text).
pub const LEGIBLE_ZOOM: f32 = 0.8;

impl PlanetApp {
    /// Shows a newly opened document: every node when that is legible, else the top-left of
    /// the graph at a legible zoom ([`LEGIBLE_ZOOM`]; the rest is a scroll away).
    pub fn frame_opened(&mut self) {
        let nodes = self.canvas.editor.node_rects.values().copied();
        let frames = self.doc.graph.frames.iter().map(rect_of);
        if let Some(r) = nodes.chain(frames).reduce(|a, b| a.union(b)) {
            self.canvas.editor.pan_zoom.frame_legible(r, 30.0, LEGIBLE_ZOOM);
        }
    }

    /// Shows every node and frame in the canvas (Home), unless that would make the text too
    /// small to read: then the graph's top-left at [`LEGIBLE_ZOOM`], the rest a scroll (or a
    /// click on the minimap) away.
    pub fn frame_all(&mut self) {
        self.frame_opened();
    }

    /// Shows the selected nodes (F); every node and frame when none is selected.
    pub fn frame_selected(&mut self) {
        match self.selection_rect() {
            Some(r) => self.canvas.editor.pan_zoom.frame(r, 60.0),
            None => self.frame_all(),
        }
    }

    /// The rectangle around the selected nodes as drawn in the last frame (graph points).
    fn selection_rect(&self) -> Option<Rect> {
        self.canvas.editor.selected_nodes.iter().filter_map(|n| self.canvas.editor.node_rects.get(n).copied()).reduce(|a, b| a.union(b))
    }

    /// Puts a new frame around the selected nodes (Ctrl+J) and opens its name and comment.
    pub fn frame_selection(&mut self) {
        let Some(around) = self.selection_rect() else {
            self.status.text = "Select the nodes to frame first (Ctrl+J)".into();
            return;
        };
        let r = Rect::from_min_max(around.min - egui::vec2(MARGIN, MARGIN + BAR_H), around.max + egui::vec2(MARGIN, MARGIN));
        let colour = FRAME_COLOURS[self.doc.graph.frames.len() % FRAME_COLOURS.len()].1;
        let mut g = self.doc.graph.clone();
        g.frames.push(Frame { label: format!("Frame {}", g.frames.len() + 1), comment: String::new(), colour, rect: (r.min.x, r.min.y, r.width(), r.height()) });
        let index = g.frames.len() - 1;
        self.doc.seal();
        self.doc.commit(g, false);
        self.dialogs.frame = Some(FrameEdit { index, label: self.doc.graph.frames[index].label.clone(), comment: String::new(), focus: true });
    }

    /// Carries out the frame actions of this frame.
    pub(super) fn apply_frame_actions(&mut self, ctx: &egui::Context, actions: Vec<FrameAction>) {
        let dragging = ctx.input(|i| i.pointer.any_down());
        for a in actions {
            let mut g = self.doc.graph.clone();
            match a {
                FrameAction::Move(i, d) => {
                    let Some(f) = g.frames.get(i).cloned() else { continue };
                    // The nodes inside when the drag began move with it (not those it passes
                    // over); they move in the editor too, then the graph is read back.
                    let inside = match &self.canvas.frame_drag {
                        Some((j, members)) if *j == i => members.clone(),
                        _ => {
                            let members: Vec<_> = self.canvas.editor.graph.iter_nodes().filter(|n| self.canvas.editor.node_positions.get(*n).is_some_and(|p| f.contains((p.x, p.y)))).collect();
                            self.canvas.frame_drag = Some((i, members.clone()));
                            members
                        }
                    };
                    for n in inside {
                        if let Some(p) = self.canvas.editor.node_positions.get_mut(n) {
                            *p += d;
                        }
                    }
                    g = self.read_editor();
                    g.frames[i].rect.0 += d.x;
                    g.frames[i].rect.1 += d.y;
                }
                FrameAction::Resize(i, d) => {
                    let Some(f) = g.frames.get_mut(i) else { continue };
                    f.rect.2 = (f.rect.2 + d.x).max(MIN_SIZE.x);
                    f.rect.3 = (f.rect.3 + d.y).max(MIN_SIZE.y);
                }
                FrameAction::Edit(i) => {
                    if let Some(f) = g.frames.get(i) {
                        self.dialogs.frame = Some(FrameEdit { index: i, label: f.label.clone(), comment: f.comment.clone(), focus: true });
                    }
                    continue;
                }
                FrameAction::Colour(i, rgb) => {
                    if let Some(f) = g.frames.get_mut(i) {
                        f.colour = rgb;
                    }
                }
                FrameAction::Delete(i) => {
                    if i < g.frames.len() {
                        g.frames.remove(i);
                    }
                }
            }
            self.doc.commit(g, dragging);
        }
        if !dragging {
            self.canvas.frame_drag = None;
        }
    }

    /// The window that edits a frame's name and comment.
    pub(super) fn frame_window(&mut self, ctx: &egui::Context) {
        let Some(mut e) = self.dialogs.frame.take() else { return };
        let mut done = None;
        egui::Window::new("Frame").collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
            ui.label("Name");
            let r = name_field(ui, egui::TextEdit::singleline(&mut e.label).desired_width(320.0), std::mem::take(&mut e.focus));
            ui.label("Comment");
            ui.add(egui::TextEdit::multiline(&mut e.comment).desired_width(320.0).desired_rows(4).hint_text("Notes shown inside the frame"));
            done = ok_cancel(ui, &r);
        });
        match done {
            Some(true) => {
                let mut g = self.doc.graph.clone();
                if let Some(f) = g.frames.get_mut(e.index) {
                    f.label = e.label;
                    f.comment = e.comment;
                    self.doc.seal();
                    self.doc.commit(g, false);
                }
            }
            Some(false) => {}
            None => self.dialogs.frame = Some(e),
        }
    }
}
