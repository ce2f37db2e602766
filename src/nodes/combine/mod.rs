//! Combine nodes: two or three fields in, one out, value by value.

pub mod binary;
pub mod blend;
