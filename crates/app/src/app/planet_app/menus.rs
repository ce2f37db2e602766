//! The menu bar, keyboard shortcuts, the node finder and the status line.

use super::files::{Dialog, Pending};
use super::PlanetApp;
use egui::{Key, KeyboardShortcut, Modifiers};
use egui_node_graph2::NodeFinder;
use std::sync::atomic::Ordering;

impl PlanetApp {
    pub(super) fn shortcuts(&mut self, ctx: &egui::Context) {
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
        if ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::E))) {
            self.open_export();
        }
        if ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::Q))) {
            self.try_action(Pending::Quit, ctx);
        }
        if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F5)) {
            self.run_again();
        }
        if !ctx.egui_wants_keyboard_input() {
            // Clipboard events (the platform turns Ctrl+C / X / V into these).
            let events: Vec<egui::Event> = ctx.input(|i| i.events.iter().filter(|e| matches!(e, egui::Event::Copy | egui::Event::Cut | egui::Event::Paste(_))).cloned().collect());
            for e in events {
                match e {
                    egui::Event::Copy => {
                        self.copy_selection(ctx);
                    }
                    egui::Event::Cut => self.cut_selection(ctx),
                    egui::Event::Paste(text) => self.paste(ctx, &text),
                    _ => {}
                }
            }
            if ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::D))) || ctx.input_mut(|i| i.consume_key(Modifiers::SHIFT, Key::D)) {
                self.duplicate_selection();
            }
            if ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::A))) {
                self.select_all();
            }
            if ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::J))) {
                self.frame_selection();
            }
            if ctx.input_mut(|i| i.consume_shortcut(&sc(shift_cmd, Key::G))) {
                self.ungroup_selected();
            }
            if ctx.input_mut(|i| i.consume_shortcut(&sc(Modifiers::COMMAND, Key::G))) {
                self.group_selection();
            }
            if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Tab)) {
                self.open_or_close_selected();
                // egui moves the keyboard focus on Tab as well: give it back at the frame's end.
                self.canvas.drop_focus = true;
            }
            if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::V)) {
                self.view_selected();
            }
            if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F2)) {
                self.rename_selected();
            }
            if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::M)) {
                let ids = self.selected_ids();
                self.toggle_bypass(&ids);
            }
            if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::H)) {
                let ids = self.selected_ids();
                self.toggle_collapse(&ids);
            }
            if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Delete)) || ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Backspace)) {
                self.delete_selected();
            }
            if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Home)) {
                self.frame_all();
            }
            if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F)) {
                self.frame_selected();
            }
            if ctx.input_mut(|i| i.consume_key(Modifiers::SHIFT, Key::A)) || ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Space)) {
                self.open_finder(ctx);
            }
        }
    }

    pub(super) fn menu(&mut self, ctx: &egui::Context, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.add(egui::Button::new("New").shortcut_text("Ctrl+N")).on_hover_text("An empty graph").clicked() {
                    ui.close();
                    self.try_action(Pending::New, ctx);
                }
                if ui.button("New from template…").on_hover_text("Start from one of the example graphs, shown with their renders").clicked() {
                    ui.close();
                    self.open_templates();
                }
                if ui.add(egui::Button::new("Open…").shortcut_text("Ctrl+O")).clicked() {
                    ui.close();
                    self.try_action(Pending::Open, ctx);
                }
                let recent = self.recent_files();
                ui.add_enabled_ui(!recent.is_empty(), |ui| {
                    ui.menu_button("Open Recent", |ui| {
                        for p in recent {
                            let name = p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                            if ui.button(name).on_hover_text(p.display().to_string()).clicked() {
                                ui.close();
                                self.try_action(Pending::OpenRecent(p), ctx);
                            }
                        }
                    });
                });
                if ui.button("Open path…").on_hover_text("Type the path of a graph file (where no file dialog is available)").clicked() {
                    ui.close();
                    self.try_action(Pending::OpenPath, ctx);
                }
                if ui.add(egui::Button::new("Save").shortcut_text("Ctrl+S")).clicked() {
                    ui.close();
                    self.save(false);
                }
                if ui.add(egui::Button::new("Save As…").shortcut_text("Ctrl+Shift+S")).clicked() {
                    ui.close();
                    self.save(true);
                }
                if ui.button("Save to path…").on_hover_text("Type the path to save to (where no file dialog is available)").clicked() {
                    ui.close();
                    self.dialogs.question = Some(Dialog::Path { save: true, text: self.save_text() });
                }
                ui.separator();
                if ui.add(egui::Button::new("Export…").shortcut_text("Ctrl+E")).on_hover_text("Build the Export nodes' files (or the default set) into a folder").clicked() {
                    ui.close();
                    self.open_export();
                }
                ui.separator();
                if ui.add(egui::Button::new("Quit").shortcut_text("Ctrl+Q")).clicked() {
                    ui.close();
                    self.try_action(Pending::Quit, ctx);
                }
            });
            ui.menu_button("Edit", |ui| {
                if ui.add_enabled(self.doc.can_undo(), egui::Button::new("Undo").shortcut_text("Ctrl+Z")).clicked() {
                    ui.close();
                    self.undo();
                }
                if ui.add_enabled(self.doc.can_redo(), egui::Button::new("Redo").shortcut_text("Ctrl+Shift+Z")).clicked() {
                    ui.close();
                    self.redo();
                }
                ui.separator();
                let any = !self.canvas.editor.selected_nodes.is_empty();
                if ui.add_enabled(any, egui::Button::new("Cut").shortcut_text("Ctrl+X")).clicked() {
                    ui.close();
                    self.cut_selection(ctx);
                }
                if ui.add_enabled(any, egui::Button::new("Copy").shortcut_text("Ctrl+C")).on_hover_text("The selected nodes and the links among them, as RON text").clicked() {
                    ui.close();
                    self.copy_selection(ctx);
                }
                if ui.add_enabled(any, egui::Button::new("Duplicate").shortcut_text("Ctrl+D")).clicked() {
                    ui.close();
                    self.duplicate_selection();
                }
                if ui.add(egui::Button::new("Select all").shortcut_text("Ctrl+A")).clicked() {
                    ui.close();
                    self.select_all();
                }
                if ui.add_enabled(any, egui::Button::new("Frame selected nodes").shortcut_text("Ctrl+J")).on_hover_text("A named, coloured box with a comment around the selection; drag its bar to move it with its nodes").clicked() {
                    ui.close();
                    self.frame_selection();
                }
                if ui.add_enabled(any, egui::Button::new("Group selected nodes").shortcut_text("Ctrl+G")).on_hover_text("One node standing for the selection, with its inputs, outputs and chosen parameters").clicked() {
                    ui.close();
                    self.group_selection();
                }
                if ui.add_enabled(any, egui::Button::new("Open / close group").shortcut_text("Tab")).on_hover_text("Edit a group's nodes in place, or close the open group of a selected node").clicked() {
                    ui.close();
                    self.open_or_close_selected();
                }
                if ui.add_enabled(any, egui::Button::new("Ungroup").shortcut_text("Ctrl+Shift+G")).clicked() {
                    ui.close();
                    self.ungroup_selected();
                }
                if ui.add_enabled(any, egui::Button::new("Delete selected").shortcut_text("Del")).clicked() {
                    ui.close();
                    self.delete_selected();
                }
                if ui.add(egui::Button::new("Add node…").shortcut_text("Shift+A / Space / right click")).clicked() {
                    ui.close();
                    self.open_finder(ctx);
                }
            });
            ui.menu_button("View", |ui| {
                if ui.add(egui::Button::new("Frame all nodes").shortcut_text("Home")).clicked() {
                    ui.close();
                    self.frame_all();
                }
                if ui.add(egui::Button::new("Frame selected nodes").shortcut_text("F")).clicked() {
                    ui.close();
                    self.frame_selected();
                }
                if ui.add(egui::Button::new("Show selected node in viewport").shortcut_text("V")).on_hover_text("The viewport shows the selected node's output on the planet (V again: the planet)").clicked() {
                    ui.close();
                    self.view_selected();
                }
                if ui.add(egui::Button::new("Run").shortcut_text("F5")).on_hover_text("Evaluate the graph again (after a cancel)").clicked() {
                    ui.close();
                    self.run_again();
                }
                if ui.button("Clear node cache").on_hover_text("Remove the node results kept on disk between runs (they make reopening a graph, undo and redo fast; nothing in them changes a result)").clicked() {
                    ui.close();
                    self.clear_disk_cache();
                }
                ui.separator();
                if ui.button("Reset planet view").clicked() {
                    ui.close();
                    self.viewport.reset_view();
                }
                ui.label("Evaluation resolution (cells per face edge):");
                let before = self.pipeline.res;
                egui::ComboBox::from_label("previews").selected_text(self.pipeline.res.preview.to_string()).show_ui(ui, |ui| {
                    for n in [32usize, 64, 128] {
                        ui.selectable_value(&mut self.pipeline.res.preview, n, n.to_string());
                    }
                });
                egui::ComboBox::from_label("viewport").selected_text(self.pipeline.res.viewport.to_string()).show_ui(ui, |ui| {
                    for n in [128usize, 256, 512] {
                        ui.selectable_value(&mut self.pipeline.res.viewport, n, n.to_string());
                    }
                });
                if before != self.pipeline.res {
                    self.request_eval();
                }
            });
            ui.menu_button("Help", |ui| {
                ui.label("Right click, Shift+A or Space: add a node");
                ui.label("Drag from an output to an input: connect");
                ui.label("Del: delete selected nodes; Ctrl+Z / Ctrl+Shift+Z: undo / redo");
                ui.label("Ctrl+C / X / V: copy, cut, paste nodes (RON text); Ctrl+D: duplicate; Ctrl+A: select all; Ctrl+J: frame the selection");
                ui.label("Drop a node onto a wire to insert it");
                ui.label("Right click a node: its menu; V: show the selected node in the viewport; F2: rename; M: bypass; H: collapse; F5: run");
                ui.label("Canvas: wheel zooms at the pointer, middle or Ctrl drag pans; Home: frame all; F: frame selected");
                ui.label("Viewport: drag to move over the planet, Shift+drag or right drag up/down to tilt towards the horizon, scroll to zoom (slower near the ground), double-click to reset");
                ui.label("Headless: planetgraph build FILE.ron --out DIR");
            });
        });
    }

    pub(super) fn status_line(&mut self, ui: &mut egui::Ui) {
        // The right-hand figures first, so a long message is cut short (the whole of it on
        // hover) instead of running under them.
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let shown = match self.pipeline.shown_n() {
                Some(n) if n == self.pipeline.res.viewport => format!("viewport at {n}"),
                Some(n) => format!("viewport at {n} of {}", self.pipeline.res.viewport),
                None => "viewport empty".to_string(),
            };
            ui.label(format!("previews {} | {shown} cells per face edge | {} nodes", self.pipeline.res.preview, self.doc.graph.nodes.len()))
                .on_hover_text("Resolutions: the previews' setting, then what the viewport shows now against its setting (View menu)");
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| self.status_message(ui));
        });
    }

    /// The status line's left part: progress and Cancel while evaluating, else Run and the
    /// last message.
    fn status_message(&mut self, ui: &mut egui::Ui) {
        if self.pipeline.is_busy() {
            ui.spinner();
            let p = self.pipeline.progress();
            let (d, t) = (p.done.load(Ordering::Relaxed), p.total.load(Ordering::Relaxed));
            let (sd, st) = (p.inner.done.load(Ordering::Relaxed), p.inner.total.load(Ordering::Relaxed));
            if st > 0 {
                ui.add(egui::ProgressBar::new(sd as f32 / st as f32).desired_width(120.0).text(format!("{sd}/{st} steps")));
            }
            if ui.small_button("Cancel").on_hover_text("Stop the running evaluation").clicked() {
                self.pipeline.cancel();
            }
            // A close-up's tile is evaluated by the same thread, after the planet.
            let text = match self.viewport.closeups.loading().filter(|_| self.viewport.closeups.is_pending(self.pipeline.generation())) {
                Some(tiles) => format!("{tiles}; this tile {d}/{t} nodes"),
                None => format!("Evaluating: {d}/{t} nodes"),
            };
            ui.add(egui::Label::new(text).truncate());
        } else {
            if ui.small_button("▶ Run").on_hover_text("Evaluate the graph again (F5)").clicked() {
                self.run_again();
            }
            let text = match self.viewport.closeups.loading() {
                Some(tiles) => format!("{} · {tiles}", self.status.text),
                None => self.status.text.clone(),
            };
            ui.add(egui::Label::new(text).truncate());
        }
    }

    /// Evaluates again (Run, F5): after a cancel, or to refresh.
    pub fn run_again(&mut self) {
        self.request_eval();
        self.status.evaluation_says("Evaluating…".into());
    }

    pub(super) fn open_finder(&mut self, ctx: &egui::Context) {
        let pos = ctx.input(|i| i.pointer.hover_pos()).unwrap_or_else(|| ctx.content_rect().center());
        self.canvas.editor.node_finder = Some(NodeFinder::new_at(pos));
    }
}
