//! The node canvas: the node editor's state, what the editor draws on the nodes (errors,
//! previews, timings), the framing of a newly opened document, the minimap's place and the
//! drags in progress. The document is the truth; the canvas shows it and is rebuilt from it.

use super::minimap::MinimapPlace;
use crate::editor::{to_editor, EdState, EditorState};
use planetgraph_core::graph::{Graph, NodeId};

/// Frames during which a newly opened document is framed again while sizes settle.
pub(super) const FRAME_SETTLE: u8 = 20;

/// The node canvas and what it shows.
pub struct Canvas {
    /// The node editor state.
    pub editor: EditorState,
    /// Errors, previews and timings shown in the editor.
    pub ed_state: EdState,
    /// Frames left during which every node is framed again (a newly opened document: the
    /// window and panel sizes settle in the first frames); the user's first click or scroll
    /// on the canvas ends it.
    pub(super) frame_pending: u8,
    /// Where the minimap sits and whether it is folded.
    pub(super) minimap: MinimapPlace,
    /// The frame being dragged and the editor nodes that move with it.
    pub(super) frame_drag: Option<(usize, Vec<egui_node_graph2::NodeId>)>,
    /// The node being dragged (a drop onto a wire inserts it).
    pub(super) dragged: Option<egui_node_graph2::NodeId>,
    /// Textures of a replaced document, kept until the frame that drew them is painted.
    pub(super) retired_textures: Vec<egui::TextureHandle>,
    /// Tab opened or closed a group this frame: the widget egui focused for it lets go.
    pub(super) drop_focus: bool,
}

impl Canvas {
    /// The canvas of `g`, to be framed once its sizes settle.
    pub(super) fn new(g: &Graph) -> Canvas {
        Canvas { editor: to_editor(g), ed_state: EdState::default(), frame_pending: FRAME_SETTLE, minimap: MinimapPlace::default(), frame_drag: None, dragged: None, retired_textures: Vec::new(), drop_focus: false }
    }

    /// Shows another document `g`: its nodes, no previews (freed in the next frame, since this
    /// one may still draw them), framed once its sizes settle.
    pub(super) fn replace(&mut self, g: &Graph) {
        self.editor = to_editor(g);
        self.retired_textures.extend(std::mem::take(&mut self.ed_state).previews.into_values());
        self.frame_pending = FRAME_SETTLE;
    }

    /// Rebuilds the editor from `g`, keeping the view and the selection.
    pub(super) fn rebuild(&mut self, g: &Graph) {
        let pan = self.editor.pan_zoom.clone();
        let selected = self.selected_ids();
        self.editor = to_editor(g);
        self.editor.pan_zoom = pan;
        self.select(&selected);
    }

    /// Selects the nodes with these domain ids.
    pub(super) fn select(&mut self, ids: &[NodeId]) {
        self.editor.selected_nodes = self.editor.graph.iter_nodes().filter(|n| ids.contains(&self.editor.graph[*n].user_data.id)).collect();
    }

    /// Domain ids of the selected nodes.
    pub fn selected_ids(&self) -> Vec<NodeId> {
        self.editor.selected_nodes.iter().filter_map(|n| self.editor.graph.nodes.get(*n)).map(|n| n.user_data.id).collect()
    }

    /// Zoom 1 with graph point (0, 0) at the canvas corner; the framing of a newly opened
    /// document stops.
    pub(super) fn reset_view(&mut self) {
        self.frame_pending = 0;
        self.editor.pan_zoom.zoom = 1.0;
        self.editor.pan_zoom.pan = egui::Vec2::ZERO;
    }
}
