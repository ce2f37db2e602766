//! Refusing resolutions that cannot fit in memory before allocating anything.

use thiserror::Error;

/// The request is larger than the memory of this machine allows.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("resolution {n} needs about {needed_mib} MiB for {fields} fields of 6 x {n} x {n} cells, but only {available_mib} MiB are available; choose a smaller --resolution")]
pub struct TooLarge {
    /// Requested cells per face edge.
    pub n: usize,
    /// Estimated need in MiB.
    pub needed_mib: u64,
    /// Fields counted.
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

/// Estimated peak bytes for evaluating `nodes` nodes at resolution `n`: one field per node
/// output, three temporaries, the neighbour table (16 bytes per cell) and exports.
pub fn estimate_bytes(n: usize, nodes: usize) -> u64 {
    let cells = 6u64 * (n as u64) * (n as u64);
    cells * 4 * (nodes as u64 + 3) + cells * 16 + cells * 8
}

/// `Err` when evaluating `nodes` nodes at resolution `n` would not fit in 90 % of the memory.
pub fn check_fits(n: usize, nodes: usize) -> Result<(), TooLarge> {
    let need = estimate_bytes(n, nodes);
    let avail = available_bytes();
    if need > avail / 10 * 9 {
        Err(TooLarge { n, needed_mib: need >> 20, fields: nodes + 3, available_mib: avail >> 20 })
    } else {
        Ok(())
    }
}
