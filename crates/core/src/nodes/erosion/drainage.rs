//! The Drainage rivers node: depressions filled into lakes, flow routed to the sea across face
//! seams, discharge accumulated from the rain, rivers where it passes a threshold, and valleys
//! carved deeper and wider as the discharge grows (see `crate::erosion::drainage`).

use crate::erosion::drainage::{drainage, DrainageSettings};
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Drainage rivers node.
    pub struct DrainageRiversSettings, keys DrainageRiversKeys {
        /// Precipitation where the precipitation input is not connected, mm per year.
        rain_mm: f32 = float("Rainfall", 1000.0, 0.0, 20000.0, Unit::MillimetrePerYear, 10.0, "Precipitation on every land cell when the 'precipitation' input (mm per year, from the Precipitation node) is not connected. All of it runs off: no evaporation."),
        /// Discharge from which a cell is a river, m³/s.
        threshold_m3s: f32 = float("River threshold", 3000.0, 1.0, 1000000.0, Unit::CubicMetrePerSecond, 10.0, "Mean discharge from which a cell is a river. With 1000 mm/yr of rain, 3000 m³/s drains about 95 000 km². Lower: more, smaller rivers."),
        /// Valley depth at the threshold discharge, input units.
        depth: f32 = float("Valley depth", 0.015, 0.0, 1.0, Unit::None, 0.001, "Depth of the valley a river cuts at the threshold discharge, in the input's unit (with the Planet node's defaults 1.0 is 6000 m, so 0.015 is 90 m)."),
        /// Growth of the depth with the discharge.
        depth_exponent: f32 = float("Depth exponent", 0.4, 0.0, 1.5, Unit::None, 0.01, "Depth grows as (discharge / threshold) to this power (rivers: about 0.4)."),
        /// Valley half-width at the threshold discharge, km.
        width_km: f32 = float("Valley width", 40.0, 0.1, 2000.0, Unit::Kilometre, 1.0, "Half-width of the valley at the threshold discharge, km from the river to where the valley's sides meet the land (parabolic cross-section)."),
        /// Growth of the width with the discharge.
        width_exponent: f32 = float("Width exponent", 0.5, 0.0, 1.5, Unit::None, 0.01, "Width grows as (discharge / threshold) to this power (rivers: about 0.5)."),
        /// Depth a filled depression needs to be a lake, input units.
        min_lake_depth: f32 = float("Minimum lake depth", 0.005, 0.0, 1.0, Unit::None, 0.001, "A depression whose deepest point lies at least this far below its spill height becomes a lake (flat, at the spill height); shallower ones are filled and rivers cut through them. In the input's unit."),
    }
}

impl DrainageRiversSettings {
    /// The algorithm's settings on `planet` (its sea level and radius).
    pub fn drainage(&self, planet: &crate::nodes::output::planet::PlanetSettings) -> DrainageSettings {
        DrainageSettings {
            sea_level: planet.sea_level,
            rain_mm: self.rain_mm,
            radius_km: planet.radius_km,
            threshold_m3s: self.threshold_m3s,
            depth: self.depth,
            depth_exponent: self.depth_exponent,
            width_km: self.width_km,
            width_exponent: self.width_exponent,
            min_lake_depth: self.min_lake_depth,
        }
    }
}

/// The Drainage rivers node.
pub struct DrainageRivers;

crate::ports! {
    const INPUTS: In = [
        /// The elevation drained.
        ELEVATION_IN: Field = FIELD_IN.def(),
        /// Optional annual precipitation, mm/yr.
        PRECIPITATION: Field = PortDef::optional("precipitation", PortType::Field),
    ];
}

crate::ports! {
    const OUTPUTS: Out = [
        /// The elevation with lakes filled and valleys carved.
        ELEVATION: Field = PortDef::field("elevation"),
        /// Discharge, m³/s.
        DISCHARGE: Field = PortDef::field("discharge").with_unit(PortUnit::Of(Unit::CubicMetrePerSecond)),
        /// 1 on river cells.
        RIVERS: Field = PortDef::field("rivers"),
        /// 1 on lake cells.
        LAKES: Field = PortDef::field("lakes"),
    ];
}

impl Node for DrainageRivers {
    type Settings = DrainageRiversSettings;
    const META: NodeMeta = NodeMeta::new(
        "Drainage rivers",
        Category::Erosion,
        "River networks: depressions filled into lakes, every land cell drained to the sea along its lowest neighbour (across seams), discharge in m³/s summed from the rain (the precipitation input in mm/yr, or the Rainfall setting), rivers above a threshold, valleys carved deeper and wider with the discharge. Outputs the carved elevation, discharge, a river mask and a lake mask.",
        INPUTS,
        OUTPUTS,
        file!(),
    )
    .reading_planet().costing(92);

    fn run(s: &DrainageRiversSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        let h = inputs.port(ELEVATION_IN)?;
        let rain = inputs.port_opt(PRECIPITATION)?;
        if let Some(p) = rain {
            if p.n() != h.n() {
                return Err(OpError::Invalid(format!("precipitation has {} cells per face edge, the elevation {}", p.n(), h.n())));
            }
        }
        let d = drainage(h, rain.map(|p| p.as_ref()), &s.drainage(ctx.planet()?), ctx.cancel)?;
        Ok(vec![d.elevation.into(), d.discharge.into(), d.rivers.into(), d.lakes.into()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;

    #[test]
    fn the_node_runs_with_and_without_precipitation_and_refuses_mismatched_sizes() {
        let s = DrainageRiversSettings::from_params(&NodeKind::DrainageRivers.default_params()).expect("the declared defaults");
        let h = Value::Field(std::sync::Arc::new(crate::erosion::test_hills(16)));
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = OpContext { tile: None, n: 16, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        let out = DrainageRivers::run(&s, &Inputs(&[Some(h.clone()), None]), &ctx).expect("runs");
        assert_eq!(out.len(), 4);
        let rain = Value::Field(std::sync::Arc::new(Field::filled(16, 500.0)));
        assert!(DrainageRivers::run(&s, &Inputs(&[Some(h.clone()), Some(rain)]), &ctx).is_ok());
        let wrong = Value::Field(std::sync::Arc::new(Field::filled(8, 500.0)));
        let err = DrainageRivers::run(&s, &Inputs(&[Some(h), Some(wrong)]), &ctx).expect_err("sizes differ");
        assert!(err.to_string().contains("precipitation"), "{err}");
    }
}
