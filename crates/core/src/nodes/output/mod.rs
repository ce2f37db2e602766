//! The output nodes: the planet the viewport shows, and the Export and Splat map nodes whose
//! files `build` writes.

pub mod export;
pub mod planet;
pub mod splat_map;
