//! PlanetGraph's domain: design procedural planets with a node graph that builds seamless
//! cube-sphere surfaces.
//!
//! This crate (`planet`, `tectonics`, `erosion`, `nodes`, `graph`, `eval`, `io`, `export`,
//! `inspect`, `appearance`) depends on no UI or GPU crate, so it is tested and run headless and
//! the compiler keeps the editor and the renderer out of it. Its modules import one way (see the
//! README's architecture section; `tests/layers.rs` checks the order among them). No other
//! crate re-exports them: `planetgraph_core::nodes` is the one path to the nodes.

#![warn(missing_docs)]

pub mod appearance;
pub mod erosion;
pub mod eval;
pub mod export;
pub mod graph;
pub mod inspect;
pub mod io;
pub mod limits;
pub mod nodes;
pub mod planet;
pub mod raster;
pub mod tectonics;
