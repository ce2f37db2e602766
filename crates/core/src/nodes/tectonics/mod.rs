//! Tectonic nodes: regions, plates grown over them, and the elevation plates raise.

pub mod earth_relief;
pub mod plate_elevation;
pub mod plates;
pub mod regions;
