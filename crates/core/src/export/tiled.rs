//! Tiled builds: a build larger than its memory budget evaluates the graph tile by tile while
//! its files are written. The nodes that need the whole planet run once at a capped level (the
//! finest that fits the budget) and keep only the outputs the tiles read; every image strip
//! asks the [`TileStore`] for the tiles its pixels sample, which evaluates the missing ones
//! (the graph's cellwise nodes on a tile of the build's level, see
//! [`crate::eval::Request::part`]) and keeps the most recently used within a cache of bounded
//! size. Peak memory is the capped whole-planet run, one tile's evaluation, the cache and the
//! strips, whatever the resolution.
//!
//! Within the cap (the whole part run at the build's level) a tiled build writes exactly the
//! bytes of a whole build; above it the whole-planet nodes' outputs are bilinear samples of the
//! capped run, as in close-ups.

use super::base::{Control, ExportError, Share, STRIP_ROWS};
use crate::appearance::height_tint;
use crate::eval::{frontier, localities, memory, whole_part, whole_steps, EvalResult, Evaluator, Program, Progress, Request};
use crate::graph::NodeId;
use crate::nodes::{Locality, Value};
use crate::planet::coords::NEIGHBOURS_4;
use crate::planet::{neighbour, ColourField, Field, Grid, Tile};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The default memory budget of a build, bytes: 4 GiB.
pub const DEFAULT_BUDGET: u64 = 4 << 30;

/// The largest tile edge of a tiled build, cells.
pub const MAX_TILE: usize = 1024;

/// The coarsest level the whole-planet nodes of a tiled build may run at (coarser, the
/// default graph's rivers and lakes cover most of the land).
pub const MIN_CAP: usize = 128;

/// Bytes a tiled build at `n` cells per face edge sets aside for the strips of rows the
/// encoders hold: [`STRIP_ROWS`] rows of the default equirectangular width
/// (`4 n`) of three float channels, four times over (the rows, their samples, the encoder's
/// buffers).
fn strip_bytes(n: usize) -> u64 {
    (STRIP_ROWS * 4 * n * 12 * 4) as u64
}

/// How a tiled build runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TilePlan {
    /// Cells per face edge of the build.
    pub n: usize,
    /// The level the whole-planet nodes run at (at most `n`).
    pub cap: usize,
    /// Cells per tile edge (divides `n`).
    pub tile: usize,
    /// Bytes the cache of evaluated tiles may hold.
    pub cache_bytes: u64,
    /// The estimated peak of the build, bytes: the whole-planet run at `cap` and the outputs it
    /// keeps, one tile's evaluation, the cache and the strips.
    pub estimate_bytes: u64,
}

impl TilePlan {
    /// Tiles per face edge.
    pub fn per_face(&self) -> usize {
        self.n / self.tile
    }

    /// Tiles of the planet, numbered face by face, row by row (as [`Tile::cover`] lists them).
    pub fn count(&self) -> usize {
        6 * self.per_face() * self.per_face()
    }

    /// The number of the tile that holds cell index `c` of the whole planet at `n`, and the
    /// cell's position in the tile's storage.
    pub fn locate(&self, c: usize) -> (usize, usize) {
        let (n, edge, per) = (self.n, self.tile, self.per_face());
        let (face, rest) = (c / (n * n), c % (n * n));
        let (j, i) = (rest / n, rest % n);
        ((face * per + j / edge) * per + i / edge, (j % edge) * edge + i % edge)
    }

    /// Tile number `k`.
    pub fn tile(&self, k: usize) -> Tile {
        let per = self.per_face();
        let (face, rest) = (k / (per * per), k % (per * per));
        Tile { face: crate::planet::Face::ALL[face.min(5)], n: self.n, i0: rest % per * self.tile, j0: rest / per * self.tile, size: self.tile, halo: 0 }
    }
}

/// The budget a build plans with: `budget` bytes, or what this machine lets it use
/// ([`memory::usable_bytes`]: 90 % of the memory available, the machine's or its control
/// group's) where that is less.
pub fn within_memory(budget: u64) -> u64 {
    budget.min(memory::usable_bytes())
}

/// The largest tile edge up to [`MAX_TILE`] that divides `n`.
pub fn tile_edge(n: usize) -> usize {
    (1..=MAX_TILE.min(n)).rev().find(|t| n.is_multiple_of(*t)).unwrap_or(1)
}

/// Tiles a tiled build's cache holds at least: a ring of tiles around the planet at `n` cells
/// per face edge in tiles of `tile` cells (six faces' worth of tile edges), and at least 16.
pub fn ring_tiles(n: usize, tile: usize) -> u64 {
    (6 * (n / tile.max(1)) as u64).max(16)
}

/// How a build of `program` at `n` cells per face edge runs within `budget` bytes: `Ok(None)`
/// when the whole build fits, a [`TilePlan`] when it must be tiled, or why no plan fits (the
/// budget is below what one tile and the coarsest whole-planet run need, or `n` has no tile
/// edge of at least 64 cells).
pub fn plan(n: usize, program: &Program, budget: u64) -> Result<Option<TilePlan>, String> {
    if memory::estimate_bytes(n, program) <= budget {
        return Ok(None);
    }
    let tile = tile_edge(n);
    if tile < 64.min(n) {
        return Err(format!("{n} cells per face edge has no tile edge of 64 to {MAX_TILE} cells that divides it; a tiled build needs one (for example {})", n.next_multiple_of(1024)));
    }
    let local = localities(program);
    let whole = whole_part(program, &local);
    let kept = frontier(program, &local);
    let sampled: Vec<NodeId> = whole_steps(program, &local).into_iter().collect();
    let tile_bytes = memory::estimate_cells_bytes((tile * tile) as u64, n, program, &sampled, &[]);
    // The cache holds an eighth of the budget, and at least a ring of tiles of the widest
    // value (12 bytes a cell): a strip of an equirectangular image reads a ring around the
    // planet, four faces' worth of tiles around the equator and up to about six near a pole.
    // With less, every strip evaluates its ring again (a 16384 build's colour image crawled).
    let cache_bytes = (budget / 8).max(ring_tiles(n, tile) * 12 * (tile * tile) as u64);
    let mut cap = n;
    loop {
        let whole_bytes = if whole.steps.is_empty() { 0 } else { memory::estimate_keeping_bytes(cap, &whole, &kept) };
        let need = whole_bytes + tile_bytes + cache_bytes + strip_bytes(n);
        if need <= budget {
            return Ok(Some(TilePlan { n, cap, tile, cache_bytes, estimate_bytes: need }));
        }
        if cap / 2 < MIN_CAP.min(n) || whole.steps.is_empty() {
            return Err(format!("the memory budget of {} MiB is below what a tiled build needs ({} MiB: the whole-planet nodes at {cap} cells per face edge, one tile of {tile} cells and the tile cache)", budget >> 20, need >> 20));
        }
        cap /= 2;
    }
}

/// What a tiled export reads on each tile.
#[derive(Debug, Clone, PartialEq)]
pub enum TileValue {
    /// Input `port` of the sink node `node` (an Export node's field or colour, the Planet
    /// node's albedo).
    Input {
        /// The sink.
        node: NodeId,
        /// Its input port.
        port: usize,
    },
    /// The first output of `node` computed from its first input alone: the Planet node's
    /// elevation in metres (its albedo input, and what feeds only that, stay out of the tile's
    /// program).
    Output(NodeId),
    /// The height tint (linear RGB) of value `of` (elevation in metres), with the Planet node's
    /// range.
    Tint {
        /// Index of the elevation among the store's values.
        of: usize,
        /// Deepest ocean, metres (positive).
        depth_m: f32,
        /// Highest mountain, metres.
        height_m: f32,
    },
    /// Unit object-space normals of value `of` (a field, read as elevation in metres) on a
    /// planet of `radius_km`, relief exaggerated `relief` times: what
    /// [`super::source::Source::normals`] computes on the whole planet, cell for cell (the
    /// gradient's four neighbours of a tile's border cells come from the tiles beside it, across
    /// face edges too).
    Normals {
        /// Index of the field among the store's values.
        of: usize,
        /// Planet radius, km.
        radius_km: f32,
        /// Relief exaggeration.
        relief: f32,
    },
}

/// The values of one tile: the evaluation's own field or colours on the tile.
#[derive(Debug)]
pub enum TileData {
    /// One value per cell.
    Scalar(Arc<Field>),
    /// Linear RGB per cell.
    Colour(Arc<ColourField>),
}

impl TileData {
    fn bytes(&self) -> u64 {
        match self {
            TileData::Scalar(f) => 4 * f.data().len() as u64,
            TileData::Colour(c) => 12 * c.data.len() as u64,
        }
    }

    fn get(&self, k: usize) -> [f32; 3] {
        match self {
            TileData::Scalar(f) => [f.data()[k], 0.0, 0.0],
            TileData::Colour(c) => c.data[k],
        }
    }
}

/// Evaluated tiles, most recently used last.
#[derive(Default)]
struct Cache {
    entries: HashMap<(usize, usize), (Arc<TileData>, u64)>,
    bytes: u64,
    clock: u64,
}

/// The tiles of one value that a strip of pixels reads.
pub struct TileView {
    plan: TilePlan,
    tiles: Vec<Option<Arc<TileData>>>,
}

impl TileView {
    /// The value at cell index `c` (of the whole planet at the build's level); NaN for a tile
    /// the view does not hold (a caller's bug, which the tests would show as a wrong pixel).
    pub fn get(&self, c: usize) -> [f32; 3] {
        let (k, at) = self.plan.locate(c);
        match self.tiles.get(k) {
            Some(Some(data)) => data.get(at),
            _ => [f32::NAN; 3],
        }
    }
}

/// One value's part of the program: the steps it depends on, their localities, and the
/// output (node and port) that holds the value.
struct Part {
    program: Program,
    local: Vec<Locality>,
    read: (NodeId, usize),
}

/// Evaluates the tiles of a tiled build on demand and keeps the most recently used.
pub struct TileStore {
    plan: TilePlan,
    whole: EvalResult,
    values: Vec<TileValue>,
    parts: Vec<Option<Part>>,
    labels: HashMap<NodeId, String>,
    cache: Mutex<Cache>,
    ranges: Vec<Mutex<Range>>,
}

/// The range of a scalar value over the tiles evaluated so far, and which those are.
struct Range {
    span: Option<(f32, f32)>,
    seen: Vec<bool>,
}

impl TileStore {
    /// A store for `values` of `program` under `plan`, with `whole` the run of the program's
    /// whole part at `plan.cap` (keeping at least the [`frontier`]'s outputs); `labels` names
    /// nodes for messages (`Kind #id`).
    pub fn new(plan: TilePlan, program: &Program, whole: EvalResult, values: Vec<TileValue>, labels: HashMap<NodeId, String>) -> TileStore {
        let parts = values
            .iter()
            .map(|v| {
                let (program, read) = match v {
                    // The input's value is the output that feeds it: only what that depends on runs.
                    TileValue::Input { node, port } => {
                        let src = program.steps.iter().find(|s| s.id == *node).and_then(|s| s.inputs.get(*port).copied().flatten())?;
                        (program.upstream([src.0]), src)
                    }
                    TileValue::Output(node) => {
                        let mut first_only = program.clone();
                        for step in first_only.steps.iter_mut().filter(|s| s.id == *node) {
                            step.inputs.iter_mut().skip(1).for_each(|i| *i = None);
                        }
                        (first_only.upstream([*node]), (*node, 0))
                    }
                    TileValue::Tint { .. } | TileValue::Normals { .. } => return None,
                };
                let local = localities(&program);
                Some(Part { program, local, read })
            })
            .collect();
        let ranges = values.iter().map(|_| Mutex::new(Range { span: None, seen: vec![false; plan.count()] })).collect();
        TileStore { plan, whole, values, parts, labels, cache: Mutex::new(Cache::default()), ranges }
    }

    /// The plan the store follows.
    pub fn plan(&self) -> TilePlan {
        self.plan
    }

    /// Channels of value `value`: 1 or 3.
    pub fn channels(&self, value: usize) -> usize {
        match &self.values[value] {
            TileValue::Tint { .. } | TileValue::Normals { .. } => 3,
            TileValue::Output(_) | TileValue::Input { .. } => {
                // The type of the output that holds the value.
                let ty = self.parts[value].as_ref().and_then(|p| p.program.steps.iter().find(|s| s.id == p.read.0).and_then(|s| s.kind.meta().outputs.get(p.read.1).map(|d| d.ty)));
                if ty == Some(crate::nodes::PortType::Colour) {
                    3
                } else {
                    1
                }
            }
        }
    }

    /// Smallest and largest value of a scalar value over the tiles evaluated so far (NaN
    /// ignored, as [`crate::planet::Field::min_max`] does); after [`TileStore::scan`], over the
    /// whole planet.
    pub fn range(&self, value: usize) -> Option<(f32, f32)> {
        self.ranges[value].lock().ok().and_then(|r| r.span)
    }

    /// Evaluates the tiles of `value` that have not been yet, so that its range covers the
    /// whole planet (an automatic value mapping needs it before the first pixel is written;
    /// the manifest's data range after the files), counting them in `control`'s progress.
    pub fn scan(&self, value: usize, control: &Control) -> Result<(), ExportError> {
        self.scan_where(value, |_| true, control)
    }

    /// Evaluates the tiles of `value` numbered `k` with `share.owns(k)` that have not been yet:
    /// a share's part of the range over the planet. Every share scans its part, so the shares'
    /// ranges together cover every tile ([`super::share::merge`] joins them), and the shares
    /// split that work as they split the files.
    pub fn scan_share(&self, value: usize, share: Share, control: &Control) -> Result<(), ExportError> {
        self.scan_where(value, |k| share.owns(k), control)
    }

    fn scan_where(&self, value: usize, pick: impl Fn(usize) -> bool, control: &Control) -> Result<(), ExportError> {
        if self.channels(value) != 1 {
            return Ok(());
        }
        let seen = |k: usize| self.ranges[value].lock().map(|r| r.seen.get(k).copied().unwrap_or(false)).unwrap_or(false);
        let todo: Vec<usize> = (0..self.plan.count()).filter(|&k| pick(k) && !seen(k)).collect();
        let p = control.progress;
        p.tiles_scanned.store(0, Ordering::Relaxed);
        p.tiles_to_scan.store(todo.len(), Ordering::Relaxed);
        for k in todo {
            self.view(value, &[k], control.cancel)?;
            p.tiles_scanned.fetch_add(1, Ordering::Relaxed);
        }
        p.tiles_to_scan.store(0, Ordering::Relaxed);
        Ok(())
    }

    /// The tiles numbered `tiles` (ascending, see [`TilePlan::tile`]) of value `value`,
    /// evaluating those the cache does not hold.
    pub fn view(&self, value: usize, tiles: &[usize], cancel: &AtomicBool) -> Result<TileView, ExportError> {
        let mut out = vec![None; self.plan.count()];
        let mut missing = Vec::new();
        {
            let mut cache = self.lock()?;
            cache.clock += 1;
            let now = cache.clock;
            for t in tiles {
                match cache.entries.get_mut(&(value, *t)) {
                    Some(entry) => {
                        entry.1 = now;
                        out[*t] = Some(entry.0.clone());
                    }
                    None => missing.push(*t),
                }
            }
        }
        for t in missing {
            if cancel.load(Ordering::Relaxed) {
                return Err(ExportError::Cancelled);
            }
            let data = Arc::new(self.evaluate(value, t, cancel)?);
            self.insert(value, t, data.clone(), tiles)?;
            out[t] = Some(data);
        }
        Ok(TileView { plan: self.plan, tiles: out })
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Cache>, ExportError> {
        self.cache.lock().map_err(|_| ExportError::Invalid { export: "tiled build".into(), message: "the tile cache was poisoned by an earlier failure".into() })
    }

    /// Keeps `data`, evicting the least recently used tiles outside `keep` while the cache is
    /// over its size.
    fn insert(&self, value: usize, t: usize, data: Arc<TileData>, keep: &[usize]) -> Result<(), ExportError> {
        let mut cache = self.lock()?;
        cache.clock += 1;
        let now = cache.clock;
        cache.bytes += data.bytes();
        cache.entries.insert((value, t), (data, now));
        while cache.bytes > self.plan.cache_bytes {
            let oldest = cache.entries.iter().filter(|((v, k), _)| !(*v == value && keep.binary_search(k).is_ok())).min_by_key(|(_, (_, used))| *used).map(|(key, _)| *key);
            let Some(key) = oldest else { break };
            if let Some((old, _)) = cache.entries.remove(&key) {
                cache.bytes -= old.bytes();
            }
        }
        Ok(())
    }

    fn error(&self, value: usize, message: String) -> ExportError {
        let export = match &self.values[value] {
            TileValue::Input { node, .. } | TileValue::Output(node) => self.labels.get(node).cloned().unwrap_or_else(|| format!("node {}", node.0)),
            TileValue::Tint { .. } => "height tint".into(),
            TileValue::Normals { .. } => "normal map".into(),
        };
        ExportError::Invalid { export, message }
    }

    /// Whether value `value` is a normal map (sampled normals are renormalised).
    pub fn is_normals(&self, value: usize) -> bool {
        matches!(self.values[value], TileValue::Normals { .. })
    }

    /// The normals of tile `k` from the field `of` (see [`TileValue::Normals`]).
    fn normals(&self, k: usize, of: usize, radius_km: f32, relief: f32, cancel: &AtomicBool) -> Result<TileData, ExportError> {
        let (t, n) = (self.plan.tile(k), self.plan.n);
        // The tile and those that hold its border cells' neighbours.
        let last = t.size - 1;
        let mut needed = vec![k];
        for m in 0..t.cells() {
            let cell = t.cell(m);
            let (i, j) = (cell.i - t.i0, cell.j - t.j0);
            if i == 0 || j == 0 || i == last || j == last {
                needed.extend(NEIGHBOURS_4.iter().filter_map(|&(di, dj)| neighbour(cell, di, dj, n)).map(|nb| self.plan.locate(nb.index(n)).0));
            }
        }
        needed.sort_unstable();
        needed.dedup();
        let view = self.view(of, &needed, cancel)?;
        let scale = relief / (radius_km.max(1.0) * 1000.0);
        // The same operations in the same order as the whole planet's gradient and normals.
        let data = (0..t.cells())
            .into_par_iter()
            .map(|m| {
                let cell = t.cell(m);
                let p = cell.direction(n);
                let h = view.get(cell.index(n))[0];
                let to = NEIGHBOURS_4.iter().filter_map(|&(di, dj)| neighbour(cell, di, dj, n)).map(|nb| (nb.direction(n), view.get(nb.index(n))[0] - h));
                let g = crate::planet::gradient::tangent_gradient(p, to);
                (p - g * scale).normalize_or(p).to_array()
            })
            .collect();
        Ok(TileData::Colour(Arc::new(ColourField { n, tile: Some(t), data })))
    }

    /// Evaluates value `value` on tile number `k`.
    fn evaluate(&self, value: usize, k: usize, cancel: &AtomicBool) -> Result<TileData, ExportError> {
        let t = self.plan.tile(k);
        let data = match (&self.values[value], &self.parts[value]) {
            (TileValue::Tint { of, depth_m, height_m }, _) => {
                let view = self.view(*of, &[k], cancel)?;
                let metres = view.tiles.get(k).cloned().flatten().ok_or_else(|| self.error(value, "the elevation tile is missing".into()))?;
                let TileData::Scalar(m) = metres.as_ref() else { return Err(self.error(value, "the elevation is not a field".into())) };
                TileData::Colour(Arc::new(ColourField::from_fn_on(Grid::Tile(t), |c| height_tint(m.data()[c], *depth_m, *height_m))))
            }
            (TileValue::Normals { of, radius_km, relief }, _) => self.normals(k, *of, *radius_km, *relief, cancel)?,
            (_, Some(part)) => {
                let res = Evaluator::new().run(&part.program, &Request::part(&self.whole, &part.local, Grid::Tile(t)).reading(&[part.read]), cancel, &Progress::default());
                if res.cancelled {
                    return Err(ExportError::Cancelled);
                }
                // The program's own errors were refused before the build began (they reach the
                // targets); what is left failed on this tile.
                let failed = res.errors.iter().filter(|(id, _)| !part.program.errors.contains_key(id)).chain(res.idle.iter().filter(|(id, _)| !part.program.idle.contains_key(id))).next();
                if let Some((id, msg)) = failed {
                    let node = self.labels.get(id).cloned().unwrap_or_else(|| format!("node {}", id.0));
                    return Err(self.error(value, format!("{node}: {msg} (on {})", Grid::Tile(t))));
                }
                match res.output(part.read.0, part.read.1).cloned() {
                    Some(Value::Field(f)) => TileData::Scalar(f),
                    Some(Value::Colour(c)) => TileData::Colour(c),
                    _ => return Err(self.error(value, format!("produced nothing on {}", Grid::Tile(t)))),
                }
            }
            (_, None) => return Err(self.error(value, "has no part of the program".into())),
        };
        if let TileData::Scalar(f) = &data {
            let (lo, hi) = f.min_max();
            if let Ok(mut r) = self.ranges[value].lock() {
                let first = !std::mem::replace(&mut r.seen[k], true);
                if first {
                    r.span = Some(r.span.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
                }
            }
        }
        Ok(data)
    }
}
