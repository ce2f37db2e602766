//! Erosion nodes: the simulations of `crate::erosion` with typed settings, progress and
//! cancellation.

pub mod coral_reef;
pub mod drainage;
pub mod droplet;
pub mod erosion_filter;
pub mod hydraulic;
pub mod landscape;
pub mod lsystem_rivers;
pub mod sea_floor;
pub mod thermal;

use super::params::{float, ParamDef};
use super::unit::Unit;

/// The relief parameter the erosion nodes share (its key comes from the field it fills).
pub const RELIEF: ParamDef =
    float("Relief", 20.0, 0.01, 1000.0, Unit::None, 0.1, "How steep the terrain is for water and rock: the height of 1.0 of elevation measured in cells at 128 cells per face edge. Higher: steeper slopes, faster water, more erosion.");
