//! PlanetGraph: design procedural planets with a node graph that builds seamless cube-sphere
//! surfaces.
//!
//! The crates of the workspace are the layers, and this one, with the binary, sits on top:
//! - the domain, `planetgraph-core` (`crates/core`), without any UI or GPU crate;
//! - the renderer, `planetgraph-renderer` (`crates/renderer`), on wgpu;
//! - the command line, `planetgraph-cli` (`crates/cli`), without any UI crate;
//! - the editor, `planetgraph-app` (`crates/app`), the only crate with egui.
//!
//! Every item has one public path, in the crate that owns it: the tests and the binary name
//! `planetgraph_core::nodes`, `planetgraph_renderer`, `planetgraph_cli` and
//! `planetgraph_app::app`; this crate re-exports nothing. See the README's architecture
//! section.

#![warn(missing_docs)]
