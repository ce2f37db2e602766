//! The Biomes node: a Whittaker classification of annual mean temperature and precipitation
//! into 11 biomes, with overrides for ocean, beach, bare rock and alpine snow; outputs the biome
//! index and its colour (colours editable on the node).

use super::biome_noise::{Ecotones, Variation};
use crate::nodes::prelude::*;
use rayon::prelude::*;

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

/// Whittaker's table: bands of annual mean temperature (each up to its bound, °C), each
/// divided by annual precipitation (each biome up to its bound, mm/yr).
const TABLE: [(f32, &[(f32, Biome)]); 5] = [
    (ICE_BELOW_C, &[(f32::INFINITY, Biome::Ice)]),
    // Siberia's and arctic Canada's -10 to -15 °C are tundra on permafrost, not ice sheets.
    (-3.0, &[(f32::INFINITY, Biome::Tundra)]),
    (5.0, &[(250.0, Biome::Tundra), (f32::INFINITY, Biome::BorealForest)]),
    (20.0, &[(250.0, Biome::Desert), (600.0, Biome::Grassland), (1000.0, Biome::Shrubland), (2200.0, Biome::TemperateForest), (f32::INFINITY, Biome::TemperateRainforest)]),
    (f32::INFINITY, &[(400.0, Biome::Desert), (1200.0, Biome::Savanna), (2500.0, Biome::TropicalSeasonalForest), (f32::INFINITY, Biome::TropicalRainforest)]),
];

/// Annual mean temperature below which the climate biome is ice, °C (the Ice sheet node's
/// default line too). Ice is ice at any height: alpine snow lies only where it is warmer.
pub const ICE_BELOW_C: f32 = -15.0;

/// The climate biome of annual mean temperature `t_c` (°C) and precipitation `p_mm` (mm/yr):
/// Whittaker's table ([`TABLE`]).
pub fn whittaker(t_c: f32, p_mm: f32) -> Biome {
    let band = TABLE.iter().find(|(top, _)| t_c < *top).unwrap_or(&TABLE[TABLE.len() - 1]).1;
    band.iter().find(|(top, _)| p_mm < *top).unwrap_or(&band[band.len() - 1]).1
}

/// The share of each climate biome in the rectangle of the (temperature, precipitation) plane
/// from `t` to `t + dt` and from `p` to `p + dp` (`dt`, `dp` above 0): the exact areas of
/// Whittaker's table ([`TABLE`]) inside it, so a blend across a border changes continuously
/// with the climate, without steps. Calls `add` with each biome met and its share (the shares
/// sum to 1).
fn whittaker_shares(t: f32, dt: f32, p: f32, dp: f32, mut add: impl FnMut(Biome, f32)) {
    let overlap = |lo: f32, hi: f32, from: f32, to: f32| (to.min(hi) - from.max(lo)).max(0.0);
    let mut t_low = f32::NEG_INFINITY;
    for (t_top, band) in TABLE {
        let ft = overlap(t_low, t_top, t, t + dt) / dt;
        t_low = t_top;
        if ft <= 0.0 {
            continue;
        }
        let mut p_low = f32::NEG_INFINITY;
        for &(p_top, biome) in band {
            let fp = overlap(p_low, p_top, p, p + dp) / dp;
            p_low = p_top;
            if fp > 0.0 {
                add(biome, ft * fp);
            }
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
        /// How far the climate biomes' borders wander, °C (precipitation: 10 % per °C).
        border_noise_c: f32 = float("Border noise", 3.0, 0.0, 20.0, Unit::Celsius, 0.05, "The climate biomes' borders wander by about this many °C of temperature (and 10 % of the precipitation per °C; twice the standard deviation) in noise from about 300 km down to 5 km on an Earth-sized planet, so forest, grassland and desert meet along ragged lines, as soils and slopes shape them, instead of following the smooth climate's contours. 0: borders on the contours."),
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

    /// The biome of one cell (`coast_km`: its distance to the coastline, when known;
    /// `shift_c`: how far its climate biome's borders wander there, see [`Ecotones`]).
    pub fn classify(&self, elevation_m: f32, t_c: f32, p_mm: f32, slope_deg: Option<f32>, coast_km: Option<f32>, shift_c: [f32; 2]) -> Biome {
        if elevation_m < 0.0 {
            Biome::Ocean
        } else if elevation_m > self.snow_m && (ICE_BELOW_C..crate::nodes::climate::snow_line_c(self.snow_c, p_mm)).contains(&t_c) {
            Biome::Snow
        } else if slope_deg.is_some_and(|s| s > self.rock_deg) {
            Biome::BareRock
        } else if elevation_m < self.beach_m && coast_km.is_none_or(|d| d.abs() <= self.beach_reach_km) {
            Biome::Beach
        } else {
            let (t, p) = shifted(t_c, p_mm, shift_c);
            whittaker(t, p)
        }
    }
}

/// Temperature and precipitation moved by `shift_c` (°C of temperature, and 10 % of the
/// precipitation per °C).
fn shifted(t_c: f32, p_mm: f32, shift_c: [f32; 2]) -> (f32, f32) {
    (t_c + shift_c[0], p_mm * (1.0 + 0.1 * shift_c[1]).max(0.0))
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
    )
    .costing(34);

    fn run(s: &BiomesSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let (h, t, p, slope, coast) = (inputs.port(ELEVATION)?, inputs.port(TEMPERATURE)?, inputs.port(PRECIPITATION)?, inputs.port_opt(SLOPE)?, inputs.port_opt(COAST)?);
        let grid = h.grid();
        let ecotones = Ecotones::new(s, grid);
        let biome: Vec<Biome> = (0..grid.cells()).into_par_iter().map(|c| s.classify(h.data()[c], t.data()[c], p.data()[c], slope.map(|f| f.data()[c]), coast.map(|f| f.data()[c]), ecotones.at(c))).collect();
        let palette = s.colours().map(Srgb::linear);
        let index = Field::from_fn_cell_on(grid, |c| biome[c] as usize as f32);
        let variation = Variation::new(s, grid);
        let colour = ColourField::from_fn_on(grid, |c| {
            let b = biome[c];
            // Overrides (ocean, snow, rock, beach) keep hard edges; climate biomes blend.
            if s.blend_c <= 0.0 || matches!(b, Biome::Ocean | Biome::Snow | Biome::BareRock | Biome::Beach) {
                return variation.apply(b, c, palette[b as usize]);
            }
            // The climate biomes' shares in the square of the climate plane around the cell's
            // (shifted) climate, blend_c each way: exact areas, so no steps across a border.
            let (tc, pm) = shifted(t.data()[c], p.data()[c], ecotones.at(c));
            let (dp, mut sum) = (0.2 * s.blend_c * pm.max(1.0), [0.0f32; 3]);
            whittaker_shares(tc - s.blend_c, 2.0 * s.blend_c, pm - 0.5 * dp, dp, |k, w| {
                for ch in 0..3 {
                    sum[ch] += w * palette[k as usize][ch];
                }
            });
            variation.apply(b, c, sum)
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
        let ctx = OpContext { tile: None, n: h.n(), cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
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

    /// The blend's shares are the exact areas of the table: they sum to 1, and across a
    /// border they change in proportion to the climate, without steps.
    #[test]
    fn blend_shares_change_continuously_across_a_border() {
        let tundra_share = |t: f32| {
            let (mut tundra, mut total) = (0.0, 0.0);
            whittaker_shares(t - 2.0, 4.0, 540.0, 120.0, |b, w| {
                total += w;
                if b == Biome::Tundra {
                    tundra += w;
                }
            });
            assert!((total - 1.0f32).abs() < 1e-5, "{total}");
            tundra
        };
        // The tundra/boreal border lies at -3 °C: the window of -5..-1 at -3 is half tundra.
        assert!((tundra_share(-3.0) - 0.5).abs() < 1e-5);
        assert_eq!((tundra_share(-6.0), tundra_share(0.0)), (1.0, 0.0));
        let steps: Vec<f32> = (0..=400).map(|k| tundra_share(-6.0 + 0.015 * k as f32)).collect();
        let largest = steps.windows(2).map(|w| (w[0] - w[1]).abs()).fold(0.0, f32::max);
        assert!(largest < 0.005, "a step of {largest}");
        // A window within one biome is that biome alone.
        whittaker_shares(24.0, 2.0, 3000.0, 100.0, |b, w| assert_eq!((b, w), (Biome::TropicalRainforest, 1.0)));
    }

    /// With border noise the climate biomes' border leaves the climate's contour and wanders
    /// from row to row; without it, it follows the contour.
    #[test]
    fn border_noise_makes_ragged_borders() {
        let n = 64;
        // Temperature across the tundra/boreal border at -3 °C along the front face's a.
        let t = Field::from_fn_cell(n, |k| -3.0 + 8.0 * (crate::planet::Cell::from_index(k, n).i as f32 / n as f32 - 0.5));
        let p = Field::filled(n, 600.0);
        let h = Field::filled(n, 500.0);
        let border = |noise: f32| -> Vec<usize> {
            use crate::nodes::NodeKind;
            let cancel = std::sync::atomic::AtomicBool::new(false);
            let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
            let mut params = NodeKind::Biomes.default_params();
            params.insert("border_noise_c".into(), crate::nodes::ParamValue::Float(noise));
            let out = NodeKind::Biomes.run(&params, &[Some(h.clone().into()), Some(t.clone().into()), Some(p.clone().into()), None, None], &ctx).expect("runs");
            let index = out[0].as_field().expect("index").clone();
            // Per row of the front face, the first column that is boreal forest.
            (0..n).map(|j| (0..n).position(|i| index.data()[j * n + i] == Biome::BorealForest as usize as f32).unwrap_or(n)).collect()
        };
        let (straight, ragged) = (border(0.0), border(3.0));
        assert!(straight.iter().all(|&i| i == straight[0]), "{straight:?}");
        let spread = ragged.iter().max().expect("rows") - ragged.iter().min().expect("rows");
        assert!(spread >= 4, "the border wanders over {spread} columns: {ragged:?}");
    }

    #[test]
    fn overrides_come_first() {
        let s = <BiomesSettings as Settings>::from_params(&crate::nodes::NodeKind::Biomes.default_params()).expect("defaults");
        assert_eq!(s.classify(-10.0, 25.0, 3000.0, None, None, [0.0; 2]), Biome::Ocean);
        assert_eq!(s.classify(2.0, 25.0, 3000.0, None, None, [0.0; 2]), Biome::Beach);
        // Low land far inland is no beach when the coast distance is known.
        assert_eq!(s.classify(2.0, 25.0, 3000.0, None, Some(2.0), [0.0; 2]), Biome::Beach);
        assert_ne!(s.classify(2.0, 25.0, 3000.0, None, Some(300.0), [0.0; 2]), Biome::Beach);
        assert_eq!(s.classify(500.0, 15.0, 900.0, Some(50.0), None, [0.0; 2]), Biome::BareRock);
        assert_eq!(s.classify(3000.0, -5.0, 900.0, Some(10.0), None, [0.0; 2]), Biome::Snow);
        // The same cold, dry plateau carries none; a wet range is snowy a little warmer.
        assert_ne!(s.classify(4500.0, -5.0, 150.0, Some(2.0), None, [0.0; 2]), Biome::Snow);
        assert_eq!(s.classify(3000.0, 0.0, 4000.0, Some(10.0), None, [0.0; 2]), Biome::Snow);
        // An ice sheet's high surface is ice, not alpine snow.
        assert_eq!(s.classify(3000.0, -20.0, 900.0, Some(1.0), None, [0.0; 2]), Biome::Ice);
        assert_eq!(s.classify(500.0, 15.0, 1500.0, Some(5.0), None, [0.0; 2]), Biome::TemperateForest);
        assert_eq!(Biome::VARIANTS.iter().enumerate().filter(|(i, b)| **b as usize != *i).count(), 0);
        assert_eq!(Biome::from_index(3.0), Some(Biome::TemperateForest));
        assert_eq!(Biome::from_index(15.0), None);
    }
}
