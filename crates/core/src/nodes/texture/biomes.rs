//! The Biomes node: a Whittaker classification of annual mean temperature and precipitation
//! into 11 biomes, with overrides for ocean, beach, bare rock and alpine snow; outputs the biome
//! index and its colour (colours editable on the node).

use crate::nodes::prelude::*;

crate::choices! {
    /// The biomes; the Biomes node's index output is the position in this list.
    pub enum Biome {
        /// Ice sheets (below -15 °C).
        Ice = ("ice", "Ice"),
        /// Tundra.
        Tundra = ("tundra", "Tundra"),
        /// Boreal forest (taiga).
        BorealForest = ("boreal_forest", "Boreal forest"),
        /// Temperate seasonal forest.
        TemperateForest = ("temperate_forest", "Temperate forest"),
        /// Temperate rainforest.
        TemperateRainforest = ("temperate_rainforest", "Temperate rainforest"),
        /// Temperate grassland.
        Grassland = ("grassland", "Grassland"),
        /// Woodland and shrubland.
        Shrubland = ("shrubland", "Shrubland"),
        /// Hot or cold desert.
        Desert = ("desert", "Desert"),
        /// Savanna.
        Savanna = ("savanna", "Savanna"),
        /// Tropical seasonal forest.
        TropicalSeasonalForest = ("tropical_seasonal_forest", "Tropical seasonal forest"),
        /// Tropical rainforest.
        TropicalRainforest = ("tropical_rainforest", "Tropical rainforest"),
        /// Beach (land just above sea level).
        Beach = ("beach", "Beach"),
        /// Bare rock (steep slopes).
        BareRock = ("bare_rock", "Bare rock"),
        /// Alpine snow.
        Snow = ("snow", "Snow"),
        /// Sea.
        Ocean = ("ocean", "Ocean"),
    }
}

impl Biome {
    /// The biome of an index output value (rounded), if it is one.
    pub fn from_index(v: f32) -> Option<Biome> {
        let k = v.round();
        (k >= 0.0).then(|| Biome::VARIANTS.get(k as usize).copied()).flatten()
    }
}

/// Whittaker's diagram: the biome of an annual mean temperature (°C) and precipitation (mm
/// per year). Every point of the plane has one.
pub fn whittaker(t_c: f32, p_mm: f32) -> Biome {
    if t_c < -15.0 {
        Biome::Ice
    } else if t_c < -3.0 {
        Biome::Tundra
    } else if t_c < 5.0 {
        if p_mm < 250.0 {
            Biome::Tundra
        } else {
            Biome::BorealForest
        }
    } else if t_c < 20.0 {
        match p_mm {
            p if p < 250.0 => Biome::Desert,
            p if p < 600.0 => Biome::Grassland,
            p if p < 1000.0 => Biome::Shrubland,
            p if p < 2200.0 => Biome::TemperateForest,
            _ => Biome::TemperateRainforest,
        }
    } else {
        match p_mm {
            p if p < 400.0 => Biome::Desert,
            p if p < 1200.0 => Biome::Savanna,
            p if p < 2500.0 => Biome::TropicalSeasonalForest,
            _ => Biome::TropicalRainforest,
        }
    }
}

crate::settings! {
    /// Settings of the Biomes node: override thresholds and one colour per biome (sRGB).
    pub struct BiomesSettings, keys BiomesKeys {
        /// Land lower than this is beach, m.
        beach_m: f32 = float("Beach height", 4.0, 0.0, 1000.0, Unit::Metre, 0.5, "Land lower than this (metres above sea level) is beach."),
        /// With a coast distance input: beaches lie only this close to the coastline, km.
        beach_reach_km: f32 = float("Beach reach", 10.0, 0.0, 10000.0, Unit::Kilometre, 0.5, "With a distance to coast input, low land is beach only within this distance of the coastline: low valley floors far inland keep their climate's biome."),
        /// Slopes steeper than this are bare rock, degrees.
        rock_deg: f32 = float("Rock slope", 38.0, 0.0, 90.0, Unit::Degree, 0.5, "Slopes steeper than this are bare rock (needs the slope input)."),
        /// Land colder than this (at 800 mm/yr; see [`crate::nodes::climate::snow_line_c`]) and
        /// higher than the snow height carries snow, °C.
        snow_c: f32 = float("Snow below", -2.0, -60.0, 30.0, Unit::Celsius, 0.1, "Mountains colder than this (annual mean) carry snow where 800 mm/yr falls; the line is 3 °C warmer per doubling of the precipitation (at most 5 °C) and 3 °C colder per halving (at most 8 °C; glaciers' snow lines: about -1 °C in wet ranges, -12 to -15 °C in the driest), so dry plateaus stay bare."),
        /// Snow needs at least this height, m.
        snow_m: f32 = float("Snow above", 1500.0, 0.0, 20000.0, Unit::Metre, 10.0, "Alpine snow only above this height; colder lowlands are ice or tundra."),
        /// Width of the colour blend across climate borders, °C (precipitation: 10 % per °C).
        blend_c: f32 = float("Border blend", 2.0, 0.0, 20.0, Unit::Celsius, 0.05, "The colour output blends the climate biomes within this many °C (and 10 % of the precipitation per °C) around each cell, so biomes meet in gradual transitions; 0 for hard borders. The index output stays one biome per cell."),
        /// How much the land's colours vary across each biome (0: one flat colour per biome).
        variation: f32 = float("Colour variation", 0.5, 0.0, 1.0, Unit::None, 0.01, "How much the land's colours vary within each biome, in patches of noise: lighter and darker ground, warmer (redder) and cooler tones, as sand seas, rock plateaus, dry and green grassland alternate on Earth seen from orbit. At 0.5 the brightness varies by about 15 % (one standard deviation) and the tone by about 6 %; ice and snow vary a third as much, the sea not at all. 0: one flat colour per biome."),
        /// Features of the variation's noise per planet.
        variation_features: f32 = float("Variation features", 24.0, 0.5, 2000.0, Unit::Named("/planet"), 0.5, "Size of the colour variation's patches: features around the equator (24: patches of about 800 km on an Earth-sized planet, with smaller ones inside them)."),
        /// Seed of the variation's noise.
        seed: u32 = seed(13),
        /// Colour of ice.
        ice: Srgb = colour("Ice", [0.93, 0.95, 0.98], "Colour of ice sheets."),
        /// Colour of tundra.
        tundra: Srgb = colour("Tundra", [0.58, 0.58, 0.48], "Colour of tundra."),
        /// Colour of boreal forest.
        boreal_forest: Srgb = colour("Boreal forest", [0.2, 0.32, 0.22], "Colour of boreal forest."),
        /// Colour of temperate forest.
        temperate_forest: Srgb = colour("Temperate forest", [0.24, 0.42, 0.18], "Colour of temperate seasonal forest."),
        /// Colour of temperate rainforest.
        temperate_rainforest: Srgb = colour("Temperate rainforest", [0.13, 0.36, 0.2], "Colour of temperate rainforest."),
        /// Colour of grassland.
        grassland: Srgb = colour("Grassland", [0.5, 0.6, 0.3], "Colour of temperate grassland."),
        /// Colour of shrubland.
        shrubland: Srgb = colour("Shrubland", [0.46, 0.5, 0.3], "Colour of woodland and shrubland."),
        /// Colour of desert.
        desert: Srgb = colour("Desert", [0.86, 0.76, 0.54], "Colour of desert."),
        /// Colour of savanna.
        savanna: Srgb = colour("Savanna", [0.62, 0.6, 0.3], "Colour of savanna."),
        /// Colour of tropical seasonal forest.
        tropical_seasonal_forest: Srgb = colour("Tropical seasonal forest", [0.31, 0.47, 0.16], "Colour of tropical seasonal forest."),
        /// Colour of tropical rainforest.
        tropical_rainforest: Srgb = colour("Tropical rainforest", [0.11, 0.33, 0.1], "Colour of tropical rainforest."),
        /// Colour of beaches.
        beach: Srgb = colour("Beach", [0.9, 0.85, 0.66], "Colour of beaches."),
        /// Colour of bare rock.
        bare_rock: Srgb = colour("Bare rock", [0.45, 0.42, 0.4], "Colour of bare rock."),
        /// Colour of alpine snow.
        snow: Srgb = colour("Snow", [0.97, 0.97, 0.99], "Colour of alpine snow."),
        /// Colour of the sea.
        ocean: Srgb = colour("Ocean", [0.04, 0.14, 0.28], "Colour of the sea (the sea floor seen through water)."),
    }
}

impl BiomesSettings {
    /// The colours in biome index order.
    pub fn colours(&self) -> [Srgb; 15] {
        [
            self.ice,
            self.tundra,
            self.boreal_forest,
            self.temperate_forest,
            self.temperate_rainforest,
            self.grassland,
            self.shrubland,
            self.desert,
            self.savanna,
            self.tropical_seasonal_forest,
            self.tropical_rainforest,
            self.beach,
            self.bare_rock,
            self.snow,
            self.ocean,
        ]
    }

    /// The biome of one cell (`coast_km`: its distance to the coastline, when known).
    pub fn classify(&self, elevation_m: f32, t_c: f32, p_mm: f32, slope_deg: Option<f32>, coast_km: Option<f32>) -> Biome {
        if elevation_m < 0.0 {
            Biome::Ocean
        } else if elevation_m > self.snow_m && t_c < crate::nodes::climate::snow_line_c(self.snow_c, p_mm) {
            Biome::Snow
        } else if slope_deg.is_some_and(|s| s > self.rock_deg) {
            Biome::BareRock
        } else if elevation_m < self.beach_m && coast_km.is_none_or(|d| d.abs() <= self.beach_reach_km) {
            Biome::Beach
        } else {
            whittaker(t_c, p_mm)
        }
    }
}

/// The Biomes node's colour variation: its amount and two noise fields over the grid, one for
/// the brightness and one for the tone (none when the amount is 0).
struct Variation {
    amount: f32,
    noise: Option<[Field; 2]>,
}

impl Variation {
    /// The variation of `s` on `grid`.
    fn new(s: &BiomesSettings, grid: Grid) -> Variation {
        use crate::planet::fbm::{fbm_field, noise_radius, FastFbm};
        let amount = s.variation.clamp(0.0, 1.0);
        let field = |seed: u32| fbm_field(&FastFbm::new(seed, 4, 0.5, 2.0), grid, noise_radius(s.variation_features), 1.0);
        Variation { amount, noise: (amount > 0.0).then(|| [field(s.seed), field(s.seed.wrapping_add(0x9e37))]) }
    }

    /// Linear colour `rgb` of biome `b` at cell `c` with the variation: brighter or darker by
    /// 1.5 times the amount times the noise (whose standard deviation is about 0.2), warmer or
    /// cooler by 0.6 times it in red against blue; a third of that on ice and snow, none on
    /// the sea.
    fn apply(&self, b: Biome, c: usize, rgb: [f32; 3]) -> [f32; 3] {
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

/// The Biomes node.
pub struct Biomes;

crate::ports! {
    const INPUTS: In = [
        /// Elevation, m.
        ELEVATION: Field = PortDef::field("elevation_m"),
        /// Annual mean temperature, °C.
        TEMPERATURE: Field = PortDef::field("temperature"),
        /// Annual precipitation, mm/yr.
        PRECIPITATION: Field = PortDef::field("precipitation"),
        /// Optional slope, degrees.
        SLOPE: Field = PortDef::optional("slope_deg", PortType::Field),
        /// Optional distance to the coast, km.
        COAST: Field = PortDef::optional("coast_km", PortType::Field).with_unit(PortUnit::Of(Unit::Kilometre)),
    ];
}

crate::ports! {
    const OUTPUTS: Out = [
        /// Biome index (0 ice ... 14 ocean).
        BIOME: Field = PortDef::field("biome"),
        /// The biome's colour (linear RGB).
        COLOUR: ColourField = PortDef::of("colour", PortType::Colour),
    ];
}

impl Node for Biomes {
    type Settings = BiomesSettings;
    const META: NodeMeta = NodeMeta::new(
        "Biomes",
        Category::Texture,
        "Whittaker's biomes from temperature (°C) and precipitation (mm/yr), with ocean, beach, bare rock (slope) and alpine snow; outputs the biome index (0 ice ... 14 ocean) and its colour.",
        INPUTS,
        OUTPUTS,
        file!(),
    );

    fn run(s: &BiomesSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let (h, t, p, slope, coast) = (inputs.port(ELEVATION)?, inputs.port(TEMPERATURE)?, inputs.port(PRECIPITATION)?, inputs.port_opt(SLOPE)?, inputs.port_opt(COAST)?);
        let grid = h.grid();
        let biome: Vec<Biome> = (0..grid.cells()).map(|c| s.classify(h.data()[c], t.data()[c], p.data()[c], slope.map(|f| f.data()[c]), coast.map(|f| f.data()[c]))).collect();
        let palette = s.colours().map(Srgb::linear);
        let index = Field::from_fn_cell_on(grid, |c| biome[c] as usize as f32);
        let variation = Variation::new(s, grid);
        let colour = ColourField::from_fn_on(grid, |c| {
            let b = biome[c];
            // Overrides (ocean, snow, rock, beach) keep hard edges; climate biomes blend.
            if s.blend_c <= 0.0 || matches!(b, Biome::Ocean | Biome::Snow | Biome::BareRock | Biome::Beach) {
                return variation.apply(b, c, palette[b as usize]);
            }
            let (tc, pm) = (t.data()[c], p.data()[c]);
            let mut sum = [0.0f32; 3];
            for dt in [-1.0f32, -0.5, 0.0, 0.5, 1.0] {
                for dp in [-1.0f32, -0.5, 0.0, 0.5, 1.0] {
                    let k = whittaker(tc + dt * s.blend_c, pm * (1.0 + dp * 0.1 * s.blend_c)) as usize;
                    for ch in 0..3 {
                        sum[ch] += palette[k][ch];
                    }
                }
            }
            variation.apply(b, c, sum.map(|v| v / 25.0))
        });
        Ok(vec![index.into(), colour.into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The colour output of a Biomes node with the default settings but `changes` (key,
    /// value), on elevation `h`, temperature `t` and precipitation `p`.
    fn colours(changes: &[(&str, f32)], h: &Field, t: &Field, p: &Field) -> ColourField {
        use crate::nodes::NodeKind;
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = OpContext { tile: None, n: h.n(), cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH) };
        let mut params = NodeKind::Biomes.default_params();
        for (key, value) in changes {
            params.insert((*key).into(), crate::nodes::ParamValue::Float(*value));
        }
        let out = NodeKind::Biomes.run(&params, &[Some(h.clone().into()), Some(t.clone().into()), Some(p.clone().into()), None, None], &ctx).expect("runs");
        (**out[1].as_colour().expect("colour")).clone()
    }

    #[test]
    fn the_table_covers_the_whole_plane_and_every_climate_biome_occurs() {
        let mut seen = std::collections::HashSet::new();
        for ti in 0..=220 {
            for pi in 0..=300 {
                let (t, p) = (-60.0 + ti as f32 * 0.5, pi as f32 * 40.0);
                seen.insert(whittaker(t, p));
            }
        }
        assert_eq!(seen.len(), 11, "{seen:?}");
        assert_eq!(whittaker(27.0, 3000.0), Biome::TropicalRainforest);
        assert_eq!(whittaker(25.0, 100.0), Biome::Desert);
        assert_eq!(whittaker(0.0, 500.0), Biome::BorealForest);
        assert_eq!(whittaker(-20.0, 100.0), Biome::Ice);
        // Siberia's and arctic Canada's -10 to -15 °C are tundra on permafrost, not ice sheets.
        assert_eq!(whittaker(-12.0, 300.0), Biome::Tundra);
    }

    #[test]
    fn colours_blend_across_climate_borders_but_not_at_overrides() {
        let n = 8;
        // Temperature across the tundra/boreal border at -3 °C; one ocean cell region.
        let t = Field::from_fn_dir(n, |d| -3.0 + 2.0 * d.x);
        let p = Field::filled(n, 600.0);
        let h = Field::from_fn_dir(n, |d| if d.z < -0.9 { -100.0 } else { 500.0 });
        let run = |blend: f32| colours(&[("blend_c", blend), ("variation", 0.0)], &h, &t, &p);
        let (hard, soft) = (run(0.0), run(2.0));
        let distinct = |c: &ColourField| c.data.iter().map(|v| v.map(f32::to_bits)).collect::<std::collections::HashSet<_>>().len();
        assert!(distinct(&soft) > distinct(&hard), "blending makes intermediate colours");
        let ocean = crate::planet::dir_to_cell(glam::Vec3::NEG_Z, n).index(n);
        assert_eq!(soft.data[ocean], hard.data[ocean], "overrides stay hard");
    }

    /// One biome everywhere but a polar sea: with the variation, the land's colour varies in
    /// patches around the biome's colour; without it, it is the biome's colour; the sea never
    /// varies.
    #[test]
    fn colours_vary_in_patches_around_the_biomes_colour() {
        let n = 64;
        let (t, p) = (Field::filled(n, 25.0), Field::filled(n, 100.0));
        let h = Field::from_fn_dir(n, |d| if d.z < -0.9 { -100.0 } else { 500.0 });
        let run = |variation: f32| colours(&[("variation", variation)], &h, &t, &p);
        let s = <BiomesSettings as Settings>::from_params(&crate::nodes::NodeKind::Biomes.default_params()).expect("defaults");
        let desert = s.desert.linear();
        let land: Vec<usize> = (0..h.data().len()).filter(|&c| h.data()[c] > 0.0).collect();
        let (flat, varied) = (run(0.0), run(s.variation));
        assert!(land.iter().all(|&c| (0..3).all(|k| (flat.data[c][k] - desert[k]).abs() < 1e-5)), "no variation: the biome's colour");
        let red: Vec<f64> = land.iter().map(|&c| f64::from(varied.data[c][0] / desert[0])).collect();
        let mean = red.iter().sum::<f64>() / red.len() as f64;
        let sd = (red.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / red.len() as f64).sqrt();
        eprintln!("red over the desert's: mean {mean:.3}, standard deviation {sd:.3}");
        assert!((mean - 1.0).abs() < 0.05, "the variation keeps the biome's colour on average: {mean}");
        assert!(sd > 0.03 && sd < 0.3, "it varies the colour by some per cent: {sd}");
        let ocean = crate::planet::dir_to_cell(glam::Vec3::NEG_Z, n).index(n);
        assert_eq!(varied.data[ocean], flat.data[ocean], "the sea does not vary");
        assert_eq!(run(s.variation).data, varied.data, "the same seed, the same colours");
    }

    #[test]
    fn overrides_come_first() {
        let s = <BiomesSettings as Settings>::from_params(&crate::nodes::NodeKind::Biomes.default_params()).expect("defaults");
        assert_eq!(s.classify(-10.0, 25.0, 3000.0, None, None), Biome::Ocean);
        assert_eq!(s.classify(2.0, 25.0, 3000.0, None, None), Biome::Beach);
        // Low land far inland is no beach when the coast distance is known.
        assert_eq!(s.classify(2.0, 25.0, 3000.0, None, Some(2.0)), Biome::Beach);
        assert_ne!(s.classify(2.0, 25.0, 3000.0, None, Some(300.0)), Biome::Beach);
        assert_eq!(s.classify(500.0, 15.0, 900.0, Some(50.0), None), Biome::BareRock);
        assert_eq!(s.classify(3000.0, -5.0, 900.0, Some(10.0), None), Biome::Snow);
        // The same cold, dry plateau carries none; a wet range is snowy a little warmer.
        assert_ne!(s.classify(4500.0, -5.0, 150.0, Some(2.0), None), Biome::Snow);
        assert_eq!(s.classify(3000.0, 0.0, 4000.0, Some(10.0), None), Biome::Snow);
        assert_eq!(s.classify(500.0, 15.0, 1500.0, Some(5.0), None), Biome::TemperateForest);
        assert_eq!(Biome::VARIANTS.iter().enumerate().filter(|(i, b)| **b as usize != *i).count(), 0);
        assert_eq!(Biome::from_index(3.0), Some(Biome::TemperateForest));
        assert_eq!(Biome::from_index(15.0), None);
    }
}
