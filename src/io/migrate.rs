//! Migrations of older graph files to the current format version.
//!
//! Version 1 saved choice parameters by their display labels (`Choice("Random inner point")`);
//! version 2 saves stable identifiers (`Choice("random_inner_point")`). The table below is the
//! version-1 vocabulary, frozen: it must not follow later label changes.

use crate::graph::{Graph, FORMAT_VERSION};
use crate::nodes::{NodeKind, ParamValue};

/// One choice parameter of format version 1: node kind, parameter, (label, identifier) pairs.
type V1Choice = (NodeKind, &'static str, &'static [(&'static str, &'static str)]);

/// Every choice of format version 1.
const V1_CHOICES: &[V1Choice] = &[
    (
        NodeKind::Noise,
        "type",
        &[("fBm", "fbm"), ("Perlin", "perlin"), ("OpenSimplex", "open_simplex"), ("SuperSimplex", "super_simplex"), ("Billow", "billow"), ("Ridged", "ridged"), ("Worley", "worley")],
    ),
    (NodeKind::Noise, "worley_distance", &[("Euclidean", "euclidean"), ("EuclideanSquared", "euclidean_squared"), ("Manhattan", "manhattan"), ("Chebyshev", "chebyshev")]),
    (NodeKind::Noise, "worley_return", &[("Value", "value"), ("Distance", "distance")]),
    (NodeKind::FaultPlanet, "variant", &[("Random inner point", "random_inner_point"), ("Through centre", "through_centre")]),
    (NodeKind::Latitude, "mode", &[("Signed", "signed"), ("Absolute", "absolute")]),
    (NodeKind::PlateElevation, "base_mode", &[("Land fraction", "land_fraction"), ("Random range", "random_range")]),
    (NodeKind::HydraulicErosion, "transport", &[("Donor cell", "donor_cell"), ("Semi-Lagrangian", "semi_lagrangian")]),
    (NodeKind::Preview, "view", &[("Map", "map"), ("Globe", "globe")]),
    (NodeKind::Preview, "ramp", &[("Hypsometric", "hypsometric"), ("Grey", "grey")]),
];

/// Brings `g` from its version up to [`FORMAT_VERSION`] and fills in the defaults of
/// parameters it leaves out. A version-1 label that is not in the table is left as it is, so
/// validation reports it on its node.
pub fn migrate(g: &mut Graph) {
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
    g.version = FORMAT_VERSION;
    for n in &mut g.nodes {
        for d in n.kind.params() {
            n.params.entry(d.name.to_string()).or_insert_with(|| d.default_value());
        }
    }
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
