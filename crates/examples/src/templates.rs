//! The example graphs of `graphs/`, built into the program as templates for File > New from
//! template, each with a one-line description and a small render (192 x 192 PNG in
//! `assets/templates/`, made by `planetgraph render FILE --resolution 128 --width 192
//! --height 192`; the default planet's with `--view 300 20`, which faces its largest
//! continent).

use planetgraph_core::graph::Graph;
use planetgraph_core::io::{parse_graph, LoadError, Strictness};
use std::path::Path;

/// One example graph.
#[derive(Debug, Clone, Copy)]
pub struct Template {
    /// The file name in `graphs/`.
    pub file: &'static str,
    /// The name shown in the menu.
    pub title: &'static str,
    /// What the graph shows, in one sentence.
    pub description: &'static str,
    /// The graph file's text.
    pub ron: &'static str,
    /// A 192 x 192 PNG render of the planet.
    pub thumbnail_png: &'static [u8],
}

impl Template {
    /// The template's graph (every template is tested to load).
    pub fn graph(&self) -> Result<Graph, LoadError> {
        parse_graph(self.ron, Path::new(&format!("graphs/{} (built in)", self.file)), Strictness::Complete)
    }

    /// The files the template's nodes read, as it names them, with their bytes.
    pub fn files(&self) -> impl Iterator<Item = (&'static str, &'static [u8])> + '_ {
        TEMPLATE_FILES.iter().filter(|(t, _, _)| *t == self.file).map(|(_, p, b)| (*p, *b))
    }

    /// Writes the files the template reads into a folder of its own under `dir` (a file already
    /// there with the same bytes is kept) and returns that folder, for [`Graph::folder`]; `None`
    /// for a template that reads no file.
    pub fn materialise(&self, dir: &Path) -> std::io::Result<Option<std::path::PathBuf>> {
        let mut files = self.files().peekable();
        if files.peek().is_none() {
            return Ok(None);
        }
        let folder = dir.join("templates").join(self.file.trim_end_matches(".ron"));
        for (path, bytes) in files {
            let target = folder.join(path);
            if std::fs::read(&target).is_ok_and(|b| b == bytes) {
                continue;
            }
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            planetgraph_core::io::graph_file::write_atomic(&target, bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
        }
        Ok(Some(std::path::absolute(&folder).unwrap_or(folder)))
    }
}

macro_rules! templates {
    ($( $name:literal, $title:literal, $description:literal; )*) => {
        /// Every example graph, the default planet first.
        pub const TEMPLATES: &[Template] = &[ $( Template {
            file: concat!($name, ".ron"),
            title: $title,
            description: $description,
            ron: include_str!(concat!("../../../graphs/", $name, ".ron")),
            thumbnail_png: include_bytes!(concat!("../../../assets/templates/", $name, ".png")),
        }, )* ];
    };
}

templates! {
    "default", "Earth-like planet", "Plates, Earth-like relief and landscape evolution, with climate, biomes, materials and rivers: the default planet.";
    "eroded_tectonic", "Eroded tectonic planet", "Plate elevation with noise, carved by hydraulic and thermal erosion.";
    "rivers", "Rivers and lakes", "A tectonic planet with drainage rivers and lakes painted over its biomes.";
    "lsystem_tectonic", "L-system rivers on plates", "Rivers grown by an L-system on a tectonic planet, with climate and materials.";
    "volcanic_island", "Volcanic island", "An island with a crater, eroded, with a coral reef and a sea floor.";
    "falloff_islands", "Falloff islands", "Noise shaped by a falloff mask into an archipelago.";
    "noise_continents", "Noise continents", "Continents from fBm noise, multiplied and clamped: the simplest planet.";
    "terraced_highlands", "Terraced highlands", "Noise through a curve and terraces into stepped Martian highlands.";
    "warped_shards", "Warped shards", "Diamond-square land warped along a noise gradient, shaped by a formula, with droplet erosion in the lowlands and a curvature mask.";
    "warped_continents", "Warped continents", "fBm continents through a noise warp, coloured by their curvature: close-ups warp and measure at their own level.";
    "fault_planet", "Fault planet", "Thousands of random fault cuts, as in the classic planet generators.";
    "fault_planet_mirrored", "Mirrored fault planet", "Fault cuts through the centre: each hemisphere mirrors the other.";
    "hmap_classic", "Classic height map", "Fault cuts, a box filter and L-system rivers, after the classic flat-map generator.";
    "lsystem_hillgrow", "Hill growth with rivers", "Hills grown one by one, with L-system rivers.";
    "tectonic_r50", "Plates (coarse regions)", "Tectonic plates over 50 regions per face edge.";
    "tectonic_r200", "Plates (fine regions)", "Tectonic plates over 200 regions per face edge.";
    "export_all", "Export every format", "A small planet wired to an Export node that writes every format.";
    "earth_amplified", "Earth, amplified", "Earth's relief (ETOPO1 at 0.25 degree) imported, with rivers, gullies, climate, biomes and materials.";
}

/// Files that templates read (Import raster nodes), relative to `graphs/`, built into the
/// program with them: (template file, path as the template names it, bytes).
const TEMPLATE_FILES: &[(&str, &str, &[u8])] = &[("earth_amplified.ron", "data/earth_etopo1.png", include_bytes!("../../../graphs/data/earth_etopo1.png"))];

/// The nodes of the default graph that texture a planet: To metres, Slope, Distance to coast,
/// Temperature, Precipitation, Biomes and Materials.
const SURFACE_NODES: [planetgraph_core::graph::NodeId; 8] = {
    use planetgraph_core::graph::NodeId;
    [NodeId(12), NodeId(13), NodeId(14), NodeId(15), NodeId(16), NodeId(17), NodeId(18), NodeId(27)]
};

/// *Planet surface*: the default planet's texturing chain as one closed group, ready to wire
/// (input: the elevation, -1..1 as the Planet node takes it; outputs: albedo, precipitation,
/// biome, slope). Made from the built-in default graph, so it is always the default planet's
/// look.
pub fn planet_surface() -> Result<Graph, String> {
    use planetgraph_core::graph::NodeId;
    use planetgraph_core::nodes::climate::precipitation;
    use planetgraph_core::nodes::texture::{biomes, materials};
    use planetgraph_core::nodes::{FIELD_IN, FIELD_OUT};
    let mut g = crate::default_graph().map_err(|e| e.to_string())?;
    if let Some(missing) = SURFACE_NODES.iter().find(|id| g.node(**id).is_none()) {
        return Err(format!("the default graph has no node {missing} for the Planet surface group"));
    }
    // The group textures the planet it is given: its Slope, Biomes and Materials read its own
    // To metres (the default graph's read the surface of its ice sheet, which stays outside
    // the group).
    g.link(NodeId(12), FIELD_OUT, NodeId(13), FIELD_IN).map_err(|e| e.to_string())?;
    g.link(NodeId(12), FIELD_OUT, NodeId(17), biomes::ELEVATION).map_err(|e| e.to_string())?;
    g.link(NodeId(12), FIELD_OUT, NodeId(18), materials::ELEVATION).map_err(|e| e.to_string())?;
    // Its Biomes and Materials read its own rain (the default graph's read the rain raised on
    // the floors of rivers from outside it).
    g.link(NodeId(16), precipitation::PRECIPITATION, NodeId(17), biomes::PRECIPITATION).map_err(|e| e.to_string())?;
    g.link(NodeId(16), precipitation::PRECIPITATION, NodeId(18), materials::PRECIPITATION).map_err(|e| e.to_string())?;
    let id = g.make_group(&SURFACE_NODES, "Planet surface").map_err(|e| e.to_string())?;
    let mut body = planetgraph_core::graph::part::subgraph(&g, &[id]);
    // Ports named for what they carry, not "out" and "out (Slope)".
    let named = |node: planetgraph_core::graph::NodeId, port: &str| -> Option<&'static str> {
        match (node.0, port) {
            (12, "in") => Some("elevation"),
            (12, "out") => Some("elevation (m)"),
            (13, "out") => Some("slope (deg)"),
            _ => None,
        }
    };
    for grp in &mut body.groups {
        grp.open = false;
        for p in grp.inputs.iter_mut().chain(grp.outputs.iter_mut()) {
            if let Some(name) = named(p.node, &p.port) {
                p.name = name.to_string();
            }
        }
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use planetgraph_core::nodes::NodeKind;
    use std::collections::BTreeSet;

    #[test]
    fn every_example_is_a_template_that_loads_and_every_node_kind_is_in_one() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graphs");
        let files: BTreeSet<String> = std::fs::read_dir(&dir).expect("graphs/").flatten().map(|e| e.file_name().to_string_lossy().to_string()).filter(|n| n.ends_with(".ron")).collect();
        let listed: BTreeSet<String> = TEMPLATES.iter().map(|t| t.file.to_string()).collect();
        assert_eq!(files, listed, "every file in graphs/ is a template");
        let mut kinds = BTreeSet::new();
        for t in TEMPLATES {
            let g = t.graph().unwrap_or_else(|e| panic!("{}: {e}", t.file));
            kinds.extend(g.nodes.iter().map(|n| format!("{:?}", n.kind)));
            let img = image::load_from_memory(t.thumbnail_png).unwrap_or_else(|e| panic!("{}: thumbnail: {e}", t.file));
            assert_eq!((img.width(), img.height()), (192, 192), "{}", t.file);
        }
        // The files templates read are those in graphs/, and a template's folder holds them.
        for t in TEMPLATES {
            for (path, bytes) in t.files() {
                assert_eq!(std::fs::read(dir.join(path)).expect("template file"), bytes, "{}: {path}", t.file);
            }
        }
        let tmp = tempfile::tempdir().expect("tempdir");
        let earth = TEMPLATES.iter().find(|t| t.file == "earth_amplified.ron").expect("earth");
        let folder = earth.materialise(tmp.path()).expect("written").expect("a folder");
        let g = earth.graph().expect("graph");
        for node in g.nodes.iter().filter(|n| n.kind.meta().reads_files) {
            planetgraph_core::raster::store::probe_all(Some(&folder), &node.kind.files(&node.params)).expect("the template's files are where it reads them");
        }
        let missing: Vec<String> = NodeKind::ALL.iter().map(|k| format!("{k:?}")).filter(|k| !kinds.contains(k)).collect();
        assert!(missing.is_empty(), "node kinds in no example graph: {missing:?}");
    }
}
