//! The eframe application (placeholder while the editor is written).
use crate::cli::CliError;
use std::path::Path;
/// Opens the editor.
pub fn run_editor(_file: Option<&Path>) -> Result<(), CliError> {
    Err(CliError::internal(anyhow::anyhow!("editor not built yet")))
}
