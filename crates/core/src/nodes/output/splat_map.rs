//! The Splat map node: up to eight weight fields packed four to a file into RGBA 8-bit images
//! (equirectangular or cube faces) whose samples sum to 255 at every pixel over all of the
//! node's files, with a JSON file that says which layer is in which file and channel: the
//! layers engines paint terrain materials from (Unity's and Unreal's weight maps). The node
//! only checks its settings; `crate::export::splat` writes the files.

use super::export::{check_name, ExportEngine, ExportFormat, ExportLayer, ExportProjection, ExportSettings, FaceGrid};
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Splat map node.
    pub struct SplatMapSettings, keys SplatMapKeys {
        /// Base file name: files are `{name}_{k}_...png` (k = 0, 1: layers 1-4, 5-8) and `{name}.json`.
        name: String = text("File name", "splat", 64, "Base name of the files: letters, digits, '-' and '_'. Layers 1-4 go to {name}_0_..., layers 5-8 to {name}_1_... (then the projection or face and .png), and {name}.json lists which layer is in which file and channel."),
        /// Projection or layout of the images.
        projection: ExportProjection = ExportProjection::Equirect.param("Projection", "Equirectangular 2:1 (longitude across, north up); six faces in PlanetGraph's order on the evaluation's own grid; or a standard cube map named +X..-Z in the OpenGL orientation."),
        /// Equirectangular width in pixels (0: four times the resolution).
        width: usize = int("Width", 0, 0, 16384, "Width of equirectangular images in pixels; the height is half. 0: four times the evaluation's resolution."),
        /// Pixels per face edge (0: the resolution, plus one for edge-sharing faces).
        face_size: usize = int("Face size", 0, 0, 16385, "Pixels per face edge. 0: the evaluation's resolution (cell centres) or one more (edge-sharing)."),
        /// Where face pixels sit.
        grid: FaceGrid = FaceGrid::Cells.param("Face grid", "Cell centres: pixels inside the face. Edge-sharing: the first and last rows and columns lie on the face's edges, equal to the neighbour's (2^n+1 terrain sizes)."),
        /// Tiles per face edge, overlapping by one pixel.
        tiles: usize = int("Tiles", 1, 1, 16, "Splits each face into this many tiles per edge; neighbouring tiles share one row or column of pixels (_x0_y0, _x1_y0, ...)."),
        /// The engine whose size rules the images must meet.
        engine: ExportEngine = ExportEngine::Any.param("Engine", "Checks the image sizes an engine takes, on the node before any work (as the Export node does): Unity 2^n+1 from 33 to 4097 a side; Unreal's landscape sizes; Godot at most 16384 a side."),
        /// Names of the layers in input order, separated by commas (empty: from the sources).
        layer_names: String = text("Layer names", "", 256, "Names of the layers in input order, separated by commas, as the JSON lists them (sand, rock, ...). Empty, or fewer names than inputs: the rest are named after the output that feeds them (a Materials node's sand, rock, ...)."),
    }
}

/// The Splat map node.
pub struct SplatMap;

crate::ports! {
    const INPUTS: In = [
        /// Weight of layer 1 (never negative; the layers are normalised to sum to 1).
        WEIGHT_1: Field = PortDef::optional("weight_1", PortType::Field),
        /// Weight of layer 2.
        WEIGHT_2: Field = PortDef::optional("weight_2", PortType::Field),
        /// Weight of layer 3.
        WEIGHT_3: Field = PortDef::optional("weight_3", PortType::Field),
        /// Weight of layer 4.
        WEIGHT_4: Field = PortDef::optional("weight_4", PortType::Field),
        /// Weight of layer 5 (the second file's red channel).
        WEIGHT_5: Field = PortDef::optional("weight_5", PortType::Field),
        /// Weight of layer 6.
        WEIGHT_6: Field = PortDef::optional("weight_6", PortType::Field),
        /// Weight of layer 7.
        WEIGHT_7: Field = PortDef::optional("weight_7", PortType::Field),
        /// Weight of layer 8.
        WEIGHT_8: Field = PortDef::optional("weight_8", PortType::Field),
    ];
}

/// The weight inputs in layer order.
pub const WEIGHTS: [InPort<Field>; 8] = [WEIGHT_1, WEIGHT_2, WEIGHT_3, WEIGHT_4, WEIGHT_5, WEIGHT_6, WEIGHT_7, WEIGHT_8];

/// Layers per file (the channels of an RGBA image).
pub const LAYERS_PER_FILE: usize = 4;

impl Node for SplatMap {
    type Settings = SplatMapSettings;
    const META: NodeMeta = NodeMeta::new(
        "Splat map",
        Category::Output,
        "Writes up to eight weight fields (a Materials node's sand, rock, snow...) as splat maps when the graph is built: RGBA 8-bit PNGs, four layers a file, whose samples sum to 255 at every pixel over all files (the weights normalised; where all are 0 the first layer takes the pixel), and a JSON naming the layer in each file and channel. Equirectangular or cube faces, engine sizes and tiles as the Export node.",
        INPUTS,
        &[],
        file!(),
    )
    .needing_one_input().costing(0);

    fn check(s: &SplatMapSettings, connected: &[bool]) -> Result<(), String> {
        if !connected.iter().any(|&c| c) {
            return check_name(&s.name);
        }
        s.check()
    }

    fn run(s: &SplatMapSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        s.check().map_err(OpError::Invalid)?;
        for (k, port) in WEIGHTS.iter().enumerate() {
            if let Some(f) = inputs.port_opt(*port)? {
                if let Some(c) = f.data().iter().position(|v| !v.is_finite()) {
                    return Err(OpError::Invalid(format!("the weight of layer {} is not a number at cell {c}", k + 1)));
                }
            }
        }
        Ok(Vec::new())
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }

    fn shows(s: &SplatMapSettings, key: &str) -> bool {
        let k = SplatMapSettings::KEYS;
        let faces = s.projection != ExportProjection::Equirect;
        if key == k.width {
            !faces
        } else if key == k.face_size || key == k.grid || key == k.tiles {
            faces
        } else {
            true
        }
    }
}

impl SplatMapSettings {
    /// The settings of the images of file group `group` (layers `4 group + 1 ..`) as an
    /// Export node's: 8-bit PNG values of the same projection, size, grid, tiles and engine,
    /// named `{name}_{group}`.
    pub fn images(&self, group: usize) -> ExportSettings {
        ExportSettings {
            name: format!("{}_{group}", self.name),
            layer: ExportLayer::Data,
            format: ExportFormat::Png8,
            projection: self.projection,
            width: self.width,
            face_size: self.face_size,
            grid: self.grid,
            tiles: self.tiles,
            engine: self.engine,
            ..ExportSettings::default()
        }
    }

    /// Checks the name, sizes and engine rules; the message says what to change.
    pub fn check(&self) -> Result<(), String> {
        check_name(&self.name)?;
        self.images(0).check(true, false)
    }

    /// The name of layer `k` (0-based): the `k`th of the Layer names, else `fallback`.
    pub fn layer_name(&self, k: usize, fallback: &str) -> String {
        self.layer_names.split(',').map(str::trim).nth(k).filter(|n| !n.is_empty()).unwrap_or(fallback).to_string()
    }
}

/// The declared defaults (a test checks they equal what the definitions read).
impl Default for SplatMapSettings {
    fn default() -> Self {
        SplatMapSettings { name: "splat".into(), projection: ExportProjection::Equirect, width: 0, face_size: 0, grid: FaceGrid::Cells, tiles: 1, engine: ExportEngine::Any, layer_names: String::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_matches_the_definitions() {
        assert_eq!(SplatMapSettings::from_params(&Default::default()).expect("defaults"), SplatMapSettings::default());
    }

    #[test]
    fn names_and_engine_sizes_are_checked_as_an_exports() {
        let s = SplatMapSettings::default();
        assert!(s.check().is_ok());
        assert!(SplatMapSettings { name: "a/b".into(), ..s.clone() }.check().is_err_and(|e| e.contains("'/'")));
        let unity = SplatMapSettings { projection: ExportProjection::Faces, engine: ExportEngine::Unity, face_size: 1000, ..s.clone() };
        assert!(unity.check().is_err_and(|e| e.contains("Unity")));
        assert!(SplatMapSettings { face_size: 1025, ..unity }.check().is_ok());
    }

    #[test]
    fn layer_names_come_from_the_setting_then_the_sources() {
        let s = SplatMapSettings { layer_names: "grass, , cliff".into(), ..SplatMapSettings::default() };
        assert_eq!(s.layer_name(0, "sand"), "grass");
        assert_eq!(s.layer_name(1, "rock"), "rock");
        assert_eq!(s.layer_name(2, "snow"), "cliff");
        assert_eq!(s.layer_name(3, "ground"), "ground");
    }
}
