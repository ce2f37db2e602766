//! `planetgraph bench --memory`: every example graph in `graphs/` built at 512, 1024 and 2048
//! cells per face edge, each in a process of its own, with the estimate that `build` checks before
//! allocating beside the measured peak: the child's peak resident memory (`wait4`'s
//! `ru_maxrss`) less that of the same build at resolution 8 (the program itself). A probing
//! child per graph at 512 also measures each node: the peak resident memory while it runs less
//! the resident memory before (glibc returns every allocation of 1 MiB or more at once: `main`
//! sets its mapping threshold),
//! in bytes per cell beside what the estimate counts for that node.

use super::CliError;
use anyhow::anyhow;
use planetgraph_core::eval::{compile_for, memory, Program, Request};
use planetgraph_core::export::build_targets;
use planetgraph_core::nodes::NodeKind;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// Peak resident memory in MiB of `planetgraph build graph --resolution n`, run as a child
/// process; None if it failed.
fn child_peak_mib(graph: &Path, n: usize, out: &Path) -> Result<Option<f64>, CliError> {
    let exe = std::env::current_exe().map_err(CliError::internal)?;
    let child = Command::new(exe)
        .args(["build".as_ref(), graph.as_os_str(), "--out".as_ref(), out.as_os_str(), "--resolution".as_ref(), n.to_string().as_ref()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(CliError::internal)?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child (not waited for elsewhere: `child` is not used again) and
    // writes into the two locals above.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if waited != pid {
        return Err(CliError::internal(anyhow!("waiting for the build of {} failed: {}", graph.display(), std::io::Error::last_os_error())));
    }
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    // ru_maxrss is in KiB on Linux.
    Ok(ok.then(|| usage.ru_maxrss as f64 / 1024.0))
}

/// Builds every example whose file name contains `only` (all when `None`).
pub fn run(only: Option<&str>) -> Result<(), CliError> {
    let dir = Path::new("graphs");
    let mut files: Vec<_> =
        std::fs::read_dir(dir).map_err(|e| CliError::input(anyhow!("{}: {e} (run bench --memory in the repository's root)", dir.display())))?.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect();
    files.sort();
    let out = std::env::temp_dir().join(format!("planetgraph-bench-memory-{}", std::process::id()));
    let mut ratios = Vec::new();
    // Per kind: the largest measured bytes per cell, and what the estimate counts.
    let mut per_kind: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for file in files {
        let stem = file.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        if only.is_some_and(|o| !stem.contains(o)) {
            continue;
        }
        let g = super::load_for_command(&file)?;
        let targets = build_targets(&g);
        let program = compile_for(&g, &targets);
        probe_nodes(&file, &program, &mut per_kind)?;
        let Some(base) = child_peak_mib(&file, 8, &out)? else {
            eprintln!("{stem}: the build failed; skipped");
            continue;
        };
        for n in [512usize, 1024, 2048] {
            let name = format!("memory_{stem}_n{n}");
            let estimate = memory::estimate_bytes(n, &program) as f64 / (1u64 << 20) as f64;
            let Some(peak) = child_peak_mib(&file, n, &out)? else {
                eprintln!("{name}: the build failed");
                continue;
            };
            let data = (peak - base).max(1.0);
            println!("{name}_estimate_mib {estimate:.0} MiB");
            println!("{name}_peak_mib {data:.0} MiB");
            println!("{name}_estimate_over_peak {:.2} x", estimate / data);
            ratios.push(estimate / data);
        }
    }
    // A scratch folder of the benchmark: leaving it behind is harmless.
    let _ = std::fs::remove_dir_all(&out);
    for (kind, (measured, counted)) in &per_kind {
        println!("memory_node_{kind}_bytes_per_cell {measured:.1} B (estimate {counted:.0})");
    }
    if !ratios.is_empty() {
        ratios.sort_by(f64::total_cmp);
        let within = ratios.iter().filter(|r| (0.8..=1.2).contains(*r)).count();
        println!("memory_estimate_over_peak_min {:.2} x", ratios[0]);
        println!("memory_estimate_over_peak_median {:.2} x", ratios[ratios.len() / 2]);
        println!("memory_estimate_over_peak_max {:.2} x", ratios[ratios.len() - 1]);
        println!("memory_estimates_within_20_percent {within} of {}", ratios.len());
        // The estimate must stay on the safe side: at least 1.05 times the peak everywhere.
        let safe = ratios.iter().filter(|r| **r >= 1.05).count();
        println!("memory_estimates_at_least_1_05 {safe} of {}", ratios.len());
    }
    Ok(())
}

/// Resident memory before the running node, in bytes.
static BEFORE: AtomicU64 = AtomicU64::new(0);

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find(|l| l.starts_with(field))?.split_whitespace().nth(1)?.parse().ok()
}

/// The probe: before a node, resets the peak and notes the resident memory; after it, prints
/// `node KIND BYTES`, the peak above that.
fn probe(kind: NodeKind, after: bool) {
    if !after {
        // Resetting the peak can fail only without /proc; the figures then read high.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        BEFORE.store(status_kib("VmRSS:").unwrap_or(0) * 1024, Ordering::Relaxed);
    } else if let Some(peak) = status_kib("VmHWM:") {
        println!("node {kind:?} {}", (peak * 1024).saturating_sub(BEFORE.load(Ordering::Relaxed)));
    }
}

/// The probing child: evaluates what a build of `file` at `n` evaluates, each node observed
/// by the probe.
pub fn probe_child(file: &Path, n: usize) -> Result<(), CliError> {
    let g = super::load_for_command(file)?;
    let targets = build_targets(&g);
    let program = compile_for(&g, &targets);
    let res = planetgraph_core::eval::Evaluator::new().run(&program, &Request::whole(n).keeping(&targets).observed_by(probe), &std::sync::atomic::AtomicBool::new(false), &planetgraph_core::eval::Progress::default());
    match res.errors.iter().next() {
        Some((id, e)) => Err(CliError::input(anyhow!("{}: {}: {e}", file.display(), g.describe_node(*id)))),
        None => Ok(()),
    }
}

/// Runs the probing child on `file` at 512 and folds its figures into `per_kind`.
fn probe_nodes(file: &Path, program: &Program, per_kind: &mut BTreeMap<String, (f64, f64)>) -> Result<(), CliError> {
    let n = 512usize;
    let exe = std::env::current_exe().map_err(CliError::internal)?;
    let o = Command::new(exe).args(["bench".as_ref(), "--memory-probe".as_ref(), file.as_os_str(), "--probe-resolution".as_ref(), n.to_string().as_ref()]).output().map_err(CliError::internal)?;
    let cells = 6.0 * (n * n) as f64;
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        let mut w = line.split_whitespace();
        let (Some("node"), Some(kind), Some(bytes)) = (w.next(), w.next(), w.next().and_then(|b| b.parse::<f64>().ok())) else { continue };
        let Some(step) = program.steps.iter().find(|s| format!("{:?}", s.kind) == kind) else { continue };
        let counted = memory::node_bytes(step, n) as f64 / cells;
        let e = per_kind.entry(kind.to_string()).or_insert((0.0, counted));
        e.0 = e.0.max(bytes / cells);
    }
    Ok(())
}
