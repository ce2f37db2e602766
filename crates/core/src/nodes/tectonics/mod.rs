//! Tectonic nodes: regions, plates grown over them, and the elevation plates raise.

pub mod earth_relief;
pub mod plate_elevation;
pub mod plates;
pub mod regions;

use crate::nodes::{PortDef, PortType};

/// The port that carries plates: Tectonic plates' output, the input of the nodes that raise
/// relief from them.
pub const PLATES_PORT: PortDef = PortDef::of("plates", PortType::Plates);
/// The plate of each cell (0, 1, ...), an output of the nodes that raise relief from plates.
pub const PLATE_ID_PORT: PortDef = PortDef::field("plate_id");
/// Plate motion per cell, an output of the nodes that raise relief from plates.
pub const MOTION_PORT: PortDef = PortDef::of("motion", PortType::Vector);
