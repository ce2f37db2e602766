//! PlanetGraph: design procedural planets with a node graph that builds seamless cube-sphere
//! surfaces.
//!
//! The domain (`planet`, `tectonics`, `erosion`, `nodes`, `graph`, `eval`, `io`, `export`, `inspect`,
//! `appearance`) never imports egui or wgpu, and its imports run one way (see the README's
//! architecture section; `tests/layers.rs` checks it). `render` holds the wgpu planet renderer
//! and takes plain data; `editor` and `app` the egui user interface; `cli` the headless
//! commands.

#![warn(missing_docs)]

pub mod app;
pub mod appearance;
pub mod cli;
pub mod editor;
pub mod erosion;
pub mod eval;
pub mod export;
pub mod graph;
pub mod inspect;
pub mod io;
pub mod nodes;
pub mod planet;
pub mod render;
pub mod tectonics;
