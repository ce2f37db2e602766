//! The document flow: New, Open, Save, the unsaved-changes question and the dialogs.

use super::PlanetApp;
use crate::app::document::Document;
use crate::io::default_graph;
use std::path::PathBuf;

/// What to do once unsaved changes are dealt with.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Pending {
    /// A new graph (the default planet).
    New,
    /// Open through the desktop dialog.
    Open,
    /// Open a typed path.
    OpenPath,
    /// Close the window.
    Quit,
}

/// A modal dialog.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Dialog {
    /// Ask before dropping unsaved changes, then do the action.
    Unsaved(Pending),
    /// A message with an OK button.
    Message(String),
    /// Type a file path (for systems without a desktop file-dialog portal).
    Path { save: bool, text: String },
}

impl PlanetApp {
    pub(super) fn try_action(&mut self, action: Pending, ctx: &egui::Context) {
        if self.doc.is_dirty() {
            self.dialog = Some(Dialog::Unsaved(action));
        } else {
            self.do_action(action, ctx);
        }
    }

    pub(super) fn do_action(&mut self, action: Pending, ctx: &egui::Context) {
        match action {
            Pending::New => match default_graph() {
                Ok(g) => self.set_document(Document::new(g, None)),
                Err(e) => self.dialog = Some(Dialog::Message(format!("Cannot make a new graph.\n\n{e}"))),
            },
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

    pub(super) fn dialogs(&mut self, ctx: &egui::Context) {
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
}
