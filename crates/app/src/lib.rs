//! PlanetGraph's editor: `editor` (the node editor's types, widgets and the bridge between the
//! saved graph and egui_node_graph2) and `app` (the eframe application: document, evaluation
//! worker, viewport, dialogs).
//!
//! This is the only crate of the workspace that declares egui, eframe, egui-wgpu, rfd and
//! egui_node_graph2. It depends on the domain (`planetgraph-core`, whose modules it re-exports
//! so the editor names them `crate::graph`, `crate::nodes`, ...) and on the renderer
//! (`planetgraph-render`, re-exported as `render`), and not on the command line. See the
//! README's architecture section.

#![warn(missing_docs)]

pub use planetgraph_core::{appearance, erosion, eval, export, graph, inspect, io, nodes, planet, raster, tectonics};
/// The planet renderer (wgpu), the `planetgraph-render` crate.
pub use planetgraph_render as render;

pub mod app;
pub mod editor;
