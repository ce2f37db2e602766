//! The Export node: what `planetgraph build` and the editor's File > Export write for one
//! field or colour of the graph (file name, layer, format, projection, value mapping). The
//! node only checks its settings against its inputs; the files are written by `crate::export`.

use crate::nodes::prelude::*;

crate::choices! {
    /// What an Export node writes.
    pub enum ExportLayer {
        /// The input's values (a field through the value mapping, a colour as it is).
        Data = ("data", "Values"),
        /// A normal map computed from the field as elevation in metres.
        Normals = ("normals", "Normal map"),
        /// A mesh of the planet displaced by the field (elevation in metres), textured with the
        /// colour input when connected.
        Mesh = ("mesh", "Mesh"),
    }
}

crate::choices! {
    /// File format.
    pub enum ExportFormat {
        /// PNG, 8 bits per channel.
        Png8 = ("png8", "PNG 8-bit"),
        /// PNG, 16 bits per channel.
        Png16 = ("png16", "PNG 16-bit"),
        /// OpenEXR, 32-bit float channels.
        Exr = ("exr", "EXR 32-bit float"),
        /// TIFF, 16-bit unsigned samples (uncompressed).
        Tiff16 = ("tiff16", "TIFF 16-bit"),
        /// TIFF, 32-bit float samples (uncompressed).
        Tiff32 = ("tiff32", "TIFF 32-bit float"),
        /// Headerless 16-bit unsigned integers (.r16).
        Raw16 = ("r16", "RAW 16-bit (.r16)"),
        /// Headerless 32-bit floats (.r32).
        Raw32 = ("r32", "RAW 32-bit float (.r32)"),
        /// glTF 2.0 binary mesh.
        Glb = ("glb", "glTF binary (.glb)"),
        /// Wavefront OBJ mesh.
        Obj = ("obj", "Wavefront OBJ"),
    }
}

crate::choices! {
    /// Projection or layout of image exports.
    pub enum ExportProjection {
        /// One 2:1 longitude-latitude image.
        Equirect = ("equirectangular", "Equirectangular"),
        /// Six faces in PlanetGraph's order and orientation, on the evaluation's own grid.
        Faces = ("faces", "Cube faces (PlanetGraph)"),
        /// Six faces named +X..-Z in the OpenGL cube-map orientation, gnomonic (a standard
        /// cube map).
        CubeMap = ("cube_map", "Cube map +X..-Z (OpenGL)"),
    }
}

crate::choices! {
    /// Where a face's pixels sit.
    pub enum FaceGrid {
        /// Pixel centres inside the face (the evaluation's cells at its resolution).
        Cells = ("cells", "Cell centres"),
        /// The first and last pixels on the face's edges, shared with the neighbours (terrain
        /// engines' 2^n+1 sizes).
        EdgeSharing = ("edge_sharing", "Edge-sharing (2^n+1)"),
    }
}

crate::choices! {
    /// How field values become integer pixels.
    pub enum ValueMapping {
        /// The data's own smallest and largest values.
        Auto = ("auto", "Automatic range"),
        /// The node's Low and High values.
        Fixed = ("fixed", "Fixed range"),
        /// The Planet node's deepest ocean to highest peak, in metres.
        Planet = ("planet", "Planet range (m)"),
    }
}

crate::choices! {
    /// Where the manifest's units come from.
    pub enum UnitsFrom {
        /// The output that feeds the node (m after the Planet node, degC from Temperature,
        /// followed through value-keeping filters such as Blur; none for unitless values).
        Source = ("source", "From the source"),
        /// The node's Units text.
        Custom = ("custom", "Custom"),
    }
}

crate::choices! {
    /// The engine or tool the files are for: its size rules are checked on the node.
    pub enum ExportEngine {
        /// No engine's rules.
        Any = ("any", "Any"),
        /// Unity terrain: heightmaps of 2^n+1 pixels a side, 33 to 4097.
        Unity = ("unity", "Unity"),
        /// Unreal landscape: one of Unreal's recommended sizes a side (127 to 8129); a larger
        /// face in tiles of such a size, for World Partition.
        Unreal = ("unreal", "Unreal"),
        /// Godot: no image side above 16384 pixels.
        Godot = ("godot", "Godot"),
    }
}

/// Unreal's recommended landscape sizes, pixels a side (its landscape technical guide's table:
/// the sizes made of whole components).
pub const UNREAL_SIZES: [usize; 7] = [127, 253, 505, 1009, 2017, 4033, 8129];
/// The largest image side Godot imports, pixels.
pub const GODOT_MAX_SIDE: usize = 16384;
/// Unity's terrain heightmap sides: 2^n+1 from 33 to 4097 pixels.
pub const UNITY_SIZES: [usize; 8] = [33, 65, 129, 257, 513, 1025, 2049, 4097];

crate::choices! {
    /// Byte order of RAW files.
    pub enum ByteOrder {
        /// Least significant byte first (Unity, World Machine, Gaea).
        Little = ("little", "Little-endian"),
        /// Most significant byte first (Kopernicus option, Mac tools).
        Big = ("big", "Big-endian"),
    }
}

crate::choices! {
    /// How colours are written to integer pixels.
    pub enum ColourEncoding {
        /// sRGB transfer (albedo, for display).
        Srgb = ("srgb", "sRGB (albedo)"),
        /// Linear values (data).
        Linear = ("linear", "Linear (data)"),
    }
}

crate::choices! {
    /// The frame of a normal map.
    pub enum NormalSpace {
        /// Relative to the surface: x along the image's columns, y along its rows, z up.
        Tangent = ("tangent", "Tangent space"),
        /// World axes of the planet (x, y, z).
        Object = ("object", "Object space"),
    }
}

crate::choices! {
    /// Direction of the green channel of tangent-space normal maps.
    pub enum NormalGreen {
        /// Green towards the top of the image (OpenGL, glTF, Blender, Unity).
        OpenGl = ("opengl", "OpenGL (+Y up)"),
        /// Green towards the bottom of the image (DirectX, Unreal).
        DirectX = ("directx", "DirectX (-Y)"),
    }
}

crate::settings! {
    /// Settings of the Export node.
    pub struct ExportSettings, keys ExportKeys {
        /// Base file name (extension and face suffixes are added).
        name: String = text("File name", "export", 64, "Base name of the files: letters, digits, '-' and '_'. The projection or face and the extension are added (elevation_equirect.png, elevation_face0_front.png)."),
        /// What is written.
        layer: ExportLayer = ExportLayer::Data.param("Layer", "Values: the input as it is (a field through the value mapping). Normal map: from the field as elevation in metres. Mesh: the planet displaced by the field, textured by the colour input."),
        /// File format.
        format: ExportFormat = ExportFormat::Png16.param("Format", "PNG 8/16-bit, EXR 32-bit float, TIFF 16-bit or 32-bit float, headerless RAW .r16/.r32 (one channel), or a GLB/OBJ mesh."),
        /// Projection or layout of images.
        projection: ExportProjection = ExportProjection::Equirect.param("Projection", "Equirectangular 2:1 (longitude across, north up); six faces in PlanetGraph's order on the evaluation's own grid; or a standard cube map named +X..-Z in the OpenGL orientation."),
        /// Equirectangular width in pixels (0: four times the resolution).
        width: usize = int("Width", 0, 0, 16384, "Width of equirectangular images in pixels; the height is half. 0: four times the evaluation's resolution."),
        /// Pixels per face edge (0: the resolution, plus one for edge-sharing faces).
        face_size: usize = int("Face size", 0, 0, 16385, "Pixels per face edge. 0: the evaluation's resolution (cell centres) or one more (edge-sharing)."),
        /// Where face pixels sit.
        grid: FaceGrid = FaceGrid::Cells.param("Face grid", "Cell centres: pixels inside the face. Edge-sharing: the first and last rows and columns lie on the face's edges, equal to the neighbour's (2^n+1 terrain sizes)."),
        /// A one-pixel border from the neighbouring faces.
        border: bool = boolean("Border", false, "Adds a one-pixel border copied from the neighbouring faces' edge pixels, so that bilinear sampling shows no seam (images grow by 2 pixels)."),
        /// Tiles per face edge, overlapping by one pixel.
        tiles: usize = int("Tiles", 1, 1, 16, "Splits each face into this many tiles per edge; neighbouring tiles share one row or column of pixels (files named _x0_y0, _x1_y0, ... as Unreal's World Partition imports them)."),
        /// The engine whose size rules the images must meet.
        engine: ExportEngine = ExportEngine::Any.param("Engine", "Checks the image sizes an engine takes, on the node before any work: Unity 2^n+1 from 33 to 4097 a side; Unreal 127, 253, 505, 1009, 2017, 4033 or 8129 a side (a larger face in tiles of one of these, for World Partition); Godot at most 16384 a side (a larger face in tiles). Set by the presets."),
        /// How field values become pixels of integer formats.
        mapping: ValueMapping = ValueMapping::Planet.param("Value mapping", "For 8/16-bit files: the data's own range, the fixed Low..High, or the Planet node's deepest ocean..highest peak in metres. Float files hold the values as they are."),
        /// Value written as 0 with a fixed range.
        low: f32 = float("Low", 0.0, -1.0e6, 1.0e6, Unit::None, 1.0, "Value that becomes pixel 0 with a fixed range (in the input's units)."),
        /// Value written as the largest pixel with a fixed range.
        high: f32 = float("High", 1.0, -1.0e6, 1.0e6, Unit::None, 1.0, "Value that becomes the largest pixel (255 or 65535) with a fixed range."),
        /// Where the manifest's units come from.
        units_from: UnitsFrom = UnitsFrom::Source.param("Units", "From the source: the units of the output feeding this node (m after the Planet node, degC from Temperature, mm/yr from Precipitation, deg from Slope, km from Distance to coast, m3/s from a discharge; followed through Blur, Warp, Clamp, Abs, Box filter and bypassed nodes; none for unitless values). Custom: the text below."),
        /// Units of the values with custom units, written into the manifest.
        units: String = text("Custom units", "", 16, "Units written into the manifest, for example m, degC, mm/yr; empty for unitless values."),
        /// Colour transfer of integer colour files.
        encoding: ColourEncoding = ColourEncoding::Srgb.param("Colour encoding", "sRGB for albedo shown on screen; linear for colour data."),
        /// Byte order of RAW files.
        byte_order: ByteOrder = ByteOrder::Little.param("Byte order", "Byte order of RAW files: little-endian for Unity, World Machine and Gaea; big-endian as an option for Kopernicus and older Mac tools."),
        /// Frame of normal maps.
        normal_space: NormalSpace = NormalSpace::Tangent.param("Normal space", "Tangent space: relative to the surface and the image's axes (game engines). Object space: the planet's x, y, z axes."),
        /// Green channel direction of tangent-space normal maps.
        normal_green: NormalGreen = NormalGreen::OpenGl.param("Green channel", "OpenGL: green points to the top of the image (glTF, Blender, Unity, Godot). DirectX: flipped (Unreal)."),
        /// Vertical exaggeration of normals and meshes.
        relief: f32 = float("Relief", 1.0, 0.0, 200.0, Unit::Named("x"), 0.1, "Vertical exaggeration of the normal map or mesh (1: true scale)."),
        /// Mesh vertices per face edge.
        mesh_size: usize = int("Mesh size", 129, 2, 2049, "Vertices per face edge of the mesh, independent of the evaluation's resolution."),
        /// Mesh chunks per face edge.
        chunks: usize = int("Chunks", 2, 1, 32, "Chunks per face edge; each chunk is a glTF node whose vertices are stored relative to its centre (float precision at planet scale)."),
        /// Albedo texture size per face of meshes.
        texture_size: usize = int("Texture size", 0, 0, 8192, "Albedo texture pixels per face edge of a textured mesh. 0: the evaluation's resolution."),
        /// Adds a sea-level sphere to meshes.
        sea: bool = boolean("Sea sphere", false, "Adds a sphere at sea level (radius of the Planet node) to the mesh, with a water material."),
    }
}

/// The Export node.
pub struct Export;

crate::ports! {
    const INPUTS: In = [
        /// The Export node's field input (values, a normal map or a mesh).
        FIELD: Field = PortDef::optional("field", PortType::Field),
        /// The Export node's colour input (an image of linear RGB).
        COLOUR: ColourField = PortDef::optional("colour", PortType::Colour),
    ];
}

impl Node for Export {
    type Settings = ExportSettings;
    const META: NodeMeta = NodeMeta::new(
        "Export",
        Category::Output,
        "Writes the field or colour at its input when the graph is built (planetgraph build, File > Export): values, a normal map or a mesh, in the chosen format and projection. A graph may hold several.",
        INPUTS,
        &[],
        file!(),
    )
    .needing_one_input()
    .costing(0);

    fn check(s: &ExportSettings, connected: &[bool]) -> Result<(), String> {
        let (field, colour) = (connected.get(FIELD.index()).copied().unwrap_or(false), connected.get(COLOUR.index()).copied().unwrap_or(false));
        // With nothing connected the node waits for an input (idle), which says so itself.
        if !field && !colour {
            return check_name(&s.name);
        }
        s.check(field, colour)
    }

    fn run(s: &ExportSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let field = inputs.port_opt(FIELD)?.is_some();
        let colour = inputs.port_opt(COLOUR)?.is_some();
        s.check(field, colour).map_err(OpError::Invalid)?;
        Ok(Vec::new())
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }

    fn shows(s: &ExportSettings, key: &str) -> bool {
        let k = ExportSettings::KEYS;
        let image = s.layer != ExportLayer::Mesh;
        let faces = image && s.projection != ExportProjection::Equirect;
        let integer = s.format.is_integer();
        if key == k.projection {
            image
        } else if key == k.width {
            image && s.projection == ExportProjection::Equirect
        } else if key == k.face_size || key == k.grid || key == k.tiles {
            faces
        } else if key == k.engine {
            image
        } else if key == k.border {
            faces && s.grid == FaceGrid::Cells
        } else if key == k.mapping {
            s.layer == ExportLayer::Data && integer
        } else if key == k.low || key == k.high {
            s.layer == ExportLayer::Data && integer && s.mapping == ValueMapping::Fixed
        } else if key == k.encoding {
            s.layer == ExportLayer::Data && matches!(s.format, ExportFormat::Png8 | ExportFormat::Png16 | ExportFormat::Tiff16)
        } else if key == k.units {
            s.units_from == UnitsFrom::Custom
        } else if key == k.byte_order {
            matches!(s.format, ExportFormat::Raw16 | ExportFormat::Raw32)
        } else if key == k.normal_space {
            s.layer == ExportLayer::Normals
        } else if key == k.normal_green {
            s.layer == ExportLayer::Normals && s.normal_space == NormalSpace::Tangent
        } else if key == k.relief {
            s.layer != ExportLayer::Data
        } else if key == k.mesh_size || key == k.chunks || key == k.texture_size || key == k.sea {
            s.layer == ExportLayer::Mesh
        } else {
            true
        }
    }
}

impl ExportFormat {
    /// Whether samples are integers written through a value mapping (PNG, TIFF 16-bit,
    /// .r16), rather than floats holding the values themselves.
    pub fn is_integer(self) -> bool {
        matches!(self, ExportFormat::Png8 | ExportFormat::Png16 | ExportFormat::Tiff16 | ExportFormat::Raw16)
    }
}

impl ExportSettings {
    /// Checks the settings against which inputs are connected; the message says what to change.
    pub fn check(&self, field: bool, colour: bool) -> Result<(), String> {
        check_name(&self.name)?;
        let mesh_format = matches!(self.format, ExportFormat::Glb | ExportFormat::Obj);
        match self.layer {
            ExportLayer::Data => {
                if field == colour {
                    return Err("connect either a field or a colour".into());
                }
                if mesh_format {
                    return Err(format!("{} is a mesh format: choose the Mesh layer or an image format", self.format.label()));
                }
                if colour && matches!(self.format, ExportFormat::Raw16 | ExportFormat::Raw32) {
                    return Err("RAW files hold one channel: export a colour as PNG or EXR".into());
                }
            }
            ExportLayer::Normals => {
                if !field {
                    return Err("a normal map needs the elevation in metres on the field input".into());
                }
                if !matches!(self.format, ExportFormat::Png8 | ExportFormat::Png16 | ExportFormat::Exr | ExportFormat::Tiff16 | ExportFormat::Tiff32) {
                    return Err("a normal map is written as PNG, EXR or TIFF".into());
                }
            }
            ExportLayer::Mesh => {
                if !field {
                    return Err("a mesh needs the elevation in metres on the field input".into());
                }
                if !mesh_format {
                    return Err("a mesh is written as GLB or OBJ".into());
                }
            }
        }
        if self.layer != ExportLayer::Mesh && self.projection != ExportProjection::Equirect {
            if self.grid == FaceGrid::EdgeSharing && self.border {
                return Err("a border goes with cell-centred faces; edge-sharing faces already share their edges".into());
            }
            if self.grid == FaceGrid::EdgeSharing && self.face_size == 1 {
                return Err("edge-sharing faces need at least 2 pixels per edge".into());
            }
        }
        if self.width % 2 == 1 {
            return Err(format!("the equirectangular width must be even (the height is half), not {}", self.width));
        }
        if self.layer != ExportLayer::Mesh {
            self.check_engine_sizes()?;
        }
        if self.mapping == ValueMapping::Fixed && self.low >= self.high {
            return Err(format!("Low ({}) must be below High ({}): they are the values of the darkest and the brightest pixel", self.low, self.high));
        }
        Ok(())
    }
}

impl ExportSettings {
    /// The side in pixels of every image this export writes, when the settings fix it (an
    /// explicit width or face size whose tiles are all of one size); `None` otherwise.
    pub fn image_side(&self) -> Option<usize> {
        if self.projection == ExportProjection::Equirect {
            return (self.width > 0).then_some(self.width);
        }
        let border = 2 * usize::from(self.border && self.grid == FaceGrid::Cells);
        let full = self.face_size + border;
        (self.face_size > 0 && (full - 1).is_multiple_of(self.tiles)).then(|| (full - 1) / self.tiles + 1)
    }

    /// The chosen engine's size rules (see [`ExportEngine`]), with what to set instead.
    fn check_engine_sizes(&self) -> Result<(), String> {
        if self.engine == ExportEngine::Any {
            return Ok(());
        }
        let engine = self.engine.label();
        let Some(side) = self.image_side() else {
            return Err(if self.projection == ExportProjection::Equirect || self.face_size == 0 {
                format!("{engine} needs a fixed image size: set the {}", if self.projection == ExportProjection::Equirect { "Width" } else { "Face size" })
            } else {
                format!("{engine} needs tiles of one size: a face of {} pixels does not split into {} tiles sharing their edges (Face size - 1 must divide by Tiles)", self.face_size, self.tiles)
            });
        };
        // The tile counts that split the face into tiles of a side `fits` takes.
        let tilings = |fits: &dyn Fn(usize) -> bool| -> Vec<(usize, usize)> {
            let full = self.face_size.max(1);
            (1..=16).filter(|&t| (full - 1).is_multiple_of(t) && fits((full - 1) / t + 1)).map(|t| (t, (full - 1) / t + 1)).collect()
        };
        let tiles_hint = |allowed: &[usize]| -> String {
            let fits: Vec<String> = tilings(&|side| allowed.contains(&side)).iter().map(|(t, side)| format!("{t} tiles of {side}")).collect();
            if self.projection == ExportProjection::Equirect || fits.is_empty() {
                String::new()
            } else {
                format!("; a face of {} fits as {}", self.face_size, fits.join(" or "))
            }
        };
        match self.engine {
            ExportEngine::Any => Ok(()),
            ExportEngine::Unity if !UNITY_SIZES.contains(&side) => Err(format!("Unity terrain takes heightmaps of 33, 65, 129, 257, 513, 1025, 2049 or 4097 pixels a side, not {side}{}", tiles_hint(&UNITY_SIZES))),
            ExportEngine::Unreal if !UNREAL_SIZES.contains(&side) => Err(format!("Unreal imports landscapes of 127, 253, 505, 1009, 2017, 4033 or 8129 pixels a side, not {side}{}", tiles_hint(&UNREAL_SIZES))),
            ExportEngine::Godot if side > GODOT_MAX_SIDE => {
                let fits = tilings(&|side| side <= GODOT_MAX_SIDE).first().map_or(String::new(), |(t, side)| format!(": use Tiles {t} (tiles of {side})"));
                Err(format!("Godot refuses images over {GODOT_MAX_SIDE} pixels a side, and these are {side}{fits}"))
            }
            _ => Ok(()),
        }
    }
}

/// Checks a base file name: 1 to 64 letters, digits, '-' and '_' (no folders).
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("the file name is empty".into());
    }
    if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_')) {
        return Err(format!("the file name '{name}' has '{c}': use letters, digits, '-' and '_'"));
    }
    Ok(())
}

/// The declared defaults (a test checks they equal what the definitions read).
impl Default for ExportSettings {
    fn default() -> Self {
        ExportSettings {
            name: "export".into(),
            layer: ExportLayer::Data,
            format: ExportFormat::Png16,
            projection: ExportProjection::Equirect,
            width: 0,
            face_size: 0,
            grid: FaceGrid::Cells,
            border: false,
            tiles: 1,
            engine: ExportEngine::Any,
            mapping: ValueMapping::Planet,
            low: 0.0,
            high: 1.0,
            units_from: UnitsFrom::Source,
            units: String::new(),
            encoding: ColourEncoding::Srgb,
            byte_order: ByteOrder::Little,
            normal_space: NormalSpace::Tangent,
            normal_green: NormalGreen::OpenGl,
            relief: 1.0,
            mesh_size: 129,
            chunks: 2,
            texture_size: 0,
            sea: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> ExportSettings {
        ExportSettings::default()
    }

    #[test]
    fn default_matches_the_definitions() {
        assert_eq!(ExportSettings::from_params(&Default::default()).expect("defaults"), ExportSettings::default());
    }

    #[test]
    fn settings_are_checked_against_the_inputs() {
        let s = defaults();
        assert!(s.check(true, false).is_ok());
        assert!(s.check(false, false).is_err());
        assert!(s.check(true, true).is_err());
        let raw_colour = ExportSettings { format: ExportFormat::Raw16, ..defaults() };
        assert!(raw_colour.check(false, true).is_err_and(|e| e.contains("RAW")));
        let mesh_png = ExportSettings { layer: ExportLayer::Mesh, ..defaults() };
        assert!(mesh_png.check(true, false).is_err());
        let mesh = ExportSettings { layer: ExportLayer::Mesh, format: ExportFormat::Glb, ..defaults() };
        assert!(mesh.check(true, true).is_ok());
        let bad = ExportSettings { name: "../x".into(), ..defaults() };
        assert!(bad.check(true, false).is_err_and(|e| e.contains("'.'")));
        let both = ExportSettings { projection: ExportProjection::Faces, grid: FaceGrid::EdgeSharing, border: true, ..defaults() };
        assert!(both.check(true, false).is_err());
    }

    #[test]
    fn engines_sizes_are_refused_with_what_fits() {
        let faces = |engine, face_size, tiles| ExportSettings { engine, projection: ExportProjection::Faces, grid: FaceGrid::EdgeSharing, face_size, tiles, ..defaults() };
        assert!(faces(ExportEngine::Unreal, 1009, 1).check(true, false).is_ok());
        let e = faces(ExportEngine::Unreal, 1000, 1).check(true, false).expect_err("1000 is no Unreal size");
        assert!(e.contains("1009") && e.contains("not 1000"), "{e}");
        // A World Partition face: 16257 in 2 x 2 tiles of 8129.
        assert!(faces(ExportEngine::Unreal, 16257, 2).check(true, false).is_ok());
        let e = faces(ExportEngine::Unreal, 16257, 1).check(true, false).expect_err("too large for one landscape");
        assert!(e.contains("2 tiles of 8129"), "{e}");
        let e = faces(ExportEngine::Godot, 16385, 1).check(true, false).expect_err("over 16384");
        assert!(e.contains("16384") && e.contains("Tiles 2 (tiles of 8193)"), "{e}");
        assert!(faces(ExportEngine::Godot, 16385, 2).check(true, false).is_ok());
        assert!(faces(ExportEngine::Unity, 4097, 1).check(true, false).is_ok());
        assert!(faces(ExportEngine::Unity, 8193, 1).check(true, false).is_err_and(|e| e.contains("2 tiles of 4097")));
        assert!(faces(ExportEngine::Unreal, 0, 1).check(true, false).is_err_and(|e| e.contains("Face size")));
        assert!(faces(ExportEngine::Any, 1000, 1).check(true, false).is_ok());
    }
}
