//! The status line's text, the note on the last edit that waits in front of it, and which
//! text is the evaluation's own (so that a new evaluation replaces its predecessor's report
//! but not what an action just said).

/// What the status line says.
#[derive(Default)]
pub(super) struct StatusLine {
    /// The text shown.
    pub text: String,
    /// A note on the last edit (a typed value that was clamped, a preset, a noise type's
    /// suggested settings, what undo took back) kept in front of the status line until the
    /// evaluation it started has reported ([`Self::note_edit`]).
    notice: Option<String>,
    /// The text the evaluation last put there; while `text` is still it, the next stage or
    /// request may replace it.
    own: Option<String>,
}

impl StatusLine {
    /// A status line saying `text`.
    pub fn new(text: &str) -> StatusLine {
        StatusLine { text: text.to_string(), notice: None, own: None }
    }

    /// Says `text` about the edit just made, now and, in front of the evaluation's own
    /// report, until the evaluation the edit started has reported.
    pub fn note_edit(&mut self, text: String) {
        self.text.clone_from(&text);
        self.notice = Some(text);
    }

    /// The evaluation says `text` (a report, a cancel).
    pub fn evaluation_says(&mut self, text: String) {
        self.own = Some(text.clone());
        self.text = text;
    }

    /// The evaluation's progress `text`, shown in place of its own earlier words only: what an
    /// action said since stays (the spinner shows meanwhile).
    pub fn progress(&mut self, text: String) {
        if self.own.as_ref() == Some(&self.text) {
            self.evaluation_says(text);
        }
    }

    /// The evaluation's last report `report`, after the waiting note (which goes with it).
    pub fn report(&mut self, report: String) {
        let text = match self.notice.take() {
            Some(n) => format!("{n}. {report}"),
            None => report,
        };
        self.evaluation_says(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_replaces_the_evaluation_s_words_only_and_the_note_waits_for_the_report() {
        let mut s = StatusLine::new("Starting");
        s.report("Ready: evaluated at 128".into());
        s.progress("Evaluating…".into());
        assert_eq!(s.text, "Evaluating…", "a new request replaces the last report");
        s.progress("Evaluating: showing 32, 128 next".into());
        assert_eq!(s.text, "Evaluating: showing 32, 128 next");
        s.text = "Copied 3 nodes".into();
        s.progress("Evaluating: showing 64, 128 next".into());
        assert_eq!(s.text, "Copied 3 nodes", "what an action said stays through the stages");
        s.note_edit("Undid: moved nodes".into());
        s.progress("Evaluating…".into());
        assert_eq!(s.text, "Undid: moved nodes");
        s.report("Ready: evaluated at 128".into());
        assert_eq!(s.text, "Undid: moved nodes. Ready: evaluated at 128", "the note goes with the report");
        s.report("Ready: evaluated at 256".into());
        assert_eq!(s.text, "Ready: evaluated at 256");
    }
}
