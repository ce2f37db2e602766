//! The cube-sphere: faces, tangent warp, direction <-> cell, seam-aware neighbours, the
//! [`Field`] that nodes pass around, sampling, resampling and projections.

pub mod cache;
pub mod coords;
pub mod face;
pub mod field;
pub mod pipes;
pub mod projection;
pub mod regions;
pub mod warp;

pub use coords::{dir_to_cell, dir_to_face_ab, face_ab_to_cube, face_ab_to_dir, neighbour, Cell};
pub use face::Face;
pub use field::Field;
pub use regions::RegionSurface;
