//! File > Export (Ctrl+E): builds the graph's exports (the same files as `planetgraph build`)
//! at a chosen resolution into a chosen folder (typed, or picked with the desktop's folder
//! dialog) on a background thread, with a progress bar, cancel, a confirmation that lists the
//! files that would be replaced, and a summary.

use super::PlanetApp;
use planetgraph_core::eval::Progress;
use planetgraph_core::export::export_graph;
use planetgraph_core::export::{planned_files, ExportProgress, Manifest};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A running export.
pub struct ExportTask {
    cancel: Arc<AtomicBool>,
    eval: Arc<Progress>,
    progress: Arc<ExportProgress>,
    handle: Option<JoinHandle<Result<Manifest, String>>>,
    folder: PathBuf,
}

/// The export window's state.
pub enum ExportUi {
    /// Choosing the folder and resolution.
    Setup {
        /// Output folder as typed.
        folder: String,
        /// Cells per face edge.
        resolution: u32,
        /// The folder, the resolution and the files of the export that it already held when
        /// the user pressed Export (asks to confirm; asked again if either changes).
        existing: Option<(String, u32, Vec<String>)>,
    },
    /// Running.
    Running(ExportTask),
    /// Finished: what was written, or why not.
    Done {
        /// Summary text.
        summary: String,
        /// Whether it succeeded.
        ok: bool,
    },
}

impl PlanetApp {
    /// Opens the export window (File > Export, Ctrl+E).
    pub fn open_export(&mut self) {
        if matches!(self.dialogs.export, Some(ExportUi::Running(_))) {
            return;
        }
        let folder = self.doc.path.as_ref().and_then(|p| p.parent()).map(|d| d.join("export")).unwrap_or_else(|| PathBuf::from("export"));
        self.dialogs.export = Some(ExportUi::Setup { folder: folder.display().to_string(), resolution: 512, existing: None });
    }

    /// Whether the export window is open.
    pub fn export_open(&self) -> bool {
        self.dialogs.export.is_some()
    }

    /// The resolution set in the export window (cells per face edge), while it is being set up.
    pub fn export_resolution(&self) -> Option<u32> {
        match &self.dialogs.export {
            Some(ExportUi::Setup { resolution, .. }) => Some(*resolution),
            _ => None,
        }
    }

    /// The finished export's summary and whether it succeeded.
    pub fn export_summary(&self) -> Option<(&str, bool)> {
        match &self.dialogs.export {
            Some(ExportUi::Done { summary, ok }) => Some((summary.as_str(), *ok)),
            _ => None,
        }
    }

    /// The files the export window asks to replace (after a first press of Export found them
    /// in the folder), if it is asking.
    pub fn export_replacing(&self) -> Option<&[String]> {
        match &self.dialogs.export {
            Some(ExportUi::Setup { existing: Some((_, _, names)), .. }) => Some(names),
            _ => None,
        }
    }

    /// Starts exporting into `folder` at `resolution` (what the window's Export button does
    /// once any overwrite is confirmed).
    pub fn start_export(&mut self, folder: PathBuf, resolution: u32, ctx: &egui::Context) {
        let (cancel, eval, progress) = (Arc::new(AtomicBool::new(false)), Arc::new(Progress::default()), Arc::new(ExportProgress::default()));
        let g = self.doc.graph.clone();
        let graph_path = self.doc.path.clone().unwrap_or_else(|| PathBuf::from("untitled.ron"));
        let (c, e, p, out, repaint) = (cancel.clone(), eval.clone(), progress.clone(), folder.clone(), ctx.clone());
        let handle = std::thread::Builder::new().name("export".into()).spawn(move || {
            let r = export_graph(&g, &graph_path, &out, resolution as usize, None, planetgraph_core::export::tiled::DEFAULT_BUDGET, None, &c, &e, &p).map_err(|e| e.to_string());
            repaint.request_repaint();
            r
        });
        self.dialogs.export = Some(match handle {
            Ok(h) => ExportUi::Running(ExportTask { cancel, eval, progress, handle: Some(h), folder }),
            Err(e) => ExportUi::Done { summary: format!("Could not start the export: {e}"), ok: false },
        });
    }

    /// Draws the export window, if open.
    pub(super) fn export_window(&mut self, ctx: &egui::Context) {
        let Some(state) = self.dialogs.export.as_mut() else { return };
        let mut open = true;
        let mut action: Option<(PathBuf, u32)> = None;
        let mut close = false;
        let mut pick = false;
        let dialogs = !self.files.no_dialogs;
        let graph = &self.doc.graph;
        let mut finished = None;
        egui::Window::new("Export").id(egui::Id::unique("Export")).collapsible(false).resizable(false).open(&mut open).show(ctx, |ui| match state {
            ExportUi::Setup { folder, resolution, existing } => {
                ui.label("Writes every Export node's files (or the Planet node's default set) and manifest.json, as planetgraph build does.");
                ui.horizontal(|ui| {
                    ui.label("Folder");
                    ui.add(egui::TextEdit::singleline(folder).desired_width(280.0)).on_hover_text("Output folder, created if missing");
                    let choose = ui.add_enabled(dialogs, egui::Button::new("Choose…"));
                    if choose.on_hover_text("Pick the folder with the desktop's folder dialog").on_disabled_hover_text("No desktop folder dialog is available here: type the path").clicked() {
                        pick = true;
                    }
                });
                ui.horizontal(|ui| {
                    ui.label("Resolution");
                    // The unit beside the number, not in it: an edited number shrinks to its
                    // digits, and a double-click's second click would land outside it.
                    ui.add(egui::DragValue::new(resolution).range(8..=8192).speed(8.0)).on_hover_text("Cells per cube-face edge of the evaluation (6 N² cells); click or double-click to type");
                    ui.label("cells per face edge");
                });
                let confirmed = existing.as_ref().is_some_and(|(f, r, _)| f == folder && r == resolution);
                if let Some((_, _, names)) = existing.as_ref().filter(|_| confirmed) {
                    ui.colored_label(egui::Color32::from_rgb(240, 190, 90), format!("{} of the export's files are already in {folder} and will be replaced (other files there stay):", names.len()));
                    egui::ScrollArea::vertical().max_height(140.0).show(ui, |ui| {
                        for name in names {
                            ui.monospace(name);
                        }
                    });
                }
                ui.horizontal(|ui| {
                    let label = if confirmed { "Replace and export" } else { "Export" };
                    if ui.button(label).clicked() {
                        let path = PathBuf::from(folder.trim());
                        let replaced = replaced_files(&path, &planned_files(graph, *resolution as usize));
                        if !replaced.is_empty() && !confirmed {
                            *existing = Some((folder.clone(), *resolution, replaced));
                        } else {
                            action = Some((path, *resolution));
                        }
                    }
                    if ui.button("Cancel").clicked() {
                        close = true;
                    }
                });
            }
            ExportUi::Running(task) => {
                let (k, t) = (task.eval.done.load(Ordering::Relaxed), task.eval.total.load(Ordering::Relaxed));
                let files = task.progress.files_total.load(Ordering::Relaxed);
                if files == 0 {
                    let (sd, st) = (task.eval.inner.done.load(Ordering::Relaxed), task.eval.inner.total.load(Ordering::Relaxed));
                    let steps = if st > 0 { format!(" (the running node: {sd} of {st} steps)") } else { String::new() };
                    ui.label(format!("Evaluating: {k} of {t} nodes done{steps}"));
                    ui.add(egui::ProgressBar::new(task.eval.fraction()).show_percentage());
                } else if task.progress.tiles_to_scan.load(Ordering::Relaxed) > 0 {
                    // A tiled build's range over the planet: the tiles no file read.
                    let (s, st) = (task.progress.tiles_scanned.load(Ordering::Relaxed), task.progress.tiles_to_scan.load(Ordering::Relaxed));
                    ui.label(format!("Measuring the data range over the planet: {s} of {st} tiles"));
                    ui.add(egui::ProgressBar::new(s as f32 / st as f32).show_percentage());
                } else {
                    ui.label(format!("Writing {} of {files} files into {}", task.progress.files_done.load(Ordering::Relaxed) + 1, task.folder.display()));
                    ui.add(egui::ProgressBar::new(task.progress.fraction()).show_percentage());
                }
                if ui.button("Cancel").clicked() {
                    task.cancel.store(true, Ordering::Relaxed);
                }
                if task.handle.as_ref().is_some_and(|h| h.is_finished()) {
                    finished = task.handle.take().map(|h| (h.join(), task.folder.clone()));
                }
                ctx.request_repaint_after(std::time::Duration::from_millis(100));
            }
            ExportUi::Done { summary, ok } => {
                if *ok {
                    ui.label(summary.as_str());
                } else {
                    ui.colored_label(egui::Color32::from_rgb(255, 120, 110), summary.as_str());
                }
                if ui.button("Close").clicked() {
                    close = true;
                }
            }
        });
        if let Some((joined, folder)) = finished {
            self.dialogs.export = Some(match joined {
                Ok(Ok(m)) => {
                    let bytes: u64 = m.files.iter().map(|f| f.bytes).sum();
                    let list: Vec<String> = m.files.iter().take(12).map(|f| format!("{} ({} x {})", f.path, f.width, f.height)).collect();
                    let more = if m.files.len() > 12 { format!("\n… and {} more", m.files.len() - 12) } else { String::new() };
                    ExportUi::Done { summary: format!("Wrote {} files ({:.1} MB) and manifest.json into {}:\n{}{more}", m.files.len(), bytes as f64 / 1e6, folder.display(), list.join("\n")), ok: true }
                }
                Ok(Err(e)) => ExportUi::Done { summary: format!("Export failed: {e}"), ok: false },
                Err(_) => ExportUi::Done { summary: "Export failed: the export thread stopped unexpectedly".into(), ok: false },
            });
            self.status.text = "Export finished".into();
        }
        if pick {
            self.pick_export_folder();
        }
        if let Some((folder, res)) = action {
            self.start_export(folder, res, ctx);
        } else if close || !open {
            if let Some(ExportUi::Running(task)) = &self.dialogs.export {
                task.cancel.store(true, Ordering::Relaxed);
            } else {
                self.dialogs.export = None;
            }
        }
    }

    /// Picks the export folder with the desktop's folder dialog, starting at the typed one;
    /// where no dialog exists the status line says so and the path is typed.
    fn pick_export_folder(&mut self) {
        let Some(ExportUi::Setup { folder, .. }) = &self.dialogs.export else { return };
        let typed = PathBuf::from(folder.trim());
        // Start in the typed folder, or the nearest folder above it that exists.
        let start = typed.ancestors().find(|p| p.is_dir()).map(PathBuf::from);
        let picked = self.desktop_dialog(move || {
            let d = rfd::FileDialog::new();
            match start {
                Some(dir) => d.set_directory(dir).pick_folder(),
                None => d.pick_folder(),
            }
        });
        if let (Some(Some(path)), Some(ExportUi::Setup { folder, existing, .. })) = (picked, &mut self.dialogs.export) {
            *folder = path.display().to_string();
            *existing = None;
        }
    }
}

/// The names among `planned` that already exist in `folder` (none when it does not exist).
pub fn replaced_files(folder: &std::path::Path, planned: &[String]) -> Vec<String> {
    planned.iter().filter(|name| folder.join(name).exists()).cloned().collect()
}
