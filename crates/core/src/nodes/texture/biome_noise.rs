//! The Biomes node's noise: climate borders that wander ([`Ecotones`]) and land colours that
//! vary within each biome, down to a fine mosaic where the level resolves it ([`Variation`]).

use super::biomes::{Biome, BiomesSettings};
use crate::planet::{Field, Grid};

/// The Biomes node's border noise: per cell, how far the borders of the climate biomes
/// wander, in °C of temperature and of precipitation (none when the amount is 0).
pub struct Ecotones {
    noise: Option<[Field; 2]>,
}

impl Ecotones {
    /// Features per planet of the noise's coarsest octave: about 300 km on Earth.
    const FEATURES: f32 = 130.0;
    /// Octaves, each at twice the frequency: down to about 5 km on Earth.
    const OCTAVES: usize = 6;
    /// The fBm's standard deviation, about.
    const SPREAD: f32 = 0.2;

    /// The border noise of `s` on `grid`.
    pub fn new(s: &BiomesSettings, grid: Grid) -> Ecotones {
        use crate::planet::fbm::{fbm_field, noise_radius, FastFbm};
        let amount = s.border_noise_c.max(0.0);
        let field = |seed: u32| fbm_field(&FastFbm::new(seed, Self::OCTAVES, 0.5, 2.0), grid, noise_radius(Self::FEATURES), amount / (2.0 * Self::SPREAD));
        Ecotones { noise: (amount > 0.0).then(|| [field(s.seed.wrapping_add(0x51ed)), field(s.seed.wrapping_add(0xa3c1))]) }
    }

    /// The shift at cell `c` (storage order of the grid), °C of temperature and of
    /// precipitation.
    pub fn at(&self, c: usize) -> [f32; 2] {
        self.noise.as_ref().map_or([0.0; 2], |[t, p]| [t.data()[c], p.data()[c]])
    }
}

/// The Biomes node's colour variation: its amount and two noise fields over the grid, one for
/// the brightness and one for the tone (none when the amount is 0); the brightness also has
/// the ground's fine texture, from 10 km down to the cells of the level evaluated.
pub(super) struct Variation {
    amount: f32,
    noise: Option<[Field; 2]>,
}

impl Variation {
    /// Features per planet of the fine texture's coarsest octave: about 10 km on Earth.
    const TEXTURE_FEATURES: f32 = 4000.0;
    /// The fine texture's octaves at most, each at twice the frequency (down to about 5 m).
    const TEXTURE_OCTAVES: usize = 12;
    /// Amplitude factor from one of its octaves to the next (close to 1: the finer patches
    /// matter nearly as much as the coarser ones, as in a landscape's mosaic).
    const TEXTURE_ROUGHNESS: f32 = 0.85;
    /// Strength of the fine texture against the patches' noise: shaped ([`Self::patchy`]) it
    /// lies within ±0.09, so 1.5 times it brightens and darkens the ground by up to about 10 %
    /// at 0.5 of variation (fields, woods and bare patches).
    const TEXTURE: f32 = 1.5;

    /// The fine texture's noise with its contrast raised and its extremes held (0.09 times the
    /// hyperbolic tangent of its value over 0.05, about its spread): patches of lighter and darker
    /// ground with edges, as fields and woods have, rather than soft clouds.
    fn patchy(v: f32) -> f32 {
        0.09 * (v / 0.05).tanh()
    }

    /// The variation of `s` on `grid`: the fine texture only as far as the grid's level
    /// resolves it (none in builds coarser than 2000 cells per face edge, more octaves the
    /// finer a close-up's tile), so a tile gets the same values as the whole planet at its
    /// level.
    pub(super) fn new(s: &BiomesSettings, grid: Grid) -> Variation {
        use crate::planet::fbm::{fbm_field, noise_radius, FastFbm, LevelOctaves};
        let amount = s.variation.clamp(0.0, 1.0);
        let field = |seed: u32| fbm_field(&FastFbm::new(seed, 4, 0.5, 2.0), grid, noise_radius(s.variation_features), 1.0);
        let noise = (amount > 0.0).then(|| {
            let mut brightness = field(s.seed);
            let texture = LevelOctaves::new(s.seed.wrapping_add(0x7f4a), Self::TEXTURE_FEATURES, Self::TEXTURE_OCTAVES, Self::TEXTURE_ROUGHNESS, grid.n());
            if !texture.is_empty() {
                let fine = texture.field(grid, |v| v);
                for (b, f) in brightness.data_mut().iter_mut().zip(fine.data()) {
                    *b += Self::TEXTURE * Self::patchy(*f);
                }
            }
            [brightness, field(s.seed.wrapping_add(0x9e37))]
        });
        Variation { amount, noise }
    }

    /// Linear colour `rgb` of biome `b` at cell `c` with the variation: brighter or darker by
    /// 1.5 times the amount times the noise (whose standard deviation is about 0.2), warmer or
    /// cooler by 0.6 times it in red against blue; a third of that on ice and snow, none on
    /// the sea.
    pub(super) fn apply(&self, b: Biome, c: usize, rgb: [f32; 3]) -> [f32; 3] {
        let Some([brightness, tone]) = &self.noise else { return rgb };
        let amount = match b {
            Biome::Ocean => return rgb,
            Biome::Ice | Biome::Snow => self.amount / 3.0,
            _ => self.amount,
        };
        let light = 1.0 + 1.5 * amount * brightness.data()[c];
        let warm = 0.6 * amount * tone.data()[c];
        [rgb[0] * light * (1.0 + warm), rgb[1] * light * (1.0 + 0.3 * warm), rgb[2] * light * (1.0 - warm)].map(|v| v.clamp(0.0, 1.0))
    }
}
