//! Which tile a close-up evaluates for a camera: camera geometry and the cube-sphere's tiles
//! only (the evaluation itself is the domain's region evaluation).

use super::camera::OrbitCamera;
use super::gpu_types::MAX_PATCHES;
use super::layers::{DetailPatch, PATCH_MARGIN};
use crate::planet::{dir_to_face_ab, Tile};

/// The finest level a close-up evaluates (cells per face edge): about 0.6 km cells on an
/// Earth-sized planet.
pub const MAX_DETAIL_LEVEL: usize = 16384;

/// Cells per edge of a close-up's tile.
pub const TILE_CELLS: usize = 1024;

/// Camera distances (planet radii) up to which close-ups are made.
pub const AUTO_DISTANCE: f32 = 1.6;

/// The tile a close-up evaluates for `camera` looking at a picture of `width` x `height`
/// pixels over a planet evaluated at `n`: on the face under the picture's centre, centred there
/// as far as the face allows, at the power-of-two level at which a cell is about a pixel, but
/// coarse enough for the tile to span the picture one and a half times, and at most
/// [`MAX_DETAIL_LEVEL`]. `None` when the camera is further than [`AUTO_DISTANCE`], the picture's
/// centre misses the planet, or that level is no finer than `n` (the planet's own cells are fine
/// enough).
pub fn tile_for_view(camera: &OrbitCamera, width: u32, height: u32, n: usize) -> Option<Tile> {
    if camera.distance > AUTO_DISTANCE {
        return None;
    }
    let aspect = width as f32 / height.max(1) as f32;
    let ground = camera.pick(glam::Vec2::ZERO, aspect)?;
    let range = (camera.eye() - ground).length().max(1e-6);
    // Planet arc per pixel, and the arc the picture spans (its wider side).
    let pixel = range * camera.fov_y / height.max(1) as f32;
    let span = pixel * width.max(height) as f32;
    let quarter = std::f32::consts::FRAC_PI_2;
    let sharp = quarter / pixel;
    let cover = TILE_CELLS as f32 * quarter / (1.5 * span);
    let level = power_of_two_below(sharp.min(cover).min(MAX_DETAIL_LEVEL as f32));
    if level <= n {
        return None;
    }
    let (face, a, b) = dir_to_face_ab(ground);
    tile_around(face, level, TILE_CELLS.min(level), a, b)
}

/// The largest power of two not above `level` (at least 1).
fn power_of_two_below(level: f32) -> usize {
    let wanted = level.max(1.0) as usize;
    1usize << (usize::BITS - 1 - wanted.leading_zeros())
}

/// The cell of face coordinates `(a, b)` at `level`.
fn cell_at(level: usize, a: f32, b: f32) -> (usize, usize) {
    (((a * level as f32) as usize).min(level - 1), ((b * level as f32) as usize).min(level - 1))
}

/// The tile of `size` cells at `level` centred on face coordinates `(a, b)` of `face`, as far as
/// the face allows.
fn tile_around(face: crate::planet::Face, level: usize, size: usize, a: f32, b: f32) -> Option<Tile> {
    let (x, y) = cell_at(level, a, b);
    let start = |c: usize| c.saturating_sub(size / 2).min(level - size);
    Tile::new(face, level, start(x), start(y), size).ok()
}

/// The tiles a close-up evaluates for `camera` (see [`tile_for_view`]): the tile under the
/// picture's centre first; then, nearest the centre first, a tile centred on each point of a
/// 5 x 5 grid over the picture that lands on the planet outside the tiles so far that are fine
/// enough there (on another face, beyond the first tile, or further out in a tilted view), at
/// the level that point's pixels need (their distance and slant: a coarser level far away,
/// never finer than the first tile's, never below its cells per edge); at most [`MAX_PATCHES`].
/// All tiles have the first tile's cells per edge. Draw them coarse first
/// ([`by_level`]) so finer ones lie on top.
pub fn tiles_for_view(camera: &OrbitCamera, width: u32, height: u32, n: usize) -> Vec<Tile> {
    let Some(first) = tile_for_view(camera, width, height, n) else { return Vec::new() };
    let size = first.size;
    let aspect = width as f32 / height.max(1) as f32;
    let mut points: Vec<glam::Vec2> = (0..25).map(|k| glam::Vec2::new((k % 5) as f32 * 0.5 - 1.0, (k / 5) as f32 * 0.5 - 1.0)).collect();
    points.sort_by(|a, b| a.length_squared().total_cmp(&b.length_squared()));
    // A point counts as covered inside a tile's part that does not fade, by a tile at least as
    // fine as the point needs.
    let margin = (PATCH_MARGIN * size as f32).ceil() as usize;
    let covers = |t: &Tile, face, a: f32, b: f32, level: usize| {
        let (x, y) = cell_at(t.n, a, b);
        t.face == face && t.n >= level && x >= t.i0 + margin && x + margin < t.i0 + t.size && y >= t.j0 + margin && y + margin < t.j0 + t.size
    };
    let mut tiles = vec![first];
    for p in points {
        if tiles.len() >= MAX_PATCHES {
            break;
        }
        let Some(ground) = camera.pick(p, aspect) else { continue };
        // Planet arc per pixel there: the range, and the slant of the ground to the view.
        let to_eye = camera.eye() - ground;
        let slant = (to_eye.normalize_or_zero().dot(ground.normalize_or_zero())).max(0.25);
        let pixel = to_eye.length() * camera.fov_y / height.max(1) as f32 / slant;
        let level = power_of_two_below((std::f32::consts::FRAC_PI_2 / pixel).min(first.n as f32));
        if level <= n || level < size {
            continue;
        }
        let (face, a, b) = dir_to_face_ab(ground);
        if tiles.iter().any(|t| covers(t, face, a, b, level)) {
            continue;
        }
        if let Some(t) = tile_around(face, level, size, a, b).filter(|t| !tiles.contains(t)) {
            tiles.push(t);
        }
    }
    tiles
}

/// Orders close-up patches coarse first, so that where they overlap the finer lies on top
/// (the renderer and the mesh lay them one over the other in order).
pub fn by_level<T>(items: &mut [T], level: impl Fn(&T) -> usize) {
    items.sort_by_key(|t| level(t));
}

impl<'a> DetailPatch<'a> {
    /// The patch of a tile's values (row-major over the tile): its elevation in metres, and
    /// its colours and normals as RGBA8 where given.
    pub fn on_tile(tile: Tile, elevation_m: &'a [f32], overlay: Option<&'a [u8]>, normals: Option<&'a [u8]>) -> DetailPatch<'a> {
        let n = tile.n as f32;
        DetailPatch { face: tile.face, corner: [tile.i0 as f32 / n, tile.j0 as f32 / n], span: tile.size as f32 / n, size: tile.size as u32, elevation_m, overlay, normals }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_close_camera_gets_a_fine_tile_under_the_picture_s_centre_and_a_far_one_none() {
        assert!(tile_for_view(&OrbitCamera { distance: 3.9, ..Default::default() }, 1024, 1024, 256).is_none());
        let near = OrbitCamera { distance: 1.02, ..Default::default() };
        let t = tile_for_view(&near, 1024, 768, 256).expect("a close-up");
        assert_eq!((t.n, t.size), (MAX_DETAIL_LEVEL, TILE_CELLS));
        let ground = near.pick(glam::Vec2::ZERO, 1024.0 / 768.0).expect("looks at the planet");
        let (face, a, b) = dir_to_face_ab(ground);
        assert_eq!(face, t.face);
        let centre = |start: usize| (start as f32 + t.size as f32 / 2.0) / t.n as f32;
        assert!((centre(t.i0) - a).abs() < 0.01 && (centre(t.j0) - b).abs() < 0.01, "centred on the picture's centre");
        // Further out the level drops so the tile still spans the picture.
        let mid = tile_for_view(&OrbitCamera { distance: 1.2, ..Default::default() }, 1024, 768, 256).expect("a close-up");
        assert!(mid.n < MAX_DETAIL_LEVEL && mid.n > 256);
        assert!(tile_for_view(&near, 1024, 768, 16384).is_none(), "the planet's own cells are fine enough");
        let patch = DetailPatch::on_tile(t, &[], None, None);
        assert_eq!(patch.place(face, a, b).1, 1.0, "the patch covers the picture's centre");
    }

    /// Over a cube edge the picture's other side gets a tile of its own face; straight down
    /// over a face's middle one tile covers everything.
    #[test]
    fn a_view_over_a_cube_edge_gets_a_tile_on_each_side() {
        // Yaw 45 degrees looks at the edge between the front (+Z) and right (+X) faces.
        let edge = OrbitCamera { distance: 1.05, yaw: std::f32::consts::FRAC_PI_4, pitch: 0.0, ..Default::default() };
        let tiles = tiles_for_view(&edge, 800, 600, 256);
        let faces: std::collections::BTreeSet<usize> = tiles.iter().map(|t| t.face.index()).collect();
        assert!(faces.len() >= 2, "{tiles:?}");
        assert!(tiles.len() <= MAX_PATCHES && tiles.iter().all(|t| t.n == tiles[0].n && t.size == tiles[0].size));
        let middle = OrbitCamera { distance: 1.02, yaw: 0.0, pitch: 0.0, ..Default::default() };
        assert_eq!(tiles_for_view(&middle, 800, 600, 256).len(), 1);
    }

    /// A view tilted towards the horizon gets coarser tiles further out.
    #[test]
    fn a_tilted_view_gets_coarser_tiles_further_out() {
        let mut tilted = OrbitCamera { distance: 1.01, yaw: 0.0, pitch: 0.0, ..Default::default() };
        tilted.tilt = 1.2;
        let tiles = tiles_for_view(&tilted, 800, 600, 256);
        assert!(tiles.len() >= 2, "{tiles:?}");
        assert!(tiles.iter().any(|t| t.n < tiles[0].n), "coarser tiles further out: {tiles:?}");
        assert!(tiles.iter().all(|t| t.size == tiles[0].size && t.n <= tiles[0].n));
    }
}
