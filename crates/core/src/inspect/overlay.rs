//! The inspection modes' images (seed 000's visualisations), computed on the CPU as plain
//! data for the renderer: a per-face colour image for plates or regions with region borders
//! and centroids, and arrow lines for plate motion.

use crate::planet::{face_ab_to_dir, ColourField, Face, Field, RegionSurface, VectorField};
use crate::tectonics::{Plates, UNCLAIMED};
use glam::Vec3;
use rayon::prelude::*;

/// What the overlay colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverlayColours {
    /// One colour per plate, border regions lighter.
    Plates,
    /// Regions coloured by their cube face, each a little lighter or darker.
    Regions,
}

/// Six square RGBA8 layers (faces in order), `size` texels per edge. RGB is the mode's colour
/// (sRGB), A the darkening of region borders and centroids (0 none, 255 black).
#[derive(Debug, Clone, PartialEq)]
pub struct OverlayImage {
    /// Texels per face edge.
    pub size: u32,
    /// `6 * size * size * 4` bytes, face by face, row by row.
    pub rgba: Vec<u8>,
}

/// Colour of plate `p` (well separated hues from the golden ratio).
pub fn plate_colour(p: u32) -> [f32; 3] {
    let h = (p as f32 * 0.618_034).fract();
    let s = 0.55 + 0.25 * ((p as f32 * 0.377).fract());
    let v = 0.75 + 0.2 * ((p as f32 * 0.751).fract());
    hsv(h, s, v)
}

fn hsv(h: f32, s: f32, v: f32) -> [f32; 3] {
    let i = (h * 6.0).floor();
    let f = h * 6.0 - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - f * s), v * (1.0 - (1.0 - f) * s));
    match i as i32 % 6 {
        0 => [v, t, p],
        1 => [q, v, p],
        2 => [p, v, t],
        3 => [p, q, v],
        4 => [t, p, v],
        _ => [v, p, q],
    }
}

/// The cube-face colours of the regions mode, the same as the shader's face mode (sRGB).
pub const FACE_COLOURS: [[f32; 3]; 6] = [[0.85, 0.30, 0.30], [0.30, 0.75, 0.35], [0.30, 0.45, 0.90], [0.90, 0.80, 0.30], [0.85, 0.40, 0.85], [0.35, 0.85, 0.85]];

/// A size that resolves the regions: about 4 texels per region edge, 256..1024.
pub fn overlay_size(regions: &RegionSurface) -> u32 {
    (regions.resolution() as u32 * 4).clamp(256, 1024)
}

/// Builds the overlay colouring `mode` (plates need `plates`; without them regions are shown).
pub fn overlay_image(regions: &RegionSurface, plates: Option<&Plates>, mode: OverlayColours, borders: bool, size: u32) -> OverlayImage {
    let s = size.max(1) as usize;
    let dir = |face: Face, x: f32, y: f32| face_ab_to_dir(face, x / s as f32, y / s as f32, true);
    // The nearest region of every texel centre, once.
    let ids: Vec<u32> = (0..6 * s * s)
        .into_par_iter()
        .map(|t| {
            let face = Face::ALL[t / (s * s)];
            let (x, y) = ((t % s) as f32 + 0.5, ((t / s) % s) as f32 + 0.5);
            regions.nearest(dir(face, x, y)) as u32
        })
        .collect();
    let width = std::f32::consts::FRAC_PI_2 / regions.resolution() as f32;
    let rgba: Vec<u8> = (0..6 * s * s)
        .into_par_iter()
        .flat_map_iter(|t| {
            let face = Face::ALL[t / (s * s)];
            let (xi, yi) = (t % s, (t / s) % s);
            let r = ids[t] as usize;
            let colour = match (mode, plates) {
                (OverlayColours::Plates, Some(p)) => {
                    let pl = p.plate_of[r];
                    if pl == UNCLAIMED {
                        [0.35, 0.35, 0.37]
                    } else {
                        let c = plate_colour(pl);
                        if p.is_border[r] {
                            c.map(|v| v + (1.0 - v) * 0.45)
                        } else {
                            c
                        }
                    }
                }
                _ => {
                    let home = crate::planet::Cell::from_index(r, regions.resolution()).face.index();
                    let k = 0.78 + 0.22 * ((r as f32 * 0.618_034).fract());
                    FACE_COLOURS[home].map(|v| v * k)
                }
            };
            let mut dark = 0.0f32;
            if borders {
                // A border where the next texel to the right or below has another region (one
                // texel wide); beyond the face edge it is looked up by direction (across the seam).
                let (x, y) = (xi as f32 + 0.5, yi as f32 + 0.5);
                let other = |dx: i64, dy: i64| {
                    let (nx, ny) = (xi as i64 + dx, yi as i64 + dy);
                    let id = if (0..s as i64).contains(&nx) && (0..s as i64).contains(&ny) { ids[t - xi - yi * s + ny as usize * s + nx as usize] as usize } else { regions.nearest(dir(face, x + dx as f32, y + dy as f32)) };
                    id != r
                };
                if other(1, 0) || other(0, 1) {
                    dark = 0.65;
                }
                if regions.position(r).distance(dir(face, x, y)) < 0.12 * width {
                    dark = 1.0;
                }
            }
            let [cr, cg, cb] = colour.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8);
            [cr, cg, cb, (dark * 255.0) as u8]
        })
        .collect();
    OverlayImage { size, rgba }
}

/// The albedo as an overlay image at the field's resolution (a texel per cell, sRGB, no
/// darkening), so the viewport shows colour detail per pixel whatever its mesh resolution.
pub fn albedo_image(albedo: &ColourField) -> OverlayImage {
    let rgba = albedo.data.par_iter().flat_map_iter(|&c| {
        let [r, g, b] = crate::planet::colour::to_srgb8(c);
        [r, g, b, 0]
    });
    OverlayImage { size: albedo.n as u32, rgba: rgba.collect() }
}

/// Arrows of plate motion at about `count` points spread evenly over the sphere (a Fibonacci
/// lattice), lifted onto the displaced surface. Returns a line list (pairs of points, in
/// planet radii).
pub fn motion_arrows(motion: &VectorField, elevation_m: &Field, radius_km: f32, exaggeration: f32, ocean_surface: bool, count: usize) -> Vec<[f32; 3]> {
    let scale = exaggeration / (radius_km.max(1.0) * 1000.0);
    let n = motion.n;
    let golden = std::f32::consts::PI * (3.0 - 5.0f32.sqrt());
    // Longest arrow: a third of the spacing between points.
    let spacing = (4.0 * std::f32::consts::PI / count.max(1) as f32).sqrt();
    let max_speed = motion.data.iter().map(|v| Vec3::from(*v).length()).fold(0.0f32, f32::max).max(1e-6);
    let mut lines = Vec::with_capacity(count * 6);
    for k in 0..count {
        let z = 1.0 - 2.0 * (k as f32 + 0.5) / count as f32;
        let r = (1.0 - z * z).max(0.0).sqrt();
        let p = Vec3::new(r * (golden * k as f32).cos(), z, r * (golden * k as f32).sin());
        let cell = crate::planet::dir_to_cell(p, n);
        let v = Vec3::from(motion.data[cell.index(n)]);
        if v.length() < 1e-6 {
            continue;
        }
        let len = 0.9 * spacing * v.length() / max_speed;
        let t = v.normalize();
        let side = p.cross(t);
        let lift = |d: Vec3| {
            let d = d.normalize();
            let e = elevation_m.sample_dir(d);
            let shown = if ocean_surface { e.max(0.0) } else { e };
            d * (1.0 + shown * scale + 0.004)
        };
        let tail = p - t * len * 0.5;
        let head = p + t * len * 0.5;
        let wing = len * 0.3;
        let segs = [(tail, head), (head, head - t * wing + side * wing * 0.6), (head, head - t * wing - side * wing * 0.6)];
        for (a, b) in segs {
            for q in [a, b] {
                let pos = lift(q);
                lines.push(pos.to_array());
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tectonics::PlateSettings;
    use std::sync::Arc;

    #[test]
    fn plate_overlay_colours_every_plate_and_marks_borders() {
        let regions = Arc::new(RegionSurface::new(6, 1.0, 2));
        let plates = Plates::grow(regions.clone(), &PlateSettings { count: 5, expansion_range: 0.5, random_driven: true, max_cycles: None, seed: 1 }).expect("plates");
        let img = overlay_image(&regions, Some(&plates), OverlayColours::Plates, true, 32);
        assert_eq!(img.rgba.len(), 6 * 32 * 32 * 4);
        let mut colours = std::collections::HashSet::new();
        let mut dark = 0;
        for px in img.rgba.chunks(4) {
            colours.insert([px[0], px[1], px[2]]);
            if px[3] > 0 {
                dark += 1;
            }
        }
        // 5 plates, each in a plain and a lighter border shade.
        assert_eq!(colours.len(), 10, "{colours:?}");
        let share = dark as f32 / (6.0 * 32.0 * 32.0);
        assert!(share > 0.05 && share < 0.6, "border share {share}");
    }

    #[test]
    fn arrows_follow_the_motion() {
        let n = 16;
        let motion = VectorField {
            n,
            tile: None,
            data: (0..6 * n * n)
                .map(|c| {
                    let d = crate::planet::Cell::from_index(c, n).direction(n);
                    Vec3::Y.cross(d).to_array()
                })
                .collect(),
        };
        let lines = motion_arrows(&motion, &Field::filled(n, 0.0), 6371.0, 1.0, true, 200);
        assert!(lines.len() >= 6 * 150);
        for seg in lines.chunks(6) {
            let (a, b) = (Vec3::from(seg[0]), Vec3::from(seg[1]));
            let mid = (a + b).normalize();
            assert!((b - a).normalize().dot(Vec3::Y.cross(mid).normalize_or_zero()) > 0.9 || Vec3::Y.cross(mid).length() < 0.2);
        }
    }
}
