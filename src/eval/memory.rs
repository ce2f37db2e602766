//! Refusing resolutions that cannot fit in memory before allocating anything.

use super::program::Program;
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
/// the coarser level it starts from); 16 for the rest (neighbour tables and temporaries).
pub fn scratch_bytes_per_cell(kind: NodeKind) -> u64 {
    match kind {
        NodeKind::LandscapeEvolution => 88,
        _ => 16,
    }
}

/// Bytes per cell of one output of type `ty`.
fn output_bytes_per_cell(ty: PortType) -> u64 {
    match ty {
        PortType::Colour | PortType::Vector => 12,
        _ => 4,
    }
}

/// Estimated peak bytes for running `program` at resolution `n`: every output of every node
/// (the evaluation keeps them all), the largest scratch of one node, and the exports' buffers
/// (8 bytes per cell).
pub fn estimate_bytes(n: usize, program: &Program) -> u64 {
    let cells = 6u64 * (n as u64) * (n as u64);
    let outputs: u64 = program.steps.iter().flat_map(|s| s.kind.meta().outputs.iter()).map(|o| output_bytes_per_cell(o.ty)).sum();
    let scratch = program.steps.iter().map(|s| scratch_bytes_per_cell(s.kind)).max().unwrap_or(0);
    cells * (outputs + scratch + 8)
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
