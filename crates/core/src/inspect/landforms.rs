//! Landforms and local relief over land, to set a planet beside Earth at the same cell size
//! (issue 48, `ALGORITHMS.md` section 13):
//!
//! - **Geomorphons** (Jasiewicz and Stepinski 2013): from each land cell, eight lines of sight
//!   along the compass directions of the cell's tangent plane out to a lookup distance; along
//!   each, the steepest angle up to the ground (the horizon) and the steepest angle down. A
//!   direction is *higher* when the angle up exceeds the flatness threshold and the angle down,
//!   *lower* when the angle down exceeds the threshold and the angle up, else level. The counts
//!   of higher and lower directions name one of ten landforms through the authors' table (flat,
//!   peak, ridge, shoulder, spur, slope, hollow, footslope, valley, pit).
//! - **Local relief**: the highest minus the lowest ground within a radius of each land cell.
//!
//! Both look along great circles (bilinear samples of the cube-sphere field), so they cross the
//! cube's seams like any other line and need no map projection; distances are arcs on the
//! sphere and angles are taken against the local horizontal plane without the sphere's drop
//! below it (as on a projected elevation model). Shares and quantiles are area-weighted.

use super::realism::weighted_quantiles;
use crate::planet::coords::{face_solid_angles, Cell};
use crate::planet::Field;
use glam::Vec3;
use rayon::prelude::*;

/// The ten landforms of the geomorphon table (`as usize` is the index in [`Landform::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Landform {
    /// Level in (nearly) every direction.
    Flat,
    /// Lower in every direction.
    Peak,
    /// Lower on two opposite sides, level along.
    Ridge,
    /// Where a slope bends into a flat above it.
    Shoulder,
    /// A convex nose on a slope.
    Spur,
    /// Higher on one side, lower on the other.
    Slope,
    /// A concave hollow on a slope.
    Hollow,
    /// Where a slope bends into a flat below it.
    Footslope,
    /// Higher on two opposite sides, level along.
    Valley,
    /// Higher in every direction.
    Pit,
}

impl Landform {
    /// Every landform, in the table's legend order.
    pub const ALL: [Landform; 10] = [Landform::Flat, Landform::Peak, Landform::Ridge, Landform::Shoulder, Landform::Spur, Landform::Slope, Landform::Hollow, Landform::Footslope, Landform::Valley, Landform::Pit];

    /// Lower-case name, for figures and files.
    pub fn id(self) -> &'static str {
        match self {
            Landform::Flat => "flat",
            Landform::Peak => "peak",
            Landform::Ridge => "ridge",
            Landform::Shoulder => "shoulder",
            Landform::Spur => "spur",
            Landform::Slope => "slope",
            Landform::Hollow => "hollow",
            Landform::Footslope => "footslope",
            Landform::Valley => "valley",
            Landform::Pit => "pit",
        }
    }

    /// The landform of a cell with `lower` directions falling away and `higher` directions
    /// rising (`lower + higher` at most 8), by Jasiewicz and Stepinski's table.
    pub fn from_counts(lower: usize, higher: usize) -> Landform {
        use Landform::{Flat as FL, Footslope as FS, Hollow as HL, Peak as PK, Pit as PT, Ridge as RI, Shoulder as SH, Slope as SL, Spur as SP, Valley as VL};
        // Rows: directions lower; columns: directions higher. Entries with more than eight
        // directions in all cannot occur.
        const TABLE: [[Landform; 9]; 9] = [
            [FL, FL, FL, FS, FS, VL, VL, VL, PT],
            [FL, FL, FS, FS, FS, VL, VL, VL, VL],
            [FL, SH, SL, SL, HL, HL, VL, VL, VL],
            [SH, SH, SL, SL, SL, HL, HL, HL, HL],
            [SH, SH, SP, SL, SL, SL, SL, SL, SL],
            [RI, RI, SP, SP, SP, SP, SP, SP, SP],
            [RI, RI, RI, RI, RI, RI, RI, RI, RI],
            [RI, RI, RI, RI, RI, RI, RI, RI, RI],
            [PK, PK, PK, PK, PK, PK, PK, PK, PK],
        ];
        TABLE[lower.min(8)][higher.min(8)]
    }
}

/// How landforms and local relief are measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LandformSettings {
    /// Length of each line of sight, km.
    pub lookup_km: f64,
    /// Angle from the horizontal below which a direction counts as level, degrees. Cells of
    /// kilometres need a fraction of a degree (100 m over 20 km is 0.29 degrees).
    pub flat_deg: f64,
    /// Radius of the disc whose highest minus lowest ground is the local relief, km.
    pub relief_radius_km: f64,
}

/// The settings of `bench --earth` and the realism tests: 150 km lines of sight, level within
/// 0.1 degrees (260 m over 150 km), local relief within 50 km (a disc 100 km across).
pub const EARTH_SCALE: LandformSettings = LandformSettings { lookup_km: 150.0, flat_deg: 0.1, relief_radius_km: 50.0 };

/// Quantiles of the local relief that [`LandformFigures`] reports.
pub const RELIEF_QUANTILES: [f64; 4] = [0.25, 0.5, 0.75, 0.9];

/// Landform shares and local relief over a planet's land.
#[derive(Debug, Clone, PartialEq)]
pub struct LandformFigures {
    /// Share of the land of each landform, in [`Landform::ALL`]'s order, summing to 1.
    pub shares: [f64; 10],
    /// Local relief at [`RELIEF_QUANTILES`], m.
    pub relief_m: [f64; 4],
}

impl LandformFigures {
    /// The share of the land of `form`.
    pub fn share(&self, form: Landform) -> f64 {
        self.shares[form as usize]
    }
}

/// An east and a north unit vector in the tangent plane at the unit vector `p` (any pair at
/// right angles: the measures here do not depend on the frame's turn).
fn tangent_frame(p: Vec3) -> (Vec3, Vec3) {
    let axis = if p.y.abs() < 0.9 { Vec3::Y } else { Vec3::X };
    let east = axis.cross(p).normalize();
    (east, p.cross(east))
}

/// Angle of one cell's step along a great circle, radians (a quarter turn over `n` cells).
fn cell_angle(n: usize) -> f64 {
    std::f64::consts::FRAC_PI_2 / n as f64
}

/// The landform of every land cell (ground above 0 m) of `elevation_m` (metres, sea level
/// 0) on a planet of `radius_km`; `None` at sea.
pub fn geomorphons(elevation_m: &Field, radius_km: f64, s: &LandformSettings) -> Vec<Option<Landform>> {
    let n = elevation_m.n();
    let step = cell_angle(n);
    let steps = ((s.lookup_km / (step * radius_km)).round() as usize).max(1);
    let flat = s.flat_deg.to_radians().tan();
    over_land(elevation_m, |z0, p, east, north| {
        let (mut lower, mut higher) = (0, 0);
        for k in 0..8 {
            let azimuth = k as f32 * std::f32::consts::FRAC_PI_4;
            let u = east * azimuth.cos() + north * azimuth.sin();
            // Steepest tangents up and down along this line of sight.
            let (mut up, mut down) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
            for i in 1..=steps {
                let angle = step * i as f64;
                let q = p * angle.cos() as f32 + u * angle.sin() as f32;
                let rise = f64::from(elevation_m.sample_dir(q) - z0) / (angle * radius_km * 1000.0);
                up = up.max(rise);
                down = down.max(-rise);
            }
            if up > flat && up > down {
                higher += 1;
            } else if down > flat && down >= up {
                lower += 1;
            }
        }
        Landform::from_counts(lower, higher)
    })
}

/// `f(height, direction, east, north)` at every land cell of `elevation_m` (ground above 0 m,
/// as in [`super::realism`]; `None` elsewhere), with the cell's unit direction and its tangent frame.
fn over_land<T: Send>(elevation_m: &Field, f: impl Fn(f32, Vec3, Vec3, Vec3) -> T + Sync) -> Vec<Option<T>> {
    let n = elevation_m.n();
    let data = elevation_m.data();
    (0..data.len())
        .into_par_iter()
        .map(|c| {
            let z0 = data[c];
            if z0 <= 0.0 {
                return None;
            }
            let p = Cell::from_index(c, n).direction(n);
            let (east, north) = tangent_frame(p);
            Some(f(z0, p, east, north))
        })
        .collect()
}

/// The local relief of every land cell of `elevation_m` (highest minus lowest ground within
/// `radius_km_disc` of the cell, m; samples a cell apart on the tangent plane's square lattice),
/// `None` at sea.
pub fn local_relief(elevation_m: &Field, radius_km: f64, radius_km_disc: f64) -> Vec<Option<f32>> {
    let n = elevation_m.n();
    let step = cell_angle(n);
    let reach = radius_km_disc / (step * radius_km);
    let r = reach.floor() as i64;
    let offsets: Vec<(f32, f32)> = (-r..=r).flat_map(|y| (-r..=r).map(move |x| (x, y))).filter(|&(x, y)| ((x * x + y * y) as f64) <= reach * reach).map(|(x, y)| ((x as f64 * step) as f32, (y as f64 * step) as f32)).collect();
    over_land(elevation_m, |z0, p, east, north| {
        let (mut lo, mut hi) = (z0, z0);
        for &(x, y) in &offsets {
            let z = elevation_m.sample_dir(p + east * x + north * y);
            lo = lo.min(z);
            hi = hi.max(z);
        }
        hi - lo
    })
}

/// Landform shares and local-relief quantiles over the land of `elevation_m` (metres, sea level
/// 0) on a planet of `radius_km`; `None` without land.
pub fn landform_figures(elevation_m: &Field, radius_km: f64, s: &LandformSettings) -> Option<LandformFigures> {
    let n = elevation_m.n();
    let weights = face_solid_angles(n);
    let weight = |c: usize| weights[c % (n * n)];
    let forms = geomorphons(elevation_m, radius_km, s);
    let mut shares = [0.0; 10];
    let mut land = 0.0;
    for (c, form) in forms.iter().enumerate() {
        if let Some(f) = form {
            shares[*f as usize] += weight(c);
            land += weight(c);
        }
    }
    if land <= 0.0 {
        return None;
    }
    shares.iter_mut().for_each(|x| *x /= land);
    let relief: Vec<(f32, f64)> = local_relief(elevation_m, radius_km, s.relief_radius_km).into_iter().enumerate().filter_map(|(c, r)| r.map(|r| (r, weight(c)))).collect();
    let relief_m = weighted_quantiles(relief, RELIEF_QUANTILES)?;
    Some(LandformFigures { shares, relief_m })
}

#[cfg(test)]
#[path = "landforms_tests.rs"]
mod tests;
