//! The Latitude node: each cell's latitude, signed or absolute.

use crate::nodes::prelude::*;

crate::choices! {
    /// How the Latitude node reports latitude.
    pub enum LatitudeMode {
        /// latitude / 90 deg in -1..1.
        Signed = ("signed", "Signed"),
        /// |latitude| / 90 deg in 0..1.
        Absolute = ("absolute", "Absolute"),
    }
}

crate::settings! {
    /// Settings of the Latitude node.
    pub struct LatitudeSettings, keys LatitudeKeys {
        /// Signed or absolute.
        mode: LatitudeMode = LatitudeMode::Absolute.param("Mode", "Signed: latitude / 90 deg in -1..1. Absolute: |latitude| / 90 deg in 0..1, for polar caps."),
    }
}

/// The Latitude node.
pub struct Latitude;

impl Node for Latitude {
    type Settings = LatitudeSettings;
    const META: NodeMeta = NodeMeta::new("Latitude", Category::Sources, "Latitude of each cell: -1 at the south pole, 0 at the equator, 1 at the north pole (or absolute).", &[], OUT, file!()).costing(5);

    fn run(s: &LatitudeSettings, _: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![latitude(s.mode, ctx.grid()).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

/// Latitude / 90 degrees per cell of `grid`.
pub fn latitude(mode: LatitudeMode, grid: Grid) -> Field {
    let absolute = mode == LatitudeMode::Absolute;
    Field::from_fn_dir_on(grid, |d| {
        let lat = d.y.clamp(-1.0, 1.0).asin() / std::f32::consts::FRAC_PI_2;
        if absolute {
            lat.abs()
        } else {
            lat
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latitude_signed_and_absolute() {
        let signed = latitude(LatitudeMode::Signed, Grid::Whole(16));
        let abs = latitude(LatitudeMode::Absolute, Grid::Whole(16));
        let (lo, hi) = signed.min_max();
        assert!(lo < -0.95 && hi > 0.95 && lo >= -1.0 && hi <= 1.0);
        assert!(abs.data().iter().zip(signed.data()).all(|(a, s)| (a - s.abs()).abs() < 1e-6));
        let top = crate::planet::Cell { face: crate::planet::Face::Top, i: 8, j: 8 };
        assert!(signed.get(top) > 0.95, "north is up");
    }
}
