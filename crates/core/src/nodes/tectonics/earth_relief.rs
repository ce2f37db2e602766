//! The Earth-like relief node: continents carried by plates, ocean floor by age, boundary
//! features by crust type, hotspot chains and the uplift for landscape evolution
//! (`tectonics::relief`).

use crate::nodes::output::planet::PlanetSettings;
use crate::nodes::prelude::*;
use crate::tectonics::relief::belts::BeltHeights;
use crate::tectonics::relief::hotspots::HotspotSettings;
use crate::tectonics::relief::{earth_relief, ReliefSettings};

/// Cells per face edge at which the node builds its plates' structure (at most; the
/// resolution when lower), for the memory estimate.
pub use crate::tectonics::relief::STRUCTURE_N;

crate::settings! {
    /// Settings of the Earth-like relief node.
    pub struct EarthReliefSettings, keys EarthReliefKeys {
        /// Share of the planet's area that is land.
        land_fraction: f32 = float("Land fraction", ReliefSettings::DEFAULT.land_fraction, 0.0, 1.0, Unit::None, 0.005, "Share of the planet's area above sea level before erosion (Earth: 0.29). Continents are a shape of their own, carried by the plates; boundary relief and islands move it by a point or two."),
        /// Continental cores.
        continents: usize = int("Continents", ReliefSettings::DEFAULT.continents as i64, 1, 8, "Continental cores placed apart at random; the largest holds about 40 % of the land (as Afro-Eurasia), the others less and less. Noise joins or splits some of them."),
        /// Coastline noise features around the equator.
        coast_frequency: f32 = float("Coast noise", ReliefSettings::DEFAULT.coast_frequency, 0.3, 32.0, Unit::Named("/planet"), 0.01, "Features of the noise that shapes coasts around the equator: larger values make more broken coasts, bays and islands."),
        /// Plate speed, cm/yr.
        plate_speed: f32 = float("Plate speed", ReliefSettings::DEFAULT.plate_speed_cm_yr, 0.1, 30.0, Unit::CentimetrePerYear, 0.05, "Speed of the fastest plate centres (plates move at 0.5 to 1 times it; Earth: 2 to 10 cm/yr). Sets ocean floor ages, and with it depths, and the height and width of orogens."),
        /// How far plate borders wander from the region cells.
        boundary_warp: f32 = float("Border warp", ReliefSettings::DEFAULT.boundary_warp, 0.0, 3.0, Unit::Named("regions"), 0.01, "How far plate borders wander from the region cells' straight edges, in region widths (0: the region outlines)."),
        /// Height of collision orogens at 5 cm/yr.
        collision_m: f32 = float("Orogen height", ReliefSettings::DEFAULT.heights.collision_m, 0.0, 12000.0, Unit::Metre, 10.0, "Height of a continent-continent collision belt at a convergence of 5 cm/yr (the Himalaya); its width also grows with speed (300 to 620 km)."),
        /// Height of plateaus behind collisions at 5 cm/yr.
        plateau_m: f32 = float("Plateau height", ReliefSettings::DEFAULT.heights.plateau_m, 0.0, 12000.0, Unit::Metre, 10.0, "Height of the plateau behind one side of a collision at 5 cm/yr (Tibet, about 4.5 to 5 km), a fifth less at half that speed. Only collisions faster than 2 cm/yr raise one; at 5 cm/yr it reaches 700 km behind the boundary, at 9.5 cm/yr or more 1050 km."),
        /// Height of cordilleras at 5 cm/yr.
        cordillera_m: f32 = float("Cordillera height", ReliefSettings::DEFAULT.heights.cordillera_m, 0.0, 12000.0, Unit::Metre, 10.0, "Height of the volcanic range 150 km inland where ocean dives under a continent (the Andes), at 5 cm/yr."),
        /// Height of island arcs above the floor at 5 cm/yr.
        island_arc_m: f32 = float("Island arc height", ReliefSettings::DEFAULT.heights.island_arc_m, 0.0, 12000.0, Unit::Metre, 10.0, "Height above the ocean floor of island arcs where ocean dives under ocean, at 5 cm/yr."),
        /// Depth trenches add below the floor at 5 cm/yr.
        trench_m: f32 = float("Trench depth", ReliefSettings::DEFAULT.heights.trench_m, 0.0, 12000.0, Unit::Metre, 10.0, "Depth a trench adds below the ocean floor where a plate dives, at 5 cm/yr (Earth's trenches: 6 to 11 km below sea level)."),
        /// Depth of continental rifts at 5 cm/yr.
        rift_m: f32 = float("Rift depth", ReliefSettings::DEFAULT.heights.rift_m, 0.0, 6000.0, Unit::Metre, 10.0, "Depth of the rift valley where continental crust parts, at 5 cm/yr."),
        /// Number of hotspots.
        hotspots: usize = int("Hotspots", ReliefSettings::DEFAULT.hotspots.count as i64, 0, 200, "Fixed mantle plumes: each leaves a chain of volcanoes and seamounts along its plate's motion, older and lower with distance."),
        /// Height of a fresh hotspot volcano above the floor, m.
        hotspot_m: f32 = float("Hotspot height", ReliefSettings::DEFAULT.hotspots.height_m, 0.0, 12000.0, Unit::Metre, 10.0, "Height above the ocean floor of the volcano over a plume (Hawaii: about 9 km from the floor); a sixth of it on continents."),
        /// Erodibility of plateau interiors relative to other land.
        plateau_erodibility: f32 = float("Plateau erodibility", ReliefSettings::DEFAULT.plateau_erodibility, 0.0, 1.0, Unit::None, 0.005, "How easily rivers cut the dry, internally drained interior of a plateau (Tibet), relative to other land (1), through the 'erodibility' output into Landscape evolution. Low values keep the plateau flat while its edges erode."),
        /// Small-scale relief strength.
        detail: f32 = float("Detail", ReliefSettings::DEFAULT.detail, 0.0, 4.0, Unit::None, 0.01, "Strength of the small-scale relief noise on continents (1: default)."),
        /// Height of the interiors' uplands, m.
        upland_height_m: f32 = float("Upland height", ReliefSettings::DEFAULT.upland_height_m, 0.0, 3000.0, Unit::Metre, 10.0, "How high the uplands of the continents' interiors (old orogens and swells, about a third of the interiors) stand above the plains, in m before erosion."),
        /// Uplift of the uplands, mm/yr.
        upland_uplift_mm_yr: f32 = float("Upland uplift", ReliefSettings::DEFAULT.upland_uplift_mm_yr, 0.0, 10.0, Unit::MillimetrePerYear, 0.01, "Rock uplift of the uplands in the uplift output, mm per year: the landscape evolution cuts them into hills and valleys while the basins between stay plains (0: the uplands are smooth swells)."),
        /// Variation of the rock's strength on land.
        rock_variation: f32 = float("Rock variation", ReliefSettings::DEFAULT.rock_variation, 0.0, 2.0, Unit::None, 0.01, "How much the rock's resistance to erosion varies on land, in patches about 160 km apart on Earth, through the 'erodibility' output: at 1 the rock is up to about 2.3 times harder or softer than the mean. Hard patches stand out as massifs and inselbergs above the weaker rock around them, with concave footslopes; 0: one rock everywhere."),
        /// Random seed.
        seed: u32 = seed(7),
    }
}

impl EarthReliefSettings {
    /// The relief module's settings on `planet` (its highest peak and deepest ocean scale the
    /// output, its radius turns widths and speeds into angles). The values' ranges are the
    /// parameters' declared ones, checked when the settings are read.
    pub fn relief(&self, planet: &PlanetSettings) -> ReliefSettings {
        ReliefSettings {
            seed: self.seed,
            land_fraction: self.land_fraction,
            continents: self.continents,
            coast_frequency: self.coast_frequency,
            plate_speed_cm_yr: self.plate_speed,
            boundary_warp: self.boundary_warp,
            heights: BeltHeights { trench_m: self.trench_m, cordillera_m: self.cordillera_m, island_arc_m: self.island_arc_m, collision_m: self.collision_m, plateau_m: self.plateau_m, rift_m: self.rift_m },
            hotspots: HotspotSettings { count: self.hotspots, height_m: self.hotspot_m, ..ReliefSettings::DEFAULT.hotspots },
            detail: self.detail,
            upland_height_m: self.upland_height_m,
            upland_uplift_mm_yr: self.upland_uplift_mm_yr,
            plateau_erodibility: self.plateau_erodibility,
            rock_variation: self.rock_variation,
            max_elevation_m: planet.max_elevation_m,
            max_depth_m: planet.max_depth_m,
            radius_km: planet.radius_km,
        }
    }
}

/// The Earth-like relief node.
pub struct EarthRelief;

crate::ports! {
    const INPUTS: In = [
        /// The plates that carry the continents.
        PLATES: Plates = super::PLATES_PORT,
    ];
}

crate::ports! {
    const OUTPUTS: Out = [
        /// Elevation, -1..1 of the planet's heights.
        ELEVATION: Field = PortDef::field("elevation"),
        /// Age of the ocean floor, Myr.
        AGE: Field = PortDef::field("age").with_unit(PortUnit::Of(Unit::MillionYears)),
        /// Rock uplift, mm/yr.
        UPLIFT: Field = PortDef::field("uplift").with_unit(PortUnit::Of(Unit::MillimetrePerYear)),
        /// Continental crust, 0..1.
        CRUST: Field = PortDef::field("crust"),
        /// Plate of each cell (0, 1, ...).
        PLATE_ID: Field = super::PLATE_ID_PORT,
        /// Plate motion per cell.
        MOTION: VectorField = super::MOTION_PORT,
        /// Erodibility, times Landscape evolution's K.
        ERODIBILITY: Field = PortDef::field("erodibility"),
    ];
}

impl Node for EarthRelief {
    type Settings = EarthReliefSettings;
    const META: NodeMeta = NodeMeta::new(
        "Earth-like relief",
        Category::Tectonics,
        "Relief from plates as on Earth: continents of their own carried by the plates with shelves and slopes, ocean floor deepening with age from the ridges, trenches, cordilleras, island arcs, collision orogens with a plateau, rifts and hotspot chains; an uplift output (mm/yr) and an erodibility output (low in dry plateau interiors) for Landscape evolution.",
        INPUTS,
        OUTPUTS,
        file!(),
    )
    .reading_planet().costing(85);

    /// The plates' structure, built at [`STRUCTURE_N`] cells per face edge (or `n` when lower):
    /// 116 bytes per structure cell (`bench --memory-probe` at 512, 1024 and 2048 measured 184,
    /// 109 and 87 bytes per cell in all, with the 85 per cell of the declared cost).
    fn extra_bytes(_: &EarthReliefSettings, n: usize) -> u64 {
        let m = n.min(STRUCTURE_N) as u64;
        116 * 6 * m * m
    }

    fn run(s: &EarthReliefSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let settings = s.relief(ctx.planet()?);
        let surface = earth_relief(inputs.port(PLATES)?, &settings, ctx.n, ctx.cancel)?;
        Ok(vec![surface.elevation.into(), surface.age_myr.into(), surface.uplift_mm_yr.into(), surface.crust.into(), surface.plate_id.into(), surface.motion.into(), surface.erodibility.into()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::output::planet::EARTH;
    use crate::nodes::params::Settings;
    use crate::nodes::NodeKind;

    fn defaults() -> EarthReliefSettings {
        EarthReliefSettings::from_params(&NodeKind::EarthRelief.default_params()).expect("defaults")
    }

    /// A value outside its declared range is refused where the settings are read, naming the
    /// parameter as the editor shows it.
    #[test]
    fn bad_parameters_name_the_parameter() {
        let with = |key: &str, v: f32| {
            let mut p = NodeKind::EarthRelief.default_params();
            p.insert(key.into(), crate::nodes::ParamValue::Float(v));
            EarthReliefSettings::from_params(&p).map(|_| ()).map_err(|e| e.to_string())
        };
        let k = EarthReliefSettings::KEYS;
        for (key, v, label) in [(k.plate_speed, 0.0, "Plate speed"), (k.trench_m, f32::NAN, "Trench depth"), (k.land_fraction, 1.5, "Land fraction"), (k.coast_frequency, 0.0, "Coast noise")] {
            let e = with(key, v).expect_err("refused");
            assert!(e.starts_with(label) && e.contains("is outside"), "{key}: {e}");
        }
        assert!(with(k.plate_speed, 5.0).is_ok());
        assert_eq!(defaults().relief(&EARTH).land_fraction, ReliefSettings::DEFAULT.land_fraction);
    }
}
