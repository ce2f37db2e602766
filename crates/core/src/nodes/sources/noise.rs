//! The Noise node: noise-crate noise functions sampled at each cell's point on the unit
//! sphere, hence seamless. fBm uses the fast evaluation in `planet::fbm`; the other types call
//! the noise crate directly.

use crate::nodes::prelude::*;
use crate::planet::fbm::{fbm_field, noise_radius, FastFbm, FastPerlin};
use noise::core::worley::{distance_functions, worley_3d, ReturnType};
use noise::permutationtable::PermutationTable;
use noise::{Billow, MultiFractal, NoiseFn, OpenSimplex, Perlin, RidgedMulti, SuperSimplex};

crate::choices! {
    /// Noise functions of the Noise node.
    pub enum NoiseType {
        /// Octaves of Perlin noise summed.
        Fbm = ("fbm", "fBm"),
        /// One octave of Perlin noise.
        Perlin = ("perlin", "Perlin"),
        /// OpenSimplex noise.
        OpenSimplex = ("open_simplex", "OpenSimplex"),
        /// SuperSimplex noise.
        SuperSimplex = ("super_simplex", "SuperSimplex"),
        /// Octaves of |Perlin| (puffy).
        Billow = ("billow", "Billow"),
        /// Ridged multifractal (sharp crests).
        Ridged = ("ridged", "Ridged"),
        /// Cellular noise.
        Worley = ("worley", "Worley"),
    }
}

crate::choices! {
    /// Distance functions of Worley noise.
    pub enum WorleyDistance {
        /// Straight-line distance.
        Euclidean = ("euclidean", "Euclidean"),
        /// Squared straight-line distance.
        EuclideanSquared = ("euclidean_squared", "EuclideanSquared"),
        /// Sum of the axis distances.
        Manhattan = ("manhattan", "Manhattan"),
        /// Largest axis distance.
        Chebyshev = ("chebyshev", "Chebyshev"),
    }
}

crate::choices! {
    /// What Worley noise returns.
    pub enum WorleyReturn {
        /// A random value per cell (flat patches).
        Value = ("value", "Value"),
        /// The distance to the nearest feature point.
        Distance = ("distance", "Distance"),
    }
}

crate::settings! {
    /// Settings of the Noise node.
    pub struct NoiseSettings, keys NoiseKeys {
        /// Noise function.
        noise_type as "type": NoiseType = NoiseType::Fbm.param("Type", "Noise function. fBm, Billow and Ridged sum octaves of Perlin noise; Worley is cellular noise."),
        /// Features per planet (about how many bumps fit around the equator).
        frequency: f32 = float("Frequency", 4.0, 0.1, 512.0, Unit::Named("/planet"), 0.05, "Features per planet: about how many bumps fit around the equator. Independent of resolution."),
        /// Summed octaves (fBm, Billow, Ridged).
        octaves: usize = int("Octaves", 6, 1, 12, "Number of summed octaves (fBm, Billow, Ridged). Each octave adds finer detail."),
        /// Amplitude factor from one octave to the next.
        persistence: f32 = float("Persistence", 0.5, 0.0, 1.0, Unit::None, 0.005, "Amplitude factor from one octave to the next (fBm, Billow, Ridged)."),
        /// Frequency factor from one octave to the next.
        lacunarity: f32 = float("Lacunarity", 2.0, 1.0, 4.0, Unit::None, 0.01, "Frequency factor from one octave to the next (fBm, Billow, Ridged)."),
        /// Output multiplier (the noise lies in about -1..1).
        amplitude: f32 = float("Amplitude", 1.0, 0.0, 10.0, Unit::None, 0.01, "Output is multiplied by this; the noise itself lies in about -1..1."),
        /// Distance function of Worley noise.
        worley_distance: WorleyDistance = WorleyDistance::Euclidean.param("Worley distance", "Distance function of Worley noise."),
        /// What Worley noise returns.
        worley_return: WorleyReturn = WorleyReturn::Value.param("Worley returns", "Value: a random value per cell (flat patches); Distance: distance to the nearest feature point."),
        /// Random seed.
        seed: u32 = seed(1),
    }
}

/// The Noise node.
pub struct Noise;

impl Node for Noise {
    type Settings = NoiseSettings;
    const META: NodeMeta = NodeMeta::new("Noise", Category::Sources, "Coherent noise sampled at each cell's point on the unit sphere, hence seamless.", &[], OUT, file!()).costing(5);

    fn run(s: &NoiseSettings, _: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        Ok(vec![noise_field(s, ctx.grid()).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }

    fn shows(s: &NoiseSettings, key: &str) -> bool {
        let k = NoiseSettings::KEYS;
        if key == k.worley_distance || key == k.worley_return {
            s.noise_type == NoiseType::Worley
        } else if key == k.octaves || key == k.persistence || key == k.lacunarity {
            matches!(s.noise_type, NoiseType::Fbm | NoiseType::Billow | NoiseType::Ridged)
        } else {
            true
        }
    }
}

impl NoiseType {
    /// The frequency (features per planet) and persistence this type looks its part with: a
    /// ridged planet needs more, finer crests and octaves that keep their weight, or its few
    /// first-octave crests make one smooth ring around the planet.
    pub fn suggested(self) -> (f32, f32) {
        match self {
            NoiseType::Ridged => (12.0, 0.9),
            NoiseType::Worley => (12.0, 0.5),
            _ => (4.0, 0.5),
        }
    }
}

/// When the type changes from `old` to `new.noise_type`, frequency and persistence that are
/// still the old type's suggestion take the new type's (values the user set are kept).
/// Returns whether anything changed.
pub fn adapt_to_type(old: &NoiseSettings, new: &mut NoiseSettings) -> bool {
    if old.noise_type == new.noise_type {
        return false;
    }
    let (f0, p0) = old.noise_type.suggested();
    let (f1, p1) = new.noise_type.suggested();
    let mut changed = false;
    if new.frequency == f0 && f0 != f1 {
        new.frequency = f1;
        changed = true;
    }
    if new.persistence == p0 && p0 != p1 {
        new.persistence = p1;
        changed = true;
    }
    changed
}

/// The noise field at resolution `n`.
pub fn noise_field(s: &NoiseSettings, grid: Grid) -> Field {
    let r = noise_radius(s.frequency);
    let amp = s.amplitude;
    let seed = s.seed;
    let octaves = s.octaves.clamp(1, 12);
    let persistence = s.persistence as f64;
    let lacunarity = s.lacunarity as f64;
    let at = |d: glam::Vec3| [d.x as f64 * r, d.y as f64 * r, d.z as f64 * r];
    match s.noise_type {
        NoiseType::Fbm => {
            let f = FastFbm::new(seed, octaves, persistence, lacunarity);
            fbm_field(&f, grid, r, amp)
        }
        NoiseType::Perlin => {
            let f = FastPerlin::new(seed);
            Field::from_fn_dir_on(grid, |d| f.get(at(d)) as f32 * amp)
        }
        NoiseType::OpenSimplex => {
            let f = OpenSimplex::new(seed);
            Field::from_fn_dir_on(grid, |d| f.get(at(d)) as f32 * amp)
        }
        NoiseType::SuperSimplex => {
            let f = SuperSimplex::new(seed);
            Field::from_fn_dir_on(grid, |d| f.get(at(d)) as f32 * amp)
        }
        NoiseType::Billow => {
            let f = Billow::<Perlin>::new(seed).set_octaves(octaves).set_persistence(persistence).set_lacunarity(lacunarity).set_frequency(1.0);
            Field::from_fn_dir_on(grid, |d| f.get(at(d)) as f32 * amp)
        }
        NoiseType::Ridged => {
            let f = RidgedMulti::<Perlin>::new(seed).set_octaves(octaves).set_persistence(persistence).set_lacunarity(lacunarity).set_frequency(1.0);
            Field::from_fn_dir_on(grid, |d| f.get(at(d)) as f32 * amp)
        }
        NoiseType::Worley => {
            let table = PermutationTable::new(seed);
            let dist: fn(&[f64], &[f64]) -> f64 = match s.worley_distance {
                WorleyDistance::Euclidean => distance_functions::euclidean,
                WorleyDistance::EuclideanSquared => distance_functions::euclidean_squared,
                WorleyDistance::Manhattan => distance_functions::manhattan,
                WorleyDistance::Chebyshev => distance_functions::chebyshev,
            };
            let distance = s.worley_return == WorleyReturn::Distance;
            Field::from_fn_dir_on(grid, |d| {
                let rt = if distance { ReturnType::Distance } else { ReturnType::Value };
                let v = worley_3d(&table, dist, rt, at(d).into());
                // Value is in 0..1 and Distance in about 0..1.5: centre both around 0.
                let v = if distance { v - 0.5 } else { v * 2.0 - 1.0 };
                v as f32 * amp
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::params::{ParamMap, ParamValue};
    use crate::nodes::NodeKind;

    #[test]
    fn only_applicable_parameters_are_shown() {
        let of = |t: &str| -> ParamMap { [("type".to_string(), ParamValue::Choice(t.to_string()))].into_iter().collect() };
        assert!(NodeKind::Noise.shows(&of("worley"), "worley_return"));
        assert!(!NodeKind::Noise.shows(&of("fbm"), "worley_return"));
        assert!(NodeKind::Noise.shows(&of("ridged"), "octaves"));
        // Switching to Ridged moves the untouched defaults to ridged ones, and back.
        let fbm = NoiseSettings::from_params(&NodeKind::Noise.default_params()).expect("defaults");
        let mut ridged = NoiseSettings { noise_type: NoiseType::Ridged, ..fbm.clone() };
        assert!(adapt_to_type(&fbm, &mut ridged));
        assert_eq!((ridged.frequency, ridged.persistence), NoiseType::Ridged.suggested());
        let mut back = NoiseSettings { noise_type: NoiseType::Fbm, ..ridged.clone() };
        assert!(adapt_to_type(&ridged, &mut back));
        assert_eq!((back.frequency, back.persistence), (fbm.frequency, fbm.persistence));
        // A frequency the user chose stays.
        let mine = NoiseSettings { frequency: 7.0, ..fbm.clone() };
        let mut r = NoiseSettings { noise_type: NoiseType::Ridged, ..mine.clone() };
        adapt_to_type(&mine, &mut r);
        assert_eq!(r.frequency, 7.0);
        assert!(!NodeKind::Noise.shows(&of("perlin"), "octaves"));
        assert!(NodeKind::Noise.shows(&of("perlin"), "frequency"));
    }

    #[test]
    fn every_type_gives_finite_varied_noise() {
        for t in NoiseType::OPTIONS.iter().filter_map(|o| NoiseType::from_id(o.id)) {
            let s = NoiseSettings { noise_type: t, ..NoiseSettings::from_params(&ParamMap::new()).expect("defaults") };
            let f = noise_field(&s, Grid::Whole(8));
            let (lo, hi) = f.min_max();
            assert!(lo.is_finite() && hi.is_finite() && hi - lo > 0.05, "{t:?}: {lo}..{hi}");
        }
    }
}
