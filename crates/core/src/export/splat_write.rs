//! Writing a Splat map node's job: its RGBA images of four layers each and the JSON that names
//! the layer in each file and channel.

use super::base::{write_json, Control, ExportError};
use super::context::ExportContext;
use super::encode::{png_strips, write_file};
use super::images::{Grid, TILED_ROWS};
use super::job::ExportJob;
use super::manifest::{ManifestFile, Mapping};
use super::plan::plan;
use super::source::Taps;
use super::splat::{groups, json_name, quantise, SplatJob, SplatLayer, CHANNELS};
use crate::nodes::output::splat_map::{SplatMapSettings, LAYERS_PER_FILE};
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::Ordering;

/// Writes the images and the JSON into `out` (with `ctx.share`, the units of them it owns,
/// numbered from `first_unit`); returns each file's unit and manifest entry. `job` is the
/// Export job that carries this one (its label and the first group's image settings).
pub(super) fn write(splat: &SplatJob, job: &ExportJob, out: &Path, ctx: &ExportContext, control: &Control, first_unit: usize) -> Result<Vec<(usize, ManifestFile)>, ExportError> {
    let s = &splat.settings;
    s.check().map_err(|m| job.invalid(m))?;
    let n = splat.layers[0].weights.n();
    if let Some(l) = splat.layers.iter().find(|l| l.weights.channels() != 1 || l.weights.n() != n) {
        return Err(job.invalid(format!("the weight of {} is not a field of the others' resolution", l.name)));
    }
    let owns = |unit: usize| ctx.share.is_none_or(|sh| sh.owns(unit));
    let mut files = Vec::new();
    let mut unit = first_unit;
    let mut listed_groups = Vec::new();
    for group in 0..groups(splat.layers.len()) {
        let images = s.images(group);
        let group_job = ExportJob { settings: images.clone(), ..job.clone() };
        let planned = plan(&images, n);
        listed_groups.push(ListedGroup { file: group, layers: splat.layers.iter().skip(group * LAYERS_PER_FILE).take(LAYERS_PER_FILE).map(|l| l.name.clone()).collect(), images: planned.iter().map(|p| p.name.clone()).collect() });
        for p in planned {
            if owns(unit) {
                let path = out.join(&p.name);
                let bytes = write_png(&path, &splat.layers, group, p.grid, control)?;
                control.progress.files_done.fetch_add(1, Ordering::Relaxed);
                let mut entry: ManifestFile = group_job.entry(&p, 1, None, bytes, Mapping::Linear { low: 0.0, high: 1.0, max_sample: 255 });
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
            layers: splat.layers.iter().enumerate().map(|(k, l)| ListedLayer { layer: k + 1, name: l.name.clone(), source: l.source.clone(), file: k / LAYERS_PER_FILE, channel: CHANNELS[k % LAYERS_PER_FILE] }).collect(),
            files: listed_groups,
        };
        let bytes = write_json(&out.join(json_name(s)), &listing)?;
        control.progress.files_done.fetch_add(1, Ordering::Relaxed);
        files.push((unit, listing_entry(job, s, bytes)));
    }
    Ok(files)
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
fn write_png(path: &Path, layers: &[SplatLayer], group: usize, grid: Grid, control: &Control) -> Result<u64, ExportError> {
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
