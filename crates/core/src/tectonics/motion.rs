//! Plate properties of seed 000's elevation modifier: base elevation (phase 1), motion
//! (phase 2) and the collision pressure between two regions (phase 3).

use super::plates::{Plates, UNCLAIMED};
use crate::planet::rng::Rng;
use glam::Vec3;

/// How plates get their base elevation (unitless, the project's -1..1 elevation scale).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BaseElevation {
    /// Seed 000: uniform in `[-range, range]` per plate (about half land, half sea).
    RandomRange(f32),
    /// Continental plates (base `continental`) cover about `fraction` of the regions, the
    /// others are oceanic (base `oceanic`); each plate varies by a little around its level.
    LandFraction {
        /// Share of regions on continental plates, 0..1.
        fraction: f32,
        /// Base of continental plates.
        continental: f32,
        /// Base of oceanic plates.
        oceanic: f32,
    },
}

impl BaseElevation {
    /// Land-fraction levels with the default continental (+0.08, about 500 m) and oceanic
    /// (-0.55, about 3900 m deep) bases.
    pub const fn land(fraction: f32) -> BaseElevation {
        BaseElevation::LandFraction { fraction, continental: 0.08, oceanic: -0.55 }
    }
}

/// Base elevation, type and rigid motion of every plate.
#[derive(Debug, Clone, PartialEq)]
pub struct PlateMotion {
    /// Base elevation per plate.
    pub base: Vec<f32>,
    /// Whether a plate is continental (base above 0).
    pub continental: Vec<bool>,
    /// Angular velocity per plate (rotation axis times speed): a point `p` of the plate moves
    /// with `omega x p`, tangent to the sphere. Speed in planet radii per time unit, 0.5..1 at
    /// the plate's centre as in seed 000.
    pub omega: Vec<Vec3>,
    /// Unit direction of each plate's centre (mean of its member centroids).
    pub centre: Vec<Vec3>,
}

impl PlateMotion {
    /// Draws base elevations and motions for `plates`.
    pub fn new(plates: &Plates, base: BaseElevation, seed: u32) -> PlateMotion {
        let count = plates.count();
        let mut rng = Rng::new(seed, 0xE1E7_0000);
        let mut sums = vec![Vec3::ZERO; count];
        let mut sizes = vec![0usize; count];
        for (i, &p) in plates.plate_of.iter().enumerate() {
            if p != UNCLAIMED {
                sums[p as usize] += plates.regions.position(i);
                sizes[p as usize] += 1;
            }
        }
        let centre: Vec<Vec3> = sums.iter().enumerate().map(|(k, s)| s.try_normalize().unwrap_or_else(|| plates.regions.position(plates.seeds[k] as usize))).collect();
        let base_values: Vec<f32> = match base {
            BaseElevation::RandomRange(r) => (0..count).map(|_| rng.range(-r, r)).collect(),
            BaseElevation::LandFraction { fraction, continental, oceanic } => {
                // Plates in random order become continental until their regions reach the
                // asked share (a plate goes in if that brings the total closer to the target).
                let mut order: Vec<usize> = (0..count).collect();
                for k in (1..count).rev() {
                    order.swap(k, (rng.next_u64() % (k as u64 + 1)) as usize);
                }
                let target = fraction.clamp(0.0, 1.0) * plates.plate_of.len() as f32;
                let mut land = vec![false; count];
                let mut acc = 0.0f32;
                for &p in &order {
                    let s = sizes[p] as f32;
                    if (acc + s - target).abs() < (acc - target).abs() {
                        land[p] = true;
                        acc += s;
                    }
                }
                land.iter().map(|&l| if l { continental + rng.range(-0.06, 0.06) } else { oceanic + rng.range(-0.08, 0.08) }).collect()
            }
        };
        // Seed 000 phase 2: a random tangent direction at the centre from t_x = c x X and
        // t_y = c x Y, speed 0.5..1. The plate turns rigidly about the axis c x v.
        let omega = centre
            .iter()
            .map(|&c| {
                let (tx, ty) = (c.cross(Vec3::X), c.cross(Vec3::Y));
                let tr = rng.range(-1.0, 1.0) * tx + rng.range(-1.0, 1.0) * ty;
                let speed = rng.range(0.5, 1.0);
                let v = tr.try_normalize().unwrap_or_else(|| c.any_orthonormal_vector()) * speed;
                c.cross(v)
            })
            .collect();
        PlateMotion { continental: base_values.iter().map(|&b| b > 0.0).collect(), base: base_values, omega, centre }
    }

    /// Velocity of plate `plate` at unit direction `p` (tangent).
    #[inline]
    pub fn velocity(&self, plate: usize, p: Vec3) -> Vec3 {
        self.omega[plate].cross(p)
    }
}

/// Seed 000's collision pressure between a region at `p` moving with `v` and a neighbour at `q`
/// moving with `w`: `|v| (v . d) + |w| (w . -d)` with `d` the unit direction from `p` to `q`
/// (the seed uses `q - p` itself; the unit direction makes the value independent of the region
/// size). Positive when the two move towards each other (mountains), negative when apart.
#[inline]
pub fn collision_pressure(p: Vec3, v: Vec3, q: Vec3, w: Vec3) -> f32 {
    let d = (q - p).normalize_or_zero();
    v.length() * v.dot(d) - w.length() * w.dot(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::RegionSurface;
    use crate::tectonics::plates::PlateSettings;
    use std::sync::Arc;

    #[test]
    fn pressure_sign_follows_relative_motion() {
        let p = Vec3::new(0.0, 0.0, 1.0);
        let q = Vec3::new(0.01, 0.0, 1.0).normalize();
        let towards = Vec3::X * 0.8;
        assert!(collision_pressure(p, towards, q, -towards) > 0.0, "moving towards each other raises");
        assert!(collision_pressure(p, -towards, q, towards) < 0.0, "moving apart lowers");
        assert!(collision_pressure(p, Vec3::Y, q, Vec3::Y).abs() < 1e-6, "moving together sideways is neutral");
        assert!(collision_pressure(p, Vec3::Y, q, -Vec3::Y).abs() < 1e-6, "pure shear is neutral");
        // Symmetric: seen from the other side the pressure is the same.
        let (v, w) = (Vec3::new(0.3, 0.2, 0.0), Vec3::new(-0.5, 0.1, 0.0));
        assert!((collision_pressure(p, v, q, w) - collision_pressure(q, w, p, v)).abs() < 1e-3);
    }

    #[test]
    fn motion_is_tangent_and_land_fraction_is_met() {
        let s = Arc::new(RegionSurface::new(20, 1.0, 2));
        let plates = Plates::grow(s.clone(), &PlateSettings { count: 30, expansion_range: 0.5, random_driven: true, max_cycles: None, seed: 3 }).expect("plates");
        let m = PlateMotion::new(&plates, BaseElevation::LandFraction { fraction: 0.3, continental: 0.1, oceanic: -0.5 }, 4);
        for (k, c) in m.centre.iter().enumerate() {
            let v = m.velocity(k, *c);
            assert!(v.dot(*c).abs() < 1e-5);
            assert!((0.49..=1.01).contains(&v.length()), "{}", v.length());
        }
        let land = plates.plate_of.iter().filter(|&&p| m.continental[p as usize]).count() as f32 / s.len() as f32;
        assert!((land - 0.3).abs() < 0.08, "land share {land}");
    }
}
