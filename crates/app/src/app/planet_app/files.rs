//! The document flow: New, Open, Open Recent, Save, the unsaved-changes question, the typed
//! path dialogs used where no desktop file dialog exists, and the dialogs.

use super::PlanetApp;
use crate::app::document::Document;
use crate::app::recovery::{RecentFiles, Recovered, Recovery};
use planetgraph_core::graph::Graph;
use planetgraph_examples::templates::TEMPLATES;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A desktop file dialog that answers faster than this never showed (no portal, no zenity):
/// nobody can cancel a dialog that quickly.
const DIALOG_MISSING: Duration = Duration::from_millis(300);

/// Autosave, recovery, recent files and the file-dialog fallback.
#[derive(Default)]
pub(super) struct FileState {
    /// This editor's recovery copy (none without a state folder).
    pub recovery: Option<Recovery>,
    /// The recent files (none without a state folder).
    pub recent: Option<RecentFiles>,
    /// `egui` time of the last autosave (or of the last moment without unsaved changes).
    pub last_autosave: f64,
    /// The graph last written to the recovery copy.
    pub autosaved: Option<Graph>,
    /// Whether the window had the focus in the last frame.
    pub focused: bool,
    /// No desktop file dialog works here: typed-path dialogs are used instead.
    pub no_dialogs: bool,
    /// Recovery copies still to be asked about, newest first.
    pub to_recover: Vec<Recovered>,
}

/// Whether `path` is one of the example graphs shipped in this repository's `graphs/` folder
/// (saving over one needs a new name).
pub fn is_shipped_example(path: &Path) -> bool {
    let graphs = Path::new(env!("CARGO_MANIFEST_DIR")).join("graphs");
    let parent = std::fs::canonicalize(path).ok().and_then(|p| p.parent().map(Path::to_path_buf));
    parent.is_some() && parent == std::fs::canonicalize(graphs).ok()
}

/// What to do once unsaved changes are dealt with.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Pending {
    /// A new, empty graph.
    New,
    /// A new graph from the template at this index of [`planetgraph_examples::templates::TEMPLATES`].
    Template(usize),
    /// Open through the desktop dialog.
    Open,
    /// Open a typed path.
    OpenPath,
    /// Open a file from the recent list.
    OpenRecent(PathBuf),
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
    /// The typed save path names another existing file: replace it?
    Overwrite(PathBuf),
    /// A recovery copy left by an editor that did not exit cleanly: recover it?
    Recover(Box<Recovered>),
    /// Pick one of the example graphs to start from.
    Templates,
}

impl PlanetApp {
    pub(super) fn try_action(&mut self, action: Pending, ctx: &egui::Context) {
        if self.doc.is_dirty() {
            self.dialogs.question = Some(Dialog::Unsaved(action));
        } else {
            self.do_action(action, ctx);
        }
    }

    pub(super) fn do_action(&mut self, action: Pending, ctx: &egui::Context) {
        match action {
            Pending::New => {
                self.set_document(Document::new(Graph::default(), None));
                self.status.text = "New graph: add nodes with a right click or Shift+A, or start from a template (File > New from template)".into();
            }
            Pending::Template(k) => match TEMPLATES.get(k).map(|t| (t, t.graph())) {
                Some((t, Ok(mut g))) => {
                    // A template that reads files (Earth's relief) gets them written into the
                    // state folder; its graph reads them from there until it is saved.
                    let dir = self.files.recovery.as_ref().map(|r| r.dir().to_path_buf()).unwrap_or_else(|| std::env::temp_dir().join("planetgraph"));
                    let written = t.materialise(&dir);
                    if let Ok(Some(folder)) = &written {
                        g.folder = Some(folder.clone());
                    }
                    self.set_document(Document::new(g, None));
                    self.status.text = match written {
                        Err(e) => format!("New graph from the template '{}', but its files could not be written into {}: {e}", t.title, dir.display()),
                        Ok(_) => format!("New graph from the template '{}': saving asks for a file name", t.title),
                    };
                }
                Some((_, Err(e))) => self.dialogs.question = Some(Dialog::Message(format!("Cannot open the template.\n\n{e}"))),
                None => self.dialogs.question = Some(Dialog::Message(format!("There is no template number {k}"))),
            },
            Pending::Open => {
                let start = self.doc.path.as_ref().and_then(|p| p.parent()).map(Path::to_path_buf);
                let picked = self.desktop_dialog(move || {
                    let d = rfd::FileDialog::new().add_filter("PlanetGraph graph", &["ron"]);
                    match start {
                        Some(dir) => d.set_directory(dir).pick_file(),
                        None => d.pick_file(),
                    }
                });
                match picked {
                    Some(Some(path)) => self.open_path(path),
                    Some(None) => {}
                    None => self.dialogs.question = Some(Dialog::Path { save: false, text: self.folder_text() }),
                }
            }
            Pending::OpenPath => self.dialogs.question = Some(Dialog::Path { save: false, text: self.folder_text() }),
            Pending::OpenRecent(path) => self.open_path(path),
            Pending::Quit => {
                self.allow_close = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Opens a file; on failure the current graph stays and a dialog explains why. A graph
    /// with errors opens: its errors show on the nodes, and what had to be taken out to open
    /// it is listed in a dialog.
    pub fn open_path(&mut self, path: PathBuf) {
        match Document::open(&path) {
            Ok(doc) => {
                self.set_document(doc);
                self.remember_recent(&path);
                self.show_repairs();
            }
            Err(e) => self.dialogs.question = Some(Dialog::Message(format!("Cannot open the graph.\n\n{e}"))),
        }
    }

    /// After start-up: shows why the file named on the command line could not be opened
    /// (`problem`), or what opening it had to repair. A recovery question asked at start-up
    /// comes after it.
    pub fn opened_with(&mut self, problem: Option<String>) {
        match self.dialogs.question.take() {
            Some(Dialog::Recover(r)) => self.files.to_recover.insert(0, *r),
            other => self.dialogs.question = other,
        }
        if self.dialogs.question.is_some() {
            return;
        }
        match problem {
            Some(m) => self.dialogs.question = Some(Dialog::Message(m)),
            None => self.show_repairs(),
        }
        self.offer_next_recovery();
    }

    /// Lists what opening the document had to take out (if anything) in a dialog.
    pub(super) fn show_repairs(&mut self) {
        let bullets = |v: &[String]| -> String { v.iter().map(|r| format!("\n• {r}")).collect() };
        let updated = if self.doc.updated.is_empty() {
            String::new()
        } else {
            format!("The file was saved by an older PlanetGraph and is brought up to date. The planet's radius, sea level, highest peak and deepest ocean are now set once, on the Planet node, and every node reads them; these nodes had values of their own, so their results change:\n{}\n\nSaving writes the current format.", bullets(&self.doc.updated))
        };
        if self.doc.repairs.is_empty() {
            if !updated.is_empty() {
                self.dialogs.question = Some(Dialog::Message(updated));
                self.status.text = format!("Opened and brought up to date: {} node{} now use the planet's settings", self.doc.updated.len(), if self.doc.updated.len() == 1 { "" } else { "s" });
            }
            return;
        }
        let list = bullets(&self.doc.repairs);
        let after = if updated.is_empty() { String::new() } else { format!("\n\n{updated}") };
        self.dialogs.question = Some(Dialog::Message(format!("The graph had errors. It is open so that you can repair it; these parts could not be kept:\n{list}\n\nOther errors are shown on their nodes. Saving writes the repaired graph.{after}")));
        self.status.text = format!("Opened with {} repair{}: see the nodes marked in red", self.doc.repairs.len(), if self.doc.repairs.len() == 1 { "" } else { "s" });
    }

    /// The text of the message dialog on screen, if any.
    pub fn message(&self) -> Option<&str> {
        match &self.dialogs.question {
            Some(Dialog::Message(m)) => Some(m),
            _ => None,
        }
    }

    /// Closes the dialog on screen, as its OK or Cancel would.
    pub fn close_dialog(&mut self) {
        self.dialogs.question = None;
        self.offer_next_recovery();
    }

    /// The typed-path dialog on screen, if any: whether it saves, and the path as typed.
    pub fn typed_path_dialog(&self) -> Option<(bool, &str)> {
        match &self.dialogs.question {
            Some(Dialog::Path { save, text }) => Some((*save, text)),
            _ => None,
        }
    }

    /// Runs a desktop file dialog. `None`: no desktop dialog exists here (it answered at
    /// once); from then on the typed-path dialogs are used, and the reason is shown once.
    pub fn desktop_dialog(&mut self, run: impl FnOnce() -> Option<PathBuf>) -> Option<Option<PathBuf>> {
        if self.files.no_dialogs {
            return None;
        }
        let start = Instant::now();
        let picked = run();
        if picked.is_none() && start.elapsed() < DIALOG_MISSING {
            self.files.no_dialogs = true;
            self.status.text = "No desktop file dialog is available here (no xdg-desktop-portal and no zenity): type the path instead".into();
            return None;
        }
        Some(picked)
    }

    /// The current file's folder with a trailing separator (or the working folder), to start
    /// typing a path from.
    fn folder_text(&self) -> String {
        let dir = self.doc.path.as_ref().and_then(|p| p.parent()).map(Path::to_path_buf).or_else(|| std::env::current_dir().ok()).unwrap_or_default();
        format!("{}{}", dir.display(), std::path::MAIN_SEPARATOR)
    }

    /// The current file's path, or `untitled.ron` in the working folder, to save to.
    pub(super) fn save_text(&self) -> String {
        match &self.doc.path {
            Some(p) if !is_shipped_example(p) => p.display().to_string(),
            Some(p) => {
                let stem = p.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "planet".into());
                format!("{}{stem}_copy.ron", self.folder_text())
            }
            None => format!("{}untitled.ron", self.folder_text()),
        }
    }

    pub(super) fn remember_recent(&mut self, path: &Path) {
        if let Some(r) = &mut self.files.recent {
            if let Err(e) = r.add(path) {
                self.status.text = format!("Cannot update the recent-files list: {e}");
            }
        }
    }

    /// Saves to the current file or asks for one (always asks when the current file is a
    /// shipped example). Returns true when saved.
    pub fn save(&mut self, ask: bool) -> bool {
        let path = match (&self.doc.path, ask) {
            (Some(p), false) if !is_shipped_example(p) => Some(Some(p.clone())),
            _ => {
                let name = PathBuf::from(self.save_text());
                self.desktop_dialog(move || {
                    let d = rfd::FileDialog::new().add_filter("PlanetGraph graph", &["ron"]);
                    let d = match (name.parent(), name.file_name()) {
                        (Some(dir), Some(file)) => d.set_directory(dir).set_file_name(file.to_string_lossy()),
                        _ => d.set_file_name("planet.ron"),
                    };
                    d.save_file()
                })
            }
        };
        match path {
            Some(Some(path)) => self.save_to(&path),
            Some(None) => false,
            None => {
                self.dialogs.question = Some(Dialog::Path { save: true, text: self.save_text() });
                false
            }
        }
    }

    /// Saves to `path` now (atomically); errors go to a dialog.
    pub fn save_to(&mut self, path: &Path) -> bool {
        match self.doc.save_as(path) {
            Ok(()) => {
                self.status.text = format!("Saved {}", path.display());
                self.remember_recent(path);
                true
            }
            Err(e) => {
                self.dialogs.question = Some(Dialog::Message(format!("Cannot save.\n\n{e}")));
                false
            }
        }
    }

    /// The typed save path: a shipped example is refused, another existing file is replaced
    /// only after a question.
    fn save_typed(&mut self, path: PathBuf) {
        if is_shipped_example(&path) {
            self.dialogs.question = Some(Dialog::Message(format!("{} is an example shipped with PlanetGraph.\n\nSave your graph under another name (File > Save to path…).", path.display())));
        } else if path.exists() && self.doc.path.as_deref() != Some(path.as_path()) {
            self.dialogs.question = Some(Dialog::Overwrite(path));
        } else {
            self.save_to(&path);
        }
    }

    /// The recent files, newest first.
    pub fn recent_files(&self) -> Vec<PathBuf> {
        self.files.recent.as_ref().map(|r| r.paths.clone()).unwrap_or_default()
    }

    pub(super) fn dialogs(&mut self, ctx: &egui::Context) {
        let Some(dialog) = self.dialogs.question.clone() else { return };
        match dialog {
            Dialog::Message(m) => {
                egui::Window::new("PlanetGraph").collapsible(false).resizable(false).min_width(460.0).max_width(640.0).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
                    ui.set_min_width(460.0);
                    egui::ScrollArea::vertical().max_height(ctx.content_rect().height() * 0.6).show(ui, |ui| ui.label(m));
                    if ui.button("OK").clicked() {
                        self.dialogs.question = None;
                        self.offer_next_recovery();
                    }
                });
            }
            Dialog::Path { save, mut text } => {
                let mut done = None;
                egui::Window::new(if save { "Save to path" } else { "Open path" }).collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
                    let r = ui.add(egui::TextEdit::singleline(&mut text).hint_text("/path/to/planet.ron").desired_width(360.0));
                    if ui.memory(|m| m.focused().is_none()) {
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
                self.dialogs.question = Some(Dialog::Path { save, text: text.clone() });
                match done {
                    Some(true) if !text.trim().is_empty() => {
                        self.dialogs.question = None;
                        let path = PathBuf::from(text.trim());
                        if save {
                            self.save_typed(path);
                        } else {
                            self.open_path(path);
                        }
                    }
                    Some(false) => self.dialogs.question = None,
                    _ => {}
                }
            }
            Dialog::Overwrite(path) => {
                egui::Window::new("Replace file?").collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
                    ui.label(format!("{} already exists.", path.display()));
                    ui.horizontal(|ui| {
                        if ui.button("Replace").clicked() {
                            self.dialogs.question = None;
                            self.save_to(&path);
                        }
                        if ui.button("Cancel").clicked() {
                            self.dialogs.question = Some(Dialog::Path { save: true, text: path.display().to_string() });
                        }
                    });
                });
            }
            Dialog::Recover(r) => {
                egui::Window::new("Recover unsaved work?").collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
                    let name = r.original.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "an untitled graph".into());
                    let age = r.written.and_then(|t| t.elapsed().ok()).map(|d| format!(", saved {} min ago", d.as_secs() / 60)).unwrap_or_default();
                    ui.label(format!("PlanetGraph did not close normally. A recovery copy of {name} was kept ({} nodes{age}).", r.graph.nodes.len()));
                    if !r.repairs.is_empty() {
                        ui.label(format!("It has errors: {} part{} cannot be kept, the rest shows on the nodes.", r.repairs.len(), if r.repairs.len() == 1 { "" } else { "s" }));
                    }
                    let waiting = self.files.to_recover.len();
                    if waiting > 0 {
                        ui.label(format!("{waiting} more cop{} will be offered after this one.", if waiting == 1 { "y" } else { "ies" }));
                    }
                    if self.doc.is_dirty() {
                        ui.label("Recovering it replaces the unsaved work on screen, which is kept as a recovery copy for the next start.");
                    }
                    ui.horizontal(|ui| {
                        if ui.button("Recover").on_hover_text("Open the copy; it stays unsaved until you save it").clicked() {
                            self.answer_recovery(true);
                        }
                        if ui.button("Discard").on_hover_text("Delete the recovery copy").clicked() {
                            self.answer_recovery(false);
                        }
                    });
                });
            }
            Dialog::Templates => self.templates_window(ctx),
            Dialog::Unsaved(action) => {
                egui::Window::new("Unsaved changes").collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
                    ui.label(format!("{} has unsaved changes.", self.doc.path.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "The graph".into())));
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked() {
                            self.dialogs.question = None;
                            if self.save(false) {
                                self.do_action(action.clone(), ctx);
                            }
                        }
                        if ui.button("Don't save").clicked() {
                            self.dialogs.question = None;
                            self.do_action(action.clone(), ctx);
                        }
                        if ui.button("Cancel").clicked() {
                            self.dialogs.question = None;
                        }
                    });
                });
            }
        }
    }
}
