//! Export benchmarks: the default layers at 1024, a 16384 x 8192 equirectangular PNG and EXR
//! and six 4096 faces (EXR, TIFF) from a 4096 field, with the peak memory of each writing,
//! and a GLB at mesh size 512.

use planetgraph_core::export::{default_jobs, write_exports, Control, ExportContext, ExportJob, ExportProgress};
use planetgraph_core::nodes::output::export::{ExportFormat, ExportLayer, ExportProjection, ExportSettings};
use planetgraph_core::nodes::output::planet::PlanetSettings;
use planetgraph_core::planet::{ColourField, Field};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A cheap elevation in metres with relief at every scale the exports sample.
fn terrain(n: usize) -> Field {
    Field::from_fn_dir(n, |d| 3000.0 * (5.0 * d.x).sin() * (4.0 * d.y).cos() + 800.0 * (31.0 * d.z + 7.0 * d.x).sin())
}

/// Peak resident memory of this process in MiB since the last reset, and resets it (Linux).
pub(super) fn peak_mib_and_reset() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 = status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()?;
    std::fs::write("/proc/self/clear_refs", "5").ok()?;
    Some(kb / 1024.0)
}

fn time_export(jobs: &[ExportJob], n: usize, planet: &PlanetSettings) -> Result<f64, planetgraph_core::export::ExportError> {
    let dir = std::env::temp_dir().join(format!("planetgraph-bench-export-{}", std::process::id()));
    let ctx = ExportContext { graph: "bench".into(), graph_sha256: String::new(), resolution: n, planet: Some(planet.clone()), timings_ms: Default::default(), share: None, tiled: None, own_levels: Default::default() };
    let (cancel, progress) = (AtomicBool::new(false), ExportProgress::default());
    let t = std::time::Instant::now();
    let r = write_exports(&dir, jobs, &ctx, &Control { cancel: &cancel, progress: &progress });
    let ms = t.elapsed().as_secs_f64() * 1e3;
    // A scratch folder of the benchmark: leaving it behind is harmless.
    let _ = std::fs::remove_dir_all(&dir);
    r.map(|_| ms)
}

/// Runs the export figures whose names `wants`.
pub fn run(quick: bool, wants: &dyn Fn(&str) -> bool, print: &dyn Fn(&str, f64, &str), median: &dyn Fn(Vec<f64>) -> f64) {
    let planet = PlanetSettings { radius_km: 6371.0, sea_level: 0.0, max_elevation_m: 6000.0, max_depth_m: 7000.0 };
    let reps = if quick { 1 } else { 3 };
    if wants("export_default_n1024_ms") {
        let f = Arc::new(terrain(1024));
        let albedo = Arc::new(ColourField::from_fn(1024, |c| [0.2, (f.data()[c] / 6000.0).clamp(0.0, 1.0), 0.3]));
        let jobs = default_jobs("Planet", f, Some(albedo), &planet);
        match (0..reps).map(|_| time_export(&jobs, 1024, &planet)).collect::<Result<Vec<f64>, _>>() {
            Ok(t) => print("export_default_n1024_ms", median(t), "ms"),
            Err(e) => eprintln!("export_default_n1024_ms failed: {e}"),
        }
    }
    if wants("glb_n512_ms") {
        let f = Arc::new(terrain(512));
        let s = ExportSettings { name: "planet".into(), layer: ExportLayer::Mesh, format: ExportFormat::Glb, mesh_size: 512, chunks: 4, relief: 10.0, ..Default::default() };
        let job = ExportJob { label: "bench".into(), source: "terrain".into(), settings: s, units: "m".into(), field: Some(f), colour: None, tiled: None, tiled_mesh: None, splat: None };
        match (0..reps).map(|_| time_export(std::slice::from_ref(&job), 512, &planet)).collect::<Result<Vec<f64>, _>>() {
            Ok(t) => print("glb_n512_ms", median(t), "ms"),
            Err(e) => eprintln!("glb_n512_ms failed: {e}"),
        }
    }
    // Large exports from a 4096 field (figure, settings): each written alone, its peak measured
    // from a reset.
    let runs: Vec<(&str, ExportSettings)> = [
        ("export_equirect_16k", ExportSettings { name: "big".into(), format: ExportFormat::Png16, width: 16384, ..Default::default() }),
        ("export_exr_equirect_16k", ExportSettings { name: "big".into(), format: ExportFormat::Exr, width: 16384, ..Default::default() }),
        ("export_exr_faces_4096", ExportSettings { name: "big".into(), format: ExportFormat::Exr, projection: ExportProjection::Faces, ..Default::default() }),
        ("export_tiff_faces_4096", ExportSettings { name: "big".into(), format: ExportFormat::Tiff32, projection: ExportProjection::Faces, ..Default::default() }),
    ]
    .into_iter()
    .filter(|(name, _)| wants(&format!("{name}_ms")))
    .collect();
    if !runs.is_empty() {
        if quick {
            eprintln!("{}: skipped with --quick (a 4096 field and images up to 16384 x 8192)", runs.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", "));
            return;
        }
        let f = Arc::new(terrain(4096));
        let field_mib = (6 * 4096 * 4096 * 4) as f64 / (1024.0 * 1024.0);
        let before = peak_mib_and_reset();
        eprintln!("the 4096 field is {field_mib:.0} MiB, the process peaked at {:.0} MiB before writing; one 16384 x 8192 image would be 256 MiB at 16 bits, 512 MiB as float", before.unwrap_or(0.0));
        for (name, s) in runs {
            let job = ExportJob { label: "bench".into(), source: "terrain".into(), settings: s, units: "m".into(), field: Some(f.clone()), colour: None, tiled: None, tiled_mesh: None, splat: None };
            // Only the reset matters here, not the reading.
            let _ = peak_mib_and_reset();
            match time_export(std::slice::from_ref(&job), 4096, &planet) {
                Ok(ms) => {
                    print(&format!("{name}_ms"), ms, "ms");
                    if let Some(peak) = peak_mib_and_reset() {
                        print(&format!("{name}_peak_mib"), peak, "MiB");
                    }
                }
                Err(e) => eprintln!("{name}_ms failed: {e}"),
            }
        }
    }
}
