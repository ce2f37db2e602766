//! The Vegetation density node (seed 004): where one species grows and how densely, from the
//! biomes it lives in, a slope range and noise patches that make it grow in clusters.

use super::biomes::Biome;
use crate::nodes::masks::smoothstep;
use crate::nodes::prelude::*;
use crate::planet::fbm::{fbm_field, noise_radius, FastFbm};
use rayon::prelude::*;

crate::settings! {
    /// Settings of the Vegetation density node (one species; add a node per species).
    pub struct VegetationSettings, keys VegetationKeys {
        /// Biomes the species lives in.
        biomes: ChoiceSet<Biome> = set("Biomes", &["boreal_forest", "temperate_forest", "temperate_rainforest", "tropical_seasonal_forest", "tropical_rainforest"], Biome::OPTIONS, "The biomes this species grows in (the Biomes node's index input)."),
        /// Gentlest slope it grows on, degrees.
        min_slope_deg: f32 = float("Min slope", 0.0, 0.0, 90.0, Unit::Degree, 0.5, "Gentlest slope the species grows on (with a 5 deg fade)."),
        /// Steepest slope it grows on, degrees.
        max_slope_deg: f32 = float("Max slope", 30.0, 0.0, 90.0, Unit::Degree, 0.5, "Steepest slope the species grows on (with a 5 deg fade)."),
        /// Density where everything suits it.
        max_density: f32 = float("Max density", 1.0, 0.0, 1000.0, Unit::None, 0.01, "Density where biome, slope and patches all suit the species (in your unit: cover 0..1, trees per hectare ...)."),
        /// Features of the patch noise per planet.
        patch_frequency: f32 = float("Patch frequency", 300.0, 1.0, 10000.0, Unit::Named("/planet"), 1.0, "Patches around the equator: higher gives smaller clusters."),
        /// How much the patches matter (0: even cover).
        clustering: f32 = float("Clustering", 0.6, 0.0, 1.0, Unit::None, 0.01, "0: the species covers its area evenly; 1: it grows only in patches, with gaps between."),
        /// Seed of the patches.
        seed: u32 = seed(12),
    }
}

/// The Vegetation density node.
pub struct Vegetation;

crate::ports! {
    const INPUTS: In = [
        /// Biome index (Biomes' `biome`).
        BIOME: Field = PortDef::field("biome"),
        /// Optional slope, degrees.
        SLOPE: Field = PortDef::optional("slope_deg", PortType::Field),
    ];
}

crate::ports! {
    const OUTPUTS: Out = [
        /// Density of the species, 0..1.
        DENSITY: Field = PortDef::field("density"),
    ];
}

impl Node for Vegetation {
    type Settings = VegetationSettings;
    const META: NodeMeta = NodeMeta::new("Vegetation density", Category::Texture, "Density of one species: its biomes, a slope range and noise patches for clusters. Add one node per species.", INPUTS, OUTPUTS, file!()).costing(9);

    fn run(s: &VegetationSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let (biome, slope) = (inputs.port(BIOME)?, inputs.port_opt(SLOPE)?);
        let grid = biome.grid();
        let patches = fbm_field(&FastFbm::new(s.seed, 4, 0.5, 2.0), grid, noise_radius(s.patch_frequency), 1.0);
        ctx.check()?;
        let allowed: Vec<bool> = Biome::VARIANTS.iter().map(|&b| s.biomes.contains(b)).collect();
        let data: Vec<f32> = (0..grid.cells())
            .into_par_iter()
            .map(|c| {
                let here = Biome::from_index(biome.data()[c]).is_some_and(|b| allowed[b as usize]);
                if !here {
                    return 0.0;
                }
                let fit = slope.map_or(1.0, |f| {
                    let v = f.data()[c];
                    smoothstep(s.min_slope_deg - 5.0, s.min_slope_deg, v) * (1.0 - smoothstep(s.max_slope_deg, s.max_slope_deg + 5.0, v))
                });
                let p = ((patches.data()[c] + 1.0) * 0.5).clamp(0.0, 1.0);
                let cluster = 1.0 - s.clustering * (1.0 - smoothstep(0.4, 0.6, p));
                s.max_density * fit * cluster
            })
            .collect();
        Ok(vec![Field::from_vec_on(grid, data)?.into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn grows_in_its_biomes_on_its_slopes_in_clusters() {
        let n = 32;
        // Temperate forest in the east, desert in the west; flat in the north, steep in the south.
        let biome = Field::from_fn_dir(n, |d| if d.x > 0.0 { Biome::TemperateForest as usize as f32 } else { Biome::Desert as usize as f32 });
        let slope = Field::from_fn_dir(n, |d| if d.y > 0.0 { 5.0 } else { 60.0 });
        let cancel = AtomicBool::new(false);
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        let out = NodeKind::Vegetation.run(&NodeKind::Vegetation.default_params(), &[Some(biome.into()), Some(slope.into())], &ctx).expect("runs");
        let d = out[0].as_field().expect("density");
        let mean = |f: &dyn Fn(glam::Vec3) -> bool| {
            let cells: Vec<f32> = (0..6 * n * n).filter(|&c| f(crate::planet::Cell::from_index(c, n).direction(n))).map(|c| d.data()[c]).collect();
            cells.iter().sum::<f32>() / cells.len().max(1) as f32
        };
        let good = mean(&|p| p.x > 0.1 && p.y > 0.1);
        assert!(good > 0.3, "forest on gentle slopes: {good}");
        assert_eq!(mean(&|p| p.x < -0.1), 0.0, "nothing in the desert");
        assert_eq!(mean(&|p| p.x > 0.1 && p.y < -0.1), 0.0, "nothing on 60 deg slopes");
        // Clusters: the density varies within the suitable area.
        let (lo, hi) = (0..6 * n * n).filter(|&c| d.data()[c] > 0.0).fold((f32::MAX, 0.0f32), |(a, b), c| (a.min(d.data()[c]), b.max(d.data()[c])));
        assert!(hi - lo > 0.3, "{lo}..{hi}");
    }
}
