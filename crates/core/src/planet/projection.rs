//! Projections of a [`Field`] to flat images: equirectangular and per-face.
//!
//! Equirectangular (DESIGN contract): longitude = atan2(x, z), 0 at +Z, increasing towards +X;
//! latitude = asin(y); column = (lon / 2 pi + 0.5) * width, row = (0.5 - lat / pi) * height,
//! north up. Pixel centres are sampled.

use super::field::Field;
use glam::Vec3;
use rayon::prelude::*;
use std::f32::consts::PI;

/// Unit direction for longitude and latitude in radians.
pub fn lon_lat_to_dir(lon: f32, lat: f32) -> Vec3 {
    Vec3::new(lat.cos() * lon.sin(), lat.sin(), lat.cos() * lon.cos())
}

/// Longitude and latitude in radians of a direction.
pub fn dir_to_lon_lat(d: Vec3) -> (f32, f32) {
    let d = d.normalize();
    (d.x.atan2(d.z), d.y.clamp(-1.0, 1.0).asin())
}

/// Direction at the centre of equirectangular pixel `(col, row)` of a `width` x `height` image.
pub fn equirect_pixel_dir(col: usize, row: usize, width: usize, height: usize) -> Vec3 {
    let lon = ((col as f32 + 0.5) / width as f32 - 0.5) * 2.0 * PI;
    let lat = (0.5 - (row as f32 + 0.5) / height as f32) * PI;
    lon_lat_to_dir(lon, lat)
}

/// Samples the field into a row-major `width` x `height` equirectangular image.
pub fn equirectangular(field: &Field, width: usize, height: usize) -> Vec<f32> {
    let mut out = vec![0.0; width * height];
    out.par_chunks_mut(width.max(1)).enumerate().for_each(|(row, line)| {
        for (col, v) in line.iter_mut().enumerate() {
            *v = field.sample_dir(equirect_pixel_dir(col, row, width, height));
        }
    });
    out
}

/// The `n` x `n` values of one face, row-major, in the face orientation of the DESIGN contract.
pub fn face_image(field: &Field, face: usize) -> Vec<f32> {
    let n = field.n();
    field.data()[face * n * n..(face + 1) * n * n].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lon_lat_convention() {
        let (lon, lat) = dir_to_lon_lat(Vec3::Z);
        assert!(lon.abs() < 1e-6 && lat.abs() < 1e-6);
        let (lon, _) = dir_to_lon_lat(Vec3::X);
        assert!((lon - PI / 2.0).abs() < 1e-6);
        let (_, lat) = dir_to_lon_lat(Vec3::Y);
        assert!((lat - PI / 2.0).abs() < 1e-6);
        // Centre column of the image looks at +Z; top row is north.
        let d = equirect_pixel_dir(50, 0, 101, 50);
        assert!(d.y > 0.99);
        let d = equirect_pixel_dir(50, 25, 101, 51);
        assert!((d - Vec3::Z).length() < 1e-3);
    }

    #[test]
    fn equirect_of_y_is_latitude() {
        let f = Field::from_fn_dir(32, |d| d.y);
        let img = equirectangular(&f, 64, 32);
        assert!(img[0] > 0.95 && img[64 * 31] < -0.95);
        assert!(img[64 * 16].abs() < 0.1);
    }
}
