//! The node editor: the only module that imports egui_node_graph2. Implements the library's
//! traits for the domain types and bridges editor state <-> saved graph.

pub mod bridge;
pub mod colours;
pub mod group;
pub mod thumbnails;
pub mod types;
pub mod widgets;
pub mod wires;

pub use bridge::{assign_new_ids, from_editor, keep_open_groups, to_editor, update_visibility};
pub use types::{AllKinds, EdState, EditorState};
