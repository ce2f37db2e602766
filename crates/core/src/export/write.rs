//! Writing an export: every job's files into the output folder, then the manifest (or a
//! share's record); the top of the pipeline below the builds.

use super::base::{prepare_folder, write_json, Control, ExportError};
use super::context::ExportContext;
use super::encode::write_image;
use super::images::{Encoding, Frame, Pixels};
use super::job::ExportJob;
use super::manifest::{Manifest, ManifestFile, Mapping};
use super::mesh::{write_mesh, MeshSources};
use super::plan::plan;
use super::share;
use super::source::Source;
use crate::nodes::output::export::{ColourEncoding, ExportFormat, ExportLayer, ValueMapping};
use std::path::Path;
use std::sync::atomic::Ordering;

/// Writes every job into `out` and then `out/manifest.json`; returns the manifest.
pub fn write_exports(out: &Path, jobs: &[ExportJob], ctx: &ExportContext, control: &Control) -> Result<Manifest, ExportError> {
    let manifest_path = prepare_folder(out)?;
    if let Some(share) = ctx.share {
        let record = out.join(share.record_name());
        match std::fs::remove_file(&record) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(ExportError::Io { path: record, source: e }),
            _ => {}
        }
    }
    // Files of the units this build writes (all of them without a share), for progress.
    let mut planned = 0;
    let mut unit = 0;
    for job in jobs {
        let units = job.units();
        let owned = (unit..unit + units).filter(|&u| ctx.share.is_none_or(|s| s.owns(u))).count();
        planned += if units == 1 { owned * job.file_count() } else { owned };
        unit += units;
    }
    control.progress.files_total.store(planned, Ordering::Relaxed);
    control.progress.files_done.store(0, Ordering::Relaxed);
    let mut files = Vec::new();
    let mut file_jobs = Vec::new();
    let mut first_unit = 0;
    for (j, job) in jobs.iter().enumerate() {
        control.check()?;
        let written = job.write(out, ctx, control, first_unit)?;
        file_jobs.extend(std::iter::repeat_n(j, written.len()));
        files.extend(written);
        first_unit += job.units();
    }
    if let Some(share) = ctx.share {
        let ranges = share::Ranges { jobs: jobs.iter().map(ExportJob::tiled_range).collect(), files: file_jobs };
        let identity = share::BuildIdentity {
            graph_sha256: ctx.graph_sha256.clone(),
            resolution: ctx.resolution,
            whole_planet_level: ctx.tiled.map(|p| p.cap),
            tile_cells: ctx.tiled.map(|p| p.tile),
            own_levels: ctx.own_levels.clone(),
            program: share::program_version(),
        };
        return share::write_record(out, share, identity, first_unit, files, ranges, |files| Manifest::new(ctx, files));
    }
    let manifest = Manifest::new(ctx, files.into_iter().map(|(_, f)| f).collect());
    write_json(&manifest_path, &manifest)?;
    Ok(manifest)
}

impl ExportJob {
    /// Writes this job's files into `out`, or with `ctx.share` those of its units (numbered from
    /// `first_unit` over the whole build) that the share owns; returns each file's unit and
    /// manifest entry.
    pub fn write(&self, out: &Path, ctx: &ExportContext, control: &Control, first_unit: usize) -> Result<Vec<(usize, ManifestFile)>, ExportError> {
        if let Some(splat) = &self.splat {
            return super::splat_write::write(splat, self, out, ctx, control, first_unit);
        }
        let s = &self.settings;
        s.check(self.has_field(), self.has_colour()).map_err(|m| self.invalid(m))?;
        let radius_km = || ctx.planet.as_ref().map(|p| p.radius_km).ok_or_else(|| self.invalid("normal maps and meshes need the graph's Planet node (for the radius)"));
        if let Some(t) = &self.tiled {
            if s.layer == ExportLayer::Normals && !t.store.is_normals(t.value) {
                radius_km()?;
                return Err(self.invalid("the normal map's input is not a field"));
            }
        }
        let owns = |unit: usize| ctx.share.is_none_or(|sh| sh.owns(unit));
        if s.layer == ExportLayer::Mesh {
            if !owns(first_unit) {
                return Ok(Vec::new());
            }
            let radius_km = radius_km()?;
            let sources = mesh_sources(self, radius_km, control)?;
            return Ok(write_mesh(out, &self.settings, &self.source, &sources, radius_km, control)?.into_iter().map(|f| (first_unit, f)).collect());
        }
        let source = match (s.layer, &self.field, &self.colour) {
            _ if self.tiled.is_some() => self.tiled.clone().map(Source::Tiled).ok_or_else(|| self.invalid("no input"))?,
            (ExportLayer::Normals, Some(f), _) => Source::normals(f, radius_km()?, s.relief),
            (_, Some(f), None) => Source::Scalar(f.clone()),
            (_, None, Some(c)) => Source::Colour(c.clone()),
            _ => return Err(self.invalid("connect either a field or a colour")),
        };
        let integer = s.format.is_integer();
        // One pass over the field for the automatic range and every file's manifest entry.
        // A tiled source has no range before its tiles are evaluated: an automatic mapping
        // scans them first.
        if let Source::Tiled(t) = &source {
            if integer && s.mapping == ValueMapping::Auto {
                t.store.scan(t.value, control)?;
            }
        }
        let range = source.range();
        let (encoding, mapping) = self.encoding(&source, range, integer, ctx)?;
        let frame = if s.layer == ExportLayer::Normals { Frame::of(s.normal_space, s.normal_green) } else { Frame::Object };
        let mut files = Vec::new();
        for (k, p) in plan(s, source.n()).into_iter().enumerate() {
            if !owns(first_unit + k) {
                continue;
            }
            let path = out.join(&p.name);
            let pixels = Pixels { source: &source, grid: p.grid, encoding, frame };
            let bytes = write_image(&path, &pixels, s.format, s.byte_order, control)?;
            control.progress.files_done.fetch_add(1, Ordering::Relaxed);
            files.push((first_unit + k, self.entry(&p, source.channels(), range, bytes, mapping.clone())));
        }
        // A tiled source's range grows with the tiles its files read: the manifest gives the
        // whole planet's, as a whole build does. A share scans only its part of the tiles
        // (even without a file of this job), and `merge` joins the shares' ranges.
        if let Source::Tiled(t) = &source {
            match ctx.share {
                Some(share) => t.store.scan_share(t.value, share, control)?,
                None if !files.is_empty() => t.store.scan(t.value, control)?,
                None => {}
            }
            for (_, f) in &mut files {
                f.data_range = source.range().map(|(a, b)| [a, b]);
            }
        }
        Ok(files)
    }

    /// The pixel encoding and its manifest description.
    fn encoding(&self, source: &Source, range: Option<(f32, f32)>, integer: bool, ctx: &ExportContext) -> Result<(Encoding, Mapping), ExportError> {
        let s = &self.settings;
        let max_sample = if s.format == ExportFormat::Png8 { 255 } else { 65535 };
        Ok(match source {
            _ if source.is_normals() => {
                let green = (s.normal_space == crate::nodes::output::export::NormalSpace::Tangent).then(|| s.normal_green.id().to_string());
                (if integer { Encoding::Signed } else { Encoding::Identity }, Mapping::Normal { space: s.normal_space.id().into(), green })
            }
            // Colours (a tiled source's too) and fields.
            _ if !integer => (Encoding::Identity, Mapping::Identity),
            _ if source.channels() == 3 => match s.encoding {
                ColourEncoding::Srgb => (Encoding::Srgb, Mapping::Srgb),
                ColourEncoding::Linear => (Encoding::Clamp, Mapping::LinearColour),
            },
            _ => {
                let (low, high) = match s.mapping {
                    ValueMapping::Auto => {
                        let (lo, hi) = range.unwrap_or((0.0, 1.0));
                        if hi > lo {
                            (lo, hi)
                        } else {
                            (lo, lo + 1.0)
                        }
                    }
                    ValueMapping::Fixed => (s.low, s.high),
                    ValueMapping::Planet => {
                        let p = ctx.planet.as_ref().ok_or_else(|| self.invalid("the Planet range needs the graph's Planet node"))?;
                        (-p.max_depth_m, p.max_elevation_m)
                    }
                };
                (Encoding::Range { low, high }, Mapping::Linear { low, high, max_sample })
            }
        })
    }
}

/// What `job` reads: in a tiled build its tiles (the range over every tile, as the field's),
/// otherwise its inputs.
fn mesh_sources(job: &ExportJob, radius_km: f32, control: &Control) -> Result<MeshSources, ExportError> {
    if let (Some(t), Some(m)) = (&job.tiled, &job.tiled_mesh) {
        t.store.scan(t.value, control)?;
        let range = t.store.range(t.value).ok_or_else(|| job.invalid("the field has no finite value"))?;
        return Ok(MeshSources { height: Source::Tiled(t.clone()), normals: Source::Tiled(m.normals.clone()), colour: m.colour.clone().map(Source::Tiled), range });
    }
    let field = job.field.as_ref().ok_or_else(|| job.invalid("no field"))?;
    Ok(MeshSources { height: Source::Scalar(field.clone()), normals: Source::normals(field, radius_km, job.settings.relief), colour: job.colour.clone().map(Source::Colour), range: field.min_max() })
}
