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

/// Cells of halo a close-up's tile is evaluated with ([`CloseUp::evaluated`]): its normals
/// take central differences across its border, so the light of neighbouring tiles meets
/// without a line (one-sided differences there drew one along every tile border).
pub const CLOSEUP_HALO: usize = 1;

impl CloseUp {
    /// The tile to evaluate `tile`'s close-up on: `tile` with [`CLOSEUP_HALO`] cells of halo
    /// (from [`CloseUp::from_result`] the close-up holds the tile's own cells only).
    pub fn evaluated(tile: Tile) -> Tile {
        tile.with_halo(CLOSEUP_HALO)
    }

    /// [`CloseUp::evaluated`] as the grid of a region request.
    pub fn grid(tile: Tile) -> Grid {
        Grid::Tile(CloseUp::evaluated(tile))
    }

    /// The close-up of `res`, a region evaluation on a tile (best [`CloseUp::grid`]) in which
    /// the Planet node `planet` ran; normals for the relief exaggerated `exaggeration` times
    /// (with a flat sea when `flat_sea`), across the tile's halo where it has one. The close-up
    /// is of the tile without its halo. The error says what is missing.
    pub fn from_result(res: &EvalResult, planet: NodeId, settings: &PlanetSettings, exaggeration: f32, flat_sea: bool) -> Result<CloseUp, String> {
        let field = res.field(planet).ok_or_else(|| match res.errors.get(&planet) {
            Some(e) => format!("the Planet node produced nothing on the close-up's tile: {e}"),
            None => "the Planet node produced nothing on the close-up's tile".to_string(),
        })?;
        let evaluated = field.grid();
        let Grid::Tile(with_halo) = evaluated else { return Err("the close-up's elevation does not lie on a tile".to_string()) };
        let tile = with_halo.with_halo(0);
        let normals = tile_normals(field, settings.radius_km, exaggeration, flat_sea).ok_or_else(|| "the close-up's elevation does not lie on a tile".to_string())?;
        let own = |what: &str, grid: Grid| format!("the close-up's {what} on {grid} does not hold the tile {tile:?}");
        let elevation_m = evaluated.crop(field.data(), Grid::Tile(tile)).ok_or_else(|| own("elevation", evaluated))?;
        let albedo = res
            .input(planet, ALBEDO)
            .map(|a| {
                let colours = a.grid().crop(&a.data, Grid::Tile(tile)).ok_or_else(|| own("colours", a.grid()))?;
                Ok::<Vec<u8>, String>(
                    colours
                        .iter()
                        .flat_map(|&c| {
                            let [r, g, b] = crate::planet::colour::to_srgb8(c);
                            [r, g, b, 0]
                        })
                        .collect(),
                )
            })
            .transpose()?;
        Ok(CloseUp { tile, elevation_m, albedo, normals, exaggeration })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{compile_for, Evaluator, Progress, Request};
    use crate::graph::Graph;
    use crate::nodes::{NodeKind, Settings};
    use crate::planet::Face;
    use std::sync::atomic::AtomicBool;

    /// A close-up evaluated on its grid (with a halo) holds the tile's own cells: the same
    /// tile, elevation and colours as an evaluation without the halo; only the normals on its
    /// border differ (central differences there).
    #[test]
    fn a_close_up_with_a_halo_holds_the_tile_s_own_cells() {
        let mut graph = Graph::default();
        let noise = graph.add_node(NodeKind::Noise, (0.0, 0.0));
        let ramp = graph.add_node(NodeKind::ColourRamp, (200.0, 100.0));
        let planet = graph.add_node(NodeKind::Planet, (400.0, 0.0));
        graph.link(noise, crate::nodes::FIELD_OUT, planet, crate::nodes::output::planet::ELEVATION).expect("link");
        graph.link(noise, crate::nodes::FIELD_OUT, ramp, crate::nodes::FIELD_IN).expect("link");
        graph.link(ramp, crate::nodes::texture::colour_ramp::COLOUR, planet, ALBEDO).expect("link");
        let program = compile_for(&graph, &[planet]);
        let settings = PlanetSettings::from_params(&NodeKind::Planet.default_params()).expect("defaults");
        let tile = Tile::new(Face::Right, 256, 64, 96, 32).expect("tile");
        let close = |grid: Grid| {
            let res = Evaluator::new().run(&program, &Request::region(grid, 64), &AtomicBool::new(false), &Progress::default());
            CloseUp::from_result(&res, planet, &settings, 20.0, false).expect("a close-up")
        };
        let (haloed, plain) = (close(CloseUp::grid(tile)), close(Grid::Tile(tile)));
        assert_eq!(haloed.tile, tile);
        assert_eq!(haloed.elevation_m, plain.elevation_m);
        assert!(haloed.albedo.is_some() && haloed.albedo == plain.albedo);
        assert_eq!(haloed.normals.len(), plain.normals.len());
        let differs: Vec<usize> = (0..tile.cells()).filter(|&k| haloed.normals[4 * k..4 * k + 4] != plain.normals[4 * k..4 * k + 4]).collect();
        assert!(!differs.is_empty() && differs.iter().all(|&k| k % 32 == 0 || k % 32 == 31 || !(32..31 * 32).contains(&k)), "{differs:?}");
    }
}
