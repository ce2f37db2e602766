//! Export jobs: one per Export node of an evaluated graph (or the Planet node's default set),
//! each planning its files and writing them.

use super::encode::write_image;
use super::images::{tile_spans, Encoding, FaceTile, Frame, Grid, Pixels, CUBE_MAP};
use super::manifest::{ManifestFile, Mapping};
use super::source::{Source, TiledSource};
use super::{mesh, Control, ExportContext, ExportError};
use crate::eval::EvalResult;
use crate::graph::Graph;
use crate::nodes::output::export::{ColourEncoding, ExportFormat, ExportLayer, ExportProjection, ExportSettings, FaceGrid, UnitsFrom, ValueMapping};
use crate::nodes::output::{export as export_node, planet as planet_node};
use crate::nodes::NodeKind;
use crate::nodes::PortUnit;
use crate::planet::{ColourField, Face, Field};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// One Export node's work: its settings and the values on its inputs.
#[derive(Debug, Clone)]
pub struct ExportJob {
    /// The Export node, for messages (`Export #12 'elevation'`).
    pub label: String,
    /// The node whose output is exported (`Planet #5`), for the manifest.
    pub source: String,
    /// Settings.
    pub settings: ExportSettings,
    /// Units of single-channel values for the manifest (the settings' custom units or the
    /// source's, see [`source_units`]).
    pub units: String,
    /// The field input.
    pub field: Option<Arc<Field>>,
    /// The colour input.
    pub colour: Option<Arc<ColourField>>,
    /// In a tiled build, the input evaluated tile by tile (instead of `field` or `colour`).
    pub tiled: Option<TiledSource>,
    /// In a tiled build, what a mesh reads besides its field (`tiled`).
    pub tiled_mesh: Option<mesh::TiledMesh>,
    /// A Splat map node's layers: the job writes its splat files (`settings` are those of its
    /// first file's images).
    pub splat: Option<Arc<super::splat::SplatJob>>,
}

/// One planned image file.
pub(super) struct Planned {
    pub(super) name: String,
    pub(super) grid: Grid,
    pub(super) face: Option<(String, Face)>,
}

impl ExportJob {
    pub(super) fn invalid(&self, message: impl Into<String>) -> ExportError {
        ExportError::Invalid { export: self.label.clone(), message: message.into() }
    }

    /// Files this job writes at resolution `n` (names relative to the output folder).
    pub fn file_names(&self, n: usize) -> Vec<String> {
        match &self.splat {
            Some(splat) => splat.file_names(n),
            None => file_names(&self.settings, n, self.has_colour()),
        }
    }

    /// Whether the colour input is connected (or, in a tiled build, the value has colours).
    fn has_colour(&self) -> bool {
        self.colour.is_some() || self.tiled.as_ref().is_some_and(|t| !t.is_field()) || self.tiled_mesh.as_ref().is_some_and(|m| m.colour.is_some())
    }

    /// Whether the field input is connected (or, in a tiled build, the value is a field or the
    /// normals of one).
    fn has_field(&self) -> bool {
        self.field.is_some() || self.tiled.as_ref().is_some_and(TiledSource::is_field)
    }

    /// How many files this job writes (for progress).
    pub fn file_count(&self) -> usize {
        self.file_names(self.n()).len()
    }

    /// How many units of work the job is for [`super::Share`]s: each image file is one, a mesh
    /// with its textures one.
    pub fn units(&self) -> usize {
        if self.settings.layer == ExportLayer::Mesh {
            1
        } else {
            self.file_count()
        }
    }

    fn n(&self) -> usize {
        self.field.as_ref().map(|f| f.n()).or(self.splat.as_ref().map(|s| s.layers[0].weights.n())).or(self.colour.as_ref().map(|c| c.n)).or(self.tiled.as_ref().map(|t| t.store.plan().n)).unwrap_or(1)
    }
}

/// The file extension of an export's format.
fn extension(s: &ExportSettings) -> &'static str {
    match s.format {
        ExportFormat::Png8 | ExportFormat::Png16 => "png",
        ExportFormat::Exr => "exr",
        ExportFormat::Tiff16 | ExportFormat::Tiff32 => "tif",
        ExportFormat::Raw16 => "r16",
        ExportFormat::Raw32 => "r32",
        ExportFormat::Glb => "glb",
        ExportFormat::Obj => "obj",
    }
}

/// The image files of an export at evaluation resolution `n`.
pub(super) fn plan(s: &ExportSettings, n: usize) -> Vec<Planned> {
    let ext = extension(s);
    if s.projection == ExportProjection::Equirect {
        let width = if s.width == 0 { 4 * n } else { s.width };
        return vec![Planned { name: format!("{}_equirect.{ext}", s.name), grid: Grid::Equirect { width, height: width / 2 }, face: None }];
    }
    let m = match (s.face_size, s.grid) {
        (0, FaceGrid::Cells) => n,
        (0, FaceGrid::EdgeSharing) => n + 1,
        (m, _) => m,
    };
    let border = usize::from(s.border && s.grid == FaceGrid::Cells);
    let full = m + 2 * border;
    let spans = tile_spans(full, s.tiles);
    // (face, name in the manifest, name in the file)
    let faces: Vec<(Face, String, String)> = match s.projection {
        ExportProjection::CubeMap => CUBE_MAP.iter().map(|&(f, name)| (f, name.to_string(), name.to_string())).collect(),
        _ => Face::ALL.iter().map(|&f| (f, f.name().to_string(), format!("face{}_{}", f.index(), f.name()))).collect(),
    };
    let mut out = Vec::new();
    for (face, face_name, file_part) in faces {
        for (ty, &(y0, h)) in spans.iter().enumerate() {
            for (tx, &(x0, w)) in spans.iter().enumerate() {
                let tile = if spans.len() > 1 { format!("_x{tx}_y{ty}") } else { String::new() };
                let grid = Grid::Face(FaceTile { face, m, grid: s.grid, gnomonic: s.projection == ExportProjection::CubeMap, border, x0, y0, w, h });
                out.push(Planned { name: format!("{}_{file_part}{tile}.{ext}", s.name), grid, face: Some((face_name.clone(), face)) });
            }
        }
    }
    out
}

/// Files an export with settings `s` writes at resolution `n` (names relative to the output
/// folder); `textured`: a mesh has a colour input (face textures).
pub fn file_names(s: &ExportSettings, n: usize, textured: bool) -> Vec<String> {
    if s.layer == ExportLayer::Mesh {
        return mesh::file_names(s, textured);
    }
    plan(s, n).into_iter().map(|p| p.name).collect()
}

impl ExportJob {
    /// Writes this job's files into `out`, or with `ctx.share` those of its units (numbered from
    /// `first_unit` over the whole build) that the share owns; returns each file's unit and
    /// manifest entry.
    pub fn write(&self, out: &Path, ctx: &ExportContext, control: &Control, first_unit: usize) -> Result<Vec<(usize, ManifestFile)>, ExportError> {
        if let Some(splat) = &self.splat {
            return splat.write(self, out, ctx, control, first_unit);
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
            let sources = mesh::MeshSources::of(self, radius_km, control)?;
            return Ok(mesh::write_mesh(out, self, &sources, radius_km, control)?.into_iter().map(|f| (first_unit, f)).collect());
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

    /// A tiled build's range of this job's value over the tiles evaluated so far (`None`: not
    /// a tiled scalar value); a share records it for `merge`.
    pub fn tiled_range(&self) -> Option<[f32; 2]> {
        let scalar = self.tiled.as_ref().filter(|t| self.settings.layer != ExportLayer::Mesh && t.store.channels(t.value) == 1);
        scalar.and_then(|t| t.store.range(t.value)).map(|(a, b)| [a, b])
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

/// The Export nodes' jobs of an evaluated graph, or the Planet node's default set in a graph
/// without Export nodes. An Export node with an error is an error naming it.
pub fn jobs_from_result(g: &Graph, res: &EvalResult) -> Result<Vec<ExportJob>, ExportError> {
    let exports: Vec<_> = g.nodes.iter().filter(|n| n.kind.writes_files()).collect();
    if exports.is_empty() {
        let planet = g.first_of(NodeKind::Planet).ok_or_else(|| ExportError::Invalid { export: "build".into(), message: "the graph has neither Export nodes nor a Planet node".into() })?;
        let settings = planet.settings().map_err(|e| ExportError::Invalid { export: planet.describe(), message: e.to_string() })?;
        let field = res.field(planet.id).cloned().ok_or_else(|| ExportError::Invalid { export: planet.describe(), message: res.errors.get(&planet.id).cloned().unwrap_or_else(|| "produced nothing".into()) })?;
        let albedo = res.input(planet.id, planet_node::ALBEDO).cloned();
        return Ok(default_jobs(&planet.describe(), field, albedo, &settings));
    }
    exports
        .into_iter()
        .map(
            |node| {
                if node.kind == NodeKind::SplatMap {
                    super::splat::job(g, node, res)
                } else {
                    export_node_job(g, node, res.errors.get(&node.id), res.input(node.id, export_node::FIELD).cloned(), res.input(node.id, export_node::COLOUR).cloned(), None)
                }
            },
        )
        .collect()
}

/// The job of the Export node `node` (`error`: the evaluation's error on it) with its inputs:
/// `field` or `colour`, or in a tiled build `tiled`.
pub fn export_node_job(g: &Graph, node: &crate::graph::Node, error: Option<&String>, field: Option<Arc<Field>>, colour: Option<Arc<ColourField>>, tiled: Option<TiledSource>) -> Result<ExportJob, ExportError> {
    let label = node.describe();
    let settings: ExportSettings = node.settings().map_err(|e| ExportError::Invalid { export: label.clone(), message: e.to_string() })?;
    if let Some(e) = error {
        return Err(ExportError::Invalid { export: label, message: e.clone() });
    }
    let is_field = field.is_some() || tiled.as_ref().is_some_and(TiledSource::is_field);
    let link = if is_field { g.link_into(node.id, export_node::FIELD) } else { g.link_into(node.id, export_node::COLOUR) };
    let units = match settings.units_from {
        UnitsFrom::Custom => settings.units.clone(),
        UnitsFrom::Source => source_units(g, link),
    };
    let source = link.and_then(|l| g.node(l.from)).map(|n| n.describe()).unwrap_or_default();
    Ok(ExportJob { label: format!("{label} '{}'", settings.name), source, settings, units, field, colour, tiled, tiled_mesh: None, splat: None })
}

/// The files an export of `g` at resolution `n` would write, `manifest.json` last, known
/// before evaluating (for the editor's question before replacing files). Export nodes whose
/// settings cannot be read are left out: the export itself reports them.
pub fn planned_files(g: &Graph, n: usize) -> Vec<String> {
    let exports: Vec<_> = g.nodes.iter().filter(|n| n.kind.writes_files()).collect();
    let mut names: Vec<String> = if exports.is_empty() {
        // A Planet node whose settings cannot be read exports nothing (the build says why).
        match g.first_of(NodeKind::Planet).filter(|p| p.settings::<crate::nodes::output::planet::PlanetSettings>().is_ok()) {
            Some(planet) => default_set(&planet.describe(), g.link_into(planet.id, planet_node::ALBEDO).is_some()).iter().flat_map(|(_, j)| j.file_names(n)).collect(),
            None => Vec::new(),
        }
    } else {
        exports.iter().filter_map(|node| node_file_names(g, node, n)).flatten().collect()
    };
    names.push("manifest.json".into());
    names
}

/// The files the Export or Splat map node `node` of `g` writes at resolution `n` (`None` when
/// its settings cannot be read).
pub fn node_file_names(g: &Graph, node: &crate::graph::Node, n: usize) -> Option<Vec<String>> {
    if node.kind == NodeKind::SplatMap {
        return node.settings().ok().map(|s| super::splat::file_names(&s, super::splat::connected_layers(g, node), n));
    }
    node.settings::<ExportSettings>().ok().map(|s| file_names(&s, n, g.link_into(node.id, export_node::COLOUR).is_some()))
}

/// The units of the values that come along `link` (for example [`Graph::link_into`] an
/// Export's input): the units of the output feeding it, followed upstream through outputs that
/// keep their input's units ([`PortUnit::AsInput`]) and bypassed nodes; empty for unitless
/// values or no link.
pub fn source_units<'g>(g: &'g Graph, mut link: Option<&'g crate::graph::Link>) -> String {
    // A valid graph has no cycles; the bound keeps a broken one from looping.
    for _ in 0..=g.nodes.len() {
        let Some(l) = link else { break };
        let Some(node) = g.node(l.from) else { break };
        let meta = node.kind.meta();
        let Some(port) = meta.outputs.iter().find(|p| p.name == l.output) else { break };
        match port.unit {
            PortUnit::Of(unit) if !node.bypass => return unit.ascii().to_string(),
            PortUnit::Unitless if !node.bypass => break,
            _ => {
                // Bypassed nodes pass their first input of the output's type on; filters that
                // keep units read their first input.
                let Some(up) = meta.inputs.iter().find(|p| p.ty == port.ty) else { break };
                link = g.links.iter().find(|l| l.to == node.id && l.input == up.name);
            }
        }
    }
    String::new()
}

/// What a job of the Planet node's default set reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultLayer {
    /// The Planet node's elevation, metres.
    Elevation,
    /// The height tint of the elevation ([`crate::appearance::height_tint`]).
    Tint,
    /// The Planet node's albedo input.
    Albedo,
}

/// The default set of a graph without Export nodes, each job with the layer it reads and no
/// input yet: elevation in metres as 16-bit PNG (equirectangular and six faces, the Planet
/// node's range), the height tint and, with `albedo` (the Planet node's albedo connected), the
/// albedo as 8-bit sRGB equirectangular PNGs.
pub fn default_set(planet_label: &str, albedo: bool) -> Vec<(DefaultLayer, ExportJob)> {
    let base = ExportSettings::default();
    let job = |name: &str, settings: ExportSettings, units: &str| ExportJob {
        label: format!("{planet_label} '{name}'"),
        source: planet_label.to_string(),
        settings: ExportSettings { name: name.into(), ..settings },
        units: units.into(),
        field: None,
        colour: None,
        tiled: None,
        tiled_mesh: None,
        splat: None,
    };
    let colour = ExportSettings { format: ExportFormat::Png8, ..base.clone() };
    let mut set =
        vec![(DefaultLayer::Elevation, job("elevation", base.clone(), "m")), (DefaultLayer::Elevation, job("elevation", ExportSettings { projection: ExportProjection::Faces, ..base }, "m")), (DefaultLayer::Tint, job("colour", colour.clone(), ""))];
    if albedo {
        set.push((DefaultLayer::Albedo, job("albedo", colour, "")));
    }
    set
}

/// The default set ([`default_set`]) reading the whole planet's elevation in metres and
/// albedo.
pub fn default_jobs(planet_label: &str, elevation_m: Arc<Field>, albedo: Option<Arc<ColourField>>, planet: &crate::nodes::output::planet::PlanetSettings) -> Vec<ExportJob> {
    let tint = Arc::new(ColourField::from_fn(elevation_m.n(), |c| crate::appearance::height_tint(elevation_m.data()[c], planet.max_depth_m, planet.max_elevation_m)));
    default_set(planet_label, albedo.is_some())
        .into_iter()
        .map(|(layer, mut job)| {
            match layer {
                DefaultLayer::Elevation => job.field = Some(elevation_m.clone()),
                DefaultLayer::Tint => job.colour = Some(tint.clone()),
                DefaultLayer::Albedo => job.colour = albedo.clone(),
            }
            job
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_follow_the_source_through_filters_and_bypassed_nodes() {
        let mut g = Graph::default();
        let noise = g.add_node(NodeKind::Noise, (0.0, 0.0));
        let planet = g.add_node(NodeKind::Planet, (0.0, 0.0));
        let blur = g.add_node(NodeKind::Blur, (0.0, 0.0));
        let terrace = g.add_node(NodeKind::Terrace, (0.0, 0.0));
        let slope = g.add_node(NodeKind::Slope, (0.0, 0.0));
        let export = g.add_node(NodeKind::Export, (0.0, 0.0));
        use crate::nodes::{FIELD_IN, FIELD_OUT};
        let link = |g: &mut Graph, from, to, input| g.link(from, FIELD_OUT, to, input).expect("link");
        let units = |g: &Graph| source_units(g, g.link_into(export, export_node::FIELD));
        link(&mut g, noise, planet, planet_node::ELEVATION);
        link(&mut g, planet, blur, FIELD_IN);
        link(&mut g, blur, terrace, FIELD_IN);
        link(&mut g, terrace, export, export_node::FIELD);
        // Terrace changes values: no units, until it is bypassed.
        assert_eq!(units(&g), "");
        g.node_mut(terrace).expect("terrace").bypass = true;
        assert_eq!(units(&g), "m");
        link(&mut g, planet, slope, FIELD_IN);
        link(&mut g, slope, export, export_node::FIELD);
        assert_eq!(units(&g), "deg");
        link(&mut g, noise, export, export_node::FIELD);
        assert_eq!(units(&g), "");
        assert_eq!(source_units(&g, g.link_into(export, export_node::COLOUR)), "");
    }
}
