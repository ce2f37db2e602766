//! Refusing resolutions that cannot fit in memory before allocating anything.

use super::program::{Program, Step};
use crate::graph::NodeId;
use crate::nodes::output::export::{ExportLayer, ExportSettings};
use crate::nodes::params::Settings;
use crate::nodes::{NodeKind, PortType};
use std::collections::{HashMap, HashSet};
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
    let machine = std::fs::read_to_string("/proc/meminfo").ok().and_then(|s| s.lines().find(|l| l.starts_with("MemAvailable:")).and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())).map(|kib| kib * 1024).unwrap_or(4 << 30);
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

/// Bytes the estimate counts for one node while it runs at `n` cells per face edge: the cost
/// per cell its kind declares ([`crate::nodes::NodeMeta::costing`]: outputs, neighbour tables
/// and working memory, not its inputs) and what its settings add
/// ([`crate::nodes::Node::extra_bytes`]: a structure at a level of its own, a mode's work). A
/// kind without a declared cost (which the registry's test refuses) counts its outputs, its
/// tables and 16 bytes per cell.
pub fn node_bytes(step: &Step, n: usize) -> u64 {
    6 * (n as u64) * (n as u64) * declared_bytes_per_cell(step) + step.kind.extra_bytes(&step.params, n)
}

/// The cost per cell `step`'s kind declares with its inputs as connected; for a kind without
/// one (which the registry's test refuses), its outputs and 16 bytes.
fn declared_bytes_per_cell(step: &Step) -> u64 {
    let meta = step.kind.meta();
    match meta.memory {
        Some(m) => m.bytes_per_cell_with(meta.inputs, &step.inputs.iter().map(Option::is_some).collect::<Vec<_>>()),
        None => outputs_bytes_per_cell(step.kind) + 16,
    }
}

/// Bytes per cell of a kind's outputs.
fn outputs_bytes_per_cell(kind: NodeKind) -> u64 {
    kind.meta().outputs.iter().map(|o| output_bytes_per_cell(o.ty)).sum()
}

/// Bytes per cell of one output of type `ty` (regions and plates are per region, not per
/// cell).
fn output_bytes_per_cell(ty: PortType) -> u64 {
    match ty {
        PortType::Colour | PortType::Vector => 12,
        PortType::Field => 4,
        PortType::Regions | PortType::Plates => 0,
    }
}

/// Bytes per cell of an Export node's normal map or mesh while it is written: the normals of
/// the whole planet (`export::source::Source::normals`: a neighbour table, the cells'
/// directions, the gradient and the normals themselves). Measured with `bench --memory` on
/// one-Export copies of `graphs/export_all.ron` at 512, 1024 and 2048: 64 bytes per cell at the
/// peak, of which 8 are the elevation the build keeps for the Export and the Planet nodes.
pub const NORMALS_WRITING_BYTES_PER_CELL: u64 = 56;

/// Bytes per cell of the Planet node's default set while it is written (a graph without
/// Export nodes): the height tint, a colour per cell.
pub const DEFAULT_SET_BYTES_PER_CELL: u64 = 12;

/// Bytes per cell the exports add to what the evaluation keeps, for the costliest job (the
/// jobs are written one at a time): a normal map or a mesh
/// ([`NORMALS_WRITING_BYTES_PER_CELL`]), or the default set's height tint. Images of data
/// are written in strips of rows and add nothing per cell.
fn export_bytes_per_cell(program: &Program) -> u64 {
    let exports: Vec<&Step> = program.steps.iter().filter(|s| s.kind == NodeKind::Export).collect();
    if exports.is_empty() {
        return if program.steps.iter().any(|s| s.kind == NodeKind::Planet) { DEFAULT_SET_BYTES_PER_CELL } else { 0 };
    }
    // Settings that do not read are refused before any build; they count as the costliest.
    let whole_normals = |s: &&Step| ExportSettings::from_params(&s.params).map_or(true, |e| e.layer != ExportLayer::Data);
    if exports.iter().any(whole_normals) {
        NORMALS_WRITING_BYTES_PER_CELL
    } else {
        0
    }
}

/// Estimated peak bytes of a build of `program` at resolution `n` (see
/// [`super::Request::keeping`]): at each node, the outputs still waiting for a
/// reader (an output nothing reads is dropped after its node) or held by a display or output node that has run (a build keeps what they show), and
/// the node's own outputs, neighbour tables and working memory; then what is kept plus the
/// exports' own buffers.
///
/// It is the walk's figure raised by [`WHOLE_MARGIN_PERCENT`], so that the decision to build
/// whole stays on the safe side of the peak.
pub fn estimate_bytes(n: usize, program: &Program) -> u64 {
    estimate_cells_bytes(6 * (n as u64) * (n as u64), n, program, &[], &[]) / 100 * WHOLE_MARGIN_PERCENT
}

/// Percent of the node-by-node walk that [`estimate_bytes`] counts for a whole build: `bench
/// --memory` measured the default graph's peak at 0.91, 1.11 and 1.04 times the walk's figure
/// at 512, 1024 and 2048 cells per face edge (outputs held longer than the walk counts), and a
/// build must keep at least 1.05 times the peak (what a control group's limit allows is then
/// not exceeded).
pub const WHOLE_MARGIN_PERCENT: u64 = 120;

/// [`estimate_bytes`] of a run that keeps the outputs of the nodes `kept` to its end (a tiled
/// build's whole-planet run, whose later reader is the tiles).
pub fn estimate_keeping_bytes(n: usize, program: &Program, kept: &[NodeId]) -> u64 {
    estimate_cells_bytes(6 * (n as u64) * (n as u64), n, program, &[], kept)
}

/// [`estimate_bytes`] for a run over `cells` cells at level `n` (a tile of a tiled build: the
/// nodes' structures are counted at `n`), where the nodes `sampled` only sample their outputs
/// from an earlier run (a tile's whole-planet nodes: their outputs count, not their working
/// memory), and the outputs of the nodes `kept` stay to the end.
pub fn estimate_cells_bytes(cells: u64, n: usize, program: &Program, sampled: &[NodeId], kept: &[NodeId]) -> u64 {
    let last_use = program.last_reads();
    let step_of: HashMap<NodeId, &Step> = program.steps.iter().map(|s| (s.id, s)).collect();
    // Outputs a sink reads: held to the end once that sink has run.
    let mut held: HashSet<(NodeId, usize)> = HashSet::new();
    let port_bytes = |id: NodeId, k: usize| step_of.get(&id).and_then(|s| s.kind.meta().outputs.get(k)).map_or(0, |o| output_bytes_per_cell(o.ty));
    let (mut live, mut peak) = (0u64, 0u64);
    for (i, step) in program.steps.iter().enumerate() {
        if i > 0 {
            for (src, port) in program.released_after(i - 1, &last_use) {
                let Some(s) = step_of.get(&src) else { continue };
                if s.kind.meta().category.is_sink() || held.contains(&(src, port)) || kept.contains(&src) {
                    continue;
                }
                live = live.saturating_sub(port_bytes(src, port));
            }
        }
        let own = if sampled.contains(&step.id) { cells * outputs_bytes_per_cell(step.kind) } else { cells * declared_bytes_per_cell(step) + step.kind.extra_bytes(&step.params, n) };
        peak = peak.max(cells * live + own);
        live += outputs_bytes_per_cell(step.kind);
        if step.kind.meta().category.is_sink() {
            held.extend(step.inputs.iter().flatten().copied());
        }
    }
    peak.max(cells * (live + export_bytes_per_cell(program)))
}

/// The bytes a build may plan with on this machine: 90 % of the memory available (the
/// machine's, or its control group's). The 10 % left covers the program itself (a build at 8
/// cells per face edge peaks at about 14 MiB resident) as long as the estimate stays at least
/// 1.05 times the measured peak (`bench --memory`).
pub fn usable_bytes() -> u64 {
    available_bytes() / 10 * 9
}

/// `Err` when running `program` at resolution `n` would not fit in the usable memory
/// ([`usable_bytes`]).
pub fn check_fits(n: usize, program: &Program) -> Result<(), TooLarge> {
    let need = estimate_bytes(n, program);
    let avail = available_bytes();
    if need > usable_bytes() {
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
