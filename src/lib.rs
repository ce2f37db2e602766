//! PlanetGraph: design procedural planets with a node graph that builds seamless cube-sphere
//! surfaces.
//!
//! The domain (`planet`, `tectonics`, `erosion`, `ops`, `graph`, `eval`, `io`) never imports egui or wgpu; `render`
//! holds the wgpu planet renderer, `editor` and `app` the egui user interface, `cli` the
//! headless commands.

pub mod planet;
pub mod ops;
pub mod tectonics;
pub mod erosion;
pub mod graph;
pub mod eval;
pub mod io;
pub mod appearance;
pub mod render;
pub mod cli;
pub mod editor;
pub mod app;
