//! Export jobs: one per Export node of an evaluated graph (or the Planet node's default set),
//! each planning its files and writing them.

use super::base::ExportError;
use super::job::ExportJob;
use super::plan::file_names;
use super::source::{Source, TiledSource};
use super::splat::{SplatJob, SplatLayer};
use crate::eval::EvalResult;
use crate::graph::{Graph, Node};
use crate::nodes::output::export::{ExportFormat, ExportProjection, ExportSettings, UnitsFrom};
use crate::nodes::output::splat_map::{SplatMapSettings, WEIGHTS};
use crate::nodes::output::{export as export_node, planet as planet_node};
use crate::nodes::PortUnit;
use crate::nodes::{InPort, NodeKind};
use crate::planet::{ColourField, Field};
use std::sync::Arc;

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
        .map(|node| if node.kind == NodeKind::SplatMap { splat_job(g, node, res) } else { export_node_job(g, node, res.errors.get(&node.id), res.input(node.id, export_node::FIELD).cloned(), res.input(node.id, export_node::COLOUR).cloned(), None) })
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
        return node.settings().ok().map(|s| super::splat::file_names(&s, connected_layers(g, node), n));
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

/// The number of weight inputs of `node` (a Splat map node) that `g` connects.
pub fn connected_layers(g: &Graph, node: &Node) -> usize {
    WEIGHTS.iter().filter(|p| g.link_into(node.id, **p).is_some()).count()
}

/// The job of the Splat map node `node` of `g` from the evaluation `res`; an error on the node
/// is an error naming it.
pub fn splat_job(g: &Graph, node: &Node, res: &EvalResult) -> Result<ExportJob, ExportError> {
    if let Some(e) = res.errors.get(&node.id).or_else(|| res.idle.get(&node.id)) {
        return Err(ExportError::Invalid { export: node.describe(), message: e.clone() });
    }
    make_job(g, node, |port| res.input(node.id, port).cloned().map(Source::Scalar))
}

/// The job of the Splat map node `node` of `g` in a tiled build: `weights` gives the tiled value
/// of each connected weight input.
pub fn splat_tiled_job(g: &Graph, node: &Node, weights: impl Fn(InPort<Field>) -> Option<TiledSource>) -> Result<ExportJob, ExportError> {
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
