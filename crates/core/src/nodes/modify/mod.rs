//! Modify nodes: one field (or vector field) in, one out.

pub mod abs;
pub mod blur;
pub mod box_filter;
pub mod clamp;
pub mod curve;
pub mod detail;
pub mod gradient;
pub mod invert;
pub mod normalize;
pub mod scale_bias;
pub mod slope;
pub mod terrace;
pub mod to_metres;
pub mod vector_length;
pub mod warp;
