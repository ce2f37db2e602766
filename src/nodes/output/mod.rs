//! The output node: the planet the viewport shows and `build` exports.

pub mod planet;
