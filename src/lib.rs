//! PlanetGraph: design procedural planets with a node graph that builds seamless cube-sphere
//! surfaces.
//!
//! The crates of the workspace are the layers, and this one, with the binary, sits on top:
//! - the domain, `planetgraph-core` (`crates/core`), without any UI or GPU crate;
//! - the renderer, `planetgraph-render` (`crates/render`), on wgpu;
//! - the command line, `planetgraph-cli` (`crates/cli`), without any UI crate;
//! - the editor, `planetgraph-app` (`crates/app`), the only crate with egui.
//!
//! They are re-exported here under the names the tests and the binary use:
//! `planetgraph::nodes` is `planetgraph_core::nodes`, `planetgraph::render` the renderer,
//! `planetgraph::cli` the command line and `planetgraph::app`, `planetgraph::editor` the
//! editor's modules. See the README's architecture section.

#![warn(missing_docs)]

pub use planetgraph_app::{app, editor};
/// The command line, the `planetgraph-cli` crate.
pub use planetgraph_cli as cli;
pub use planetgraph_core::{appearance, erosion, eval, export, graph, inspect, io, nodes, planet, raster, tectonics};
/// The planet renderer (wgpu), the `planetgraph-render` crate.
pub use planetgraph_render as render;
