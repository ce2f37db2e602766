//! The erosion nodes: parameters in, the simulations of `crate::erosion` run with progress and
//! cancellation.

use super::context::{OpContext, OpError, Params};
use super::kinds::SEDIMENT_TRANSPORTS;
use crate::erosion::coral::{self as reef, CoralResult, CoralSettings};
use crate::erosion::droplet::{self as drop, DropletSettings};
use crate::erosion::hydraulic::{self as hyd, HydraulicResult, HydraulicSettings};
use crate::erosion::seafloor::smooth_sea_floor;
use crate::erosion::thermal::{self as th, ThermalSettings};
use crate::planet::Field;
use std::sync::atomic::{AtomicUsize, Ordering};

fn count(p: &Params, name: &str) -> usize {
    p.int(name).max(0) as usize
}

/// Runs `f` with a step counter wired to the evaluation's progress.
fn with_steps<T>(ctx: &OpContext, total: usize, f: impl FnOnce(&AtomicUsize) -> Option<T>) -> Result<T, OpError> {
    let local = AtomicUsize::new(0);
    let counter = match ctx.steps {
        Some(s) => {
            s.total.store(total, Ordering::Relaxed);
            &s.done
        }
        None => &local,
    };
    f(counter).ok_or(OpError::Cancelled)
}

/// The Hydraulic erosion node's settings.
pub fn hydraulic_settings(p: &Params) -> HydraulicSettings {
    HydraulicSettings {
        iterations: count(p, "iterations"),
        dt: p.float("dt"),
        relief: p.float("relief"),
        rain: p.float("rain"),
        gravity: p.float("gravity"),
        capacity: p.float("capacity"),
        min_slope: p.float("min_slope"),
        full_depth: p.float("full_depth"),
        dissolve: p.float("dissolve"),
        deposit: p.float("deposit"),
        evaporation: p.float("evaporation"),
        sediment_diffusion: p.float("sediment_diffusion"),
        creep: p.float("creep"),
        sea_level: p.float("sea_level"),
        semi_lagrangian: p.choice("transport") == SEDIMENT_TRANSPORTS[1],
    }
}

/// The Hydraulic erosion node.
pub fn hydraulic(f: &Field, p: &Params, ctx: &OpContext) -> Result<HydraulicResult, OpError> {
    let s = hydraulic_settings(p);
    with_steps(ctx, hyd::steps_at(s.iterations, f.n()), |c| hyd::hydraulic(f, &s, ctx.cancel, c))
}

/// The Thermal erosion node.
pub fn thermal(f: &Field, p: &Params, ctx: &OpContext) -> Result<Field, OpError> {
    let s = ThermalSettings { iterations: count(p, "iterations"), talus_deg: p.float("talus_deg"), amount: p.float("amount"), relief: p.float("relief") };
    with_steps(ctx, hyd::steps_at(s.iterations, f.n()), |c| th::thermal(f, &s, ctx.cancel, c))
}

/// The Droplet erosion node's settings.
pub fn droplet_settings(p: &Params) -> DropletSettings {
    DropletSettings {
        density: p.float("density"),
        lifetime: count(p, "lifetime"),
        inertia: p.float("inertia"),
        capacity: p.float("capacity"),
        min_slope: p.float("min_slope"),
        erode: p.float("erode"),
        deposit: p.float("deposit"),
        evaporation: p.float("evaporation"),
        gravity: p.float("gravity"),
        radius: p.float("radius"),
        relief: p.float("relief"),
        sea_level: p.float("sea_level"),
        seed: p.seed(),
    }
}

/// The Droplet erosion node.
pub fn droplets(f: &Field, p: &Params, ctx: &OpContext) -> Result<Field, OpError> {
    let s = droplet_settings(p);
    with_steps(ctx, drop::batches(s.density, f.n()), |c| drop::droplets(f, &s, ctx.cancel, c).map(|r| r.elevation))
}

/// The Sea floor node.
pub fn sea_floor(f: &Field, p: &Params, ctx: &OpContext) -> Result<Field, OpError> {
    smooth_sea_floor(f, p.float("sea_level"), count(p, "passes"), ctx.cancel).ok_or(OpError::Cancelled)
}

/// The Coral reef node.
pub fn coral(f: &Field, p: &Params, ctx: &OpContext) -> Result<CoralResult, OpError> {
    let s = CoralSettings {
        iterations: count(p, "iterations"),
        dt: p.float("dt"),
        metres_per_unit: p.float("metres_per_unit"),
        sea_level: p.float("sea_level"),
        sea_rise: p.float("sea_rise"),
        growth_rate: p.float("growth_rate"),
        absorption: p.float("absorption"),
        max_depth: p.float("max_depth"),
        carbon_use: p.float("carbon_use"),
        open_sea_depth: p.float("open_sea_depth"),
        diffusion: count(p, "diffusion"),
    };
    with_steps(ctx, s.iterations, |c| reef::coral(f, &s, ctx.cancel, c))
}
