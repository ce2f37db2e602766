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

/// Available memory in bytes: the machine's `MemAvailable`, or less where this process's
/// control group (a container, a systemd unit, a cluster job) allows less: its memory limit
/// minus what the group already uses, the tightest over the group and its parents (cgroup v2
/// `memory.max`, v1 `memory.limit_in_bytes`). 4 GiB where nothing can be read.
pub fn available_bytes() -> u64 {
    let machine = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("MemAvailable:")).and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok()))
        .map(|kib| kib * 1024)
        .unwrap_or(4 << 30);
    let groups = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    match cgroup_headroom(&groups, std::path::Path::new("/sys/fs/cgroup")) {
        Some(room) => machine.min(room),
        None => machine,
    }
}

/// The memory the control groups listed in `groups` (the text of `/proc/self/cgroup`) can still
/// take, if one has a limit, with the cgroup file systems mounted under `sys`.
fn cgroup_headroom(groups: &str, sys: &std::path::Path) -> Option<u64> {
    let mut room: Option<u64> = None;
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next()) else { continue };
        let path = path.trim_start_matches('/');
        // v2 (unified, also mounted at unified/ on hybrid systems) and v1's memory controller.
        let places: &[(&str, &str, &str)] = if controllers.is_empty() {
            &[("", "memory.max", "memory.current"), ("unified", "memory.max", "memory.current")]
        } else if controllers.split(',').any(|c| c == "memory") {
            &[("memory", "memory.limit_in_bytes", "memory.usage_in_bytes")]
        } else {
            continue;
        };
        for (mount, limit, usage) in places {
            // The group and each parent up to the mount's root: the tightest limit counts.
            let root = sys.join(mount);
            let mut dir = Some(root.join(path));
            while let Some(d) = dir {
                if let Some(r) = group_room(&d, limit, usage) {
                    room = Some(room.map_or(r, |x| x.min(r)));
                }
                dir = if d == root { None } else { d.parent().map(|p| p.to_path_buf()) };
            }
        }
    }
    room
}

/// `limit - usage` of one control group folder, None where it has no limit or cannot be read
/// (v1 writes "no limit" as a number near 2^63).
fn group_room(dir: &std::path::Path, limit: &str, usage: &str) -> Option<u64> {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok()?.trim().parse::<u64>().ok();
    let max = read(limit).filter(|&m| m < 1 << 60)?;
    Some(max.saturating_sub(read(usage).unwrap_or(0)))
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

#[cfg(test)]
mod tests {
    use super::cgroup_headroom;
    use std::path::Path;

    fn write(dir: &Path, file: &str, text: &str) {
        std::fs::create_dir_all(dir).expect("folder");
        std::fs::write(dir.join(file), text).expect("file");
    }

    /// The tightest limit minus usage over the group and its parents, in v2 and v1 layouts;
    /// none without a limit.
    #[test]
    fn control_group_limits_bound_the_memory() {
        let sys = tempfile::tempdir().expect("tempdir");
        let s = sys.path();
        // v2: a 1.5 GB job inside a 4 GB slice.
        write(&s.join("slice"), "memory.max", "4000000000\n");
        write(&s.join("slice"), "memory.current", "100\n");
        write(&s.join("slice/job"), "memory.max", "1500000000\n");
        write(&s.join("slice/job"), "memory.current", "500000000\n");
        assert_eq!(cgroup_headroom("0::/slice/job\n", s), Some(1_000_000_000));
        // Without a limit ("max") there is no bound.
        write(&s.join("free"), "memory.max", "max\n");
        assert_eq!(cgroup_headroom("0::/free\n", s), None);
        // v1's memory controller, whose "no limit" is a number near 2^63.
        write(&s.join("memory/a"), "memory.limit_in_bytes", "9223372036854771712\n");
        write(&s.join("memory/a/b"), "memory.limit_in_bytes", "2000000000\n");
        write(&s.join("memory/a/b"), "memory.usage_in_bytes", "1500000000\n");
        assert_eq!(cgroup_headroom("4:memory:/a/b\n3:cpu:/\n0::/\n", s), Some(500_000_000));
        assert_eq!(cgroup_headroom("garbage\n4:cpu,cpuacct:/a/b\n", s), None);
    }
}
