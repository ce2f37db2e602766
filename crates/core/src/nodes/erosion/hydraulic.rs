//! The Hydraulic erosion node: seed 002's virtual pipes on the whole planet, with presets.
//!
//! The model has units of its own, explained on every parameter: a height unit (h.u.) is the
//! width of a cell at 128 cells per face edge, and elevation 1.0 is `Relief` of them high; a
//! time unit (t.u.) is the model's clock, and `Iterations x Time step` of them are simulated.

use super::RELIEF;
use crate::erosion::hydraulic::{hydraulic, steps_at, HydraulicSettings};
use crate::nodes::prelude::*;

crate::choices! {
    /// How suspended sediment moves with the water.
    pub enum SedimentTransport {
        /// With the water the pipes carry between neighbours (conservative).
        DonorCell = ("donor_cell", "Donor cell"),
        /// Seed 002's back-trace, with the total restored after each step.
        SemiLagrangian = ("semi_lagrangian", "Semi-Lagrangian"),
    }
}

crate::settings! {
    /// Settings of the Hydraulic erosion node (height units, h.u.: elevation times relief;
    /// time units, t.u.: the model's clock).
    pub struct HydraulicErosionSettings, keys HydraulicErosionKeys {
        /// Steps at 128 cells per face edge.
        iterations: usize = int("Iterations", HydraulicSettings::DEFAULT.iterations as i64, 0, 5000, "Simulation steps at 128 cells per face edge; scaled with the resolution (so previews run fewer), the same simulated time at any resolution. Simulated time = iterations x time step, in the model's time units (t.u.)."),
        /// Time per step at 128 cells per face edge.
        dt: f32 = float("Time step", HydraulicSettings::DEFAULT.dt, 0.001, 0.5, Unit::Named("t.u."), 0.001, "Model time per step at 128 cells per face edge (scaled with the resolution), in time units (t.u.: the model's own clock, which every rate below is per). Larger is faster but coarser."),
        /// Height of 1.0 of elevation in cells at 128.
        relief: f32 = RELIEF,
        /// Water added per unit time, height units.
        rain: f32 = float("Rain", HydraulicSettings::DEFAULT.rain, 0.0, 1.0, Unit::Named("h.u./t.u."), 0.001, "Water depth added to every land cell per time unit (r), in height units (h.u.: the width of a cell at 128 per face edge; elevation 1.0 is Relief h.u. high). 0.1 over 15 t.u. (the defaults) rains 1.5 h.u."),
        /// Seed 002's g A / l.
        gravity: f32 = float("Gravity", HydraulicSettings::DEFAULT.gravity, 0.1, 50.0, Unit::Named("h.u./t.u.^2"), 0.1, "Gravity times pipe cross-section over pipe length (g A / l): how hard height differences push water. The acceleration of water on a slope of 1, in height units per time unit squared."),
        /// Seed 002's k_S.
        capacity: f32 = float("Capacity", HydraulicSettings::DEFAULT.capacity, 0.0, 20.0, Unit::Named("t.u."), 0.01, "Sediment capacity constant (k_S): the sediment water can carry, in h.u. of ground, is k_S |v| sin(slope) with the speed |v| in h.u./t.u. Higher: more ground moved, deeper valleys."),
        /// Smallest slope sine used for the capacity.
        min_slope: f32 = float("Minimum slope", HydraulicSettings::DEFAULT.min_slope, 0.0, 1.0, Unit::Named("sin"), 0.001, "Smallest slope (as its sine: 0.05 is about 3 degrees at the model's Relief) used for the capacity, so flat ground still erodes a little. Low: plains stay, slopes carve (badlands)."),
        /// Water depth from which the capacity is full, height units.
        full_depth: f32 = float("Full-capacity depth", HydraulicSettings::DEFAULT.full_depth, 0.0, 10.0, Unit::Named("h.u."), 0.01, "Water depth, in height units, from which the capacity is full; shallower water carries proportionally less, so erosion follows where water gathers and carves channels instead of roughening every slope. 0: no ramp."),
        /// Seed 002's k_E per unit time.
        dissolve: f32 = float("Dissolving", HydraulicSettings::DEFAULT.dissolve, 0.0, 10.0, Unit::Named("/t.u."), 0.01, "Share of the missing load (capacity minus sediment) that water picks up from the ground per time unit (k_E). High: soft rock."),
        /// Seed 002's k_D per unit time.
        deposit: f32 = float("Deposition", HydraulicSettings::DEFAULT.deposit, 0.0, 10.0, Unit::Named("/t.u."), 0.01, "Share of the excess load (sediment above capacity) that water drops per time unit (k_D). High: fans and filled valley floors near the ranges."),
        /// Seed 002's k_T per unit time.
        evaporation: f32 = float("Evaporation", HydraulicSettings::DEFAULT.evaporation, 0.0, 10.0, Unit::Named("/t.u."), 0.01, "Share of the water lost per time unit (k_T). High: water runs only a short way, so only the slopes near the ridges erode."),
        /// How sediment moves.
        transport: SedimentTransport = SedimentTransport::DonorCell.param("Sediment transport", "How suspended sediment moves with the water. Donor cell: with the water the pipes carry between neighbours (conservative, little smearing). Semi-Lagrangian: a back-trace, each cell takes the sediment from where its water came from (up to 2 cells, across seams), with the total restored after each step."),
        /// Sediment exchange between wet neighbours per unit time.
        sediment_diffusion: f32 = float("Sediment diffusion", HydraulicSettings::DEFAULT.sediment_diffusion, 0.0, 10.0, Unit::Named("/t.u."), 0.01, "Share of the difference in suspended sediment that wet neighbours exchange per time unit (against streaks)."),
        /// Hillslope creep, reference cells squared per unit time.
        creep: f32 = float("Hillslope creep", HydraulicSettings::DEFAULT.creep, 0.0, 1.0, Unit::Named("cells^2/t.u."), 0.001, "Land heights diffuse with this coefficient, in cells of a 128 face edge squared per time unit (material is conserved). Sets how wide valleys and ridges are on the planet, independent of resolution; 0 turns it off."),
    }
}

impl HydraulicErosionSettings {
    /// The simulation's settings.
    pub fn simulation(&self, planet: &crate::nodes::output::planet::PlanetSettings) -> HydraulicSettings {
        HydraulicSettings {
            iterations: self.iterations,
            dt: self.dt,
            relief: self.relief,
            rain: self.rain,
            gravity: self.gravity,
            capacity: self.capacity,
            min_slope: self.min_slope,
            full_depth: self.full_depth,
            dissolve: self.dissolve,
            deposit: self.deposit,
            evaporation: self.evaporation,
            sediment_diffusion: self.sediment_diffusion,
            creep: self.creep,
            sea_level: planet.sea_level,
            semi_lagrangian: self.transport == SedimentTransport::SemiLagrangian,
        }
    }
}

/// A starting point for the node's settings: how much and how the water carves. A preset sets
/// the amounts (rain, capacity, dissolving, deposition, evaporation, time, slope floor, creep)
/// and keeps the rest (time step, relief, gravity, transport).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HydraulicPreset {
    /// Softened slopes and shallow gullies; the land keeps its shape.
    Light,
    /// The node's defaults: valleys on the slopes, sediment in the lowlands.
    Moderate,
    /// Deep valleys and wide sediment plains: much more ground moved.
    Strong,
    /// Dense, sharp gullies on every slope: soft rock, no creep to round them.
    Badlands,
}

impl HydraulicPreset {
    /// Every preset in menu order.
    pub const ALL: [HydraulicPreset; 4] = [HydraulicPreset::Light, HydraulicPreset::Moderate, HydraulicPreset::Strong, HydraulicPreset::Badlands];

    /// Menu label.
    pub fn label(self) -> &'static str {
        match self {
            HydraulicPreset::Light => "Light",
            HydraulicPreset::Moderate => "Moderate (defaults)",
            HydraulicPreset::Strong => "Strong",
            HydraulicPreset::Badlands => "Badlands",
        }
    }

    /// What it looks like (the menu entry's tooltip).
    pub fn description(self) -> &'static str {
        match self {
            HydraulicPreset::Light => "Softened slopes and shallow gullies; the land keeps its shape",
            HydraulicPreset::Moderate => "The node's defaults: valleys on the slopes, sediment in the lowlands",
            HydraulicPreset::Strong => "Deep valleys and wide sediment plains: much more ground moved",
            HydraulicPreset::Badlands => "Dense, sharp gullies on every slope: soft rock, little creep, water that stays",
        }
    }

    /// Sets the amounts of `s` to this preset's.
    pub fn apply(self, s: &mut HydraulicErosionSettings) {
        // (iterations, rain, capacity, min slope, full depth, dissolve, deposit, evaporation, sediment diffusion, creep)
        let v = match self {
            HydraulicPreset::Light => (60, 0.06, 0.6, 0.05, 0.5, 0.3, 0.5, 0.4, 0.2, 0.03),
            HydraulicPreset::Moderate => (100, 0.1, 1.0, 0.05, 0.5, 0.5, 0.5, 0.3, 0.2, 0.02),
            HydraulicPreset::Strong => (200, 0.15, 2.0, 0.05, 0.5, 1.0, 0.5, 0.2, 0.2, 0.02),
            HydraulicPreset::Badlands => (160, 0.2, 3.0, 0.01, 0.1, 2.0, 0.3, 0.1, 0.05, 0.0),
        };
        (s.iterations, s.rain, s.capacity, s.min_slope, s.full_depth, s.dissolve, s.deposit, s.evaporation, s.sediment_diffusion, s.creep) = v;
    }

    /// The preset whose amounts `s` has, if any.
    pub fn matching(s: &HydraulicErosionSettings) -> Option<HydraulicPreset> {
        HydraulicPreset::ALL.into_iter().find(|p| {
            let mut t = s.clone();
            p.apply(&mut t);
            t == *s
        })
    }
}

/// The Hydraulic erosion node.
pub struct HydraulicErosion;

crate::ports! {
    const OUTPUTS: Out = [
        /// The eroded elevation.
        ELEVATION: Field = PortDef::field("elevation"),
        /// Water left standing, h.u.
        WATER: Field = PortDef::field("water"),
        /// Sediment carried by the water, h.u.
        SEDIMENT: Field = PortDef::field("sediment"),
        /// Sediment deposited, h.u.
        DEPOSITED: Field = PortDef::field("deposited"),
        /// Speed of the flow.
        FLOW: Field = PortDef::field("flow"),
        /// Where water ran, 0..1.
        PRESENCE: Field = PortDef::field("presence"),
    ];
}

impl Node for HydraulicErosion {
    type Settings = HydraulicErosionSettings;
    const META: NodeMeta = NodeMeta::new(
        "Hydraulic erosion",
        Category::Erosion,
        "Rain, flow across the whole planet, dissolving and deposition, sediment carried with the water, evaporation. Water reaching the sea (the planet's sea level) leaves and drops its sediment. Presets (light, moderate, strong, badlands) set the amounts in one click. Units: a height unit (h.u.) is the width of a cell at 128 per face edge, elevation 1.0 is Relief h.u. high; a time unit (t.u.) is the model's clock, Iterations x Time step t.u. are simulated.",
        IN,
        OUTPUTS,
        file!(),
    )
    .reading_planet().costing(109);

    fn run(s: &HydraulicErosionSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let f = inputs.port(FIELD_IN)?;
        let sim = s.simulation(ctx.planet()?);
        let r = with_steps(ctx, steps_at(sim.iterations, f.n()), |c| hydraulic(f, &sim, ctx.cancel, c))?;
        Ok(vec![r.elevation.into(), r.water.into(), r.sediment.into(), r.deposited.into(), r.speed.into(), r.presence.into()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::output::planet::EARTH;
    use crate::nodes::params::Settings;
    use crate::nodes::NodeKind;

    fn defaults() -> HydraulicErosionSettings {
        HydraulicErosionSettings::from_params(&NodeKind::HydraulicErosion.default_params()).expect("defaults")
    }

    /// Ground moved (mean |change| of land) and gully sharpness (mean |Laplacian| of the
    /// change) of a preset on hills at 64 cells per face edge.
    fn figures(p: HydraulicPreset) -> (f64, f64) {
        let mut s = defaults();
        p.apply(&mut s);
        let h = crate::erosion::test_hills(64);
        let sim = s.simulation(&EARTH);
        let r = hydraulic(&h, &sim, &std::sync::atomic::AtomicBool::new(false), &std::sync::atomic::AtomicUsize::new(0)).expect("runs");
        let change: Vec<f32> = r.elevation.data().iter().zip(h.data()).map(|(a, b)| a - b).collect();
        let land: Vec<usize> = (0..change.len()).filter(|&c| h.data()[c] > 0.0).collect();
        let moved = land.iter().map(|&c| f64::from(change[c].abs())).sum::<f64>() / land.len() as f64;
        // The change against the mean of its four neighbours (across seams).
        let t = crate::planet::pipes::pipes4(64);
        let sharp = land.iter().map(|&c| f64::from((change[c] - t.to[c].iter().map(|&k| change[k as usize]).sum::<f32>() / 4.0).abs())).sum::<f64>() / land.len() as f64;
        (moved, sharp / moved.max(1e-12))
    }

    /// The presets differ as their names say: light moves least, strong more than the
    /// defaults, badlands cuts the sharpest gullies; the defaults are the Moderate preset.
    #[test]
    fn presets_move_the_ground_as_named() {
        assert_eq!(HydraulicPreset::matching(&defaults()), Some(HydraulicPreset::Moderate));
        let [light, moderate, strong, badlands] = HydraulicPreset::ALL.map(figures);
        eprintln!("moved, sharpness: light {light:?} moderate {moderate:?} strong {strong:?} badlands {badlands:?}");
        assert!(light.0 < moderate.0 * 0.8, "{light:?} {moderate:?}");
        assert!(strong.0 > moderate.0 * 1.5, "{strong:?} {moderate:?}");
        assert!(badlands.1 > moderate.1 * 1.2, "{badlands:?} {moderate:?}");
        for p in HydraulicPreset::ALL {
            let mut s = defaults();
            p.apply(&mut s);
            assert_eq!(HydraulicPreset::matching(&s), Some(p));
            for (key, value) in s.to_params() {
                let def = NodeKind::HydraulicErosion.param(&key).expect("declared");
                def.check(&value).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            }
        }
    }
}
