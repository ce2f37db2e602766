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
}

impl ColourMode {
    /// All modes, in menu order.
    pub const ALL: [ColourMode; 5] = [ColourMode::Albedo, ColourMode::Elevation, ColourMode::Faces, ColourMode::Plates, ColourMode::Regions];

    /// Name in the viewport's mode menu.
    pub fn label(self) -> &'static str {
        match self {
            ColourMode::Albedo => "Albedo",
            ColourMode::Elevation => "Elevation",
            ColourMode::Faces => "Cube faces",
            ColourMode::Plates => "Plates",
            ColourMode::Regions => "Regions by face",
        }
    }

    /// Whether the mode needs the tectonic overlay image (plates or regions).
    pub fn uses_overlay(self) -> bool {
        matches!(self, ColourMode::Plates | ColourMode::Regions)
    }
}

