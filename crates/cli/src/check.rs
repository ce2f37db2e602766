//! `planetgraph check FILE`.

use super::CliError;
use planetgraph_core::eval::compile;
use std::path::Path;

/// Loads and compiles the graph; prints a summary.
pub fn run(file: &Path) -> Result<(), CliError> {
    let g = super::load_for_command(file)?;
    let program = compile(&g);
    if let Some((id, msg)) = program.errors.iter().chain(&program.idle).next() {
        let label = g.describe_node(*id);
        return Err(CliError::input(anyhow::anyhow!("{}: {label}: {msg}", file.display())));
    }
    // Two Export nodes that would write one file (a rule of the exports, not of the graph's
    // structure, so the build checks it as well).
    if let Some(clash) = planetgraph_core::export::names::clash_messages(&g).into_iter().next() {
        return Err(CliError::input(anyhow::anyhow!("{}: {clash}", file.display())));
    }
    if g.first_of(planetgraph_core::nodes::NodeKind::Planet).is_none() {
        return Err(CliError::input(anyhow::anyhow!("{}: the graph has no Planet output node, so there is nothing to build", file.display())));
    }
    println!("{}: ok ({} nodes, {} links)", file.display(), g.nodes.len(), g.links.len());
    Ok(())
}
