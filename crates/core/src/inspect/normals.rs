//! The normal map the viewport lights the planet with per pixel: world-space normals of the
//! displaced surface at the evaluation's resolution (a texel per cell), so relief finer than
//! the mesh still shows in the light.

use super::OverlayImage;
use crate::planet::gradient::gradient;
use crate::planet::{Cell, Field};
use glam::Vec3;
use rayon::prelude::*;

/// Normals of `elevation_m` (metres) on a planet of `radius_km` with the relief exaggerated
/// `exaggeration` times, as `0.5 + 0.5 n` in RGB (alpha 255). With `flat_sea` the sea is a flat
/// surface (the normal points straight up where the ground lies below sea level).
pub fn normal_image(elevation_m: &Field, radius_km: f32, exaggeration: f32, flat_sea: bool) -> OverlayImage {
    let n = elevation_m.n();
    // Metres per radian -> metres per metre on the sphere, times the exaggeration.
    let g = gradient(elevation_m);
    let scale = exaggeration / (radius_km.max(1.0) * 1000.0);
    let rgba: Vec<u8> = (0..6 * n * n)
        .into_par_iter()
        .flat_map_iter(|c| {
            let up = Cell::from_index(c, n).direction(n);
            let normal = if flat_sea && elevation_m.data()[c] < 0.0 { up } else { (up - Vec3::from(g.data[c]) * scale).normalize_or(up) };
            let [x, y, z] = normal.to_array().map(|v| ((v * 0.5 + 0.5).clamp(0.0, 1.0) * 255.0).round() as u8);
            [x, y, z, 255]
        })
        .collect();
    OverlayImage { size: n as u32, rgba }
}

/// Normals of a tile of elevation (metres, a field on a [`crate::planet::Grid::Tile`]) as
/// `0.5 + 0.5 n` RGBA8 per texel, row-major over the tile's own cells (its halo left out):
/// what a close-up's detail patch is lit by. Differences are central, across the halo on the
/// tile's border, so neighbouring tiles evaluated with a halo of one cell or more meet
/// without a line of differing light; without a halo they are one-sided on the border. The
/// other arguments are those of [`normal_image`]. `None` for a field on the whole planet.
pub fn tile_normals(elevation_m: &Field, radius_km: f32, exaggeration: f32, flat_sea: bool) -> Option<Vec<u8>> {
    let crate::planet::Grid::Tile(tile) = elevation_m.grid() else { return None };
    let (s, h, w, n) = (tile.size, tile.halo, tile.width(), tile.n);
    let scale = exaggeration / (radius_km.max(1.0) * 1000.0);
    let e = elevation_m.data();
    // Each stored cell's direction and displaced point, once (storage positions: the tile's
    // own cell (x, y) lies at (x + h, y + h)).
    let (ups, points): (Vec<Vec3>, Vec<Vec3>) = (0..w * w)
        .into_par_iter()
        .map(|k| {
            let up = tile.cell(k).direction(n);
            (up, up * (1.0 + e[k] * scale))
        })
        .unzip();
    let point = |i: usize, j: usize| points[j * w + i];
    let rgba = (0..s * s)
        .into_par_iter()
        .flat_map_iter(|k| {
            let (i, j) = (k % s + h, k / s + h);
            let up = ups[j * w + i];
            let normal = if (flat_sea && e[j * w + i] < 0.0) || w < 2 {
                up
            } else {
                let du = point((i + 1).min(w - 1), j) - point(i.saturating_sub(1), j);
                let dv = point(i, (j + 1).min(w - 1)) - point(i, j.saturating_sub(1));
                let c = du.cross(dv).normalize_or(up);
                if c.dot(up) < 0.0 {
                    -c
                } else {
                    c
                }
            };
            let [x, y, z] = normal.to_array().map(|v| ((v * 0.5 + 0.5).clamp(0.0, 1.0) * 255.0).round() as u8);
            [x, y, z, 255]
        })
        .collect();
    Some(rgba)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_ground_points_up_and_a_slope_tilts_away_from_the_rise() {
        let n = 16;
        let flat = normal_image(&Field::filled(n, 100.0), 6371.0, 1.0, true);
        let c = Cell { face: crate::planet::Face::Front, i: 8, j: 8 };
        let texel = |img: &OverlayImage, c: Cell| {
            let o = c.index(n) * 4;
            Vec3::new(img.rgba[o] as f32, img.rgba[o + 1] as f32, img.rgba[o + 2] as f32) / 127.5 - Vec3::ONE
        };
        assert!(texel(&flat, c).dot(c.direction(n)) > 0.99);
        // Rising towards +X: the normal leans towards -X.
        let ramp = Field::from_fn_dir(n, |d| d.x * 3.0e6);
        let tilted = texel(&normal_image(&ramp, 6371.0, 1.0, false), c);
        assert!(tilted.x < -0.2, "{tilted}");
        // Below sea level with a flat sea: straight up again.
        let deep = Field::from_fn_dir(n, |d| d.x * 3.0e6 - 1.0e7);
        assert!(texel(&normal_image(&deep, 6371.0, 1.0, true), c).dot(c.direction(n)) > 0.99);
    }

    /// A tile's normals agree with the whole planet's on the same relief.
    #[test]
    fn a_tile_s_normals_follow_the_whole_planet_s() {
        let n = 64;
        let relief = |d: Vec3| (4.0 * d.x).sin() * 2.0e5 + d.y * 1.0e5;
        let whole = normal_image(&Field::from_fn_dir(n, relief), 6371.0, 1.0, false);
        let tile = crate::planet::Tile::new(crate::planet::Face::Front, n, 16, 20, 24).expect("tile");
        let on_tile = Field::from_fn_on(crate::planet::Grid::Tile(tile), |_, d| relief(d));
        let ours = tile_normals(&on_tile, 6371.0, 1.0, false).expect("a tile");
        let at = |bytes: &[u8], k: usize| Vec3::new(bytes[4 * k] as f32, bytes[4 * k + 1] as f32, bytes[4 * k + 2] as f32) / 127.5 - Vec3::ONE;
        for k in 0..tile.cells() {
            let (i, j) = (k % 24, k / 24);
            if i == 0 || j == 0 || i == 23 || j == 23 {
                continue;
            }
            let w = at(&whole.rgba, tile.cell(k).index(n));
            assert!(at(&ours, k).normalize().dot(w.normalize()) > 0.995, "texel {k}");
        }
        assert!(tile_normals(&Field::filled(4, 0.0), 6371.0, 1.0, false).is_none());
    }

    /// With a halo, a tile's normals on its border are those a larger tile holding it has at
    /// the same cells (central differences across the border), so two neighbouring tiles'
    /// light meets without a line; without one they differ on the border (one-sided).
    #[test]
    fn with_a_halo_a_tile_s_border_normals_are_those_of_a_larger_tile() {
        use crate::planet::{Face, Grid, Tile};
        let n = 64;
        // Relief with detail at two cells' wavelength, where one-sided differences go wrong.
        let relief = |d: Vec3| (200.0 * d.x).sin() * (170.0 * d.y).cos() * 3.0e4;
        let on = |t: Tile| Field::from_fn_on(Grid::Tile(t), |_, d| relief(d));
        let big = Tile::new(Face::Left, n, 10, 10, 20).expect("tile");
        let small = Tile::new(Face::Left, n, 14, 14, 8).expect("tile");
        let normals = |t: Tile| tile_normals(&on(t), 6371.0, 20.0, false).expect("a tile");
        let (reference, haloed, plain) = (normals(big), normals(small.with_halo(1)), normals(small));
        assert_eq!(haloed.len(), 4 * small.cells(), "the tile's own cells only");
        fn texel(bytes: &[u8], k: usize) -> &[u8] {
            &bytes[4 * k..4 * k + 4]
        }
        let mut border_differs = 0;
        for k in 0..small.cells() {
            let (i, j) = (k % 8 + 4, k / 8 + 4);
            let r = texel(&reference, j * 20 + i);
            assert_eq!(texel(&haloed, k), r, "cell {k}");
            border_differs += usize::from(texel(&plain, k) != r);
        }
        assert!(border_differs > 10, "{border_differs} border texels differ without a halo");
        // Over a face edge and a cube corner the halo continues on the next face: on gentle
        // relief (30 m), unit normals close to each cell's up (a halo cell from the wrong
        // place would tilt them).
        let corner = Tile::new(Face::Left, n, 0, 0, 8).expect("tile");
        let gentle = Field::from_fn_on(Grid::Tile(corner.with_halo(1)), |_, d| relief(d) / 1000.0);
        let edge = tile_normals(&gentle, 6371.0, 20.0, false).expect("a tile");
        for k in 0..corner.cells() {
            let v = Vec3::new(f32::from(edge[4 * k]), f32::from(edge[4 * k + 1]), f32::from(edge[4 * k + 2])) / 127.5 - Vec3::ONE;
            assert!((v.length() - 1.0).abs() < 0.02 && v.normalize().dot(corner.cell(k).direction(n)) > 0.99, "cell {k}: {v}");
        }
    }
}
