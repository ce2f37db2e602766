//! Every node kind's declared memory cost ([`NodeMeta::costing`] and [`Node::extra_bytes`])
//! against what a run of it takes: the peak resident memory of a process of its own while the
//! node runs, less the resident memory before, over the cells of the level. The memory
//! estimate that decides whether a build is tiled adds these declarations up, so a node that
//! says less than it takes can get a build killed under a memory limit, and one that says much
//! more tiles builds that would fit.
//!
//! Resident memory, not the bytes asked of the allocator: the threads' allocator arenas keep
//! what their work freed, and that is what a memory limit sees. Linux only (it reads
//! `/proc/self/status` and resets the peak through `/proc/self/clear_refs`).

#![cfg(target_os = "linux")]

use planetgraph_core::nodes::output::planet::EARTH;
use planetgraph_core::nodes::{NodeKind, OpContext, ParamValue, PortType, Value};
use planetgraph_core::planet::{ColourField, Field, RegionSurface, VectorField};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The environment variable that makes this test, run again as a child process, measure one
/// kind (its `Debug` name) and print the figure.
const CHILD: &str = "PLANETGRAPH_MEMORY_TEST_KIND";

/// With [`CHILD`]: the index of an optional input the child leaves open.
const OPEN: &str = "PLANETGRAPH_MEMORY_TEST_OPEN";

/// A line of `/proc/self/status` in bytes (`VmRSS`, `VmHWM`).
fn status_bytes(key: &str) -> usize {
    let text = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = text.lines().find(|l| l.starts_with(key)).expect("the line");
    line.split_whitespace().nth(1).and_then(|v| v.parse::<usize>().ok()).expect("kB") * 1024
}

/// Cells per face edge of the runs: large enough that the per-cell arrays dwarf the fixed
/// costs, small enough for a test.
const N: usize = 256;

/// Inputs with detail everywhere, wide enough to reach sea, snow and every biome.
fn inputs(kind: NodeKind, regions: &Arc<RegionSurface>, plates: &Value, open: Option<usize>) -> Vec<Option<Value>> {
    kind.meta()
        .inputs
        .iter()
        .enumerate()
        .map(|(p, port)| {
            if open == Some(p) {
                return None;
            }
            // An Export takes a field or a colour, not both.
            if kind == NodeKind::Export && port.ty == PortType::Colour {
                return None;
            }
            let wave = move |d: glam::Vec3| (7.0 * d.x + 3.0 * p as f32).sin() * (5.0 * d.y).cos() + 0.4 * d.z;
            Some(match port.ty {
                PortType::Field => Field::from_fn_dir(N, move |d| 0.4 * wave(d)).into(),
                PortType::Colour => ColourField::from_fn(N, |c| [(c % 7) as f32 / 7.0, 0.3, (c % 3) as f32 / 3.0]).into(),
                PortType::Vector => VectorField { n: N, tile: None, data: (0..6 * N * N).map(|c| [c as f32 % 5.0, 1.0, -0.5]).collect() }.into(),
                PortType::Regions => Value::Regions(regions.clone()),
                PortType::Plates => plates.clone(),
            })
        })
        .collect()
}

/// Bytes per cell a run of `kind` allocates at its peak, and what it declares.
fn measure(kind: NodeKind, regions: &Arc<RegionSurface>, plates: &Value, files: &[std::path::PathBuf], open: Option<usize>) -> (f64, f64) {
    let mut params = kind.default_params();
    // A constant of 0 is a field of zero pages that are never touched; any other value
    // writes them.
    if kind == NodeKind::Constant {
        params.insert("value".into(), ParamValue::Float(0.5));
    }
    if kind == NodeKind::ImportRaster {
        params.insert("path".into(), ParamValue::Text("relief.png".into()));
    }
    // The Erosion filter's default 20 km gullies are finer than these cells, and a level
    // without octaves only copies its input; its declared memory is that of a level with
    // octaves to add.
    if kind == NodeKind::ErosionFilter {
        params.insert("spacing_km".into(), ParamValue::Float(1000.0));
    }
    let inputs = inputs(kind, regions, plates, open);
    let cancel = AtomicBool::new(false);
    let planet = kind.meta().reads_planet.then_some(&EARTH);
    let ctx = OpContext { n: N, tile: None, cancel: &cancel, steps: None, planet, files: if kind.meta().reads_files { files } else { &[] } };
    // The peak is reset to the resident memory now ("5" to clear_refs), then read after.
    std::fs::write("/proc/self/clear_refs", "5").expect("the peak reset");
    let before = status_bytes("VmRSS:");
    let out = kind.run(&params, &inputs, &ctx);
    let peak = status_bytes("VmHWM:").saturating_sub(before);
    if open.is_some() && out.is_err() {
        // The node needs that input in these settings (Expression's formula reads it).
        return (f64::NAN, f64::NAN);
    }
    assert!(out.is_ok(), "{kind:?} failed: {:?}", out.err());
    drop(out);
    let cells = (6 * N * N) as f64;
    let connected: Vec<bool> = inputs.iter().map(Option::is_some).collect();
    let declared = kind.meta().memory.map_or(f64::NAN, |m| m.bytes_per_cell_with(kind.meta().inputs, &connected) as f64) + kind.extra_bytes(&params, N) as f64 / cells;
    (peak as f64 / cells, declared)
}

/// Each kind takes within 20 % of what it declares (or within 3 bytes per cell, for the
/// nodes that make one field and little else), each measured in a process of its own.
#[test]
fn every_node_takes_the_memory_it_declares() {
    if let Ok(name) = std::env::var(CHILD) {
        // As the binary does (its `main`): blocks of 1 MiB or more are mapped on their own,
        // so a freed field leaves the resident memory at once.
        // SAFETY: mallopt only sets an allocator parameter; no allocation is in flight.
        unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20) };
        let kind = NodeKind::ALL.iter().copied().find(|k| format!("{k:?}") == name).expect("a kind");
        let dir = tempfile::tempdir().expect("a scratch folder");
        let file = dir.path().join("relief.png");
        image::GrayImage::from_fn(1024, 512, |x, y| image::Luma([((x * 7 + y * 3) % 251) as u8])).save(&file).expect("a PNG");
        let regions = Arc::new(RegionSurface::new(8, 0.5, 1));
        let cancel = AtomicBool::new(false);
        let ctx = OpContext { n: N, tile: None, cancel: &cancel, steps: None, planet: None, files: &[] };
        let plates = NodeKind::TectonicPlates.run(&NodeKind::TectonicPlates.default_params(), &[Some(Value::Regions(regions.clone()))], &ctx).expect("plates").remove(0);
        let open = std::env::var(OPEN).ok().and_then(|v| v.parse().ok());
        let (measured, declared) = measure(kind, &regions, &plates, &[file], open);
        println!("MEASURED {measured} {declared}");
        return;
    }
    let me = std::env::current_exe().expect("the test binary");
    let mut wrong = Vec::new();
    for &kind in NodeKind::ALL {
        if kind.meta().memory.is_none() {
            wrong.push(format!("{kind:?} declares no memory cost (NodeMeta::costing)"));
            continue;
        }
        // Every input connected, then each optional one left open in turn (a node may make
        // what it would bring itself: NodeMeta::costing_when_open).
        let optional = kind.meta().inputs.iter().enumerate().filter(|(_, p)| p.optional).map(|(k, _)| Some(k));
        for open in std::iter::once(None).chain(optional) {
            let mut child = std::process::Command::new(&me);
            child.args(["--exact", "every_node_takes_the_memory_it_declares", "--nocapture", "--test-threads", "1"]).env(CHILD, format!("{kind:?}"));
            if let Some(k) = open {
                child.env(OPEN, k.to_string());
            }
            let out = child.output().expect("the child runs");
            let text = String::from_utf8_lossy(&out.stdout);
            let figures: Vec<f64> = text.lines().find_map(|l| l.split("MEASURED ").nth(1)).map(|l| l.split_whitespace().filter_map(|v| v.parse().ok()).collect()).unwrap_or_default();
            if text.contains("MEASURED NaN") {
                continue;
            }
            let [measured, declared] = figures[..] else {
                panic!("{kind:?} (input {open:?} open): the child printed no figure:\n{text}\n{}", String::from_utf8_lossy(&out.stderr));
            };
            let ok = (measured - declared).abs() <= (0.2 * declared).max(3.0);
            let label = match open {
                Some(k) => format!("{kind:?} without {}", kind.meta().inputs[k].name),
                None => format!("{kind:?}"),
            };
            println!("{label:<40} measured {measured:7.1} B/cell, declared {declared:7.1}{}", if ok { "" } else { "  <- off" });
            if !ok {
                wrong.push(format!("{label}: {measured:.1} bytes per cell taken, {declared:.1} declared"));
            }
        }
    }
    assert!(wrong.is_empty(), "declared memory off by more than 20 %:\n{}", wrong.join("\n"));
}
