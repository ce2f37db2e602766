//! Sampling rasters at directions of the unit sphere: an equirectangular globe (columns wrap at
//! the date line, rows reach over the poles), a geographic patch (clamped at its edges, with a
//! feathered coverage), or six cube faces (taps beyond a face's edge are read on the
//! neighbouring face, so the seams do not show). Nearest, bilinear or Catmull-Rom cubic
//! filtering; a pixel without data (GeoTIFF's no-data value, NaN) is left out of the filter.

use super::{Bounds, Raster};
use crate::planet::coords::{dir_to_face_ab, face_ab_to_dir};
use crate::planet::Face;
use glam::Vec3;
use std::sync::Arc;

/// How pixels are filtered between their centres.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// The nearest pixel (class maps, masks with hard edges).
    Nearest,
    /// Bilinear, from the 2 x 2 nearest pixels.
    Linear,
    /// Catmull-Rom cubic, from the 4 x 4 nearest (sharp, smooth, no blur of the source).
    Cubic,
}

/// The order and projection of six face files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CubeOrder {
    /// PlanetGraph's exports: front (+Z), right (+X), back (-Z), left (-X), top (+Y), bottom
    /// (-Y), with the tangent warp of the cube-sphere's cells.
    PlanetGraph,
    /// OpenGL cube maps: +X, -X, +Y, -Y, +Z, -Z, gnomonic (no warp). The faces' orientations
    /// are the same as PlanetGraph's.
    OpenGl,
}

impl CubeOrder {
    /// The face in file `k` of this order.
    pub fn face(self, k: usize) -> Face {
        match self {
            CubeOrder::PlanetGraph => Face::ALL[k % 6],
            CubeOrder::OpenGl => [Face::Right, Face::Left, Face::Top, Face::Bottom, Face::Front, Face::Back][k % 6],
        }
    }

    /// The file index of `face` in this order.
    pub fn index(self, face: Face) -> usize {
        match self {
            CubeOrder::PlanetGraph => face.index(),
            CubeOrder::OpenGl => match face {
                Face::Right => 0,
                Face::Left => 1,
                Face::Top => 2,
                Face::Bottom => 3,
                Face::Front => 4,
                Face::Back => 5,
            },
        }
    }

    /// The name `{face}` stands for in file `k`'s path: front, right, ... or px, nx, ....
    pub fn name(self, k: usize) -> &'static str {
        match self {
            CubeOrder::PlanetGraph => self.face(k).name(),
            CubeOrder::OpenGl => ["px", "nx", "py", "ny", "pz", "nz"][k % 6],
        }
    }

    fn warped(self) -> bool {
        self == CubeOrder::PlanetGraph
    }

    /// File index and face coordinates (0..1 from the top-left corner) of a direction.
    fn locate(self, d: Vec3) -> (usize, f32, f32) {
        if self.warped() {
            let (face, a, b) = dir_to_face_ab(d);
            (self.index(face), a, b)
        } else {
            let face = Face::from_normal(d);
            let p = d / d.dot(face.normal()).max(1e-12);
            (self.index(face), (p.dot(face.right()) + 1.0) * 0.5, (p.dot(face.down()) + 1.0) * 0.5)
        }
    }

    /// The direction of face coordinates `(a, b)` of file `k` (beyond 0..1 on its plane).
    fn direction(self, k: usize, a: f32, b: f32) -> Vec3 {
        let face = self.face(k);
        if self.warped() {
            face_ab_to_dir(face, a.clamp(-0.4, 1.4), b.clamp(-0.4, 1.4), true)
        } else {
            (face.normal() + (2.0 * a - 1.0) * face.right() + (2.0 * b - 1.0) * face.down()).normalize()
        }
    }
}

/// Where the rasters lie on the sphere.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Layout {
    /// One raster over a geographic rectangle (the whole globe for an equirectangular map).
    Map(Bounds),
    /// Six rasters, one per face, in this order.
    Cube(CubeOrder),
}

/// A sample: the channels' values (grey in the first; colour in all three) and the share of
/// the filter's footprint that has data (0 outside a patch or over no-data pixels).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Values per channel (a grey raster repeats its value).
    pub value: [f32; 3],
    /// Share of the footprint with data, 0..1.
    pub coverage: f32,
    /// Whether any pixel near the point has data (else `value` is zeros).
    pub found: bool,
}

/// Rasters placed on the sphere, ready to sample.
pub struct Sampler {
    layout: Layout,
    rasters: Vec<Arc<Raster>>,
    filter: Filter,
}

/// Catmull-Rom weights of the four taps around a position `t` (0..1) past the second.
fn cubic_weights(t: f32) -> [f32; 4] {
    let (t2, t3) = (t * t, t * t * t);
    [0.5 * (-t3 + 2.0 * t2 - t), 0.5 * (3.0 * t3 - 5.0 * t2 + 2.0), 0.5 * (-3.0 * t3 + 4.0 * t2 + t), 0.5 * (t3 - t2)]
}

impl Sampler {
    /// A sampler of `rasters` (one for a map, six for a cube) placed by `layout`.
    ///
    /// # Errors
    /// A message when the count does not fit the layout or the faces differ in size.
    pub fn new(layout: Layout, rasters: Vec<Arc<Raster>>, filter: Filter) -> Result<Sampler, String> {
        match layout {
            Layout::Map(_) if rasters.len() != 1 => return Err(format!("internal error: a map takes one raster, not {}", rasters.len())),
            Layout::Cube(_) if rasters.len() != 6 => return Err(format!("internal error: a cube takes six rasters, not {}", rasters.len())),
            Layout::Cube(_) if rasters.iter().any(|r| (r.width, r.height) != (rasters[0].width, rasters[0].height)) => {
                let sizes: Vec<String> = rasters.iter().map(|r| format!("{} x {}", r.width, r.height)).collect();
                return Err(format!("the six face files differ in size ({})", sizes.join(", ")));
            }
            _ => {}
        }
        Ok(Sampler { layout, rasters, filter })
    }

    /// The raster, its pixel position (pixel centres at whole numbers) of direction `d`, and
    /// whether `d` lies inside the map's rectangle (always for a cube).
    fn locate(&self, d: Vec3) -> (usize, f32, f32, bool) {
        match self.layout {
            Layout::Map(b) => {
                let r = &self.rasters[0];
                let (lon, lat) = (d.x.atan2(d.z).to_degrees() as f64, d.y.clamp(-1.0, 1.0).asin().to_degrees() as f64);
                let lon = b.west + (lon - b.west).rem_euclid(360.0);
                let x = (lon - b.west) / (b.east - b.west) * r.width as f64 - 0.5;
                let y = (b.north - lat) / (b.north - b.south) * r.height as f64 - 0.5;
                let inside = (b.wraps() || lon <= b.east) && (b.south..=b.north).contains(&lat);
                (0, x as f32, y as f32, inside)
            }
            Layout::Cube(order) => {
                let (k, a, b) = order.locate(d);
                let r = &self.rasters[k];
                (k, a * r.width as f32 - 0.5, b * r.height as f32 - 0.5, true)
            }
        }
    }

    /// Pixel `(x, y)` of raster `k`, which may lie beyond its edges: wrapped round a globe and
    /// over its poles, read on the neighbouring face of a cube (bilinearly there, where the
    /// pixel's centre falls between that face's pixels), clamped at a patch's edges. `None`
    /// where the pixel has no data.
    fn tap(&self, k: usize, x: i64, y: i64) -> Option<[f32; 3]> {
        let (mut x, mut y) = (x, y);
        let r = &self.rasters[k];
        let (w, h) = (r.width as i64, r.height as i64);
        match self.layout {
            Layout::Map(b) => {
                if b.wraps() {
                    // Over a pole: the row mirrored, half way round.
                    if (y < 0 && b.north >= 90.0) || (y >= h && b.south <= -90.0) {
                        y = if y < 0 { -1 - y } else { 2 * h - 1 - y };
                        x += w / 2;
                    }
                    x = x.rem_euclid(w);
                }
            }
            Layout::Cube(order) => {
                if !(0..w).contains(&x) || !(0..h).contains(&y) {
                    let d = order.direction(k, (x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32);
                    let (k2, a, b) = order.locate(d);
                    let r2 = &self.rasters[k2];
                    return self.bilinear(k2, a * r2.width as f32 - 0.5, b * r2.height as f32 - 0.5);
                }
            }
        }
        self.pixel(k, x, y)
    }

    /// Pixel `(x, y)` of raster `k`, clamped to its edges; `None` without data.
    fn pixel(&self, k: usize, x: i64, y: i64) -> Option<[f32; 3]> {
        let r = &self.rasters[k];
        let (x, y) = (x.clamp(0, r.width as i64 - 1) as usize, y.clamp(0, r.height as i64 - 1) as usize);
        if !r.has_data(x, y) {
            return None;
        }
        let c = r.channels;
        Some([r.at(x, y, 0), r.at(x, y, 1.min(c - 1)), r.at(x, y, 2.min(c - 1))])
    }

    /// Bilinear over raster `k`'s own pixels (clamped to its edges) at `(x, y)`, from the
    /// pixels with data; `None` when none has.
    fn bilinear(&self, k: usize, x: f32, y: f32) -> Option<[f32; 3]> {
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let mut sum = [0.0f32; 3];
        let mut weight = 0.0;
        for (dy, wy) in [(0, 1.0 - fy), (1, fy)] {
            for (dx, wx) in [(0, 1.0 - fx), (1, fx)] {
                if let Some(v) = self.pixel(k, x0 as i64 + dx, y0 as i64 + dy) {
                    for c in 0..3 {
                        sum[c] += wx * wy * v[c];
                    }
                    weight += wx * wy;
                }
            }
        }
        (weight > 1e-6).then(|| sum.map(|s| s / weight))
    }

    /// The filtered sample at direction `d` (need not be normalised; not zero).
    pub fn at(&self, d: Vec3) -> Sample {
        let (k, x, y, inside) = self.locate(d);
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let (x0, y0) = (x0 as i64, y0 as i64);
        // Bilinear over the taps with data: the fallback, and the coverage.
        let mut sum = [0.0f32; 3];
        let mut weight = 0.0;
        for (dy, wy) in [(0, 1.0 - fy), (1, fy)] {
            for (dx, wx) in [(0, 1.0 - fx), (1, fx)] {
                if let Some(v) = self.tap(k, x0 + dx, y0 + dy) {
                    let w = wx * wy;
                    for c in 0..3 {
                        sum[c] += w * v[c];
                    }
                    weight += w;
                }
            }
        }
        // Rounding aside, four taps with data cover the point fully.
        let coverage = if !inside {
            0.0
        } else if weight >= 1.0 - 1e-4 {
            1.0
        } else {
            weight.max(0.0)
        };
        let linear = if weight > 1e-6 { sum.map(|s| s / weight) } else { [0.0; 3] };
        let value = match self.filter {
            Filter::Nearest => self.tap(k, x.round() as i64, y.round() as i64).unwrap_or(linear),
            Filter::Linear => linear,
            Filter::Cubic => self.cubic(k, x0, y0, fx, fy).unwrap_or(linear),
        };
        Sample { value, coverage, found: weight > 1e-6 }
    }

    /// Catmull-Rom over the 4 x 4 taps around `(x0 + fx, y0 + fy)`; `None` when one of them
    /// has no data.
    fn cubic(&self, k: usize, x0: i64, y0: i64, fx: f32, fy: f32) -> Option<[f32; 3]> {
        let (wx, wy) = (cubic_weights(fx), cubic_weights(fy));
        let mut out = [0.0f32; 3];
        for (j, wyj) in wy.iter().enumerate() {
            for (i, wxi) in wx.iter().enumerate() {
                let v = self.tap(k, x0 + i as i64 - 1, y0 + j as i64 - 1)?;
                let w = wxi * wyj;
                for c in 0..3 {
                    out[c] += w * v[c];
                }
            }
        }
        Some(out)
    }

    /// How far `d` lies inside a patch's edges, in degrees of arc (infinite for a globe or a
    /// cube, and across a patch's sides that wrap round or touch a pole).
    pub fn inside_deg(&self, d: Vec3) -> f32 {
        let Layout::Map(b) = self.layout else { return f32::INFINITY };
        let (lon, lat) = (d.x.atan2(d.z).to_degrees() as f64, d.y.clamp(-1.0, 1.0).asin().to_degrees() as f64);
        let lon = b.west + (lon - b.west).rem_euclid(360.0);
        let across = if b.wraps() { f64::INFINITY } else { (lon - b.west).min(b.east - lon) * lat.to_radians().cos() };
        let south = if b.south <= -90.0 && b.wraps() { f64::INFINITY } else { lat - b.south };
        let north = if b.north >= 90.0 && b.wraps() { f64::INFINITY } else { b.north - lat };
        across.min(south).min(north) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raster(w: usize, h: usize, f: impl Fn(usize, usize) -> f32) -> Arc<Raster> {
        let data = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).map(|(x, y)| f(x, y)).collect();
        Arc::new(Raster { width: w, height: h, channels: 1, data, full_scale: 1.0, bounds: None, nodata: None })
    }

    fn lon_lat(lon: f32, lat: f32) -> Vec3 {
        crate::planet::projection::lon_lat_to_dir(lon.to_radians(), lat.to_radians())
    }

    #[test]
    fn a_smooth_globe_comes_back_and_the_date_line_and_poles_join() {
        let (w, h) = (360, 180);
        // A smooth function of the direction (smooth over the poles too).
        let f = |lon: f32, lat: f32| {
            let d = lon_lat(lon, lat);
            d.y + 0.5 * d.x + 0.3 * d.x * d.z
        };
        let r = raster(w, h, |x, y| f((x as f32 + 0.5) - 180.0, 90.0 - (y as f32 + 0.5)));
        for filter in [Filter::Linear, Filter::Cubic] {
            let s = Sampler::new(Layout::Map(Bounds::GLOBE), vec![r.clone()], filter).expect("sampler");
            let mut worst: f32 = 0.0;
            for k in 0..2000 {
                let (lon, lat) = ((k as f32 * 137.5) % 360.0 - 180.0, (k as f32 * 0.089) - 89.0);
                worst = worst.max((s.at(lon_lat(lon, lat)).value[0] - f(lon, lat)).abs());
            }
            // Across the date line and at the pole rows, as everywhere.
            for (lon, lat) in [(179.9, 10.0), (-179.9, 10.0), (0.0, 89.9), (90.0, -89.9)] {
                worst = worst.max((s.at(lon_lat(lon, lat)).value[0] - f(lon, lat)).abs());
            }
            assert!(worst < 2e-3, "{filter:?}: {worst}");
        }
    }

    #[test]
    fn a_patch_lands_within_its_bounds_and_feathers() {
        let b = Bounds { west: 170.0, east: 190.0, south: -10.0, north: 10.0 };
        // A marked pixel at longitude -175 (185 east), latitude 5.
        let r = raster(20, 20, |x, y| if (x, y) == (15, 4) { 1.0 } else { 0.0 });
        let s = Sampler::new(Layout::Map(b), vec![r], Filter::Nearest).expect("sampler");
        assert_eq!(s.at(lon_lat(-174.5, 5.5)).value[0], 1.0);
        assert_eq!(s.at(lon_lat(-173.5, 5.5)).value[0], 0.0);
        assert_eq!(s.at(lon_lat(0.0, 0.0)).coverage, 0.0);
        assert_eq!(s.at(lon_lat(180.0, 0.0)).coverage, 1.0);
        assert!((s.inside_deg(lon_lat(180.0, 9.0)) - 1.0).abs() < 1e-3);
    }

    #[test]
    fn face_orders_are_inverse() {
        for order in [CubeOrder::PlanetGraph, CubeOrder::OpenGl] {
            for k in 0..6 {
                assert_eq!(order.index(order.face(k)), k, "{order:?}");
            }
        }
    }

    #[test]
    fn cube_faces_meet_without_a_seam() {
        for order in [CubeOrder::PlanetGraph, CubeOrder::OpenGl] {
            let n = 64;
            // Each face holds a smooth function of the direction of its pixel centres.
            let f = |d: Vec3| d.x + 0.5 * d.y * d.z;
            let faces: Vec<_> = (0..6).map(|k| raster(n, n, |x, y| f(order.direction(k, (x as f32 + 0.5) / n as f32, (y as f32 + 0.5) / n as f32)))).collect();
            let s = Sampler::new(Layout::Cube(order), faces, Filter::Cubic).expect("sampler");
            let mut worst: f32 = 0.0;
            for k in 0..5000 {
                let t = k as f32 * 0.7;
                let d = Vec3::new(t.sin() * (t * 0.37).cos(), (t * 1.3).cos(), (t * 0.37).sin() + 0.2 * t.cos()).normalize();
                worst = worst.max((s.at(d).value[0] - f(d)).abs());
            }
            assert!(worst < 2e-3, "{order:?}: {worst}");
        }
    }

    #[test]
    fn no_data_is_left_out_and_lowers_the_coverage() {
        let mut r = raster(8, 4, |x, _| x as f32);
        Arc::make_mut(&mut r).nodata = Some(3.0);
        let s = Sampler::new(Layout::Map(Bounds::GLOBE), vec![r], Filter::Cubic).expect("sampler");
        // Between the centres of columns 2 and 3 (3 has no data): column 2's value, half covered.
        let lon = (3.0 / 8.0 - 0.5) * 360.0;
        let got = s.at(lon_lat(lon, 0.0));
        assert!((got.value[0] - 2.0).abs() < 1e-4 && (got.coverage - 0.5).abs() < 1e-3, "{got:?}");
    }
}
