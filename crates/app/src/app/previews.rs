//! Thumbnails of Preview nodes: an equirectangular map or a small globe, coloured with the
//! hypsometric ramp (0 is sea level) or in grey; and of Colour preview nodes, in sRGB.

use glam::Vec3;
use planetgraph_core::appearance::{grey, hypsometric};
use planetgraph_core::planet::colour::to_srgb8;
use planetgraph_core::planet::projection::equirect_pixel_dir;
use planetgraph_core::planet::projection::equirectangular;
use planetgraph_core::planet::{ColourField, Field};

/// Thumbnail width of the map view in pixels (height is half).
pub const MAP_WIDTH: usize = 160;
/// Thumbnail size of the globe view in pixels.
pub const GLOBE_SIZE: usize = 110;

fn colour(v: f32, lo: f32, hi: f32, hypso: bool) -> [u8; 3] {
    if hypso {
        // Fields are unitless: stretch so the largest magnitude spans the ramp.
        let s = lo.abs().max(hi.abs()).max(1e-6);
        let t = v / s;
        hypsometric(if t < 0.0 { t * 7000.0 } else { t * 6000.0 }, 7000.0, 6000.0)
    } else {
        grey(v, lo, hi)
    }
}

/// The values a grey picture of `values` runs from black to white: its 1st and 99th
/// percentiles, so a few extreme cells (a peak of orographic rain, a deep trench) do not leave
/// the rest of the picture black; the whole range where those are equal.
fn grey_range(values: &[f32], whole: (f32, f32)) -> (f32, f32) {
    let mut v: Vec<f32> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return whole;
    }
    v.sort_by(f32::total_cmp);
    let at = |q: f32| v[((v.len() - 1) as f32 * q).round() as usize];
    let (lo, hi) = (at(0.01), at(0.99));
    if lo < hi {
        (lo, hi)
    } else {
        whole
    }
}

/// RGB pixels `(width, height, rgb)` of a preview: grey from black to white over the middle
/// 98 % of the values ([`grey_range`]), or the hypsometric ramp with 0 at sea level.
pub fn preview_pixels(field: &Field, globe: bool, hypso: bool) -> (usize, usize, Vec<u8>) {
    let (w, h) = (MAP_WIDTH, MAP_WIDTH / 2);
    let img = equirectangular(field, w, h);
    let (lo, hi) = if hypso { field.min_max() } else { grey_range(&img, field.min_max()) };
    if globe {
        globe_pixels(|d| colour(field.sample_dir(d), lo, hi, hypso))
    } else {
        (w, h, img.iter().flat_map(|&v| colour(v, lo, hi, hypso)).collect())
    }
}

/// RGB pixels `(width, height, rgb)` of a colour preview (linear colours shown as sRGB).
pub fn colour_preview_pixels(colours: &ColourField, globe: bool) -> (usize, usize, Vec<u8>) {
    let at = |d: Vec3| to_srgb8(colours.at_dir(d));
    if globe {
        globe_pixels(at)
    } else {
        let (w, h) = (MAP_WIDTH, MAP_WIDTH / 2);
        let rgb = (0..w * h).flat_map(|p| at(equirect_pixel_dir(p % w, p / w, w, h))).collect();
        (w, h, rgb)
    }
}

/// A small lit globe seen from the front (+Z), `colour` giving each visible direction's colour.
fn globe_pixels(colour: impl Fn(Vec3) -> [u8; 3]) -> (usize, usize, Vec<u8>) {
    let s = GLOBE_SIZE;
    let light = Vec3::new(-0.4, 0.5, 0.77).normalize();
    let mut rgb = vec![12u8; s * s * 3];
    for r in 0..s {
        for c in 0..s {
            let x = (c as f32 + 0.5) / s as f32 * 2.0 - 1.0;
            let y = 1.0 - (r as f32 + 0.5) / s as f32 * 2.0;
            let d2 = x * x + y * y;
            if d2 >= 1.0 {
                continue;
            }
            let d = Vec3::new(x, y, (1.0 - d2).sqrt());
            let k = 0.25 + 0.75 * d.dot(light).max(0.0);
            let px = colour(d);
            let o = (r * s + c) * 3;
            for ch in 0..3 {
                rgb[o + ch] = (px[ch] as f32 * k) as u8;
            }
        }
    }
    (s, s, rgb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_extreme_values_do_not_darken_the_grey_picture() {
        let mut v: Vec<f32> = (0..1000).map(|i| i as f32 / 1000.0).collect();
        v[0] = -500.0;
        v[999] = 1e6;
        let (lo, hi) = grey_range(&v, (-500.0, 1e6));
        assert!(lo >= 0.0 && hi <= 1.0 && hi - lo > 0.9, "{lo} {hi}");
        assert_eq!(grey_range(&[2.0; 10], (2.0, 2.0)), (2.0, 2.0));
    }
}
