//! Tectonic planets after seed 000: plates grown over the region surface, their motion,
//! boundaries and the elevation they raise.

pub mod boundary;
pub mod elevation;
pub mod motion;
pub mod plates;
pub mod relief;

pub use elevation::{plate_elevation, ElevationSettings, PlateSurface};
pub use motion::{BaseElevation, PlateMotion};
pub use plates::{PlateSettings, Plates, UNCLAIMED};
