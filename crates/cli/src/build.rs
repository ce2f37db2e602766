//! `planetgraph build FILE --out DIR`: headless evaluation and export, with progress on stderr
//! and Ctrl+C to cancel.

use super::{with_threads, BuildArgs, CliError};
use anyhow::anyhow;
use planetgraph_core::eval::{compile_for, memory, DiskCache, Evaluator, Progress, Request};
use planetgraph_core::export::{export_graph, ExportProgress, Manifest, Share};
use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::limits::budget_bytes;
use planetgraph_core::nodes::output::planet::PlanetSettings;
use planetgraph_core::nodes::NodeKind;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The process-wide cancel flag that Ctrl+C sets.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let f = Arc::new(AtomicBool::new(false));
        let g = f.clone();
        // Fails only if a handler is already set (a second command in one process): that one serves.
        let _ = ctrlc::set_handler(move || g.store(true, Ordering::Relaxed));
        f
    })
    .clone()
}

/// What evaluating a graph for its planet gives.
pub struct PlanetBuild {
    /// Elevation in metres.
    pub field: Arc<planetgraph_core::planet::Field>,
    /// The Planet node's settings.
    pub settings: PlanetSettings,
    /// Milliseconds per node (`Kind #id`).
    pub timings: BTreeMap<String, f64>,
    /// The Planet node's albedo, if its albedo input is connected.
    pub albedo: Option<Arc<planetgraph_core::planet::ColourField>>,
    /// The whole evaluation result (for inspection modes).
    pub result: planetgraph_core::eval::EvalResult,
}

/// Evaluates what the first Planet node needs at resolution `n`; returns the elevation in
/// metres, the planet settings and per-node timings.
pub fn evaluate_planet(g: &Graph, path: &Path, n: usize, cancel: &AtomicBool, progress: &Progress) -> Result<PlanetBuild, CliError> {
    evaluate_planet_from(g, path, n, None, None, &[], cancel, progress)
}

/// Like [`evaluate_planet`], but with `from` the planet's elevation is the first output of
/// that node (through the Planet node's settings) instead of the Planet node's input: the
/// planet as it stands at that point of the graph.
///
/// With an evaluator `keep`, the run goes through its cache and keeps every output, so that a
/// region evaluation of the same graph afterwards (a close-up) reuses the whole-planet nodes;
/// without, the run releases each output once it is read (a build's memory), but for those of
/// the nodes `inspect` (what `render`'s inspection modes show) that the run computes.
// One argument per thing a planet's evaluation takes; a struct would only rename them.
#[allow(clippy::too_many_arguments)]
pub fn evaluate_planet_from(g: &Graph, path: &Path, n: usize, from: Option<NodeId>, keep: Option<&mut Evaluator>, inspect: &[NodeId], cancel: &AtomicBool, progress: &Progress) -> Result<PlanetBuild, CliError> {
    let planet = g.first_of(NodeKind::Planet).ok_or_else(|| CliError::input(anyhow!("{}: the graph has no Planet output node", path.display())))?;
    if let Some(id) = from {
        let node = g.node(id).ok_or_else(|| CliError::input(anyhow!("{}: there is no node {}", path.display(), id.0)))?;
        if node.kind.meta().outputs.first().is_none_or(|o| o.ty != planetgraph_core::nodes::PortType::Field) {
            return Err(CliError::input(anyhow!("{}: {} has no elevation output", path.display(), node.describe())));
        }
    }
    let targets: Vec<NodeId> = std::iter::once(planet.id).chain(from).collect();
    let program = compile_for(g, &targets);
    memory::check_fits(n, &program).map_err(CliError::input)?;
    let res = match keep {
        Some(ev) => ev.run(&program, &Request::whole(n), cancel, progress),
        None => {
            let kept: Vec<NodeId> = targets.iter().chain(inspect).copied().collect();
            Evaluator::new().run(&program, &Request::whole(n).keeping(&kept), cancel, progress)
        }
    };
    if res.cancelled {
        return Err(CliError::internal(anyhow!("cancelled")));
    }
    // An idle node (an input not connected) cannot be built either.
    if let Some((id, msg)) = res.errors.iter().chain(&res.idle).next() {
        let label = g.describe_node(*id);
        return Err(CliError::input(anyhow!("{}: {label}: {msg}", path.display())));
    }
    let settings: PlanetSettings = planet.settings().map_err(|e| CliError::input(anyhow!("{}: {}: {e}", path.display(), planet.describe())))?;
    let field = match from {
        Some(id) => {
            let f = res.field(id).ok_or_else(|| CliError::internal(anyhow!("node {} produced nothing", id.0)))?;
            Arc::new(f.map(|v| settings.to_metres(v)))
        }
        None => res.field(planet.id).cloned().ok_or_else(|| CliError::internal(anyhow!("the Planet node produced nothing")))?,
    };
    let timings = res.timings_by_name(g);
    let albedo = res.input(planet.id, planetgraph_core::nodes::output::planet::ALBEDO).cloned();
    Ok(PlanetBuild { field, settings, timings, albedo, result: res })
}

/// Prints evaluation and export progress on stderr until `done` is set.
fn progress_ticker(p: Arc<Progress>, export: Arc<ExportProgress>, done: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut last = (usize::MAX, usize::MAX);
        let mut last_file = usize::MAX;
        let mut ticks = 0u32;
        let mut writing_since: Option<std::time::Instant> = None;
        let mut scan_since: Option<std::time::Instant> = None;
        while !done.load(Ordering::Relaxed) {
            let (f, ft) = (export.files_done.load(Ordering::Relaxed), export.files_total.load(Ordering::Relaxed));
            let (s, st) = (export.tiles_scanned.load(Ordering::Relaxed), export.tiles_to_scan.load(Ordering::Relaxed));
            if st == 0 {
                scan_since = None;
            } else {
                // A tiled build's range over the planet: the tiles no file read.
                let since = *scan_since.get_or_insert_with(std::time::Instant::now);
                if ticks.is_multiple_of(40) {
                    let elapsed = since.elapsed().as_secs_f64();
                    let left = if s > 0 && elapsed > 5.0 { format!(", about {} left", duration_text(elapsed * (st - s.min(st)) as f64 / s as f64)) } else { String::new() };
                    eprintln!("measuring the data range over the planet: {s}/{st} tiles{left}");
                }
                ticks += 1;
                std::thread::sleep(Duration::from_millis(250));
                continue;
            }
            if ft > 0 {
                let since = *writing_since.get_or_insert_with(std::time::Instant::now);
                ticks += 1;
                // Each file at once; within a long file (a tiled build evaluates while it
                // writes) every 10 s, with the time left at the pace so far.
                if f != last_file || ticks.is_multiple_of(40) {
                    let fraction = export.fraction() as f64;
                    let elapsed = since.elapsed().as_secs_f64();
                    let left = if fraction > 0.02 && elapsed > 5.0 { format!(", about {} left", duration_text(elapsed * (1.0 - fraction) / fraction)) } else { String::new() };
                    eprintln!("writing exports: {f}/{ft} files, {:.0} % done{left}", fraction * 100.0);
                    last_file = f;
                }
                std::thread::sleep(Duration::from_millis(250));
                continue;
            }
            let (k, t) = (p.done.load(Ordering::Relaxed), p.total.load(Ordering::Relaxed));
            let (sd, st) = (p.inner.done.load(Ordering::Relaxed), p.inner.total.load(Ordering::Relaxed));
            ticks += 1;
            // Node changes at once; steps inside a long node every 2 s.
            if t > 0 && (k != last.0 || (st > 0 && sd != last.1 && ticks.is_multiple_of(8))) {
                if st > 0 && sd < st {
                    eprintln!("evaluating: {k}/{t} nodes, {sd}/{st} steps in the current node");
                } else {
                    eprintln!("evaluating: {k}/{t} nodes");
                }
                last = (k, sd);
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    })
}

/// `seconds` as people read it: "40 s", "12 min", "1 h 20 min".
fn duration_text(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..=89 => format!("{s} s"),
        90..=5399 => format!("{} min", (s + 30) / 60),
        _ => format!("{} h {} min", s / 3600, (s % 3600 + 30) / 60),
    }
}

/// Builds `g` into `out`: evaluates at resolution `n` and writes every Export node's files
/// (or the Planet node's default set) and the manifest; the core of the `build` command (also
/// used by tests and bench). Every failure is exit 2 with a message naming the file or node.
pub fn build_graph(g: &Graph, path: &Path, out: &Path, n: usize, cancel: &AtomicBool) -> Result<Manifest, CliError> {
    build_share(g, path, out, n, None, planetgraph_core::export::tiled::DEFAULT_BUDGET, None, cancel)
}

/// Like [`build_graph`], but with `share` only that share of the files and its share record
/// instead of the manifest (`build --tiles I/N`; see [`planetgraph_core::export::share`]), tiled above
/// `budget` bytes (see [`planetgraph_core::export::tiled`]), reading and writing node results in `cache`
/// if given (`build --cache`).
#[allow(clippy::too_many_arguments)]
pub fn build_share(g: &Graph, path: &Path, out: &Path, n: usize, share: Option<Share>, budget: u64, cache: Option<Arc<DiskCache>>, cancel: &AtomicBool) -> Result<Manifest, CliError> {
    let progress = Arc::new(Progress::default());
    let done = Arc::new(AtomicBool::new(false));
    let export = Arc::new(ExportProgress::default());
    let ticker = progress_ticker(progress.clone(), export.clone(), done.clone());
    let result = export_graph(g, path, out, n, share, budget, cache.clone(), cancel, &progress, &export).map_err(CliError::from);
    if let Some(why) = cache.as_ref().and_then(|c| c.notice()) {
        eprintln!("planetgraph: {why}");
    }
    done.store(true, Ordering::Relaxed);
    // The progress ticker only prints; a panic in it must not fail the build.
    let _ = ticker.join();
    result
}

/// Runs the `build` command.
pub fn run(args: &BuildArgs) -> Result<(), CliError> {
    let g = super::load_for_command(&args.file)?;
    let cancel = interrupt_flag();
    let n = args.resolution as usize;
    let t = std::time::Instant::now();
    let cache = if args.cache { Some(DiskCache::user_default().ok_or_else(|| CliError::input(anyhow!("--cache: no cache folder (set PLANETGRAPH_CACHE_DIR or HOME)")))?) } else { None };
    let manifest = with_threads(args.threads, || build_share(&g, &args.file, &args.out, n, args.tiles, budget_bytes(args.memory).map_err(CliError::input)?, cache.clone(), &cancel))??;
    for f in &manifest.files {
        println!("{}/{} {}", args.out.display(), f.path, f.summary());
    }
    match args.tiles {
        Some(share) => println!("{}/{}", args.out.display(), share.record_name()),
        None => println!("{}/manifest.json", args.out.display()),
    }
    if let (Some(level), Some(tile)) = (manifest.whole_planet_level, manifest.tile_cells) {
        let own: Vec<String> = manifest.own_levels.iter().map(|(node, l)| format!("{node} at {l}")).collect();
        let own = if own.is_empty() { String::new() } else { format!(" ({} at their own level{}: {})", if own.len() == 1 { "one" } else { "some" }, if own.len() == 1 { "" } else { "s" }, own.join(", ")) };
        eprintln!("tiled build (its estimate exceeded the memory budget): the whole-planet nodes ran at {level} cells per face edge{own}, the rest on tiles of {tile} x {tile} cells");
    }
    eprintln!("built {} at {n} cells per face edge in {:.0} ms", args.file.display(), t.elapsed().as_secs_f64() * 1e3);
    if let Some(c) = &cache {
        let (read, written, dropped) = c.counts();
        let dropped = if dropped > 0 { format!(", {dropped} damaged or foreign entries dropped") } else { String::new() };
        eprintln!("node cache {}: {read} node results read, {written} written{dropped}", c.dir().display());
    }
    Ok(())
}
