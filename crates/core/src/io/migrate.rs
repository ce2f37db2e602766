//! Migrations of older graph files to the current format version.
//!
//! Version 1 saved choice parameters by their display labels (`Choice("Random inner point")`);
//! version 2 saves stable identifiers (`Choice("random_inner_point")`). Version 2 also gave
//! many nodes their own copy of the planet's radius, sea level, highest peak or deepest
//! ocean; version 3 keeps them on the Planet node alone and every node reads them from there.
//! The tables below are the old vocabularies, frozen: they must not follow later changes.

use crate::graph::{Graph, FORMAT_VERSION};
use crate::nodes::output::planet::{PlanetSettings, EARTH};
use crate::nodes::params::Settings;
use crate::nodes::{NodeKind, ParamValue};

/// One choice parameter of format version 1: node kind, parameter, (label, identifier) pairs.
type V1Choice = (NodeKind, &'static str, &'static [(&'static str, &'static str)]);

/// Every choice of format version 1.
const V1_CHOICES: &[V1Choice] = &[
    (NodeKind::Noise, "type", &[("fBm", "fbm"), ("Perlin", "perlin"), ("OpenSimplex", "open_simplex"), ("SuperSimplex", "super_simplex"), ("Billow", "billow"), ("Ridged", "ridged"), ("Worley", "worley")]),
    (NodeKind::Noise, "worley_distance", &[("Euclidean", "euclidean"), ("EuclideanSquared", "euclidean_squared"), ("Manhattan", "manhattan"), ("Chebyshev", "chebyshev")]),
    (NodeKind::Noise, "worley_return", &[("Value", "value"), ("Distance", "distance")]),
    (NodeKind::FaultPlanet, "variant", &[("Random inner point", "random_inner_point"), ("Through centre", "through_centre")]),
    (NodeKind::Latitude, "mode", &[("Signed", "signed"), ("Absolute", "absolute")]),
    (NodeKind::PlateElevation, "base_mode", &[("Land fraction", "land_fraction"), ("Random range", "random_range")]),
    (NodeKind::HydraulicErosion, "transport", &[("Donor cell", "donor_cell"), ("Semi-Lagrangian", "semi_lagrangian")]),
    (NodeKind::Preview, "view", &[("Map", "map"), ("Globe", "globe")]),
    (NodeKind::Preview, "ramp", &[("Hypsometric", "hypsometric"), ("Grey", "grey")]),
];

/// A planet setting that version 2 kept per node.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Held {
    Radius,
    SeaLevel,
    Peak,
    Depth,
}

impl Held {
    fn of(self, p: &PlanetSettings) -> f32 {
        match self {
            Held::Radius => p.radius_km,
            Held::SeaLevel => p.sea_level,
            Held::Peak => p.max_elevation_m,
            Held::Depth => p.max_depth_m,
        }
    }

    fn describe(self, v: f32) -> String {
        match self {
            Held::Radius => format!("planet radius {v} km"),
            Held::SeaLevel => format!("sea level {v}"),
            Held::Peak => format!("highest peak {v} m"),
            Held::Depth => format!("deepest ocean {v} m"),
        }
    }
}

/// Every per-node copy of a planet setting in format version 2: node kind, saved key, which
/// setting, and the version-2 default (the value of a key the file leaves out).
const V2_PLANET_COPIES: &[(NodeKind, &str, Held, f32)] = &[
    (NodeKind::Slope, "radius_km", Held::Radius, 6371.0),
    (NodeKind::Precipitation, "radius_km", Held::Radius, 6371.0),
    (NodeKind::CoastDistance, "radius_km", Held::Radius, 6371.0),
    (NodeKind::Warp, "radius_km", Held::Radius, 6371.0),
    (NodeKind::PlateElevation, "radius_km", Held::Radius, 6371.0),
    (NodeKind::EarthRelief, "max_elevation_m", Held::Peak, 6000.0),
    (NodeKind::EarthRelief, "max_depth_m", Held::Depth, 11000.0),
    (NodeKind::EarthRelief, "radius_km", Held::Radius, 6371.0),
    (NodeKind::LSystemRivers, "sea_level", Held::SeaLevel, 0.0),
    (NodeKind::LSystemRivers, "radius_km", Held::Radius, 6371.0),
    (NodeKind::DrainageRivers, "sea_level", Held::SeaLevel, 0.0),
    (NodeKind::DrainageRivers, "radius_km", Held::Radius, 6371.0),
    (NodeKind::LandscapeEvolution, "sea_level", Held::SeaLevel, 0.0),
    (NodeKind::LandscapeEvolution, "metres_per_unit", Held::Peak, 6000.0),
    (NodeKind::LandscapeEvolution, "radius_km", Held::Radius, 6371.0),
    (NodeKind::HydraulicErosion, "sea_level", Held::SeaLevel, 0.0),
    (NodeKind::DropletErosion, "sea_level", Held::SeaLevel, 0.0),
    (NodeKind::SeaFloor, "sea_level", Held::SeaLevel, 0.0),
    (NodeKind::CoralReef, "sea_level", Held::SeaLevel, 0.0),
    (NodeKind::CoralReef, "metres_per_unit", Held::Peak, 6000.0),
    (NodeKind::ToMetres, "sea_level", Held::SeaLevel, 0.0),
    (NodeKind::ToMetres, "max_elevation_m", Held::Peak, 6000.0),
    (NodeKind::ToMetres, "max_depth_m", Held::Depth, 7000.0),
];

/// Version 2 to 3: the per-node copies of the planet's settings are dropped (the nodes now
/// read the Planet node's), and so are group parameters that showed them. Returns one
/// sentence per copy whose value differed from the planet's, naming the node, since that
/// node's result changes.
fn planet_settings_in_one_place(g: &mut Graph) -> Vec<String> {
    let planet_node = g.first_of(NodeKind::Planet).map(|n| n.params.clone());
    let planet = planet_node.as_ref().map_or(Ok(EARTH), PlanetSettings::from_params).unwrap_or(EARTH);
    let whose = if planet_node.is_some() { "the planet's (set on the Planet node)" } else { "Earth's (the graph has no Planet node; add one to set the planet)" };
    let mut notes = Vec::new();
    let mut dropped = Vec::new();
    for n in &mut g.nodes {
        for (kind, key, held, old_default) in V2_PLANET_COPIES {
            if n.kind != *kind {
                continue;
            }
            let value = match n.params.remove(*key) {
                Some(ParamValue::Float(v)) => v,
                Some(_) | None => *old_default,
            };
            dropped.push((n.id, *key));
            let now = held.of(&planet);
            if (value - now).abs() > 1e-6 * now.abs().max(1.0) {
                notes.push(format!("{}: its own {} now follows {}: {}", n.describe(), held.describe(value), whose, held.describe(now)));
            }
        }
    }
    for grp in &mut g.groups {
        let before = grp.params.len();
        grp.params.retain(|p| !dropped.contains(&(p.node, p.param.as_str())));
        if grp.params.len() != before {
            notes.push(format!("group '{}': a parameter that showed a node's own planet setting is gone (the planet's settings are on the Planet node)", grp.label));
        }
    }
    notes
}

/// Brings `g` from its version up to [`FORMAT_VERSION`] and fills in the defaults of
/// parameters it leaves out. A version-1 label that is not in the table is left as it is, so
/// validation reports it on its node. Returns what changed in a way the user should know
/// (a node whose result differs), one sentence each; empty for most files.
pub fn migrate(g: &mut Graph) -> Vec<String> {
    let mut notes = Vec::new();
    if g.version < 2 {
        for n in &mut g.nodes {
            for (kind, param, pairs) in V1_CHOICES {
                if n.kind != *kind {
                    continue;
                }
                if let Some(ParamValue::Choice(label)) = n.params.get_mut(*param) {
                    if let Some((_, id)) = pairs.iter().find(|(l, _)| l == label) {
                        *label = id.to_string();
                    }
                }
            }
        }
    }
    if g.version < 3 {
        notes.extend(planet_settings_in_one_place(g));
    }
    g.version = FORMAT_VERSION;
    for n in &mut g.nodes {
        for d in n.kind.params() {
            n.params.entry(d.name.to_string()).or_insert_with(|| d.default_value());
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table covers every choice parameter that version 1 had, and maps onto today's
    /// identifiers.
    #[test]
    fn the_v1_table_maps_onto_current_identifiers() {
        for (kind, param, pairs) in V1_CHOICES {
            let def = kind.param(param).unwrap_or_else(|| panic!("{kind:?}.{param} exists"));
            for (_, id) in *pairs {
                assert!(def.options().iter().any(|o| o.id == *id), "{kind:?}.{param}: {id}");
            }
            assert_eq!(pairs.len(), def.options().len(), "{kind:?}.{param}: every option of version 1");
        }
    }
}
