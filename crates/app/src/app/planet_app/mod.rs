//! The editor window: node editor and viewport side by side, background evaluation. The
//! menus and shortcuts, the document flow, the results and the plate animation live in the
//! child modules.

mod autosave;
mod background;
mod cache;
mod canvas;
mod closeup_requests;
mod dialogs;
mod edit;
mod export_dialog;
mod files;
mod frames;
mod groups;
mod links;
mod menus;
mod minimap;
mod placement;
mod plate_animation;
mod results;
mod status;
mod templates;

pub use canvas::Canvas;
use files::{Dialog, Pending};
pub use frames::LEGIBLE_ZOOM;

use super::document::Document;
use super::pipeline::Pipeline;
pub use super::pipeline::{Resolutions, COARSE_N};
use super::viewport::Viewport;
use crate::editor::types::EdResponse;
use crate::editor::{assign_new_ids, from_editor, keep_open_groups, update_visibility, AllKinds};
use egui_node_graph2::NodeResponse;
use planetgraph_core::graph::NodeId;
use std::sync::Arc;

/// The application: the parts it owns, and the wiring between them.
pub struct PlanetApp {
    /// The open document and its undo history.
    pub doc: Document,
    /// The node canvas and what it shows on the nodes.
    pub canvas: Canvas,
    /// The evaluation pipeline.
    pub pipeline: Pipeline,
    /// The viewport and its close-ups.
    pub viewport: Viewport,
    /// The open dialogs and editing windows.
    dialogs: dialogs::Dialogs,
    /// The status line.
    status: status::StatusLine,
    /// Autosave, recovery and recent files (none in tests unless a folder is given).
    files: files::FileState,
    /// The user's library of saved groups (none in tests unless a folder is given).
    library: Option<crate::app::library::Library>,
    /// The library and recovery reads running in the background.
    loads: background::Loads,
    /// The ready-made *Planet surface* group of the finder (made once from the default graph).
    ready_surface: Option<Arc<planetgraph_core::graph::Graph>>,
    /// The templates' renders, loaded when the picker first opens.
    template_textures: Vec<Option<egui::TextureHandle>>,
    /// The unsaved-changes question was answered: the window may close.
    allow_close: bool,
    /// The window title last sent.
    title: String,
}

/// The editor's style: egui's default, with labels that let clicks and drags through to the
/// nodes they sit on, and the density of egui 0.29 (12.5 pt text, 18 px rows, buttons padded
/// 4 x 1 px), which the example graphs' layouts and the node sizes were made for; newer egui
/// rows are 10 % taller and made neighbouring nodes overlap.
fn compact_style(s: &mut egui::Style) {
    s.interaction.selectable_labels = false;
    s.spacing.interact_size.y = 18.0;
    s.spacing.button_padding = egui::vec2(4.0, 1.0);
    for style in [egui::TextStyle::Body, egui::TextStyle::Button] {
        if let Some(font) = s.text_styles.get_mut(&style) {
            font.size = 12.5;
        }
    }
    // Hinting snapped the thin strokes of '-' and '_' to nothing at 12.5 px (a parameter of
    // -25 read "25", "Earth-like" "Earth like"): unhinted glyphs keep them at every zoom.
    s.visuals.text_options.font_hinting = false;
}

impl PlanetApp {
    /// Creates the app for a document; evaluation starts at once. Fails only if the
    /// evaluation thread cannot be started.
    pub fn new(doc: Document, ctx: &egui::Context) -> std::io::Result<PlanetApp> {
        ctx.all_styles_mut(compact_style);
        let repaint = ctx.clone();
        let pipeline = Pipeline::start(Arc::new(move || repaint.request_repaint()))?;
        let repaint = ctx.clone();
        let loads = background::Loads::new(Arc::new(move || repaint.request_repaint()));
        let mut app = PlanetApp {
            canvas: Canvas::new(&doc.graph),
            doc,
            pipeline,
            viewport: Viewport::default(),
            dialogs: dialogs::Dialogs::default(),
            status: status::StatusLine::new("Starting"),
            files: files::FileState::default(),
            library: None,
            loads,
            ready_surface: None,
            template_textures: Vec::new(),
            allow_close: false,
            title: String::new(),
        };
        match planetgraph_examples::templates::planet_surface() {
            Ok(body) => app.ready_surface = Some(Arc::new(body)),
            // The built-in default graph is tested to give it; say so should it ever not.
            Err(e) => app.status.text = format!("The Planet surface group is not available: {e}"),
        }
        app.request_eval();
        Ok(app)
    }

    /// Asks the pipeline for a new evaluation (cancels the one running); the viewport and the
    /// previews are marked out of date until it lands.
    pub fn request_eval(&mut self) {
        let extra = self.canvas.ed_state.viewed.into_iter().collect();
        self.pipeline.request(self.doc.graph.clone(), extra);
        self.viewport.set_refining(Some("evaluating the change…".to_string()));
        self.canvas.ed_state.previews_stale = true;
        // The last evaluation's report no longer holds; what an edit said stays.
        self.status.progress("Evaluating…".to_string());
    }

    /// Cells per face edge of each stage of the last requested evaluation that has reached the
    /// viewport so far, coarsest first (stages that land in one frame are all listed).
    pub fn stages_shown(&self) -> &[usize] {
        self.pipeline.stages_shown()
    }

    /// Says `text` about the edit just made (see [`status::StatusLine::note_edit`]).
    pub(super) fn note_edit(&mut self, text: String) {
        self.status.note_edit(text);
    }

    /// The status line's text.
    pub fn status(&self) -> &str {
        &self.status.text
    }

    /// Cancels the running evaluation (the status line's Cancel).
    pub fn cancel_eval(&self) {
        self.pipeline.cancel();
    }

    /// Whether an evaluation is still running.
    pub fn is_evaluating(&self) -> bool {
        self.pipeline.is_busy()
    }

    /// Records `g` as an undo step of its own and, when its content changed, rebuilds the
    /// editor from it (which evaluates again). Returns whether the content changed.
    pub fn apply_edit(&mut self, g: planetgraph_core::graph::Graph) -> bool {
        self.doc.seal();
        let changed = self.doc.commit(g, false);
        if changed {
            self.reload_editor();
        }
        changed
    }

    /// The graph as the editor shows it now: its nodes, links and closed groups, with the
    /// document's frames and open groups (the node editor knows nothing of those).
    fn read_editor(&self) -> planetgraph_core::graph::Graph {
        let mut g = from_editor(&self.canvas.editor);
        g.frames = self.doc.graph.frames.clone();
        keep_open_groups(&mut g, &self.doc.graph);
        g
    }

    fn reload_editor(&mut self) {
        self.rebuild_editor();
        self.request_eval();
    }

    /// Rebuilds the editor from the document's graph, keeping the view and the selection.
    fn rebuild_editor(&mut self) {
        self.canvas.rebuild(&self.doc.graph);
    }

    fn set_document(&mut self, doc: Document) {
        self.doc = doc;
        self.canvas.replace(&self.doc.graph);
        self.viewport.clear_field();
        self.viewport.aim_at_land_next();
        self.viewport.set_viewer(None);
        self.pipeline.forget_shown();
        self.request_eval();
    }

    /// Sets an Export node's options from a consumer preset (one undoable edit).
    fn apply_preset(&mut self, id: NodeId, preset: planetgraph_core::export::presets::Preset) {
        let Some(node) = self.doc.graph.node(id) else { return };
        let mut s: planetgraph_core::nodes::output::export::ExportSettings = match node.settings() {
            Ok(s) => s,
            Err(e) => {
                self.status.text = format!("{}: {e}", node.describe());
                return;
            }
        };
        preset.apply(&mut s);
        let mut g = self.doc.graph.clone();
        g.set_settings(id, &s);
        self.apply_edit(g);
    }

    /// Shows the canvas at zoom 1 with graph point (0, 0) at the canvas corner, and stops the
    /// framing of a newly opened document (tests click at known layout positions).
    pub fn reset_canvas_view(&mut self) {
        self.canvas.reset_view();
    }

    /// Undo the last edit; the status line says what it took back.
    pub fn undo(&mut self) {
        let before = self.doc.graph.clone();
        if self.doc.undo() {
            self.note_edit(format!("Undid: {}", planetgraph_core::graph::describe_change(&self.doc.graph, &before)));
            self.reload_editor();
        } else {
            self.status.text = "Nothing to undo".into();
        }
    }

    /// Redo; the status line says what it brought back.
    pub fn redo(&mut self) {
        let before = self.doc.graph.clone();
        if self.doc.redo() {
            self.note_edit(format!("Redid: {}", planetgraph_core::graph::describe_change(&before, &self.doc.graph)));
            self.reload_editor();
        } else {
            self.status.text = "Nothing to redo".into();
        }
    }

    /// Domain ids of the selected nodes.
    pub fn selected_ids(&self) -> Vec<NodeId> {
        self.canvas.selected_ids()
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
        self.apply_edit(g);
    }

    /// One frame of the whole UI in the window's root `Ui`. `gpu` is eframe's wgpu state (None
    /// in tests: the viewport then shows a placeholder).
    pub fn ui(&mut self, root: &mut egui::Ui, gpu: Option<&egui_wgpu::RenderState>) {
        let ctx = &root.ctx().clone();
        self.canvas.retired_textures.clear();
        self.apply_background_loads();
        self.apply_results(ctx);
        self.canvas.ed_state.folder.clone_from(&self.doc.graph.folder);
        if ctx.input(|i| i.viewport().close_requested()) && !self.allow_close && self.doc.is_dirty() {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.dialogs.question = Some(Dialog::Unsaved(Pending::Quit));
        }
        if !self.dialogs.takes_keys() {
            self.shortcuts(ctx);
        }
        egui::Panel::top("menu").show(root, |ui| self.menu(ctx, ui));
        egui::Panel::bottom("status").show(root, |ui| self.status_line(ui));
        egui::Panel::right("viewport").resizable(true).default_size(ctx.content_rect().width() * 0.45).min_size(200.0).show(root, |ui| {
            if self.viewport.controls(ui) {
                self.canvas.ed_state.viewed = None;
                self.update_viewer();
            }
            self.viewport.picture(ui, gpu);
        });
        self.request_closeup(ctx);
        update_visibility(&mut self.canvas.editor);
        self.canvas.ed_state.selected = self.selected_ids();
        self.canvas.ed_state.open_groups = self.doc.graph.groups.iter().filter(|g| g.open).flat_map(|g| g.members.iter().copied()).collect();
        let mut responses = Vec::new();
        let mut frame_actions = Vec::new();
        let frames = self.doc.graph.frames.clone();
        let outlines = self.open_group_outlines();
        let templates = self.library_templates();
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(root, |ui| {
            let r = self.canvas.editor.draw_graph_editor_with(ui, AllKinds(&templates), &mut self.canvas.ed_state, Vec::new(), &mut |ui| {
                frames::draw_frames(ui, &frames, &mut frame_actions);
                groups::draw_open_groups(ui, &outlines);
            });
            responses = r.node_responses;
            self.empty_canvas_hint(ui);
        });
        if ctx.input(|i| i.pointer.any_pressed() || i.smooth_scroll_delta != egui::Vec2::ZERO) {
            self.canvas.frame_pending = 0;
        }
        if self.canvas.frame_pending > 0 && !self.canvas.editor.node_rects.is_empty() {
            self.canvas.frame_pending -= 1;
            self.frame_opened();
            ctx.request_repaint();
        }
        self.minimap(ctx);
        self.dialogs(ctx);
        self.export_window(ctx);
        self.after_editor(ctx, &responses);
        self.apply_frame_actions(ctx, frame_actions);
        self.frame_window(ctx);
        self.rename_window(ctx);
        self.group_window(ctx);
        self.play_tick(ctx);
        self.autosave_tick(ctx);
        if std::mem::take(&mut self.canvas.drop_focus) {
            if let Some(id) = ctx.memory(|m| m.focused()) {
                ctx.memory_mut(|m| m.surrender_focus(id));
            }
        }
        let title = self.doc.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    fn after_editor(&mut self, ctx: &egui::Context, responses: &[NodeResponse<crate::editor::types::EdResponse, crate::editor::types::EdNode>]) {
        for r in responses {
            if let NodeResponse::User(EdResponse::Clamped(id, note)) = r {
                let name = self.doc.graph.node(*id).map_or_else(|| id.to_string(), |n| n.describe());
                self.note_edit(format!("{name}: {note}"));
            }
        }
        for r in responses {
            if let NodeResponse::User(EdResponse::PlateStep(id, action)) = r {
                self.plate_step(*id, *action);
                return;
            }
            if let NodeResponse::User(EdResponse::ExportPreset(id, preset)) = r {
                self.apply_preset(*id, *preset);
                return;
            }
            if let NodeResponse::User(EdResponse::ErosionPreset(id, preset)) = r {
                self.apply_erosion_preset(*id, *preset);
                return;
            }
            if let NodeResponse::User(EdResponse::Node(id, action)) = r {
                self.node_action(ctx, *id, *action);
                return;
            }
        }
        if let Some(NodeResponse::MoveNode { node, .. }) = responses.iter().find(|r| matches!(r, NodeResponse::MoveNode { .. })) {
            self.canvas.dragged = Some(*node);
        }
        let released = !ctx.input(|i| i.pointer.any_down());
        self.explain_refused_links(responses);
        for r in responses {
            if let NodeResponse::CreatedNode(node) = r {
                self.place_new_node(*node);
            }
        }
        assign_new_ids(&mut self.canvas.editor, self.doc.next_id());
        let mut g = self.read_editor();
        if self.adapt_noise_types(&mut g) {
            // The editor shows the adapted values from the next frame.
            self.doc.seal();
            if self.doc.commit(g, false) {
                self.rebuild_editor();
                self.request_eval();
            }
            return;
        }
        if self.doc.commit(g, !released) {
            self.request_eval();
        }
        if released {
            // A single node dropped onto a wire goes into it.
            if let Some(node) = self.canvas.dragged.take().filter(|_| self.canvas.editor.selected_nodes.len() <= 1) {
                self.drop_on_wire(node);
            }
        }
    }
}

impl eframe::App for PlanetApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let gpu = frame.wgpu_render_state().cloned();
        PlanetApp::ui(self, ui, gpu.as_ref());
    }

    fn on_exit(&mut self) {
        // A clean exit: the unsaved-changes question has been answered.
        self.clear_recovery();
    }
}
