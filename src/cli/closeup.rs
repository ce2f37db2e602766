//! Close-ups for `planetgraph render`: where the camera is near the ground, the graph is
//! evaluated again on one tile around the point the camera looks at, at a level fine enough for
//! the picture's pixels (region evaluation: the whole-planet nodes come from the cached whole
//! evaluation, the cellwise ones, the Detail node among them, run on the tile), and the tile is
//! drawn over the planet as a detail patch.

use super::CliError;
use crate::eval::{compile_for, Evaluator, Progress};
use crate::graph::{Graph, NodeId};
use crate::inspect::tile_normals;
use crate::nodes::output::planet::{PlanetSettings, ALBEDO};
use crate::planet::{dir_to_face_ab, Grid, Tile};
use crate::render::{DetailPatch, OrbitCamera};
use anyhow::anyhow;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The finest level a close-up evaluates (cells per face edge): about 0.6 km cells on an
/// Earth-sized planet.
pub const MAX_DETAIL_LEVEL: usize = 16384;

/// Cells per edge of a close-up's tile.
pub const TILE_CELLS: usize = 1024;

/// Camera distances (planet radii) up to which `render` adds a close-up by default.
pub const AUTO_DISTANCE: f32 = 1.25;

/// The tile a close-up evaluates for `camera` looking at a picture of `width` x `height`
/// pixels, over a planet evaluated at `n`: on the face under the centre of the picture, centred
/// there as far as the face allows, at the power-of-two level at which a cell is about a pixel,
/// but coarse enough for the tile to span the picture half again, and at most
/// [`MAX_DETAIL_LEVEL`]. `None` when that level is no finer than `n` (the planet's own cells
/// are fine enough) or the picture's centre misses the planet.
pub fn tile_for_view(camera: &OrbitCamera, width: u32, height: u32, n: usize) -> Option<Tile> {
    let aspect = width as f32 / height.max(1) as f32;
    let ground = camera.pick(glam::Vec2::ZERO, aspect)?;
    let range = (camera.eye() - ground).length().max(1e-6);
    // Planet arc per pixel, and the arc the picture spans (its wider side).
    let pixel = range * camera.fov_y / height.max(1) as f32;
    let span = pixel * width.max(height) as f32;
    let quarter = std::f32::consts::FRAC_PI_2;
    let sharp = quarter / pixel;
    let cover = TILE_CELLS as f32 * quarter / (1.5 * span);
    let wanted = sharp.min(cover).min(MAX_DETAIL_LEVEL as f32).max(1.0) as usize;
    // The largest power of two not above the wanted level.
    let level = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
    if level <= n {
        return None;
    }
    let size = TILE_CELLS.min(level);
    let (face, a, b) = dir_to_face_ab(ground);
    let start = |x: f32| ((x * level as f32) as usize).saturating_sub(size / 2).min(level - size);
    Tile::new(face, level, start(a), start(b), size).ok()
}

/// A close-up's data: the tile and, per cell, its elevation, colours and normals.
pub struct CloseUp {
    /// The tile evaluated.
    pub tile: Tile,
    /// Elevation in metres per cell.
    pub elevation_m: Vec<f32>,
    /// The Planet node's albedo as RGBA8 (alpha 0), when its albedo input is connected.
    pub albedo: Option<Vec<u8>>,
    /// Normals per cell (`0.5 + 0.5 n`).
    pub normals: Vec<u8>,
}

impl CloseUp {
    /// The patch the renderer draws (its colours only with `colours`).
    pub fn patch(&self, colours: bool) -> DetailPatch<'_> {
        let t = self.tile;
        let n = t.n as f32;
        DetailPatch { face: t.face, corner: [t.i0 as f32 / n, t.j0 as f32 / n], span: t.size as f32 / n, size: t.size as u32, elevation_m: &self.elevation_m, overlay: if colours { self.albedo.as_deref() } else { None }, normals: Some(&self.normals) }
    }
}

/// Evaluates what `g`'s Planet node (`planet`) needs on `tile`, with the whole-planet nodes at
/// `n` through `ev`'s cache (evaluate the whole planet at `n` with `ev` first so they are
/// there), lit with the relief exaggerated `exaggeration` times.
#[allow(clippy::too_many_arguments)]
pub fn evaluate(ev: &mut Evaluator, g: &Graph, path: &Path, planet: NodeId, settings: &PlanetSettings, tile: Tile, n: usize, exaggeration: f32, cancel: &AtomicBool) -> Result<CloseUp, CliError> {
    let program = compile_for(g, &[planet]);
    let res = ev.run_region(&program, Grid::Tile(tile), n, cancel, &Progress::default());
    if res.cancelled {
        return Err(CliError::internal(anyhow!("cancelled")));
    }
    if let Some((id, msg)) = res.errors.iter().next() {
        return Err(CliError::input(anyhow!("{}: {} (on the close-up's tile): {msg}", path.display(), g.describe_node(*id))));
    }
    let field = res.field(planet).ok_or_else(|| CliError::internal(anyhow!("the Planet node produced nothing on the close-up's tile")))?;
    let normals = tile_normals(field, settings.radius_km, exaggeration, true).ok_or_else(|| CliError::internal(anyhow!("the close-up's elevation does not lie on its tile")))?;
    let albedo = res.input(planet, ALBEDO).map(|a| {
        a.data
            .iter()
            .flat_map(|&c| {
                let [r, g, b] = crate::planet::colour::to_srgb8(c);
                [r, g, b, 0]
            })
            .collect()
    });
    Ok(CloseUp { tile, elevation_m: field.data().to_vec(), albedo, normals })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_close_camera_gets_a_fine_tile_under_the_picture_s_centre_and_a_far_one_none() {
        let far = OrbitCamera { distance: 3.9, ..Default::default() };
        assert!(tile_for_view(&far, 1024, 1024, 256).is_none() || far.distance > AUTO_DISTANCE);
        let near = OrbitCamera { distance: 1.02, ..Default::default() };
        let t = tile_for_view(&near, 1024, 768, 256).expect("a close-up");
        assert_eq!(t.n, MAX_DETAIL_LEVEL);
        assert_eq!(t.size, TILE_CELLS);
        let ground = near.pick(glam::Vec2::ZERO, 1024.0 / 768.0).expect("looks at the planet");
        let (face, a, b) = dir_to_face_ab(ground);
        assert_eq!(face, t.face);
        let centre = |start: usize| (start as f32 + t.size as f32 / 2.0) / t.n as f32;
        assert!((centre(t.i0) - a).abs() < 0.01 && (centre(t.j0) - b).abs() < 0.01, "centred on the picture's centre");
        // Further out the level drops so the tile still spans the picture.
        let mid = tile_for_view(&OrbitCamera { distance: 1.2, ..Default::default() }, 1024, 768, 256).expect("a close-up");
        assert!(mid.n < MAX_DETAIL_LEVEL && mid.n > 256);
        assert!(tile_for_view(&near, 1024, 768, 16384).is_none(), "the planet's own cells are fine enough");
    }
}
