//! The Falloff node (falloff filter on the sphere): the distance from a point
//! (latitude, longitude) or from a mask's edge, normalised by a radius in degrees of arc,
//! through an editable curve; output as it is, multiplied with a field, or subtracted from it.
//! The island maker.

use super::coast_distance::{coast_distance_km, CoastDistance};
use crate::nodes::modify::curve::MonotoneCurve;
use crate::nodes::prelude::*;
use crate::planet::projection::lon_lat_to_dir;

crate::choices! {
    /// Where the Falloff node measures distance from.
    pub enum FalloffFrom {
        /// A point given by latitude and longitude (great-circle distance).
        Point = ("point", "Point"),
        /// The edge of the mask input (cells at or above 0.5 are inside), measured inwards.
        MaskEdge = ("mask_edge", "Mask edge"),
    }
}

crate::choices! {
    /// What the Falloff node does with its curve's value.
    pub enum FalloffOp {
        /// Output the falloff itself.
        Output = ("output", "Falloff only"),
        /// Multiply the input field by the falloff.
        Multiply = ("multiply", "Multiply"),
        /// Subtract Amount x (1 - falloff) from the input field.
        Subtract = ("subtract", "Subtract"),
    }
}

crate::settings! {
    /// Settings of the Falloff node.
    pub struct FalloffSettings, keys FalloffKeys {
        /// Where distance is measured from.
        from: FalloffFrom = FalloffFrom::Point.param("From", "Point: the great-circle distance from a latitude and longitude. Mask edge: the distance inwards from the edge of the mask input (at or above 0.5 is inside)."),
        /// Centre latitude, degrees (north positive).
        latitude_deg as "latitude": f32 = float("Latitude", 0.0, -90.0, 90.0, Unit::Degree, 0.1, "Latitude of the point (north positive)."),
        /// Centre longitude, degrees (0 at +Z, east towards +X).
        longitude_deg as "longitude": f32 = float("Longitude", 0.0, -180.0, 180.0, Unit::Degree, 0.1, "Longitude of the point (0 faces +Z, east positive)."),
        /// Distance that maps to 1 on the curve's x axis, degrees of arc.
        radius_deg: f32 = float("Radius", 30.0, 0.1, 180.0, Unit::Degree, 0.1, "Distance, as an arc on the planet, that maps to x = 1 on the curve (x = 0 at the point or the mask's edge); farther cells take the curve's value at 1."),
        /// The falloff as a function of the normalised distance (x 0..1).
        curve: Vec<[f32; 2]> = curve("Curve", &[[0.0, 1.0], [0.5, 0.75], [1.0, 0.0]], "The falloff (y) against the normalised distance (x from 0 at the point or edge to 1 at the radius)."),
        /// What to do with the falloff.
        op: FalloffOp = FalloffOp::Output.param("Operation", "Falloff only: output the curve's value. Multiply: the input times the falloff. Subtract: the input minus Amount x (1 - falloff), which sinks everything away from the point into the sea."),
        /// Depth subtracted where the falloff is 0, in the input's units.
        amount: f32 = float("Amount", 1.0, 0.0, 100.0, Unit::None, 0.01, "What Subtract takes away where the falloff is 0, in the input's units."),
    }
}

/// The Falloff node.
pub struct Falloff;

crate::ports! {
    const INPUTS: In = [
        /// Optional field the falloff multiplies or is subtracted from.
        INPUT: Field = PortDef::optional("in", PortType::Field),
        /// Optional mask whose edge the distance is measured from (0.5 contour).
        MASK: Field = PortDef::optional("mask", PortType::Field),
    ];
}

impl Node for Falloff {
    type Settings = FalloffSettings;
    const META: NodeMeta =
        NodeMeta::new("Falloff", Category::Masks, "The distance from a point or from a mask's edge, divided by a radius in degrees, through a curve; output, multiplied with the input or subtracted from it (the island maker).", INPUTS, OUT, file!())
            .costing(9);

    /// The inputs the settings need, checked before any run (so `check` refuses what a build
    /// would).
    /// From a mask's edge, the distance sweep of Distance to coast ([`coast_distance_km`]),
    /// with that node's declared cost per cell.
    fn extra_bytes(s: &FalloffSettings, n: usize) -> u64 {
        if s.from == FalloffFrom::MaskEdge {
            CoastDistance::META.memory.map_or(0, |m| m.bytes_per_cell) * 6 * (n as u64) * (n as u64)
        } else {
            0
        }
    }

    fn check(s: &FalloffSettings, connected: &[bool]) -> Result<(), String> {
        let linked = |k: usize| connected.get(k).copied().unwrap_or(false);
        if s.from == FalloffFrom::MaskEdge && !linked(MASK.index()) {
            return Err("Mask edge needs the 'mask' input connected".into());
        }
        if s.op != FalloffOp::Output && !linked(INPUT.index()) {
            return Err(format!("{} needs the 'in' input connected", s.op.label()));
        }
        Ok(())
    }

    fn shows(s: &FalloffSettings, key: &str) -> bool {
        let k = FalloffSettings::KEYS;
        if key == k.latitude_deg || key == k.longitude_deg {
            s.from == FalloffFrom::Point
        } else if key == k.amount {
            s.op == FalloffOp::Subtract
        } else {
            true
        }
    }

    fn run(s: &FalloffSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        let input = inputs.port_opt(INPUT)?;
        let mask = inputs.port_opt(MASK)?;
        let t = match s.from {
            FalloffFrom::Point => point_distance(s, ctx.grid()),
            FalloffFrom::MaskEdge => {
                let mask = mask.ok_or_else(|| OpError::Invalid("Mask edge needs the 'mask' input connected".into()))?;
                // With the radius set to 180/pi km, "km" along the sphere are degrees of arc.
                let r = s.radius_deg.max(1e-3);
                coast_distance_km(mask, 0.5, 180.0 / std::f32::consts::PI, ctx.cancel)?.map(|d| (d / r).clamp(0.0, 1.0))
            }
        };
        let c = MonotoneCurve::new(&s.curve);
        let falloff = t.map(|x| c.eval(x));
        let out = match (s.op, input) {
            (FalloffOp::Output, _) => falloff,
            (FalloffOp::Multiply, Some(f)) => f.zip(&falloff, |a, w| a * w),
            (FalloffOp::Subtract, Some(f)) => f.zip(&falloff, |a, w| a - s.amount * (1.0 - w)),
            (_, None) => return Err(OpError::Invalid(format!("{} needs the 'in' input connected", s.op.label()))),
        };
        Ok(vec![out.into()])
    }

    /// Cellwise from a point; the distance to a mask's edge needs the whole mask.
    fn locality(s: &Self::Settings, _: &[bool]) -> Locality {
        match s.from {
            FalloffFrom::Point => Locality::Cellwise,
            FalloffFrom::MaskEdge => Locality::Whole,
        }
    }
}

/// The great-circle distance from the node's point divided by its radius, clamped to 0..1.
fn point_distance(s: &FalloffSettings, grid: Grid) -> Field {
    let centre = lon_lat_to_dir(s.longitude_deg.to_radians(), s.latitude_deg.to_radians());
    let r = s.radius_deg.to_radians().max(1e-5);
    Field::from_fn_dir_on(grid, |d| (d.dot(centre).clamp(-1.0, 1.0).acos() / r).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::projection::lon_lat_to_dir;

    fn defaults() -> FalloffSettings {
        FalloffSettings::from_params(&crate::nodes::NodeKind::Falloff.default_params()).expect("the declared defaults")
    }

    fn run(s: &FalloffSettings, inputs: Vec<Option<Value>>, n: usize) -> Field {
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        let out = Falloff::run(s, &Inputs(&inputs), &ctx).expect("runs");
        out[0].as_field().expect("field").as_ref().clone()
    }

    #[test]
    fn a_point_on_a_cube_corner_falls_off_evenly_and_without_seams() {
        // The corner shared by +X, +Y and +Z.
        let s = FalloffSettings { latitude_deg: 35.264, longitude_deg: 45.0, radius_deg: 40.0, ..defaults() };
        let f = run(&s, vec![None, None], 64);
        let centre = lon_lat_to_dir(45f32.to_radians(), 35.264f32.to_radians());
        assert!((f.sample_dir(centre) - 1.0).abs() < 0.02);
        // Twelve points at 20 degrees around the corner, on three different faces, agree.
        let tangent = centre.cross(glam::Vec3::Y).normalize();
        let ring: Vec<f32> = (0..12)
            .map(|k| {
                let axis = glam::Quat::from_axis_angle(centre, k as f32 * std::f32::consts::TAU / 12.0) * tangent;
                f.sample_dir(glam::Quat::from_axis_angle(axis, 20f32.to_radians()) * centre)
            })
            .collect();
        let (lo, hi) = ring.iter().fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
        assert!(hi - lo < 0.01, "{ring:?}");
        assert!(f.data().iter().all(|v| v.is_finite()));
        assert_eq!(f.sample_dir(-centre), 0.0, "beyond the radius: the curve's value at 1");
    }

    #[test]
    fn subtract_sinks_away_from_the_point_and_multiply_scales() {
        let base = Field::from_fn_dir(32, |_| 0.5);
        let input = Some(Value::Field(std::sync::Arc::new(base)));
        let s = FalloffSettings { op: FalloffOp::Subtract, amount: 2.0, ..defaults() };
        let f = run(&s, vec![input.clone(), None], 32);
        let centre = lon_lat_to_dir(0.0, 0.0);
        assert!((f.sample_dir(centre) - 0.5).abs() < 0.1, "near the point almost nothing is taken");
        assert!((f.sample_dir(-centre) - (0.5 - 2.0)).abs() < 1e-5);
        let m = run(&FalloffSettings { op: FalloffOp::Multiply, ..defaults() }, vec![input, None], 32);
        assert!((m.sample_dir(-centre)).abs() < 1e-6);
    }

    #[test]
    fn mask_edge_distance_grows_inwards_across_seams_and_matches_between_resolutions() {
        // Inside: the northern hemisphere; its edge is the equator, which crosses four faces.
        let s = FalloffSettings { from: FalloffFrom::MaskEdge, radius_deg: 45.0, curve: vec![[0.0, 0.0], [1.0, 1.0]], ..defaults() };
        let at = |n: usize| {
            let mask = Field::from_fn_dir(n, |d| if d.y >= 0.0 { 1.0 } else { 0.0 });
            run(&s, vec![None, Some(Value::Field(std::sync::Arc::new(mask)))], n)
        };
        let (coarse, fine) = (at(32), at(128));
        for lon in [0.0f32, 45.0, 90.0, 135.0, 180.0, -45.0] {
            for (lat, want) in [(22.5f32, 0.5f32), (45.0, 1.0), (-30.0, 0.0)] {
                let d = lon_lat_to_dir(lon.to_radians(), lat.to_radians());
                let v = fine.sample_dir(d);
                assert!((v - want).abs() < 0.08, "lon {lon} lat {lat}: {v} vs {want}");
                assert!((coarse.sample_dir(d) - v).abs() < 0.1, "preview and build agree at lon {lon} lat {lat}");
            }
        }
        let missing = Falloff::run(&s, &Inputs(&[None, None]), &OpContext { tile: None, n: 16, cancel: &std::sync::atomic::AtomicBool::new(false), steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] });
        assert!(missing.is_err_and(|e| e.to_string().contains("mask")));
    }
}
