//! The Temperature node: annual mean near-surface temperature in degrees C from insolation by
//! latitude (with the axial tilt), the lapse rate with altitude, and continental interiors
//! away from the moderating ocean.

use super::latitude;
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Temperature node.
    pub struct TemperatureSettings, keys TemperatureKeys {
        /// Sea-level temperature at the equator for Earth's tilt, degrees C.
        equator_c: f32 = float("Equator", 27.0, -100.0, 100.0, Unit::Celsius, 0.1, "Annual mean sea-level temperature at the equator, for Earth's axial tilt (Earth: about 27 °C)."),
        /// Sea-level temperature at the poles for Earth's tilt, degrees C.
        pole_c: f32 = float("Poles", -25.0, -150.0, 100.0, Unit::Celsius, 0.1, "Annual mean sea-level temperature at the poles, for Earth's axial tilt (Earth: about -25 °C, Antarctica's plateau far colder through its height)."),
        /// Axial tilt, degrees.
        tilt_deg: f32 = float("Axial tilt", 23.44, 0.0, 90.0, Unit::Degree, 0.1, "Tilt of the rotation axis (Earth 23.44 deg). More tilt spreads the yearly sunshine towards the poles: warmer poles, a cooler equator; above about 54 deg the poles get more than the equator."),
        /// Cooling per km of elevation above sea level.
        lapse_c_per_km: f32 = float("Lapse rate", 6.5, 0.0, 20.0, Unit::CelsiusPerKilometre, 0.05, "Cooling per km of height above sea level (the standard atmosphere: 6.5 °C/km)."),
        /// Extra cooling deep inland at high latitude, degrees C.
        continentality_c: f32 = float("Continentality", 6.0, 0.0, 40.0, Unit::Celsius, 0.1, "How much colder the annual mean is deep inside a continent than on its coast, at the poles (scaled with the sine of the latitude; none at the equator). Needs the distance input."),
        /// Warming of broad high ground per km of its broad height, degrees C per km.
        plateau_warming: f32 = float("Plateau warming", 1.5, 0.0, 6.5, Unit::CelsiusPerKilometre, 0.05, "How much warmer the air is over broad high ground than the free air at the same height, per km of the lower of the ground's height and its broad height (the broad elevation input, for example the elevation through a Blur of 2 to 3 deg): a high plateau heats the air above it (Tibet's surface is about 5 to 8 °C warmer than the free air at 4.5 km), while narrow peaks stand in the free air. Needs the broad elevation input."),
        /// Distance inland over which the ocean's moderation fades, km.
        coast_km: f32 = float("Ocean reach", 800.0, 1.0, 10000.0, Unit::Kilometre, 5.0, "Distance from the coast over which the ocean's moderation fades (e-folding distance)."),
    }
}

/// The Temperature node.
pub struct Temperature;

crate::ports! {
    const INPUTS: In = [
        /// Elevation, m.
        ELEVATION: Field = PortDef::field("elevation_m"),
        /// Optional distance to the coast, km.
        COAST: Field = PortDef::optional("coast_km", PortType::Field),
        /// Optional elevation blurred over a few hundred km, m.
        BROAD_ELEVATION: Field = PortDef::optional("broad_elevation_m", PortType::Field),
    ];
}

crate::ports! {
    const OUTPUTS: Out = [
        /// Annual mean temperature, °C.
        TEMPERATURE: Field = PortDef::field("temperature").with_unit(PortUnit::Of(Unit::Celsius)),
    ];
}

impl Node for Temperature {
    type Settings = TemperatureSettings;
    const META: NodeMeta = NodeMeta::new(
        "Temperature",
        Category::Climate,
        "Annual mean temperature in °C: insolation by latitude with the axial tilt, a lapse rate with height, colder continental interiors (with a Distance to coast input) and warmer high plateaus (with a broad elevation input, the elevation blurred over a few hundred km).",
        INPUTS,
        OUTPUTS,
        file!(),
    ).costing(5);

    fn run(s: &TemperatureSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let h = inputs.port(ELEVATION)?;
        let (coast, broad) = (inputs.port_opt(COAST)?, inputs.port_opt(BROAD_ELEVATION)?);
        let model = Insolation::new(s);
        let out = h.like(|c, d| {
            let z = h.data()[c].max(0.0);
            let mut t = model.sea_level_c(latitude(d)) - s.lapse_c_per_km * z / 1000.0;
            if let Some(broad) = broad {
                t += broad_warming_c(s.plateau_warming, h.data()[c], broad.data()[c]);
            }
            if let Some(coast) = coast {
                let km = coast.data()[c];
                if km > 0.0 {
                    t -= s.continentality_c * latitude(d).sin().abs() * (1.0 - (-km / s.coast_km).exp());
                }
            }
            t
        });
        Ok(vec![out.into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

/// How much warmer than the free air ground `z_m` high is under a broad height of `broad_m`
/// (both m), at `per_km` °C per km of the lower of the two (0 at and below sea level).
pub fn broad_warming_c(per_km: f32, z_m: f32, broad_m: f32) -> f32 {
    per_km * z_m.min(broad_m).max(0.0) / 1000.0
}

/// Annual mean insolation by latitude in its second-order Legendre form
/// `1 + s2 P2(sin lat)` with `s2 = -5/8 P2(cos tilt)`, and the map from it to temperature,
/// calibrated so that Earth's tilt gives the equator and pole temperatures of the settings.
pub struct Insolation {
    s2: f32,
    per_unit: f32,
    at_equator_earth: f32,
    equator_c: f32,
}

fn p2(x: f32) -> f32 {
    (3.0 * x * x - 1.0) / 2.0
}

impl Insolation {
    /// The model for settings `s`.
    pub fn new(s: &TemperatureSettings) -> Insolation {
        let s2_of = |tilt_deg: f32| -0.625 * p2(tilt_deg.to_radians().cos());
        let earth = s2_of(23.44);
        let q = |s2: f32, lat: f32| 1.0 + s2 * p2(lat.sin());
        let at_equator_earth = q(earth, 0.0);
        let span = at_equator_earth - q(earth, std::f32::consts::FRAC_PI_2);
        Insolation { s2: s2_of(s.tilt_deg), per_unit: (s.equator_c - s.pole_c) / span, at_equator_earth, equator_c: s.equator_c }
    }

    /// Relative annual insolation at a latitude (radians); 1 is the planet's mean.
    pub fn relative(&self, lat: f32) -> f32 {
        1.0 + self.s2 * p2(lat.sin())
    }

    /// Sea-level temperature at a latitude, degrees C.
    pub fn sea_level_c(&self, lat: f32) -> f32 {
        self.equator_c - (self.at_equator_earth - self.relative(lat)) * self.per_unit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::params::Settings;
    use crate::nodes::NodeKind;
    use std::sync::atomic::AtomicBool;

    fn defaults() -> TemperatureSettings {
        TemperatureSettings::from_params(&NodeKind::Temperature.default_params()).expect("defaults")
    }

    #[test]
    fn falls_with_latitude_and_with_height_at_the_lapse_rate() {
        let s = defaults();
        let m = Insolation::new(&s);
        assert!((m.sea_level_c(0.0) - 27.0).abs() < 1e-3);
        assert!((m.sea_level_c(std::f32::consts::FRAC_PI_2) + 25.0).abs() < 1e-3);
        let mut prev = f32::MAX;
        for k in 0..=18 {
            let t = m.sea_level_c((k as f32 * 5.0).to_radians());
            assert!(t < prev, "falls towards the pole");
            prev = t;
        }
        // 3000 m at the equator: 3 km x 6.5 °C/km colder than the coast.
        let n = 16;
        let h = Field::from_fn_dir(n, |d| if d.x > 0.0 { 3000.0 } else { 0.0 });
        let cancel = AtomicBool::new(false);
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        let out = NodeKind::Temperature.run(&NodeKind::Temperature.default_params(), &[Some(h.into()), None, None], &ctx).expect("runs");
        let t = out[0].as_field().expect("field");
        let (hi, lo) = (t.sample_dir(glam::Vec3::new(-1.0, 0.0, 0.0)), t.sample_dir(glam::Vec3::X));
        assert!((hi - lo - 19.5).abs() < 0.5, "{hi} - {lo}");
    }

    /// A plateau 4.5 km high under its own broad height is 1.5 °C/km x 4.5 km warmer than the
    /// free air; a peak of the same height whose broad height is 1 km warms by only 1.5 °C.
    #[test]
    fn broad_high_ground_is_warmer_than_the_free_air() {
        let n = 16;
        let cancel = AtomicBool::new(false);
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        let h = Field::filled(n, 4500.0);
        let run = |broad: Option<f32>| {
            let out = NodeKind::Temperature.run(&NodeKind::Temperature.default_params(), &[Some(h.clone().into()), None, broad.map(|b| Field::filled(n, b).into())], &ctx).expect("runs");
            out[0].as_field().expect("field").data()[0]
        };
        let (free, plateau, peak) = (run(None), run(Some(4500.0)), run(Some(1000.0)));
        assert!((plateau - free - 6.75).abs() < 1e-3, "{plateau} {free}");
        assert!((peak - free - 1.5).abs() < 1e-3, "{peak} {free}");
        // Below sea level the broad height adds nothing.
        assert_eq!(broad_warming_c(1.5, -200.0, 3000.0), 0.0);
    }

    #[test]
    fn more_tilt_warms_the_poles_and_cools_the_equator() {
        let earth = Insolation::new(&defaults());
        let tilted = Insolation::new(&TemperatureSettings { tilt_deg: 60.0, ..defaults() });
        let pole = std::f32::consts::FRAC_PI_2;
        assert!(tilted.sea_level_c(pole) > earth.sea_level_c(pole) + 10.0);
        assert!(tilted.sea_level_c(0.0) < earth.sea_level_c(0.0));
        assert!(tilted.relative(pole) > tilted.relative(0.0), "above 54 deg the poles get more sunshine");
    }
}
