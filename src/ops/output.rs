//! The Planet output node: maps the unitless elevation input to metres.

use super::context::Params;
use crate::planet::Field;

/// Settings of the Planet node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanetSettings {
    /// Radius in kilometres.
    pub radius_km: f32,
    /// Input value that becomes 0 m.
    pub sea_level: f32,
    /// Metres of input value 1.
    pub max_elevation_m: f32,
    /// Metres below sea level of input value -1.
    pub max_depth_m: f32,
}

impl PlanetSettings {
    /// Reads the settings from the node's parameters.
    pub fn from_params(p: &Params) -> PlanetSettings {
        PlanetSettings {
            radius_km: p.float("radius_km"),
            sea_level: p.float("sea_level"),
            max_elevation_m: p.float("max_elevation_m"),
            max_depth_m: p.float("max_depth_m"),
        }
    }

    /// Elevation in metres of an input value: piecewise linear, sea level to 0 m, 1 to the
    /// highest peak, -1 to the deepest ocean, clamped outside.
    pub fn to_metres(&self, v: f32) -> f32 {
        let s = self.sea_level;
        if v >= s {
            ((v - s) / (1.0 - s).max(1e-6)).min(1.0) * self.max_elevation_m
        } else {
            ((v - s) / (1.0 + s).max(1e-6)).max(-1.0) * self.max_depth_m
        }
    }

    /// The elevation field in metres.
    pub fn apply(&self, f: &Field) -> Field {
        let s = *self;
        f.map(move |v| s.to_metres(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metres_mapping() {
        let s = PlanetSettings { radius_km: 6371.0, sea_level: 0.2, max_elevation_m: 8000.0, max_depth_m: 6000.0 };
        assert_eq!(s.to_metres(0.2), 0.0);
        assert_eq!(s.to_metres(1.0), 8000.0);
        assert_eq!(s.to_metres(5.0), 8000.0);
        assert_eq!(s.to_metres(-1.0), -6000.0);
        assert!((s.to_metres(0.6) - 4000.0).abs() < 1e-3);
        assert!(s.to_metres(0.1) < 0.0);
    }
}
