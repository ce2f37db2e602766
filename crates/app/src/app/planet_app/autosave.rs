//! Autosave of the open document to a recovery copy (every minute and when the window loses
//! the focus, while there are unsaved changes), the offer to recover a copy left by a crash,
//! and the cleanup on a clean exit.

use super::files::Dialog;
use super::PlanetApp;
use crate::app::recovery::{RecentFiles, Recovery};
use std::path::PathBuf;

/// Seconds between autosaves while there are unsaved changes.
pub const AUTOSAVE_S: f64 = 60.0;

impl PlanetApp {
    /// Keeps the recovery copy and the recent-files list in `dir` (`None`: neither, as in
    /// tests), and offers to recover a copy that an editor which did not exit cleanly left
    /// there (looked for in the background: see
    /// [`PlanetApp::wait_for_background_loads`]).
    pub fn with_state_dir(mut self, dir: Option<PathBuf>) -> PlanetApp {
        self.set_state_dir(dir);
        self
    }

    /// See [`Self::with_state_dir`].
    pub fn set_state_dir(&mut self, dir: Option<PathBuf>) {
        self.files.recovery = dir.clone().map(Recovery::new);
        self.files.recent = dir.as_deref().map(RecentFiles::load);
        self.files.autosaved = None;
        // A file opened from the command line is a recent file too.
        if let Some(p) = self.doc.path.clone() {
            self.remember_recent(&p);
        }
        // Copies a crash left are looked for in the background and offered once found.
        self.files.to_recover.clear();
        if let Some(dir) = dir {
            self.loads.recovery(dir);
        }
    }

    /// Asks about the next recovery copy, newest first (one question per copy).
    pub(super) fn offer_next_recovery(&mut self) {
        if self.dialogs.question.is_none() && !self.files.to_recover.is_empty() {
            let r = self.files.to_recover.remove(0);
            self.dialogs.question = Some(Dialog::Recover(Box::new(r)));
        }
    }

    /// How many recovery copies wait for a question after the one on screen.
    pub fn recoveries_waiting(&self) -> usize {
        self.files.to_recover.len()
    }

    /// Writes the recovery copy when it is due (called every frame).
    pub(super) fn autosave_tick(&mut self, ctx: &egui::Context) {
        let Some(rec) = &self.files.recovery else { return };
        let now = ctx.input(|i| i.time);
        let focused = ctx.input(|i| i.viewport().focused).unwrap_or(true);
        let lost_focus = self.files.focused && !focused;
        self.files.focused = focused;
        if !self.doc.is_dirty() {
            // Nothing to lose: no copy, and the minute starts with the next edit.
            if self.files.autosaved.take().is_some() {
                rec.clear();
            }
            self.files.last_autosave = now;
            return;
        }
        let due = now - self.files.last_autosave >= AUTOSAVE_S || lost_focus;
        if due && self.files.autosaved.as_ref() != Some(&self.doc.graph) {
            match rec.write(&self.doc.graph, self.doc.path.as_deref()) {
                Ok(()) => self.files.autosaved = Some(self.doc.graph.clone()),
                Err(e) => self.status.text = format!("Autosave failed: {e}"),
            }
            self.files.last_autosave = now;
        }
        // Wake up for the next autosave even when nothing else repaints.
        ctx.request_repaint_after(std::time::Duration::from_secs_f64(AUTOSAVE_S));
    }

    /// Removes the recovery copy (a clean exit).
    pub fn clear_recovery(&mut self) {
        if let Some(rec) = &self.files.recovery {
            rec.clear();
        }
        self.files.autosaved = None;
    }

    /// Whether a recovery question is on screen.
    pub fn offers_recovery(&self) -> bool {
        matches!(self.dialogs.question, Some(Dialog::Recover(_)))
    }

    /// Answers the recovery question: recover the copy, or discard it. Recovering a copy while
    /// earlier recovered work is unsaved first saves that work's own recovery copy, so that
    /// nothing is lost; the next copy (if any) is asked about next.
    pub fn answer_recovery(&mut self, recover: bool) {
        let Some(Dialog::Recover(r)) = self.dialogs.question.take() else { return };
        if recover {
            if self.doc.is_dirty() {
                // The work recovered before this copy goes back to a recovery copy of its own.
                if let Some(rec) = &self.files.recovery {
                    if let Err(e) = rec.write_spare(&self.doc.graph, self.doc.path.as_deref()) {
                        self.status.text = format!("Cannot keep the previously recovered work: {e}");
                        self.dialogs.question = Some(Dialog::Recover(r));
                        return;
                    }
                }
            }
            let name = r.original.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "an untitled graph".into());
            let mut doc = crate::app::document::Document::recovered(r.graph, r.original);
            doc.repairs = r.repairs;
            self.set_document(doc);
            self.status.text = format!("Recovered {name}: save it to keep it");
            self.show_repairs();
        }
        Recovery::discard(&r.file);
        self.offer_next_recovery();
    }
}
