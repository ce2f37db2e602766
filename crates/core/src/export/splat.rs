//! Splat maps (the Splat map node): weight fields packed four to a file into RGBA 8-bit PNGs
//! and a JSON that names the layer in each file and channel.
//!
//! Normalisation: at every pixel the layers' weights (negative ones taken as 0) are divided by
//! their sum and rounded to 8-bit samples by largest remainder, so the samples of all of the
//! node's files add up to exactly 255; where every weight is 0 the first layer takes the whole
//! pixel. Layers 1-4 are the red, green, blue and alpha channels of the files `{name}_0_...`,
//! layers 5-8 those of `{name}_1_...` (unused channels 0); `{name}.json` lists them.

use super::encode::{png_strips, write_file};
use super::images::TILED_ROWS;
use super::jobs::{plan, ExportJob};
use super::manifest::ManifestFile;
use super::source::{Source, Taps, TiledSource};
use super::{Control, ExportContext, ExportError};
use crate::eval::EvalResult;
use crate::graph::{Graph, Node};
use crate::nodes::output::splat_map::{SplatMapSettings, LAYERS_PER_FILE, WEIGHTS};
use crate::nodes::InPort;
use crate::planet::Field;
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// One layer of a splat map: its name, where it comes from and its weights.
#[derive(Debug, Clone)]
pub struct SplatLayer {
    /// The layer's name in the JSON (`sand`).
    pub name: String,
    /// The output that feeds it (`Materials 7: sand`).
    pub source: String,
    /// Its weights (any scale; normalised per pixel with the other layers'): a field, or in a
    /// tiled build a value evaluated tile by tile.
    pub weights: Source,
}

/// A Splat map node's work: its settings and its connected layers in input order.
#[derive(Debug, Clone)]
pub struct SplatJob {
    /// Settings.
    pub settings: SplatMapSettings,
    /// The connected layers, in input order.
    pub layers: Vec<SplatLayer>,
}

/// The channel names of a splat file.
const CHANNELS: [&str; LAYERS_PER_FILE] = ["R", "G", "B", "A"];

/// How many files of four layers `layers` layers take.
fn groups(layers: usize) -> usize {
    layers.div_ceil(LAYERS_PER_FILE).max(1)
}

/// The JSON file's name.
fn json_name(s: &SplatMapSettings) -> String {
    format!("{}.json", s.name)
}

/// The files a Splat map node with settings `s` and `layers` connected inputs writes at
/// resolution `n`: every group's images, then the JSON.
pub fn file_names(s: &SplatMapSettings, layers: usize, n: usize) -> Vec<String> {
    let mut names: Vec<String> = (0..groups(layers)).flat_map(|k| plan(&s.images(k), n).into_iter().map(|p| p.name)).collect();
    names.push(json_name(s));
    names
}

/// The number of weight inputs of `node` (a Splat map node) that `g` connects.
pub fn connected_layers(g: &Graph, node: &Node) -> usize {
    WEIGHTS.iter().filter(|p| g.link_into(node.id, **p).is_some()).count()
}

/// The job of the Splat map node `node` of `g` from the evaluation `res`; an error on the node
/// is an error naming it.
pub fn job(g: &Graph, node: &Node, res: &EvalResult) -> Result<ExportJob, ExportError> {
    if let Some(e) = res.errors.get(&node.id).or_else(|| res.idle.get(&node.id)) {
        return Err(ExportError::Invalid { export: node.describe(), message: e.clone() });
    }
    make_job(g, node, |port| res.input(node.id, port).cloned().map(Source::Scalar))
}

/// The job of the Splat map node `node` of `g` in a tiled build: `weights` gives the tiled value
/// of each connected weight input.
pub fn tiled_job(g: &Graph, node: &Node, weights: impl Fn(InPort<Field>) -> Option<TiledSource>) -> Result<ExportJob, ExportError> {
    make_job(g, node, |port| weights(port).map(Source::Tiled))
}

/// The job of `node` whose connected weight inputs' values `weights` gives.
fn make_job(g: &Graph, node: &Node, weights: impl Fn(InPort<Field>) -> Option<Source>) -> Result<ExportJob, ExportError> {
    let settings: SplatMapSettings = node.settings().map_err(|e| ExportError::Invalid { export: node.describe(), message: e.to_string() })?;
    let label = format!("{} '{}'", node.describe(), settings.name);
    let mut layers = Vec::new();
    for port in WEIGHTS {
        let Some(link) = g.link_into(node.id, port) else { continue };
        let weights = weights(port).ok_or_else(|| ExportError::Invalid { export: label.clone(), message: format!("no value arrived at {}", port.def().name) })?;
        let from = g.node(link.from).map(|n| n.describe()).unwrap_or_default();
        let name = settings.layer_name(layers.len(), &link.output);
        layers.push(SplatLayer { name, source: format!("{from}: {}", link.output), weights });
    }
    if layers.is_empty() {
        return Err(ExportError::Invalid { export: label, message: "connect at least one weight".into() });
    }
    let images = settings.images(0);
    let source = layers.iter().map(|l| l.source.clone()).collect::<Vec<_>>().join(", ");
    Ok(ExportJob { label, source, settings: images, units: String::new(), field: None, colour: None, tiled: None, tiled_mesh: None, splat: Some(Arc::new(SplatJob { settings, layers })) })
}

/// Rounds `weights` (normalised by their sum; negative ones as 0) to 8-bit samples that add up
/// to exactly 255, by largest remainder (ties to the earlier layer); all 0: the first layer
/// takes 255.
pub fn quantise(weights: &[f32], out: &mut [u8]) {
    let clean = |w: f32| if w > 0.0 { w } else { 0.0 };
    let sum: f32 = weights.iter().map(|&w| clean(w)).sum();
    out.fill(0);
    if sum <= 0.0 || !sum.is_finite() {
        if let Some(first) = out.first_mut() {
            *first = 255;
        }
        return;
    }
    let mut rest: [(f32, usize); 8] = [(0.0, 0); 8];
    let mut left = 255i32;
    for (k, (&w, o)) in weights.iter().zip(out.iter_mut()).enumerate() {
        let scaled = clean(w) / sum * 255.0;
        let whole = scaled.floor().min(255.0);
        *o = whole as u8;
        left -= i32::from(*o);
        rest[k] = (scaled - whole, k);
    }
    let used = &mut rest[..weights.len().min(8)];
    used.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, k) in used.iter().take(left.max(0) as usize) {
        out[k] += 1;
    }
}

/// The JSON written beside the images.
#[derive(Serialize)]
struct Listing<'a> {
    format: &'static str,
    version: u32,
    export: &'a str,
    normalisation: &'static str,
    layers: Vec<ListedLayer>,
    files: Vec<ListedGroup>,
}

#[derive(Serialize)]
struct ListedLayer {
    layer: usize,
    name: String,
    source: String,
    file: usize,
    channel: &'static str,
}

#[derive(Serialize)]
struct ListedGroup {
    file: usize,
    layers: Vec<String>,
    images: Vec<String>,
}

impl SplatJob {
    /// Files written at resolution `n`.
    pub fn file_names(&self, n: usize) -> Vec<String> {
        file_names(&self.settings, self.layers.len(), n)
    }

    /// Writes the images and the JSON into `out` (with `ctx.share`, the units of them it owns,
    /// numbered from `first_unit`); returns each file's unit and manifest entry. `job` is the
    /// Export job that carries this one (its label and the first group's image settings).
    pub fn write(&self, job: &ExportJob, out: &Path, ctx: &ExportContext, control: &Control, first_unit: usize) -> Result<Vec<(usize, crate::export::ManifestFile)>, ExportError> {
        let s = &self.settings;
        s.check().map_err(|m| job.invalid(m))?;
        let n = self.layers[0].weights.n();
        if let Some(l) = self.layers.iter().find(|l| l.weights.channels() != 1 || l.weights.n() != n) {
            return Err(job.invalid(format!("the weight of {} is not a field of the others' resolution", l.name)));
        }
        let owns = |unit: usize| ctx.share.is_none_or(|sh| sh.owns(unit));
        let mut files = Vec::new();
        let mut unit = first_unit;
        let mut listed_groups = Vec::new();
        for group in 0..groups(self.layers.len()) {
            let images = s.images(group);
            let group_job = ExportJob { settings: images.clone(), ..job.clone() };
            let planned = plan(&images, n);
            listed_groups.push(ListedGroup { file: group, layers: self.layers.iter().skip(group * LAYERS_PER_FILE).take(LAYERS_PER_FILE).map(|l| l.name.clone()).collect(), images: planned.iter().map(|p| p.name.clone()).collect() });
            for p in planned {
                if owns(unit) {
                    let path = out.join(&p.name);
                    let bytes = write_png(&path, &self.layers, group, p.grid, control)?;
                    control.progress.files_done.fetch_add(1, Ordering::Relaxed);
                    let mut entry: ManifestFile = group_job.entry(&p, 1, None, bytes, super::manifest::Mapping::Linear { low: 0.0, high: 1.0, max_sample: 255 });
                    entry.export = s.name.clone();
                    entry.layer = "splat".into();
                    entry.channels = CHANNELS.map(String::from).to_vec();
                    entry.units = String::new();
                    entry.splat_layers = Some(listed_groups[group].layers.clone());
                    files.push((unit, entry));
                }
                unit += 1;
            }
        }
        if owns(unit) {
            let listing = Listing {
                format: "planetgraph-splat",
                version: 1,
                export: &s.name,
                normalisation: "the samples of a pixel over all files add up to 255 (weights normalised to sum to 1, rounded by largest remainder); where every weight is 0 the first layer takes 255",
                layers: self.layers.iter().enumerate().map(|(k, l)| ListedLayer { layer: k + 1, name: l.name.clone(), source: l.source.clone(), file: k / LAYERS_PER_FILE, channel: CHANNELS[k % LAYERS_PER_FILE] }).collect(),
                files: listed_groups,
            };
            let bytes = super::write_json(&out.join(json_name(s)), &listing)?;
            control.progress.files_done.fetch_add(1, Ordering::Relaxed);
            files.push((unit, listing_entry(job, s, bytes)));
        }
        Ok(files)
    }
}

/// The manifest entry of the JSON of the splat map with settings `s`, `bytes` long.
fn listing_entry(job: &ExportJob, s: &SplatMapSettings, bytes: u64) -> ManifestFile {
    ManifestFile {
        path: json_name(s),
        export: s.name.clone(),
        source: job.source.clone(),
        layer: "splat".into(),
        format: "json".into(),
        projection: "none".into(),
        face: None,
        face_index: None,
        orientation: None,
        grid: None,
        face_size: None,
        border: None,
        tile_origin: None,
        width: 0,
        height: 0,
        channels: Vec::new(),
        sample: "none".into(),
        byte_order: None,
        mapping: None,
        units: String::new(),
        data_range: None,
        bytes,
        splat_layers: None,
    }
}

/// Writes group `group`'s RGBA 8-bit PNG of `layers` on `grid` to `path`; returns its size in
/// bytes.
fn write_png(path: &Path, layers: &[SplatLayer], group: usize, grid: super::images::Grid, control: &Control) -> Result<u64, ExportError> {
    let (w, h) = grid.size();
    let cells = layers[0].weights.n();
    let first = group * LAYERS_PER_FILE;
    write_file(path, h, control, |out| {
        png_strips(out, path, (w, h), png::ColorType::Rgba, png::BitDepth::Eight, control, |y0, y1| {
            let mut bytes = vec![0u8; (y1 - y0) * w * 4];
            // A few rows at a time: where their pixels sample, the tiles of those cells (in a
            // tiled build), then the pixels.
            for (part, lines) in bytes.chunks_mut((TILED_ROWS * w * 4).max(1)).enumerate() {
                let first_row = y0 + part * TILED_ROWS;
                let rows = lines.len() / (w * 4).max(1);
                let places: Vec<Vec<Taps>> = (first_row..first_row + rows).into_par_iter().map(|row| (0..w).map(|x| layers[0].weights.taps(grid.pixel(x, row, cells).0)).collect()).collect();
                let views = layers.iter().map(|l| l.weights.view_for(places.iter().flatten(), control.cancel)).collect::<Result<Vec<_>, _>>()?;
                lines.par_chunks_mut((w * 4).max(1)).zip(&places).for_each(|(line, row)| {
                    let mut weights = [0.0f32; 8];
                    let mut samples = [0u8; 8];
                    for (x, &taps) in row.iter().enumerate() {
                        for ((wt, l), view) in weights.iter_mut().zip(layers).zip(&views) {
                            *wt = l.weights.sample_taps(taps, view.as_ref())[0];
                        }
                        quantise(&weights[..layers.len()], &mut samples[..layers.len()]);
                        for c in 0..LAYERS_PER_FILE {
                            line[x * 4 + c] = if first + c < layers.len() { samples[first + c] } else { 0 };
                        }
                    }
                });
            }
            Ok(bytes)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_add_up_to_255_and_follow_the_weights() {
        let mut out = [0u8; 5];
        for w in [[1.0, 1.0, 1.0, 0.0, 0.0], [0.2, 0.3, 0.5, 0.0, 0.0], [3.0, -1.0, 0.0, 1.0, 2.0], [0.1, 0.1, 0.1, 0.1, 0.1], [1e-9, 0.0, 0.0, 0.0, 1e-9]] {
            quantise(&w, &mut out);
            assert_eq!(out.iter().map(|&v| u32::from(v)).sum::<u32>(), 255, "{w:?} -> {out:?}");
            let sum: f32 = w.iter().map(|v| v.max(0.0)).sum();
            for (v, o) in w.iter().zip(out) {
                assert!((v.max(0.0) / sum * 255.0 - f32::from(o)).abs() < 1.0, "{w:?} -> {out:?}");
            }
        }
        quantise(&[0.0, 0.0, 0.0], &mut out[..3]);
        assert_eq!(&out[..3], &[255, 0, 0], "no weight: the first layer");
        quantise(&[-2.0, 0.0], &mut out[..2]);
        assert_eq!(&out[..2], &[255, 0]);
    }

    #[test]
    fn files_are_grouped_four_layers_a_file_then_the_json() {
        let s = SplatMapSettings::default();
        assert_eq!(file_names(&s, 3, 8), vec!["splat_0_equirect.png", "splat.json"]);
        assert_eq!(file_names(&s, 5, 8), vec!["splat_0_equirect.png", "splat_1_equirect.png", "splat.json"]);
        let faces = SplatMapSettings { projection: crate::nodes::output::export::ExportProjection::Faces, ..s };
        let names = file_names(&faces, 4, 8);
        assert_eq!(names.len(), 7);
        assert_eq!(names[0], "splat_0_face0_front.png");
    }
}
