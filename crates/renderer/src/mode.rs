//! The viewport's colour modes.

/// How the viewport colours the planet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColourMode {
    /// The planet's albedo (its Planet node's albedo input), per pixel from a texture; the
    /// height tint where the planet has no albedo.
    #[default]
    Albedo,
    /// Hypsometric colours by elevation.
    Elevation,
    /// One colour per cube face.
    Faces,
    /// One colour per plate, border regions lighter.
    Plates,
    /// Regions coloured by their cube face, each region a little lighter or darker.
    Regions,
    /// The lighting normals as colours (`0.5 + 0.5 n`).
    Normals,
    /// Slope from the graph's first Slope node (black flat, white 45 deg).
    Slope,
    /// Biome colours from the graph's first Biomes node.
    Biome,
    /// Temperature from the graph's first Temperature node (violet cold, red hot).
    Temperature,
    /// Precipitation from the graph's first Precipitation node (sand dry, blue wet).
    Precipitation,
}

impl ColourMode {
    /// All modes, in menu order.
    pub const ALL: [ColourMode; 10] =
        [ColourMode::Albedo, ColourMode::Elevation, ColourMode::Faces, ColourMode::Plates, ColourMode::Regions, ColourMode::Normals, ColourMode::Slope, ColourMode::Biome, ColourMode::Temperature, ColourMode::Precipitation];

    /// Identifier on the command line (`render --mode`).
    pub fn id(self) -> &'static str {
        match self {
            ColourMode::Albedo => "albedo",
            ColourMode::Elevation => "elevation",
            ColourMode::Faces => "faces",
            ColourMode::Plates => "plates",
            ColourMode::Regions => "regions",
            ColourMode::Normals => "normals",
            ColourMode::Slope => "slope",
            ColourMode::Biome => "biome",
            ColourMode::Temperature => "temperature",
            ColourMode::Precipitation => "precipitation",
        }
    }

    /// Name in the viewport's mode menu.
    pub fn label(self) -> &'static str {
        match self {
            ColourMode::Albedo => "Albedo",
            ColourMode::Elevation => "Elevation",
            ColourMode::Faces => "Cube faces",
            ColourMode::Plates => "Plates",
            ColourMode::Regions => "Regions by face",
            ColourMode::Normals => "Normals",
            ColourMode::Slope => "Slope",
            ColourMode::Biome => "Biomes",
            ColourMode::Temperature => "Temperature",
            ColourMode::Precipitation => "Precipitation",
        }
    }

    /// Whether the mode needs the tectonic overlay image (plates or regions).
    pub fn uses_overlay(self) -> bool {
        matches!(self, ColourMode::Plates | ColourMode::Regions)
    }
}

impl ColourMode {
    /// Whether the mode shows a per-cell layer of the evaluation (normals, slope, biomes,
    /// temperature, precipitation) through the overlay texture. (Elevation does too when no
    /// region borders are drawn, see the viewport.)
    pub fn inspects_field(self) -> bool {
        matches!(self, ColourMode::Normals | ColourMode::Slope | ColourMode::Biome | ColourMode::Temperature | ColourMode::Precipitation)
    }
}
