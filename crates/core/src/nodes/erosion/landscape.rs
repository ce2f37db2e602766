//! The Landscape evolution node: tectonic uplift against stream-power river incision and
//! hillslope diffusion on the whole planet, implicit and coarse to fine (see
//! `crate::erosion::landscape`).

use crate::erosion::landscape::lakes::refine_lakes;
use crate::erosion::landscape::refine::{hillslopes, refine_courses, RunPlanet};
use crate::erosion::landscape::{evolve, total_steps, LandscapeInputs, LandscapeSettings};
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Landscape evolution node.
    pub struct LandscapeEvolutionSettings, keys LandscapeEvolutionKeys {
        /// Simulated time, Myr.
        time_myr: f32 = float("Simulated time", 20.0, 0.0, 1000.0, Unit::MillionYears, 0.5, "Millions of years of uplift and erosion, spent at 128 cells per face edge in steps of at most 100 000 years; each finer level then adds 5 steps. Ranges approach a steady state (uplift balanced by erosion) after some tens of Myr."),
        /// Simulated time at each finer level, Myr.
        level_myr: f32 = float("Time per finer level", 2.0, 0.0, 100.0, Unit::MillionYears, 0.1, "Millions of years at 256 cells per face edge, the first level finer than 128 (5 steps; each finer level then gets the Finer level time ratio of the one before): time for the hills and valleys that finer cells can hold to grow under the uplift, while the rivers of the 128 run keep their courses. More: more relief between the ranges and higher ground in builds above 128; 0: finer levels only add the input's detail."),
        /// Share of the time of the level before that each finer level gets (from the second finer level on).
        level_ratio: f32 = float("Finer level time ratio", 0.71, 0.1, 1.0, Unit::None, 0.01, "Each level from 512 cells per face edge on gets this share of the time of the level before it (256 gets the Time per finer level): finer hills and valleys reach their relief sooner, as a hillslope's response time grows with the square of its length. 0.71 (1 / the square root of 2) keeps a 1024 build's flats and local relief near Earth's at the same cells (bench --earth); 1: every finer level gets the Time per finer level, and each adds relief of its own."),
        /// Uplift of an uplift input of 1, mm/yr.
        uplift_mm_yr: f32 = float("Uplift", 2.0, 0.0, 100.0, Unit::MillimetrePerYear, 0.01, "Rock uplift of an 'uplift' input value of 1, in mm per year (young mountain belts: 1 to 10). Connect the plates' pressure (clamped at 0) to raise ranges where plates converge."),
        /// Uplift of every land cell, mm/yr.
        land_uplift_mm_yr: f32 = float("Land uplift", 0.08, 0.0, 100.0, Unit::MillimetrePerYear, 0.005, "Uplift of every cell that starts above sea level, on top of the uplift input's, in mm per year: slow continental uplift and the rebound of the crust as erosion unloads it (0.02 to 0.2). Without it, plains wear down to sea level over tens of Myr."),
        /// Erodibility K in 1e-6 m^(1-2m)/yr.
        k_micro: f32 = float("Erodibility K", 2.0, 0.0, 1000.0, Unit::Named("1e-6 m^(1-2m)/yr"), 0.05, "How easily rivers cut rock in the stream-power law E = K A^m S^n (A in m²), in millionths. Higher: lower, more dissected ranges; steady relief grows as (uplift / K)^(1/n). The 'erodibility' input multiplies it per cell."),
        /// Drainage-area exponent m.
        m: f32 = float("Area exponent m", 0.45, 0.01, 3.0, Unit::None, 0.01, "Exponent of the drainage area in the stream-power law. m / n is the rivers' concavity (Earth: 0.35 to 0.6)."),
        /// Slope exponent n.
        n: f32 = float("Slope exponent n", 1.0, 0.01, 3.0, Unit::None, 0.01, "Exponent of the slope in the stream-power law (1 is the common choice; other values are solved by Newton's method)."),
        /// Hillslope diffusivity, m²/yr.
        diffusion: f32 = float("Hillslope diffusion", 0.05, 0.0, 10.0, Unit::SquareMetrePerYear, 0.005, "Soil creep that rounds hills: D in dh/dt = D ∇²h, in m² per year (Earth: 0.001 to 0.1). Shows only on fine grids, where cells are a few km."),
        /// Critical hillslope angle, degrees.
        critical_angle_deg: f32 = float("Critical slope", 35.0, 1.0, 90.0, Unit::Degree, 0.5, "Slopes steeper than this collapse to it (landslides). 90 turns it off."),
        /// Keep depressions as lakes.
        lakes: bool = boolean("Lakes", true, "On: closed basins hold lakes; water crosses them over their sills and they are not cut below the water. Off: basins fill with sediment up to their sills."),
        /// River drainage area, km².
        river_area_km2: f32 = float("River area", 20000.0, 1.0, 10000000.0, Unit::SquareKilometre, 100.0, "Drainage area from which a cell is marked as river in the 'rivers' output."),
        /// Least width of the largest rivers in the rivers output, km.
        river_lines_km: f32 = float("River lines", 10.0, 0.0, 100.0, Unit::Kilometre, 0.1, "Least width the largest rivers are painted in the 'rivers' output (100 000 m³/s and more; narrower down to nothing at 2 000 m³/s, on a logarithmic scale), so they read as thin lines from mid altitudes where the cells are much wider than the river: 10 km covers 0.5 of a 512 build's cells on an Earth-sized planet. 0: every river at its true width (4 m x the square root of its discharge)."),
    }
}

impl LandscapeEvolutionSettings {
    /// The simulation's settings on `planet` (its sea level, highest peak and radius). The
    /// values' ranges are the parameters' declared ones, checked when the settings are read.
    pub fn simulation(&self, planet: &crate::nodes::output::planet::PlanetSettings) -> LandscapeSettings {
        LandscapeSettings {
            time_myr: f64::from(self.time_myr),
            level_myr: f64::from(self.level_myr),
            level_ratio: f64::from(self.level_ratio),
            uplift_mm_yr: f64::from(self.uplift_mm_yr),
            land_uplift_mm_yr: f64::from(self.land_uplift_mm_yr),
            k: f64::from(self.k_micro) * 1e-6,
            m: f64::from(self.m),
            n: f64::from(self.n),
            diffusion: f64::from(self.diffusion),
            critical_angle_deg: f64::from(self.critical_angle_deg),
            sea_level: planet.sea_level,
            metres_per_unit: planet.max_elevation_m,
            radius_km: f64::from(planet.radius_km),
            lakes: self.lakes,
            river_area_km2: f64::from(self.river_area_km2),
            river_lines_m: self.river_lines_km * 1000.0,
        }
    }
}

/// The Landscape evolution node.
pub struct LandscapeEvolution;

crate::ports! {
    const INPUTS: In = [
        /// The elevation evolved (-1..1 of the planet's heights).
        ELEVATION_IN: Field = PortDef::field("elevation"),
        /// Optional rock uplift, mm/yr.
        UPLIFT: Field = PortDef::optional("uplift", PortType::Field),
        /// Optional annual precipitation, mm/yr.
        PRECIPITATION: Field = PortDef::optional("precipitation", PortType::Field),
        /// Optional erodibility, times the K setting.
        ERODIBILITY: Field = PortDef::optional("erodibility", PortType::Field),
    ];
}

crate::ports! {
    const OUTPUTS: Out = [
        /// The evolved elevation.
        ELEVATION: Field = PortDef::field("elevation"),
        /// Drainage area, km².
        AREA: Field = PortDef::field("area").with_unit(PortUnit::Of(Unit::SquareKilometre)),
        /// Discharge, m³/s.
        DISCHARGE: Field = PortDef::field("discharge").with_unit(PortUnit::Of(Unit::CubicMetrePerSecond)),
        /// The share of each cell a river covers, 0..1.
        RIVERS: Field = PortDef::field("rivers"),
        /// 1 on lake cells.
        LAKES: Field = PortDef::field("lakes"),
        /// Erosion (negative) or deposition, m.
        EROSION: Field = PortDef::field("erosion").with_unit(PortUnit::Of(Unit::Metre)),
        /// 1 away from rivers and lakes, 0 on their floors.
        HILLSLOPES: Field = PortDef::field("hillslopes"),
        /// Sediment deposited (the positive part of the erosion output), m.
        SEDIMENT: Field = PortDef::field("sediment").with_unit(PortUnit::Of(Unit::Metre)),
        /// Rock exposed, 0..1: `1 - exp(-cut / ROCK_CUT_M)` of the depth cut.
        ROCK: Field = PortDef::field("rock"),
    ];
}

/// The depth of ground cut, m, over which the rock output rises to 1 - 1/e: weathered cover is
/// metres to tens of metres thick, so ground cut by a hundred metres or more shows bare rock
/// and the floors of basins that filled show none.
pub const ROCK_CUT_M: f32 = 100.0;

impl Node for LandscapeEvolution {
    type Settings = LandscapeEvolutionSettings;
    const META: NodeMeta = NodeMeta::new(
        "Landscape evolution",
        Category::Erosion,
        "Mountain ranges carved by rivers: rock uplift (the uplift input, for example the plates' pressure, in mm/yr) against river incision by the stream-power law and hillslope creep, over millions of years on the whole planet (implicit, so any time step is stable). Water crosses closed basins to the sea. Most of the time runs at 128 cells per face edge, then a few steps per finer level, so a preview shows the build's river network. Outputs the elevation, drainage area (km²), discharge (m³/s), the rivers (the share of each cell a river covers at its true width, so rivers are faint from orbit) and lakes masks, the erosion (m, negative) or deposition, the hillslopes (1 away from rivers and lakes, 0 on their floors: a mask for fine detail), and for engines' layers the sediment deposited (m) and the rock exposed (0..1, rising with the depth cut: 0.63 at 100 m). Finer than its run (close-ups, large builds) the rivers become lines as wide as the rivers, the elevation gathers into valleys along them, and the hillslopes mask leaves the valley floors smooth.",
        INPUTS,
        OUTPUTS,
        file!(),
    )
    .reading_planet().costing(80);

    fn run(s: &LandscapeEvolutionSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        let sim = s.simulation(ctx.planet()?);
        let elevation = inputs.port(ELEVATION_IN)?;
        let (uplift, precipitation, erodibility) = (inputs.port_opt(UPLIFT)?, inputs.port_opt(PRECIPITATION)?, inputs.port_opt(ERODIBILITY)?);
        let fields = LandscapeInputs { elevation, uplift: uplift.map(|f| f.as_ref()), precipitation: precipitation.map(|f| f.as_ref()), erodibility: erodibility.map(|f| f.as_ref()) };
        let l = with_steps(ctx, total_steps(elevation.n(), sim.time_myr, sim.level_myr), |counter| evolve(fields, &sim, counter, ctx.cancel))?;
        let hillslopes = l.rivers.zip(&l.lakes, |river, lake| 1.0 - river.max(lake));
        let sediment = l.erosion_m.map(|e| e.max(0.0));
        let rock = l.erosion_m.map(|e| 1.0 - (-(-e).max(0.0) / ROCK_CUT_M).exp());
        Ok(vec![l.elevation.into(), l.area_km2.into(), l.discharge.into(), l.rivers.into(), l.lakes.into(), l.erosion_m.into(), hillslopes.into(), sediment.into(), rock.into()])
    }

    /// On a grid finer than the run, the rivers are lines from each river cell to the cell it
    /// drains into, as wide as the river, the elevation gathers into a valley along them, the
    /// hillslopes fall to 0 on those valleys' floors ([`refine_courses`], one pass for the
    /// three, and [`hillslopes`]), and the lakes' shores follow the ground's contour at their
    /// water level ([`refine_lakes`]); the other outputs are sampled.
    fn refine(_s: &Self::Settings, r: &Refine) -> Result<Vec<Option<Value>>, OpError> {
        let (outputs, wanted, grid, planet) = (r.outputs, r.wanted, r.grid, r.planet);
        let field = |p: OutPort<Field>| p.value_in(outputs).ok().flatten().cloned();
        let want = |p: OutPort<Field>| wanted.get(p.index()).copied().unwrap_or(false);
        let mut out: Vec<Option<Value>> = vec![None; outputs.len()];
        let lakes = (want(LAKES) || want(HILLSLOPES)).then(|| field(LAKES).zip(field(ELEVATION)).map(|(l, h)| refine_lakes(&l, &h, grid))).flatten();
        if want(ELEVATION) || want(RIVERS) || want(HILLSLOPES) {
            if let (Some(elevation), Some(area), Some(discharge), Some(rivers), Some(planet)) = (field(ELEVATION), field(AREA), field(DISCHARGE), field(RIVERS), planet) {
                let refined = refine_courses(&elevation, &rivers, &area, &discharge, grid, RunPlanet { radius_km: planet.radius_km, sea_level: planet.sea_level, units_per_metre: planet.from_metres(1.0) - planet.sea_level });
                if want(HILLSLOPES) {
                    out[HILLSLOPES.index()] = lakes.as_ref().map(|l| hillslopes(&refined.sides, l).into());
                }
                out[ELEVATION.index()] = want(ELEVATION).then(|| refined.elevation.into());
                out[RIVERS.index()] = want(RIVERS).then(|| refined.rivers.into());
            }
        }
        if want(LAKES) {
            out[LAKES.index()] = lakes.map(Into::into);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::params::ParamValue;
    use crate::nodes::NodeKind;

    fn ctx_run(params: &crate::nodes::params::ParamMap, inputs: &[Option<Value>]) -> Result<Vec<Value>, OpError> {
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = OpContext { tile: None, n: 16, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        NodeKind::LandscapeEvolution.run(params, inputs, &ctx)
    }

    #[test]
    fn bad_parameters_and_inputs_are_named_on_the_node() {
        let h = Value::Field(Arc::new(crate::erosion::test_hills(16)));
        let defaults = NodeKind::LandscapeEvolution.default_params();
        let mut quick = defaults.clone();
        quick.insert("time_myr".into(), ParamValue::Float(1.0));
        let out = ctx_run(&quick, &[Some(h.clone()), None, None, None]).expect("runs at the defaults");
        assert_eq!(out.len(), 9);
        // Sediment is the deposition, rock rises with the depth cut.
        let (erosion, sediment, rock) = (out[EROSION.index()].as_field().expect("erosion").clone(), out[SEDIMENT.index()].as_field().expect("sediment").clone(), out[ROCK.index()].as_field().expect("rock").clone());
        for ((e, s), r) in erosion.data().iter().zip(sediment.data()).zip(rock.data()) {
            assert_eq!(*s, e.max(0.0));
            assert!((0.0..=1.0).contains(r) && (*e < 0.0 || *r == 0.0), "erosion {e}: rock {r}");
        }
        for (key, value, label) in
            [("time_myr", -1.0, "Simulated time"), ("k_micro", -0.5, "Erodibility K"), ("diffusion", -0.1, "Hillslope diffusion"), ("m", 0.0, "Area exponent m"), ("n", 3.5, "Slope exponent n"), ("m", f32::NAN, "Area exponent m")]
        {
            let mut p = quick.clone();
            p.insert(key.into(), ParamValue::Float(value));
            let err = ctx_run(&p, &[Some(h.clone()), None, None, None]).expect_err("refused");
            assert!(err.to_string().contains(label), "{key}: {err}");
        }
        let mut nan = crate::erosion::test_hills(16);
        nan.data_mut()[7] = f32::NAN;
        let err = ctx_run(&quick, &[Some(h), Some(Value::Field(Arc::new(nan))), None, None]).expect_err("NaN uplift");
        assert!(err.to_string().contains("uplift"), "{err}");
    }
}
