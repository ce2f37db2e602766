//! The output nodes: the planet the viewport shows, and the Export nodes that `build` writes.

pub mod export;
pub mod planet;
