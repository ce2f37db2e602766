//! The Volcanic island source (seed 002, section 2.1): a cone with a curved flank, roughened
//! by noise through an exponent, with the top folded down into a crater. On the sphere the
//! cone's radius is an arc (degrees) around a centre given by latitude and longitude.

use super::context::{OpContext, OpError, Params};
use super::noise::FastFbm;
use crate::planet::projection::lon_lat_to_dir;
use crate::planet::Field;

/// Settings of [`island`]; heights in project elevation units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IslandSettings {
    /// Centre latitude, degrees (north positive).
    pub latitude_deg: f32,
    /// Centre longitude, degrees (0 at +Z, east towards +X).
    pub longitude_deg: f32,
    /// Radius of the cone's base, degrees of arc (seed 002's k_R).
    pub radius_deg: f32,
    /// Height of the cone above the base level (k_H).
    pub height: f32,
    /// Flank exponent (k_P): 1 a straight cone, above 1 a broad dome, below 1 a steep peak.
    pub exponent: f32,
    /// Noise influence on the exponent (k_N): 0 a smooth cone.
    pub noise: f32,
    /// Noise octaves (each of half the amplitude and twice the frequency).
    pub octaves: usize,
    /// Frequency of the first octave, cycles per planet circumference.
    pub frequency: f32,
    /// Crater rim as a share of the height (k_C / k_H); 1 for no crater.
    pub crater: f32,
    /// Level outside the cone (the sea floor around the island).
    pub base: f32,
    /// Noise seed.
    pub seed: u32,
}

/// The island field at resolution `n`.
pub fn island(s: &IslandSettings, n: usize) -> Field {
    let centre = lon_lat_to_dir(s.longitude_deg.to_radians(), s.latitude_deg.to_radians());
    let radius = s.radius_deg.to_radians().max(1e-4);
    let fbm = FastFbm::new(s.seed, s.octaves.clamp(1, 12), 0.5, 2.0);
    let scale = super::noise::noise_radius(s.frequency) as f32;
    let rim = s.crater.clamp(0.0, 1.0);
    Field::from_fn_dir(n, |d| {
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

/// The Volcanic island node.
pub fn island_node(p: &Params, ctx: &OpContext) -> Result<Field, OpError> {
    let s = IslandSettings {
        latitude_deg: p.float("latitude"),
        longitude_deg: p.float("longitude"),
        radius_deg: p.float("radius_deg"),
        height: p.float("height"),
        exponent: p.float("exponent"),
        noise: p.float("noise"),
        octaves: p.int("octaves").clamp(1, 12) as usize,
        frequency: p.float("frequency"),
        crater: p.float("crater"),
        base: p.float("base"),
        seed: p.seed(),
    };
    ctx.check()?;
    Ok(island(&s, ctx.n))
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
        let f = island(&s, 64);
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
        let f = island(&s, 64);
        let c = direction(s.latitude_deg, s.longitude_deg);
        // At the centre the cone would reach 1.0: folded to 2 * 0.8 - 1.0 = 0.6.
        assert!((f.sample_dir(c) - (s.base + 0.6)).abs() < 0.03, "{}", f.sample_dir(c));
        // Nothing rises above the rim.
        assert!(f.data().iter().all(|&v| v <= s.base + 0.8 + 1e-5));
    }

    #[test]
    fn noise_roughens_the_flanks_and_stays_finite() {
        let smooth = island(&settings(), 32);
        let rough = island(&IslandSettings { noise: 1.5, octaves: 6, ..settings() }, 32);
        assert!(rough.data().iter().all(|v| v.is_finite()));
        let differs = smooth.data().iter().zip(rough.data()).filter(|(a, b)| (*a - *b).abs() > 0.01).count();
        assert!(differs > 50, "{differs}");
        let (lo, hi) = rough.min_max();
        assert!(lo >= -0.4 - 1e-6 && hi <= 0.6 + 1e-6, "{lo} {hi}");
    }
}
