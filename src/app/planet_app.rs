//! The editor window: menu bar, node editor and viewport side by side, status line, dialogs,
//! shortcuts, background evaluation.

use super::document::Document;
use super::previews::preview_pixels;
use super::viewport::Viewport;
use crate::editor::{assign_new_ids, from_editor, to_editor, update_visibility, AllKinds, EdState, EditorState};
use crate::eval::{EvalResult, EvalWorker};
use crate::graph::{default_graph, Graph, NodeId};
use crate::ops::output::PlanetSettings;
use crate::editor::types::{EdResponse, PlateStatus, StepAction};
use crate::ops::{NodeKind, ParamValue, Params};
use egui::{Key, KeyboardShortcut, Modifiers};
use egui_node_graph2::{NodeFinder, NodeResponse};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// What to do once unsaved changes are dealt with.
#[derive(Debug, Clone, PartialEq)]
enum Pending {
    New,
    Open,
    OpenPath,
    Quit,
}

/// A modal dialog.
#[derive(Debug, Clone, PartialEq)]
enum Dialog {
    Unsaved(Pending),
    Message(String),
    /// Type a file path (for systems without a desktop file-dialog portal).
    Path { save: bool, text: String },
}

/// Evaluation resolutions (cells per face edge).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resolutions {
    /// Previews and the first, quick viewport update.
    pub preview: usize,
    /// The viewport's refined planet.
    pub viewport: usize,
}

/// The application.
pub struct PlanetApp {
    /// The open document.
    pub doc: Document,
    /// The node editor state.
    pub editor: EditorState,
    /// Errors, previews and timings shown in the editor.
    pub ed_state: EdState,
    /// Evaluation resolutions.
    pub res: Resolutions,
    /// The viewport.
    pub viewport: Viewport,
    /// The newest evaluation result.
    pub last_result: Option<EvalResult>,
    worker: EvalWorker,
    /// Textures of a replaced document, kept until the frame that drew them is painted.
    retired_textures: Vec<egui::TextureHandle>,
    dialog: Option<Dialog>,
    allow_close: bool,
    title: String,
    status: String,
}

impl PlanetApp {
    /// Creates the app for a document; evaluation starts at once.
    pub fn new(doc: Document, ctx: &egui::Context) -> PlanetApp {
        // Labels must not capture clicks and drags meant for the nodes they sit on.
        ctx.style_mut(|s| s.interaction.selectable_labels = false);
        let repaint = ctx.clone();
        let worker = EvalWorker::start(Arc::new(move || repaint.request_repaint()));
        let editor = to_editor(&doc.graph);
        let mut app = PlanetApp {
            doc,
            editor,
            ed_state: EdState::default(),
            res: Resolutions { preview: 128, viewport: 256 },
            viewport: Viewport::default(),
            last_result: None,
            worker,
            retired_textures: Vec::new(),
            dialog: None,
            allow_close: false,
            title: String::new(),
            status: "Starting".into(),
        };
        app.request_eval();
        app
    }

    /// Asks the worker for a new evaluation (cancels the one running).
    pub fn request_eval(&mut self) {
        let mut list = vec![self.res.preview];
        if self.res.viewport != self.res.preview {
            list.push(self.res.viewport);
        }
        self.worker.request(self.doc.graph.clone(), list);
    }

    /// Whether an evaluation is still running.
    pub fn is_evaluating(&self) -> bool {
        self.worker.is_busy()
    }

    fn reload_editor(&mut self) {
        let pan = self.editor.pan_zoom.clone();
        let selected = self.selected_ids();
        self.editor = to_editor(&self.doc.graph);
        self.editor.pan_zoom = pan;
        self.editor.selected_nodes = self.editor.graph.iter_nodes().filter(|n| selected.contains(&self.editor.graph[*n].user_data.id)).collect();
        self.request_eval();
    }

    fn set_document(&mut self, doc: Document) {
        self.doc = doc;
        self.editor = to_editor(&self.doc.graph);
        // The previews may be drawn in this very frame: free them only in the next one.
        self.retired_textures.extend(std::mem::take(&mut self.ed_state).previews.into_values());
        self.viewport.clear_field();
        self.request_eval();
    }

    /// Undo the last edit.
    pub fn undo(&mut self) {
        if self.doc.undo() {
            self.reload_editor();
        }
    }

    /// Redo.
    pub fn redo(&mut self) {
        if self.doc.redo() {
            self.reload_editor();
        }
    }

    /// Domain ids of the selected nodes.
    pub fn selected_ids(&self) -> Vec<NodeId> {
        self.editor.selected_nodes.iter().filter_map(|n| self.editor.graph.nodes.get(*n)).map(|n| n.user_data.id).collect()
    }

    /// Deletes the selected nodes.
    pub fn delete_selected(&mut self) {
        let ids = self.selected_ids();
        if ids.is_empty() {
            return;
        }
        let mut g = self.doc.graph.clone();
        for id in ids {
            g.remove_node(id);
        }
        self.doc.commit(g, false);
        self.reload_editor();
    }

    fn apply_results(&mut self, ctx: &egui::Context) {
        for r in self.worker.poll() {
            if r.generation != self.worker.generation() || r.result.cancelled {
                continue;
            }
            let res = r.result;
            self.ed_state.errors = res.errors.iter().map(|(k, v)| (*k, v.clone())).collect();
            for (id, ms) in &res.timings_ms {
                self.ed_state.timings.insert(*id, *ms);
            }
            if res.n == self.res.preview {
                update_previews(ctx, &self.doc.graph, &res, &mut self.ed_state.previews);
            }
            // Only the newest request's results arrive here, coarse first, so each one refines
            // the picture.
            if let Some(planet) = self.doc.graph.first_of(NodeKind::Planet) {
                if let Some(f) = res.field(planet.id) {
                    let settings = PlanetSettings::from_params(&Params::new(NodeKind::Planet, &planet.params));
                    self.viewport.set_field(f.clone(), settings);
                }
            }
            self.viewport.set_tectonics(crate::eval::tectonic_values(&self.doc.graph, &res));
            for node in self.doc.graph.nodes.iter().filter(|n| n.kind == NodeKind::TectonicPlates) {
                if let Some(p) = res.outputs.get(&node.id).and_then(|o| o.first()).and_then(|v| v.as_plates()) {
                    let claimed = p.plate_of.iter().filter(|&&x| x != crate::tectonics::UNCLAIMED).count();
                    self.ed_state.plates.insert(node.id, PlateStatus { cycles: p.cycles, claimed, total: p.plate_of.len(), complete: p.complete });
                }
            }
            self.status = format!("Ready: {} at {} cells per face edge in {:.0} ms ({} computed, {} cached)", if res.errors.is_empty() { "evaluated" } else { "evaluated with errors" }, res.n, res.total_ms, res.timings_ms.len(), res.cached);
            self.last_result = Some(res);
        }
    }

    fn open_finder(&mut self, ctx: &egui::Context) {
        let pos = ctx.input(|i| i.pointer.hover_pos()).unwrap_or_else(|| ctx.screen_rect().center());
        self.editor.node_finder = Some(NodeFinder::new_at(pos));
    }

    fn try_action(&mut self, action: Pending, ctx: &egui::Context) {
        if self.doc.is_dirty() {
            self.dialog = Some(Dialog::Unsaved(action));
        } else {
            self.do_action(action, ctx);
        }
    }

    fn do_action(&mut self, action: Pending, ctx: &egui::Context) {
        match action {
            Pending::New => self.set_document(Document::new(default_graph(), None)),
            Pending::Open => {
                if let Some(path) = rfd::FileDialog::new().add_filter("PlanetGraph graph", &["ron"]).pick_file() {
                    self.open_path(path);
                }
            }
            Pending::OpenPath => self.dialog = Some(Dialog::Path { save: false, text: String::new() }),
            Pending::Quit => {
                self.allow_close = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Opens a file; on failure the current graph stays and a dialog explains why.
    pub fn open_path(&mut self, path: PathBuf) {
        match Document::open(&path) {
            Ok(doc) => self.set_document(doc),
            Err(e) => self.dialog = Some(Dialog::Message(format!("Cannot open the graph.\n\n{e}"))),
        }
    }

    /// The text of the message dialog on screen, if any.
    pub fn message(&self) -> Option<&str> {
        match &self.dialog {
            Some(Dialog::Message(m)) => Some(m),
            _ => None,
        }
    }

    /// Saves to the current file or asks for one. Returns true when saved.
    pub fn save(&mut self, ask: bool) -> bool {
        let path = match (&self.doc.path, ask) {
            (Some(p), false) => Some(p.clone()),
            _ => rfd::FileDialog::new().add_filter("PlanetGraph graph", &["ron"]).set_file_name("planet.ron").save_file(),
        };
        let Some(path) = path else { return false };
        match self.doc.save_as(&path) {
            Ok(()) => {
                self.status = format!("Saved {}", path.display());
                true
            }
            Err(e) => {
                self.dialog = Some(Dialog::Message(format!("Cannot save.\n\n{e}")));
                false
            }
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let sc = |m, k| KeyboardShortcut::new(m, k);
        let shift_cmd = Modifiers::COMMAND | Modifiers::SHIFT;
        if ctx.input_mut(|i| i.consume_shortcut(&sc(shift_cmd, Key::Z))) || ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::Y))) {
            self.redo();
        }
        if ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::Z))) {
            self.undo();
        }
        if ctx.input_mut(|i| i.consume_shortcut(&sc(shift_cmd, Key::S))) {
            self.save(true);
        }
        if ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::S))) {
            self.save(false);
        }
        if ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::N))) {
            self.try_action(Pending::New, ctx);
        }
        if ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::O))) {
            self.try_action(Pending::Open, ctx);
        }
        if ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::Q))) {
            self.try_action(Pending::Quit, ctx);
        }
        if !ctx.wants_keyboard_input() {
            if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Delete)) {
                self.delete_selected();
            }
            if ctx.input_mut(|i| i.consume_key(Modifiers::SHIFT, Key::A)) || ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Space)) {
                self.open_finder(ctx);
            }
        }
    }

    fn menu(&mut self, ctx: &egui::Context, ui: &mut egui::Ui) {
        egui::menu::bar(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.add(egui::Button::new("New").shortcut_text("Ctrl+N")).clicked() {
                    ui.close_menu();
                    self.try_action(Pending::New, ctx);
                }
                if ui.add(egui::Button::new("Open…").shortcut_text("Ctrl+O")).clicked() {
                    ui.close_menu();
                    self.try_action(Pending::Open, ctx);
                }
                if ui.button("Open path…").on_hover_text("Type the path of a graph file (where no file dialog is available)").clicked() {
                    ui.close_menu();
                    self.try_action(Pending::OpenPath, ctx);
                }
                if ui.add(egui::Button::new("Save").shortcut_text("Ctrl+S")).clicked() {
                    ui.close_menu();
                    self.save(false);
                }
                if ui.add(egui::Button::new("Save As…").shortcut_text("Ctrl+Shift+S")).clicked() {
                    ui.close_menu();
                    self.save(true);
                }
                if ui.button("Save to path…").on_hover_text("Type the path to save to (where no file dialog is available)").clicked() {
                    ui.close_menu();
                    let text = self.doc.path.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
                    self.dialog = Some(Dialog::Path { save: true, text });
                }
                ui.separator();
                if ui.add(egui::Button::new("Quit").shortcut_text("Ctrl+Q")).clicked() {
                    ui.close_menu();
                    self.try_action(Pending::Quit, ctx);
                }
            });
            ui.menu_button("Edit", |ui| {
                if ui.add_enabled(self.doc.can_undo(), egui::Button::new("Undo").shortcut_text("Ctrl+Z")).clicked() {
                    ui.close_menu();
                    self.undo();
                }
                if ui.add_enabled(self.doc.can_redo(), egui::Button::new("Redo").shortcut_text("Ctrl+Shift+Z")).clicked() {
                    ui.close_menu();
                    self.redo();
                }
                if ui.add_enabled(!self.editor.selected_nodes.is_empty(), egui::Button::new("Delete selected").shortcut_text("Del")).clicked() {
                    ui.close_menu();
                    self.delete_selected();
                }
                if ui.add(egui::Button::new("Add node…").shortcut_text("Shift+A / Space / right click")).clicked() {
                    ui.close_menu();
                    self.open_finder(ctx);
                }
            });
            ui.menu_button("View", |ui| {
                if ui.button("Reset planet view").clicked() {
                    ui.close_menu();
                    self.viewport.reset_view();
                }
                ui.label("Evaluation resolution (cells per face edge):");
                let before = self.res;
                egui::ComboBox::from_label("previews").selected_text(self.res.preview.to_string()).show_ui(ui, |ui| {
                    for n in [32usize, 64, 128] {
                        ui.selectable_value(&mut self.res.preview, n, n.to_string());
                    }
                });
                egui::ComboBox::from_label("viewport").selected_text(self.res.viewport.to_string()).show_ui(ui, |ui| {
                    for n in [128usize, 256, 512] {
                        ui.selectable_value(&mut self.res.viewport, n, n.to_string());
                    }
                });
                if before != self.res {
                    self.request_eval();
                }
            });
            ui.menu_button("Help", |ui| {
                ui.label("Right click, Shift+A or Space: add a node");
                ui.label("Drag from an output to an input: connect");
                ui.label("Del: delete selected nodes; Ctrl+Z / Ctrl+Shift+Z: undo / redo");
                ui.label("Viewport: drag to orbit, scroll to zoom, double-click to reset");
                ui.label("Headless: planetgraph build FILE.ron --out DIR");
            });
        });
    }

    fn status_line(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if self.worker.is_busy() {
                ui.spinner();
                let (d, t) = (self.worker.progress.done.load(Ordering::Relaxed), self.worker.progress.total.load(Ordering::Relaxed));
                let (sd, st) = (self.worker.progress.inner.done.load(Ordering::Relaxed), self.worker.progress.inner.total.load(Ordering::Relaxed));
                if st > 0 {
                    ui.add(egui::ProgressBar::new(sd as f32 / st as f32).desired_width(120.0).text(format!("{sd}/{st} steps")));
                }
                ui.label(format!("Evaluating: {d}/{t} nodes"));
                if ui.small_button("Cancel").on_hover_text("Stop the running evaluation").clicked() {
                    self.worker.cancel();
                }
            } else {
                ui.label(&self.status);
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.label(format!("previews {} | viewport {} cells per face edge | {} nodes", self.res.preview, self.res.viewport, self.doc.graph.nodes.len()));
            });
        });
    }

    fn dialogs(&mut self, ctx: &egui::Context) {
        let Some(dialog) = self.dialog.clone() else { return };
        match dialog {
            Dialog::Message(m) => {
                egui::Window::new("PlanetGraph").collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
                    ui.label(m);
                    if ui.button("OK").clicked() {
                        self.dialog = None;
                    }
                });
            }
            Dialog::Path { save, mut text } => {
                let mut done = None;
                egui::Window::new(if save { "Save to path" } else { "Open path" }).collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
                    let r = ui.add(egui::TextEdit::singleline(&mut text).hint_text("/path/to/planet.ron").desired_width(360.0));
                    if text.is_empty() && !r.has_focus() {
                        r.request_focus();
                    }
                    let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
                    ui.horizontal(|ui| {
                        if ui.button(if save { "Save" } else { "Open" }).clicked() || enter {
                            done = Some(true);
                        }
                        if ui.button("Cancel").clicked() {
                            done = Some(false);
                        }
                    });
                });
                self.dialog = Some(Dialog::Path { save, text: text.clone() });
                match done {
                    Some(true) if !text.trim().is_empty() => {
                        self.dialog = None;
                        let path = PathBuf::from(text.trim());
                        if save {
                            match self.doc.save_as(&path) {
                                Ok(()) => self.status = format!("Saved {}", path.display()),
                                Err(e) => self.dialog = Some(Dialog::Message(format!("Cannot save.\n\n{e}"))),
                            }
                        } else {
                            self.open_path(path);
                        }
                    }
                    Some(false) => self.dialog = None,
                    _ => {}
                }
            }
            Dialog::Unsaved(action) => {
                egui::Window::new("Unsaved changes").collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
                    ui.label(format!("{} has unsaved changes.", self.doc.path.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "The graph".into())));
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked() {
                            self.dialog = None;
                            if self.save(false) {
                                self.do_action(action.clone(), ctx);
                            }
                        }
                        if ui.button("Don't save").clicked() {
                            self.dialog = None;
                            self.do_action(action.clone(), ctx);
                        }
                        if ui.button("Cancel").clicked() {
                            self.dialog = None;
                        }
                    });
                });
            }
        }
    }

    /// One frame of the whole UI. `gpu` is eframe's wgpu state (None in tests: the viewport
    /// then shows a placeholder).
    pub fn ui(&mut self, ctx: &egui::Context, gpu: Option<&egui_wgpu::RenderState>) {
        self.retired_textures.clear();
        self.apply_results(ctx);
        if ctx.input(|i| i.viewport().close_requested()) && !self.allow_close && self.doc.is_dirty() {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.dialog = Some(Dialog::Unsaved(Pending::Quit));
        }
        if self.dialog.is_none() {
            self.shortcuts(ctx);
        }
        egui::TopBottomPanel::top("menu").show(ctx, |ui| self.menu(ctx, ui));
        egui::TopBottomPanel::bottom("status").show(ctx, |ui| self.status_line(ui));
        egui::SidePanel::right("viewport").resizable(true).default_width(ctx.screen_rect().width() * 0.45).min_width(200.0).show(ctx, |ui| {
            self.viewport.controls(ui);
            self.viewport.picture(ui, gpu);
        });
        update_visibility(&mut self.editor);
        self.ed_state.selected = self.selected_ids();
        let mut responses = Vec::new();
        egui::CentralPanel::default().frame(egui::Frame::none().fill(egui::Color32::from_gray(24))).show(ctx, |ui| {
            let r = self.editor.draw_graph_editor(ui, AllKinds, &mut self.ed_state, Vec::new());
            responses = r.node_responses;
        });
        self.dialogs(ctx);
        self.after_editor(ctx, &responses);
        self.play_tick(ctx);
        let title = self.doc.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    /// Applies a step-mode button of a Tectonic plates node (an undoable parameter edit).
    pub fn plate_step(&mut self, id: NodeId, action: StepAction) {
        let Some(node) = self.doc.graph.node(id) else { return };
        let p = Params::new(NodeKind::TectonicPlates, &node.params);
        let cycles = if p.boolean("step_mode") { p.int("cycles") } else { 0 };
        let (mode, next) = match action {
            StepAction::Reset => (true, 0),
            StepAction::Step => (true, cycles + 1),
            StepAction::Play => (true, cycles),
            StepAction::Pause => {
                self.ed_state.playing = None;
                return;
            }
            StepAction::Finish => (false, cycles),
        };
        self.ed_state.playing = match action {
            StepAction::Play => Some(id),
            _ => None,
        };
        // Every button press is its own undo step (a parameter edit would merge otherwise).
        self.doc.seal();
        self.set_step(id, mode, next, false);
    }

    fn set_step(&mut self, id: NodeId, mode: bool, cycles: i64, merge: bool) {
        let mut g = self.doc.graph.clone();
        g.set_param(id, "step_mode", ParamValue::Bool(mode));
        g.set_param(id, "cycles", ParamValue::Int(cycles.clamp(0, 1_000_000)));
        if self.doc.commit(g, merge) {
            self.reload_editor();
        }
    }

    /// Advances a playing flood fill by one cycle once the previous one is shown.
    fn play_tick(&mut self, ctx: &egui::Context) {
        let Some(id) = self.ed_state.playing else { return };
        let Some(node) = self.doc.graph.node(id) else {
            self.ed_state.playing = None;
            return;
        };
        let p = Params::new(NodeKind::TectonicPlates, &node.params);
        let cycles = p.int("cycles");
        if self.worker.is_busy() {
            return;
        }
        match self.ed_state.plates.get(&id) {
            Some(st) if st.complete => self.ed_state.playing = None,
            Some(st) if st.cycles as i64 == cycles => {
                // About 60 frames for the whole growth: random-driven plates claim one region
                // per cycle each, so they advance several cycles per frame.
                let step = if p.boolean("random_driven") { (st.total as i64 / p.int("plates").max(1) / 60).max(1) } else { 1 };
                // The whole animation is one undo step.
                self.set_step(id, true, cycles + step, true);
                ctx.request_repaint_after(std::time::Duration::from_millis(60));
            }
            _ => ctx.request_repaint_after(std::time::Duration::from_millis(60)),
        }
    }

    fn after_editor(&mut self, ctx: &egui::Context, responses: &[NodeResponse<crate::editor::types::EdResponse, crate::editor::types::EdNode>]) {
        for r in responses {
            if let NodeResponse::User(EdResponse::PlateStep(id, action)) = r {
                self.plate_step(*id, *action);
                return;
            }
        }
        assign_new_ids(&mut self.editor);
        let moved = responses.iter().any(|r| matches!(r, NodeResponse::MoveNode { .. }));
        let structural = responses.iter().any(|r| !matches!(r, NodeResponse::MoveNode { .. } | NodeResponse::RaiseNode(_) | NodeResponse::SelectNode(_)));
        let g = from_editor(&self.editor);
        if g == self.doc.graph {
            return;
        }
        let same_content = g.nodes == self.doc.graph.nodes && g.links == self.doc.graph.links;
        if same_content && !moved && !structural {
            // Positions changed by zooming: a view change, not an edit.
            self.doc.set_view_layout(g.layout);
            return;
        }
        let dragging = ctx.input(|i| i.pointer.any_down());
        if self.doc.commit(g, dragging) {
            self.request_eval();
        }
    }
}

/// Refreshes the thumbnail of every Preview node from an evaluation result.
fn update_previews(ctx: &egui::Context, g: &Graph, res: &EvalResult, previews: &mut std::collections::HashMap<NodeId, egui::TextureHandle>) {
    for node in g.nodes.iter().filter(|n| n.kind == NodeKind::Preview) {
        let Some(field) = res.field(node.id) else {
            previews.remove(&node.id);
            continue;
        };
        let p = Params::new(NodeKind::Preview, &node.params);
        let (w, h, rgb) = preview_pixels(field, p.choice("view") == "Globe", p.choice("ramp") != "Grey");
        let img = egui::ColorImage::from_rgb([w, h], &rgb);
        match previews.get_mut(&node.id) {
            Some(tex) => tex.set(img, egui::TextureOptions::LINEAR),
            None => {
                previews.insert(node.id, ctx.load_texture(format!("preview-{}", node.id.0), img, egui::TextureOptions::LINEAR));
            }
        }
    }
}

impl eframe::App for PlanetApp {
    fn update(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        let gpu = frame.wgpu_render_state().cloned();
        self.ui(ctx, gpu.as_ref());
    }
}
