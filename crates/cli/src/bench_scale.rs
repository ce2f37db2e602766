//! `planetgraph bench --scale`: the default graph built at 1024, 2048, 4096 and 8192 cells per
//! face edge with the default memory budget (4 GiB: the larger two are tiled builds), each
//! with its time, the process's peak resident memory and the estimate that `build` plans with
//! (many minutes: not part of the default run).

use super::bench_export::peak_mib_and_reset;
use super::build::build_graph;
use super::CliError;
use planetgraph_core::eval::{compile_for, memory};
use planetgraph_core::export::tiled::{self, DEFAULT_BUDGET};
use planetgraph_core::graph::NodeId;
use planetgraph_core::nodes::NodeKind;
use planetgraph_examples::default_graph;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Builds the default graph at each scale whose figure name contains `only` (all when `None`).
pub fn run(only: Option<&str>) -> Result<(), CliError> {
    let g = default_graph().map_err(CliError::internal)?;
    let cancel = AtomicBool::new(false);
    let dir = std::env::temp_dir().join(format!("planetgraph-bench-scale-{}", std::process::id()));
    let targets: Vec<NodeId> = g.nodes.iter().filter(|x| x.kind.writes_files() || x.kind == NodeKind::Planet).map(|x| x.id).collect();
    let program = compile_for(&g, &targets);
    for n in [1024usize, 2048, 4096, 8192] {
        let name = format!("default_build_n{n}");
        if only.is_some_and(|o| !name.contains(o)) {
            continue;
        }
        // What `build` decides with the default budget: a whole build, or a tiled one.
        let plan = match tiled::plan(n, &program, tiled::within_memory(DEFAULT_BUDGET)) {
            Ok(plan) => plan,
            Err(e) => {
                eprintln!("{name}: refused before allocating: {e}");
                continue;
            }
        };
        let estimate = plan.map_or_else(|| memory::estimate_bytes(n, &program), |p| p.estimate_bytes) as f64 / (1u64 << 20) as f64;
        println!("{name}_estimate_mib {estimate:.0} MiB");
        if let Some(p) = plan {
            println!("{name}_whole_planet_level {} cells", p.cap);
        }
        // Only the reset matters here, not the reading.
        let _ = peak_mib_and_reset();
        let t = Instant::now();
        let built = build_graph(&g, Path::new("default.ron"), &dir, n, &cancel);
        let seconds = t.elapsed().as_secs_f64();
        let peak = peak_mib_and_reset();
        // The folder only holds this run's files; removing it is best effort.
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = built {
            eprintln!("{name}: failed: {e:?}");
            continue;
        }
        println!("{name}_s {seconds:.1} s");
        if let Some(peak) = peak {
            println!("{name}_peak_mib {peak:.0} MiB");
            println!("{name}_estimate_over_peak {:.2} x", estimate / peak);
        }
    }
    Ok(())
}
