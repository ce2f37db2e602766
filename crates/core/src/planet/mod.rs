//! The cube-sphere: faces, tangent warp, direction <-> cell, seam-aware neighbours, the
//! [`Field`] and [`VectorField`] that nodes pass around, sampling, resampling and projections;
//! and the numerical building blocks every layer above shares (random numbers, fBm, smoothing
//! counts), so that imports run one way: planet <- tectonics, erosion <- nodes.

pub mod blocks;
pub mod cache;
pub mod cell_directions;
pub mod cell_map;
pub mod colour;
pub mod coords;
pub mod diffusion;
pub mod distance;
pub mod face;
pub mod fbm;
pub mod field;
pub mod gradient;
pub mod ocean;
pub mod pipes;
pub mod power;
pub mod projection;
pub mod radix_heap;
pub mod regions;
pub mod rng;
pub mod rounding;
pub mod sim_error;
pub mod stencil;
pub mod tile;
pub mod vector;
pub mod warp;

pub use colour::ColourField;
pub use coords::{dir_to_cell, dir_to_face_ab, face_ab_to_cube, face_ab_to_dir, neighbour, Cell};
pub use face::Face;
pub use field::{Field, SmoothTaps};
pub use regions::RegionSurface;
pub use rng::Rng;
pub use sim_error::{check_cancel, FieldSizeError, SimError};
pub use tile::{Grid, Tile, TileError, MAX_LEVEL};
pub use vector::VectorField;

/// `3t² - 2t³` of `t` clamped to 0..1 (the Hermite smoothstep from 0 to 1).
#[inline]
pub fn smoothstep(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}
