//! `planetgraph merge SHARE_DIR... --out DIR`: joins the shares of a build into its exports and
//! manifest (see `planetgraph_core::export::share`).

use super::{CliError, MergeArgs};
use planetgraph_core::export::{share, Control, ExportProgress};

/// Runs the `merge` command.
pub fn run(args: &MergeArgs) -> Result<(), CliError> {
    let cancel = super::build::interrupt_flag();
    let progress = ExportProgress::default();
    let manifest = share::merge(&args.shares, &args.out, &Control { cancel: &cancel, progress: &progress }).map_err(CliError::input)?;
    for f in &manifest.files {
        println!("{}/{} {}", args.out.display(), f.path, f.summary());
    }
    println!("{}/manifest.json", args.out.display());
    Ok(())
}
