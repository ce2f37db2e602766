//! PlanetGraph: design procedural planets with a node graph that builds seamless cube-sphere
//! surfaces.
//!
//! The domain lives in the `planetgraph-core` crate (`crates/core`), which depends on no UI or
//! GPU crate; its modules are re-exported here, so `planetgraph::nodes` is
//! `planetgraph_core::nodes`. The renderer is the `planetgraph-render` crate (`crates/render`),
//! re-exported as `render`. This crate adds `editor` and `app` (the egui user interface) and
//! `cli` (the headless commands).
//! See the README's architecture section.

#![warn(missing_docs)]

pub use planetgraph_core::{appearance, erosion, eval, export, graph, inspect, io, nodes, planet, tectonics};
/// The planet renderer (wgpu), the `planetgraph-render` crate.
pub use planetgraph_render as render;

pub mod app;
pub mod cli;
pub mod editor;
