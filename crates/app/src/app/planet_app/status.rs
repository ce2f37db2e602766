//! The status line's text and the note on the last edit that waits in front of it.

/// What the status line says.
#[derive(Default)]
pub(super) struct StatusLine {
    /// The text shown.
    pub text: String,
    /// A note on the last edit (a typed value that was clamped, a preset, a noise type's
    /// suggested settings, what undo took back) kept in front of the status line until the
    /// evaluation it started has reported ([`Self::note_edit`]).
    pub notice: Option<String>,
}

impl StatusLine {
    /// A status line saying `text`.
    pub fn new(text: &str) -> StatusLine {
        StatusLine { text: text.to_string(), notice: None }
    }

    /// Says `text` about the edit just made, now and, in front of the evaluation's own
    /// report, until the evaluation the edit started has reported.
    pub fn note_edit(&mut self, text: String) {
        self.text.clone_from(&text);
        self.notice = Some(text);
    }

    /// The evaluation's report `report`, after the waiting note when `last_stage` is the
    /// evaluation's last (the note goes with it).
    pub fn report(&mut self, report: String, last_stage: bool) {
        self.text = match self.notice.take_if(|_| last_stage) {
            Some(n) => format!("{n}. {report}"),
            None => report,
        };
    }
}
