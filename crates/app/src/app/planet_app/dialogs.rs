//! The windows that ask or edit something on top of the canvas: a question (unsaved changes,
//! recovery, an error), File > Export, a frame's or a node's name, a group's settings. Each is
//! drawn by the module of its subject; this type owns which of them are open.

use super::edit::Rename;
use super::export_dialog::ExportUi;
use super::files::Dialog;
use super::frames::FrameEdit;
use super::groups::GroupEdit;

/// The open dialogs and editing windows (each `None` when closed).
#[derive(Default)]
pub(super) struct Dialogs {
    /// A question or message that must be answered before the canvas takes input again.
    pub question: Option<Dialog>,
    /// File > Export.
    pub export: Option<ExportUi>,
    /// The frame whose name and comment are being edited.
    pub frame: Option<FrameEdit>,
    /// The node being renamed.
    pub rename: Option<Rename>,
    /// The group whose settings are being edited.
    pub group: Option<GroupEdit>,
}

impl Dialogs {
    /// Whether a window that takes the keyboard is open (the canvas's shortcuts then wait).
    pub fn takes_keys(&self) -> bool {
        self.question.is_some() || self.frame.is_some() || self.rename.is_some() || self.group.is_some()
    }
}
