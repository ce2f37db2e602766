//! Refusing resolutions that cannot fit in memory before allocating anything.

use super::program::Program;
use crate::graph::NodeId;
use std::collections::HashMap;
use crate::nodes::{NodeKind, PortType};
use thiserror::Error;

/// The request is larger than the memory of this machine allows.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("resolution {n} needs about {needed_mib} MiB for the outputs and work of {fields} nodes at 6 x {n} x {n} cells, but only {available_mib} MiB are available; choose a smaller --resolution")]
pub struct TooLarge {
    /// Requested cells per face edge.
    pub n: usize,
    /// Estimated need in MiB.
    pub needed_mib: u64,
    /// Nodes counted.
    pub fields: usize,
    /// Available memory in MiB.
    pub available_mib: u64,
}

/// Available memory in bytes (`MemAvailable` on Linux; 4 GiB where it cannot be read).
pub fn available_bytes() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("MemAvailable:")).and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok()))
        .map(|kib| kib * 1024)
        .unwrap_or(4 << 30)
}

/// Bytes per cell a node of `kind` holds while it runs, beyond its inputs and outputs: the
/// landscape evolution's solver state at its finest level (heights, water surface, receivers
/// and their distances, stack, drainage area and sediment in f64, uplift, rain, erodibility and
/// the coarser level it starts from); the Earth-like relief's at its full resolution (cell
/// directions, the continent field, the coast sweep's seeds, groups and nearest points, and the
/// surface it assembles: 48); 16 for the rest (neighbour tables and temporaries).
pub fn scratch_bytes_per_cell(kind: NodeKind) -> u64 {
    match kind {
        NodeKind::LandscapeEvolution => 88,
        NodeKind::EarthRelief => 48,
        _ => 16,
    }
}

/// Which neighbour tables (`crate::planet::pipes`) a node of `kind` builds: the 4-neighbour
/// table (36 bytes per cell) and the 8-neighbour one (72). A build drops them after each node,
/// so they count while that node runs.
fn tables_used(kind: NodeKind) -> (bool, bool) {
    use NodeKind::*;
    let four = matches!(kind, PlateElevation | EarthRelief | CoastDistance | Falloff | Precipitation | Slope | Gradient | Blur | Hillgrow | HydraulicErosion | ThermalErosion | SeaFloor | CoralReef);
    let eight = matches!(kind, DrainageRivers | LSystemRivers | HydraulicErosion | ThermalErosion | CoralReef);
    (four, eight)
}

/// Bytes per cell of one output of type `ty`.
fn output_bytes_per_cell(ty: PortType) -> u64 {
    match ty {
        PortType::Colour | PortType::Vector => 12,
        _ => 4,
    }
}

/// Estimated peak bytes of a build of `program` at resolution `n` (see
/// [`super::Evaluator::run_program_releasing`]): at each node, the outputs still waiting for a
/// reader (or kept: those of the sinks, which the exports read), and the node's own outputs,
/// neighbour tables and working memory; then the kept outputs plus the exports' buffers (8
/// bytes per cell).
pub fn estimate_bytes(n: usize, program: &Program) -> u64 {
    let cells = 6u64 * (n as u64) * (n as u64);
    let outputs = |kind: NodeKind| -> u64 { kind.meta().outputs.iter().map(|o| output_bytes_per_cell(o.ty)).sum() };
    let last_use = program.last_reads();
    let kind_of: HashMap<NodeId, NodeKind> = program.steps.iter().map(|s| (s.id, s.kind)).collect();
    let kept = |id: &NodeId| kind_of.get(id).is_some_and(|k| k.meta().category.is_sink());
    let (mut live, mut peak) = (0u64, 0u64);
    for (i, step) in program.steps.iter().enumerate() {
        let (four, eight) = tables_used(step.kind);
        let tables = if four { 36 } else { 0 } + if eight { 72 } else { 0 };
        if i > 0 {
            for src in program.released_after(i - 1, &last_use).into_iter().filter(|src| !kept(src)) {
                live -= kind_of.get(&src).map_or(0, |&k| outputs(k));
            }
        }
        let own = outputs(step.kind);
        peak = peak.max(live + tables + own + scratch_bytes_per_cell(step.kind));
        live += own;
    }
    cells * peak.max(live + 8)
}

/// `Err` when running `program` at resolution `n` would not fit in 90 % of the memory.
pub fn check_fits(n: usize, program: &Program) -> Result<(), TooLarge> {
    let need = estimate_bytes(n, program);
    let avail = available_bytes();
    if need > avail / 10 * 9 {
        Err(TooLarge { n, needed_mib: need >> 20, fields: program.steps.len(), available_mib: avail >> 20 })
    } else {
        Ok(())
    }
}
