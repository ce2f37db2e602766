//! The Planet output node: maps the unitless elevation input to metres.

use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Planet node.
    pub struct PlanetSettings, keys PlanetKeys {
        /// Radius in kilometres.
        radius_km: f32 = float("Radius", 6371.0, 100.0, 100000.0, Unit::Kilometre, 10.0, "Planet radius in kilometres (Earth: 6371). The planet's: every node that measures in km or m² (slope, precipitation, coast distance, warp, plates, rivers, erosion) uses it."),
        /// Input value that becomes 0 m.
        sea_level: f32 = float("Sea level", 0.0, -1.0, 1.0, Unit::None, 0.005, "Input value that becomes 0 m. Lower it for more land. The planet's: To metres (and so climate, biomes and materials) and the erosion and river nodes use it."),
        /// Metres of input value 1.
        max_elevation_m: f32 = float("Highest peak", 6000.0, 1.0, 50000.0, Unit::Metre, 10.0, "Elevation in metres of input value 1 (values above are clamped). The planet's: To metres, Earth relief, Landscape evolution and Coral reef use it."),
        /// Metres below sea level of input value -1.
        max_depth_m: f32 = float("Deepest ocean", 7000.0, 1.0, 50000.0, Unit::Metre, 10.0, "Depth in metres below sea level of input value -1 (values below are clamped). The planet's: To metres and Earth relief use it."),
    }
}

/// Earth's figures: the Planet node's defaults, and the planet of a graph without a Planet node.
pub const EARTH: PlanetSettings = PlanetSettings { radius_km: 6371.0, sea_level: 0.0, max_elevation_m: 6000.0, max_depth_m: 7000.0 };

impl Default for PlanetSettings {
    fn default() -> Self {
        EARTH
    }
}

/// The Planet node. Its settings are the planet's: every node that needs the radius, the sea
/// level, the highest peak or the deepest ocean reads them from here (through
/// [`crate::nodes::OpContext::planet`]), so they are set once.
pub struct Planet;

crate::ports! {
    const INPUTS: In = [
        /// The Planet node's elevation input (-1..1: deepest ocean..highest peak).
        ELEVATION: Field = PortDef::field("elevation"),
        /// The Planet node's optional albedo (linear RGB), which the viewport and the exports show.
        ALBEDO: ColourField = PortDef::optional("albedo", PortType::Colour),
    ];
}

impl Node for Planet {
    type Settings = PlanetSettings;
    const META: NodeMeta = NodeMeta {
        shown_only_inputs: &["albedo"],
        ..NodeMeta::new(
        "Planet",
        Category::Output,
        "The planet the viewport shows and build exports, and its settings: radius, sea level, highest peak and deepest ocean are set here once and every node that needs them reads them. Input values of -1..1 map to the deepest ocean..highest peak; `out` is the elevation in metres. An optional albedo colours the planet (else the height tint).",
        INPUTS,
        &[PortDef::field("out").with_unit(PortUnit::Of(Unit::Metre))],
        file!(),
    )
    }.costing(5);

    fn run(s: &PlanetSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        // The albedo is read by the viewport and build from the node's inputs; checked here.
        inputs.port_opt(ALBEDO)?;
        Ok(vec![s.apply(inputs.port(ELEVATION)?).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

/// Elevation in metres of an input value: piecewise linear, `sea_level` to 0 m, 1 to
/// `max_elevation_m`, -1 to `max_depth_m` below sea level, clamped outside (the Planet node's
/// mapping, shared with To metres).
pub fn to_metres(v: f32, sea_level: f32, max_elevation_m: f32, max_depth_m: f32) -> f32 {
    let s = sea_level;
    if v >= s {
        ((v - s) / (1.0 - s).max(1e-6)).min(1.0) * max_elevation_m
    } else {
        ((v - s) / (1.0 + s).max(1e-6)).max(-1.0) * max_depth_m
    }
}

impl PlanetSettings {
    /// Elevation in metres of an input value (see [`to_metres`]).
    pub fn to_metres(&self, v: f32) -> f32 {
        to_metres(v, self.sea_level, self.max_elevation_m, self.max_depth_m)
    }

    /// The input value that becomes `metres` (the inverse of [`Self::to_metres`]; beyond the
    /// highest peak and the deepest ocean it goes on in proportion, where the Planet node
    /// clamps).
    pub fn from_metres(&self, metres: f32) -> f32 {
        let s = self.sea_level;
        if metres >= 0.0 {
            s + metres / self.max_elevation_m * (1.0 - s)
        } else {
            s + metres / self.max_depth_m * (1.0 + s)
        }
    }

    /// The elevation field in metres.
    pub fn apply(&self, f: &Field) -> Field {
        f.map(|v| self.to_metres(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earth_is_the_planet_node_s_defaults() {
        use crate::nodes::params::Settings;
        assert_eq!(PlanetSettings::from_params(&Default::default()).expect("defaults"), EARTH);
    }

    #[test]
    fn metres_mapping() {
        let s = PlanetSettings { radius_km: 6371.0, sea_level: 0.2, max_elevation_m: 8000.0, max_depth_m: 6000.0 };
        assert_eq!(s.to_metres(0.2), 0.0);
        assert_eq!(s.to_metres(1.0), 8000.0);
        assert_eq!(s.to_metres(5.0), 8000.0);
        assert_eq!(s.to_metres(-1.0), -6000.0);
        assert!((s.to_metres(0.6) - 4000.0).abs() < 1e-3);
        assert!(s.to_metres(0.1) < 0.0);
        for m in [-6000.0, -1234.5, 0.0, 10.0, 4000.0, 8000.0] {
            assert!((s.to_metres(s.from_metres(m)) - m).abs() < 1e-3, "{m}");
        }
    }
}
