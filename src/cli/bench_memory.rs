//! `planetgraph bench --memory`: every example graph in `graphs/` built at 512 and 1024 cells per
//! face edge, each in a process of its own, with the estimate that `build` checks before
//! allocating beside the measured peak: the child's peak resident memory (`wait4`'s
//! `ru_maxrss`) less that of the same build at resolution 1 (the program itself).

use super::CliError;
use crate::eval::{compile_for, memory};
use crate::graph::NodeId;
use crate::nodes::NodeKind;
use anyhow::anyhow;
use std::path::Path;
use std::process::Command;

/// Peak resident memory in MiB of `planetgraph build graph --resolution n`, run as a child
/// process; None if it failed.
fn child_peak_mib(graph: &Path, n: usize, out: &Path) -> Result<Option<f64>, CliError> {
    let exe = std::env::current_exe().map_err(CliError::internal)?;
    let child = Command::new(exe).args(["build".as_ref(), graph.as_os_str(), "--out".as_ref(), out.as_os_str(), "--resolution".as_ref(), n.to_string().as_ref()]).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().map_err(CliError::internal)?;
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
    let mut files: Vec<_> = std::fs::read_dir(dir).map_err(|e| CliError::input(anyhow!("{}: {e} (run bench --memory in the repository's root)", dir.display())))?.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect();
    files.sort();
    let out = std::env::temp_dir().join(format!("planetgraph-bench-memory-{}", std::process::id()));
    let mut ratios = Vec::new();
    for file in files {
        let stem = file.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        if only.is_some_and(|o| !stem.contains(o)) {
            continue;
        }
        let g = super::load_for_command(&file)?;
        let mut targets: Vec<NodeId> = g.nodes.iter().filter(|x| x.kind == NodeKind::Export).map(|x| x.id).collect();
        if targets.is_empty() {
            targets.extend(g.first_of(NodeKind::Planet).map(|p| p.id));
        }
        let program = compile_for(&g, &targets);
        let Some(base) = child_peak_mib(&file, 1, &out)? else {
            eprintln!("{stem}: the build failed; skipped");
            continue;
        };
        for n in [512usize, 1024] {
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
    if !ratios.is_empty() {
        ratios.sort_by(f64::total_cmp);
        let within = ratios.iter().filter(|r| (0.8..=1.2).contains(*r)).count();
        println!("memory_estimate_over_peak_min {:.2} x", ratios[0]);
        println!("memory_estimate_over_peak_median {:.2} x", ratios[ratios.len() / 2]);
        println!("memory_estimate_over_peak_max {:.2} x", ratios[ratios.len() - 1]);
        println!("memory_estimates_within_20_percent {within} of {}", ratios.len());
    }
    Ok(())
}
