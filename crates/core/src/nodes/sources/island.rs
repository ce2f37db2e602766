//! The Volcanic island source (seed 002, section 2.1): a cone with a curved flank, roughened
//! by noise through an exponent, with the top folded down into a crater. On the sphere the
//! cone's radius is an arc (degrees) around a centre given by latitude and longitude.

use crate::nodes::prelude::*;
use crate::planet::fbm::{noise_radius, FastFbm};
use crate::planet::projection::lon_lat_to_dir;

crate::settings! {
    /// Settings of the Volcanic island node; heights in project elevation units.
    pub struct IslandSettings, keys IslandKeys {
        /// Centre latitude, degrees (north positive).
        latitude_deg as "latitude": f32 = float("Latitude", 0.0, -90.0, 90.0, Unit::Degree, 0.1, "Latitude of the island's centre (north positive)."),
        /// Centre longitude, degrees (0 at +Z, east towards +X).
        longitude_deg as "longitude": f32 = float("Longitude", 0.0, -180.0, 180.0, Unit::Degree, 0.1, "Longitude of the island's centre (0 faces +Z, east positive)."),
        /// Radius of the cone's base, degrees of arc (k_R).
        radius_deg: f32 = float("Radius", 20.0, 0.1, 180.0, Unit::Degree, 0.1, "Radius of the cone's base as an arc on the planet (k_R)."),
        /// Height of the cone above the base level (k_H).
        height: f32 = float("Height", 1.2, 0.0, 10.0, Unit::None, 0.005, "Height of the cone above the base level (k_H), in elevation units (1 = the Planet node's highest peak)."),
        /// Flank exponent (k_P): 1 a straight cone, above 1 a broad dome, below 1 a steep peak.
        exponent: f32 = float("Flank exponent", 1.6, 0.05, 10.0, Unit::None, 0.01, "Shape of the flank (k_P): 1 a straight cone, above 1 a broad dome, below 1 a steep peak."),
        /// Noise influence on the exponent (k_N): 0 a smooth cone.
        noise: f32 = float("Noise influence", 0.8, 0.0, 5.0, Unit::None, 0.01, "How much the noise roughens the flanks through the exponent (k_N); 0 for a smooth cone."),
        /// Noise octaves (each of half the amplitude and twice the frequency).
        octaves: usize = int("Octaves", 6, 1, 12, "Noise octaves, each of twice the frequency and half the amplitude."),
        /// Frequency of the first octave, cycles per planet circumference.
        frequency: f32 = float("Noise frequency", 24.0, 0.1, 500.0, Unit::Named("cycles"), 0.1, "Frequency of the first noise octave, in cycles around the planet."),
        /// Crater rim as a share of the height (k_C / k_H); 1 for no crater.
        crater: f32 = float("Crater rim", 0.85, 0.0, 1.0, Unit::None, 0.005, "Height of the crater rim as a share of the cone's height (k_C / k_H); above it the cone is folded down. 1 for no crater."),
        /// Level outside the cone (the sea floor around the island).
        base: f32 = float("Base level", -0.4, -10.0, 10.0, Unit::None, 0.005, "Level around the island (the sea floor; 0 is sea level)."),
        /// Noise seed.
        seed: u32 = seed(2),
    }
}

/// The Volcanic island node.
pub struct Island;

impl Node for Island {
    type Settings = IslandSettings;
    const META: NodeMeta =
        NodeMeta::new("Volcanic island", Category::Sources, "A cone h = H (1 - (r/R)^P) around a point, roughened by noise through the exponent 1 + N noise, with the top above the crater rim folded down.", &[], OUT, file!()).costing(5);

    fn run(s: &IslandSettings, _: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        Ok(vec![island(s, ctx.grid()).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

/// The island field on `grid`.
pub fn island(s: &IslandSettings, grid: Grid) -> Field {
    let centre = lon_lat_to_dir(s.longitude_deg.to_radians(), s.latitude_deg.to_radians());
    let radius = s.radius_deg.to_radians().max(1e-4);
    let fbm = FastFbm::new(s.seed, s.octaves.clamp(1, 12), 0.5, 2.0);
    let scale = noise_radius(s.frequency) as f32;
    let rim = s.crater.clamp(0.0, 1.0);
    Field::from_fn_dir_on(grid, |d| {
        let r = d.dot(centre).clamp(-1.0, 1.0).acos();
        if r >= radius {
            return s.base;
        }
        // h_A / k_H in 0..1, roughened through the exponent 1 + k_N h_B (kept positive).
        let cone = 1.0 - (r / radius).powf(s.exponent.max(0.01));
        let p = d * scale;
        let hb = fbm.get([p.x as f64, p.y as f64, p.z as f64]) as f32;
        let hc = cone.max(0.0).powf((1.0 + s.noise * hb).max(0.05));
        // Crater: fold everything above the rim back down.
        let h0 = if hc > rim { 2.0 * rim - hc } else { hc };
        s.base + s.height * h0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn direction(latitude_deg: f32, longitude_deg: f32) -> glam::Vec3 {
        lon_lat_to_dir(longitude_deg.to_radians(), latitude_deg.to_radians())
    }

    fn settings() -> IslandSettings {
        IslandSettings { latitude_deg: 10.0, longitude_deg: 30.0, radius_deg: 20.0, height: 1.0, exponent: 1.5, noise: 0.0, octaves: 4, frequency: 8.0, crater: 1.0, base: -0.4, seed: 1 }
    }

    #[test]
    fn a_smooth_cone_follows_the_seed_formula() {
        let s = settings();
        let f = island(&s, Grid::Whole(64));
        let c = direction(s.latitude_deg, s.longitude_deg);
        // Peak at the centre, base outside the radius, h = base + H (1 - (r / R)^P) between.
        assert!((f.sample_dir(c) - (s.base + s.height)).abs() < 0.02, "{}", f.sample_dir(c));
        let away = direction(s.latitude_deg, s.longitude_deg + 40.0);
        assert_eq!(f.sample_dir(away), s.base);
        let east = glam::Vec3::Y.cross(c).normalize();
        for frac in [0.3f32, 0.6, 0.9] {
            let r = (s.radius_deg * frac).to_radians();
            let d = c * r.cos() + east * r.sin();
            let expected = s.base + s.height * (1.0 - frac.powf(s.exponent));
            assert!((f.sample_dir(d) - expected).abs() < 0.03, "{frac}: {} vs {expected}", f.sample_dir(d));
        }
    }

    #[test]
    fn the_crater_folds_the_top_down() {
        let s = IslandSettings { crater: 0.8, ..settings() };
        let f = island(&s, Grid::Whole(64));
        let c = direction(s.latitude_deg, s.longitude_deg);
        // At the centre the cone would reach 1.0: folded to 2 * 0.8 - 1.0 = 0.6.
        assert!((f.sample_dir(c) - (s.base + 0.6)).abs() < 0.03, "{}", f.sample_dir(c));
        // Nothing rises above the rim.
        assert!(f.data().iter().all(|&v| v <= s.base + 0.8 + 1e-5));
    }

    #[test]
    fn noise_roughens_the_flanks_and_stays_finite() {
        let smooth = island(&settings(), Grid::Whole(32));
        let rough = island(&IslandSettings { noise: 1.5, octaves: 6, ..settings() }, Grid::Whole(32));
        assert!(rough.data().iter().all(|v| v.is_finite()));
        let differs = smooth.data().iter().zip(rough.data()).filter(|(a, b)| (*a - *b).abs() > 0.01).count();
        assert!(differs > 50, "{differs}");
        let (lo, hi) = rough.min_max();
        assert!(lo >= -0.4 - 1e-6 && hi <= 0.6 + 1e-6, "{lo} {hi}");
    }
}
