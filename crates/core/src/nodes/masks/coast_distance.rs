//! The Distance to coast node: km along the sphere to the nearest coastline, positive on land
//! and negative at sea, across face seams; by default the coast of the ocean, with hollows
//! below sea level inland counted as land.

use crate::nodes::prelude::*;
use crate::planet::distance::{cell_dirs, signed_distance_km};
use crate::planet::SimError;
use std::sync::atomic::AtomicBool;

crate::settings! {
    /// Settings of the Distance to coast node.
    pub struct CoastDistanceSettings, keys CoastDistanceKeys {
        /// Elevation of the sea surface in the input's unit.
        sea_level: f32 = float("Coast at", 0.0, -100000.0, 100000.0, Unit::None, 1.0, "Input value of the coastline: 0 for elevation in metres (after To metres or the Planet node, which already apply the planet's sea level)."),
        /// Whether hollows below sea level away from the ocean count as land.
        inland_basins_are_land: bool = boolean("Inland basins are land", true, "On: ground below sea level away from the ocean (a hollow smaller than 0.1 % of the planet, not connected to a larger body of water) is land, as landscape evolution routes it (a lake, the Dead Sea), so it has no coast of its own. Off: any ground below the coast value is sea."),
    }
}

/// The Distance to coast node.
pub struct CoastDistance;

impl Node for CoastDistance {
    type Settings = CoastDistanceSettings;
    const META: NodeMeta = NodeMeta::new(
        "Distance to coast",
        Category::Masks,
        "Distance in km along the sphere (great circle) to the nearest coastline, interpolated between cells: positive on land, negative at sea, across seams. By default the coast of the ocean: hollows below sea level inland count as land.",
        IN,
        &[PortDef::field("out").with_unit(PortUnit::Of(Unit::Kilometre))],
        file!(),
    )
    .reading_planet()
    .costing(77);

    fn run(s: &CoastDistanceSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        let f = inputs.port(FIELD_IN)?;
        if s.inland_basins_are_land {
            // Inland basins lie at the coast value: land, and never next to the ocean.
            let land = {
                let ocean = crate::planet::ocean::ocean_of(f, s.sea_level);
                f.like(|c, _| if f.data()[c] < s.sea_level && !ocean[c] { s.sea_level } else { f.data()[c] })
            };
            Ok(vec![coast_distance_km(&land, s.sea_level, ctx.planet()?.radius_km, ctx.cancel)?.into()])
        } else {
            Ok(vec![coast_distance_km(f, s.sea_level, ctx.planet()?.radius_km, ctx.cancel)?.into()])
        }
    }
}

/// Signed distance to the coast in km: great-circle, positive on land (at or above
/// `sea_level`), negative at sea, to a coastline interpolated between cells
/// ([`signed_distance_km`]). On a planet without any coast every cell gets `radius_km * PI`,
/// the farthest two points can be apart, signed by land or sea. `SimError::Cancelled` when cancelled.
pub fn coast_distance_km(f: &Field, sea_level: f32, radius_km: f32, cancel: &AtomicBool) -> Result<Field, SimError> {
    let n = f.n();
    let km = signed_distance_km(n, &cell_dirs(n), f.data(), sea_level, radius_km, &|_| true, cancel)?;
    Ok(Field::from_vec(n, km)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round island of radius `r` (radians) around `centre`.
    fn island(n: usize, centre: glam::Vec3, r: f32) -> Field {
        Field::from_fn_dir(n, |d| if d.dot(centre).clamp(-1.0, 1.0).acos() < r { 100.0 } else { -100.0 })
    }

    #[test]
    fn distance_grows_inland_and_out_to_sea_the_same_at_a_seam_and_a_corner() {
        let n = 64;
        let r = 0.3f32;
        let radius = 6371.0;
        // The coast lies within a cell of the circle, and distances are great circles.
        let cell_km = std::f32::consts::FRAC_PI_2 / n as f32 * radius;
        let near = |got: f32, want: f32| (got - want).abs() < cell_km + 0.01 * want.abs();
        let cancel = AtomicBool::new(false);
        // Mid-face, on the front/right edge, on a cube corner.
        for centre in [glam::Vec3::new(0.2, 0.1, 1.0).normalize(), glam::Vec3::new(1.0, 0.0, 1.0).normalize(), glam::Vec3::ONE.normalize()] {
            let d = coast_distance_km(&island(n, centre, r), 0.0, radius, &cancel).expect("not cancelled");
            let side = centre.cross(glam::Vec3::Y).normalize();
            let up = side.cross(centre);
            for dir in [side, up, -side] {
                let at = |a: f32| d.sample_dir((centre * a.cos() + dir * a.sin()).normalize());
                let (inland, offshore) = (at(0.1), at(0.5));
                assert!(near(inland, (r - 0.1) * radius), "{centre}: {inland} km inland, want {}", (r - 0.1) * radius);
                assert!(near(offshore, -(0.5 - r) * radius), "{centre}: {offshore} km offshore, want {}", -(0.5 - r) * radius);
                // The distance grows at one km per km along the way.
                let rate = (at(0.05) - at(0.2)) / (0.15 * radius);
                assert!((rate - 1.0).abs() < 0.03, "{centre}: {rate} km per km");
            }
        }
    }

    #[test]
    fn all_land_is_far_from_any_coast() {
        let d = coast_distance_km(&Field::filled(8, 1.0), 0.0, 6371.0, &AtomicBool::new(false)).expect("not cancelled");
        assert!(d.data().iter().all(|&v| (v - 6371.0 * std::f32::consts::PI).abs() < 1.0));
    }

    /// A hollow below sea level inside a continent has no coast of its own by default: the
    /// distance there is the distance to the ocean's shore, positive; with the setting off it is
    /// sea with a shore around it.
    #[test]
    fn an_inland_hollow_is_land_unless_asked_otherwise() {
        let n = 48;
        let centre = glam::Vec3::new(0.2, 0.1, 1.0).normalize();
        let hollow = Field::from_fn_dir(n, |d| if d.dot(centre) > 0.9985 { -100.0 } else { island(n, centre, 0.6).sample_dir(d) });
        let run = |inland_basins_are_land: bool| {
            let s = CoastDistanceSettings { sea_level: 0.0, inland_basins_are_land };
            let cancel = AtomicBool::new(false);
            let ctx = OpContext { n, tile: None, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
            let out = CoastDistance::run(&s, &Inputs(&[Some(hollow.clone().into())]), &ctx).expect("runs");
            out[0].as_field().expect("a field").sample_dir(centre)
        };
        let (land, sea) = (run(true), run(false));
        // The centre lies 0.6 rad (about 3800 km) from the ocean's shore.
        assert!(land > 3000.0, "{land} km");
        assert!(sea < 0.0, "{sea} km");
    }
}
