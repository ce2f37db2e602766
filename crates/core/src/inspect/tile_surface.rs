//! A close-up's data as the renderer takes it: the Planet node's elevation on a tile, its
//! colours and its normals, from a region evaluation (`Request::region`).

use super::normals::tile_normals;
use crate::eval::EvalResult;
use crate::graph::NodeId;
use crate::nodes::output::planet::{PlanetSettings, ALBEDO};
use crate::planet::{Grid, Tile};

/// A close-up's data: the tile and, per cell in the tile's row-major order, its elevation, its
/// colours and its normals.
#[derive(Debug, Clone)]
pub struct CloseUp {
    /// The tile evaluated.
    pub tile: Tile,
    /// Elevation in metres per cell.
    pub elevation_m: Vec<f32>,
    /// The Planet node's albedo as sRGB RGBA8 (alpha 0), when its albedo input is connected.
    pub albedo: Option<Vec<u8>>,
    /// Normals per cell (`0.5 + 0.5 n` in RGB, alpha 255).
    pub normals: Vec<u8>,
    /// The relief's exaggeration the normals were made for.
    pub exaggeration: f32,
}

impl CloseUp {
    /// The close-up of `res`, a region evaluation on a tile in which the Planet node `planet`
    /// ran; normals for the relief exaggerated `exaggeration` times (with a flat sea when
    /// `flat_sea`). The error says what is missing.
    pub fn from_result(res: &EvalResult, planet: NodeId, settings: &PlanetSettings, exaggeration: f32, flat_sea: bool) -> Result<CloseUp, String> {
        let field = res.field(planet).ok_or_else(|| match res.errors.get(&planet) {
            Some(e) => format!("the Planet node produced nothing on the close-up's tile: {e}"),
            None => "the Planet node produced nothing on the close-up's tile".to_string(),
        })?;
        let Grid::Tile(tile) = field.grid() else { return Err("the close-up's elevation does not lie on a tile".to_string()) };
        let normals = tile_normals(field, settings.radius_km, exaggeration, flat_sea).ok_or_else(|| "the close-up's elevation does not lie on a tile".to_string())?;
        let albedo = res.input(planet, ALBEDO).map(|a| {
            a.data
                .iter()
                .flat_map(|&c| {
                    let [r, g, b] = crate::planet::colour::to_srgb8(c);
                    [r, g, b, 0]
                })
                .collect()
        });
        Ok(CloseUp { tile, elevation_m: field.data().to_vec(), albedo, normals, exaggeration })
    }
}
