//! The node vocabulary: kinds with declarative metadata, parameter values, and one pure
//! function per kind from inputs + parameters + context to outputs.

pub mod combine;
pub mod context;
pub mod erosion;
pub mod filters;
pub mod island;
pub mod kinds;
pub mod modify;
pub mod noise;
pub mod output;
pub mod params;
pub mod rng;
pub mod sources;
pub mod tectonic;
pub mod value;

pub use context::{OpContext, OpError, Params};
pub use kinds::{Category, NodeKind, NodeMeta, PortDef, PortType};
pub use params::{ParamDef, ParamSpec, ParamValue};
pub use value::{Value, VectorField};

use crate::planet::Field;
use std::sync::Arc;

fn field_in(inputs: &[Value], k: usize) -> Result<&Arc<Field>, OpError> {
    inputs.get(k).and_then(Value::as_field).ok_or_else(|| OpError::Invalid(format!("input {k} is not a field")))
}

/// Runs one node. `inputs` follow the kind's input ports in order (already type-checked).
/// Returns one value per output port; a Preview returns its input (the value it displays).
pub fn run(kind: NodeKind, p: &Params, inputs: &[Value], ctx: &OpContext) -> Result<Vec<Value>, OpError> {
    ctx.check()?;
    let one = |f: Field| Ok(vec![Value::from(f)]);
    match kind {
        NodeKind::Constant => one(sources::constant(p, ctx)),
        NodeKind::Noise => one(noise::noise_field(p, ctx)?),
        NodeKind::FaultPlanet => one(sources::fault_planet(p, ctx)?),
        NodeKind::Latitude => one(sources::latitude(p, ctx)),
        NodeKind::Island => one(island::island_node(p, ctx)?),
        NodeKind::Add | NodeKind::Subtract | NodeKind::Multiply | NodeKind::Divide | NodeKind::Min | NodeKind::Max | NodeKind::Power => {
            one(combine::binary(kind, field_in(inputs, 0)?, field_in(inputs, 1)?, p.float("epsilon")))
        }
        NodeKind::Blend => one(combine::blend(field_in(inputs, 0)?, field_in(inputs, 1)?, field_in(inputs, 2)?)),
        NodeKind::ScaleBias => one(modify::scale_bias(field_in(inputs, 0)?, p.float("scale"), p.float("bias"))),
        NodeKind::Abs => one(field_in(inputs, 0)?.map(f32::abs)),
        NodeKind::Invert => one(modify::invert(field_in(inputs, 0)?, p.float("pivot"))),
        NodeKind::Clamp => one(modify::clamp(field_in(inputs, 0)?, p.float("min"), p.float("max"))),
        NodeKind::Normalize => one(modify::normalize(field_in(inputs, 0)?, p.float("min"), p.float("max"))),
        NodeKind::Curve => {
            let c = modify::MonotoneCurve::new(&p.curve("curve"));
            one(field_in(inputs, 0)?.map(|x| c.eval(x)))
        }
        NodeKind::Terrace => one(modify::terrace(field_in(inputs, 0)?, p.int("steps"), p.float("smoothness"))),
        NodeKind::Blur => one(filters::blur(field_in(inputs, 0)?, p.float("radius"), ctx)?),
        NodeKind::BoxFilter => one(filters::box_filter(field_in(inputs, 0)?, &p.matrix("matrix"), p.int("iterations"), ctx)?),
        NodeKind::Gradient => Ok(vec![Value::Vector(Arc::new(filters::gradient(field_in(inputs, 0)?)))]),
        NodeKind::VectorLength => {
            let v = inputs.first().and_then(Value::as_vector).ok_or_else(|| OpError::Invalid("input is not a vector field".into()))?;
            one(filters::vector_length(v))
        }
        NodeKind::Regions => Ok(vec![Value::Regions(Arc::new(tectonic::regions(p)))]),
        NodeKind::TectonicPlates => {
            let r = inputs.first().and_then(Value::as_regions).ok_or_else(|| OpError::Invalid("input is not a region surface".into()))?;
            Ok(vec![Value::Plates(Arc::new(tectonic::plates(r.clone(), p)?))])
        }
        NodeKind::PlateElevation => {
            let plates = inputs.first().and_then(Value::as_plates).ok_or_else(|| OpError::Invalid("input is not a set of plates".into()))?;
            let s = tectonic::plate_elevation(plates, p, ctx)?;
            Ok(vec![Value::from(s.elevation), Value::from(s.plate_id), Value::from(s.pressure), Value::from(s.boundary_km), Value::Vector(Arc::new(s.motion))])
        }
        NodeKind::HydraulicErosion => {
            let r = erosion::hydraulic(field_in(inputs, 0)?, p, ctx)?;
            Ok(vec![Value::from(r.elevation), Value::from(r.water), Value::from(r.sediment), Value::from(r.deposited), Value::from(r.speed), Value::from(r.presence)])
        }
        NodeKind::ThermalErosion => one(erosion::thermal(field_in(inputs, 0)?, p, ctx)?),
        NodeKind::DropletErosion => one(erosion::droplets(field_in(inputs, 0)?, p, ctx)?),
        NodeKind::SeaFloor => one(erosion::sea_floor(field_in(inputs, 0)?, p, ctx)?),
        NodeKind::CoralReef => {
            let r = erosion::coral(field_in(inputs, 0)?, p, ctx)?;
            Ok(vec![Value::from(r.elevation), Value::from(r.growth)])
        }
        NodeKind::Preview => Ok(vec![Value::Field(field_in(inputs, 0)?.clone())]),
        NodeKind::Planet => one(output::PlanetSettings::from_params(p).apply(field_in(inputs, 0)?)),
    }
}
