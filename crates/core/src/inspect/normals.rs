//! The normal map the viewport lights the planet with per pixel: world-space normals of the
//! displaced surface at the evaluation's resolution (a texel per cell), so relief finer than
//! the mesh still shows in the light.

use super::OverlayImage;
use crate::nodes::modify::gradient::gradient;
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
}
