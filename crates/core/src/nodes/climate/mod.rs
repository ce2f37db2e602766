//! Climate nodes in physical units: temperature (degrees C) and precipitation (mm per year)
//! with the prevailing winds. Elevations come in metres (a To metres node).

pub mod precipitation;
pub mod temperature;

use glam::Vec3;

/// Latitude in radians of a unit direction.
pub fn latitude(d: Vec3) -> f32 {
    d.y.clamp(-1.0, 1.0).asin()
}

/// The unit vectors pointing east and north at a unit direction (east is +X at longitude 0;
/// at the poles an arbitrary but continuous-enough pair).
pub fn east_north(d: Vec3) -> (Vec3, Vec3) {
    let east = Vec3::Y.cross(d).try_normalize().unwrap_or(Vec3::X);
    let north = d.cross(east);
    (east, north)
}
