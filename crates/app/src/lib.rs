//! PlanetGraph's editor: `editor` (the node editor's types, widgets and the bridge between the
//! saved graph and egui_node_graph2) and `app` (the eframe application: document, evaluation
//! worker, viewport, dialogs).
//!
//! This is the only crate of the workspace that declares egui, eframe, egui-wgpu, rfd and
//! egui_node_graph2. It depends on the domain (`planetgraph_core::graph`,
//! `planetgraph_core::nodes`, ...) and on the renderer (`planetgraph_renderer`), named by their
//! own paths (it re-exports neither), and not on the command line. See the README's
//! architecture section.

#![warn(missing_docs)]

pub mod app;
pub mod editor;
