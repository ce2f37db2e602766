//! Editing the selection: copy, cut, paste and duplicate through RON text on the clipboard,
//! select all, the node menu's actions, and the node shown in the viewport.

use super::PlanetApp;
use crate::editor::types::NodeAction;
use crate::graph::{Graph, NodeId};
use crate::io::clipboard::{copy_text, merge, paste_text, subgraph};

/// Where a duplicate lands relative to its original (graph points).
const DUPLICATE_OFFSET: (f32, f32) = (40.0, 40.0);

impl PlanetApp {
    /// Selects every node (Ctrl+A).
    pub fn select_all(&mut self) {
        self.editor.selected_nodes = self.editor.graph.iter_nodes().collect();
    }

    /// Selects the nodes with these domain ids (after the editor was rebuilt).
    fn select_ids(&mut self, ids: &[NodeId]) {
        self.editor.selected_nodes = self.editor.graph.iter_nodes().filter(|n| ids.contains(&self.editor.graph[*n].user_data.id)).collect();
    }

    /// Puts the selected nodes on the clipboard as RON text (Ctrl+C). Returns false when
    /// nothing is selected.
    pub fn copy_selection(&mut self, ctx: &egui::Context) -> bool {
        let ids = self.selected_ids();
        if ids.is_empty() {
            return false;
        }
        match copy_text(&self.doc.graph, &ids) {
            Ok(text) => {
                ctx.copy_text(text);
                self.status = format!("Copied {} node{}", ids.len(), if ids.len() == 1 { "" } else { "s" });
                true
            }
            Err(e) => {
                self.status = format!("Cannot copy: {e}");
                false
            }
        }
    }

    /// Copies, then deletes the selection (Ctrl+X; one undo step).
    pub fn cut_selection(&mut self, ctx: &egui::Context) {
        if self.copy_selection(ctx) {
            self.delete_selected();
        }
    }

    /// The graph point under the pointer, or the canvas centre when the pointer is elsewhere.
    fn paste_point(&self, ctx: &egui::Context) -> (f32, f32) {
        let canvas = self.editor.pan_zoom.clip_rect;
        let screen = ctx.input(|i| i.pointer.hover_pos()).filter(|p| canvas.contains(*p)).unwrap_or(canvas.center());
        let p = self.editor.pan_zoom.to_graph() * screen;
        (p.x, p.y)
    }

    /// Pastes clipboard text at the pointer (Ctrl+V): the nodes get fresh ids, keep their
    /// links among themselves and are selected. Text that is not a graph leaves the document
    /// alone and says why in the status line.
    pub fn paste(&mut self, ctx: &egui::Context, text: &str) {
        match paste_text(&self.doc.graph, text, self.paste_point(ctx)) {
            Ok((g, ids)) => self.commit_new_nodes(g, &ids, "Pasted"),
            Err(e) => self.status = format!("Nothing pasted: the clipboard does not hold PlanetGraph nodes ({e})"),
        }
    }

    /// Duplicates the selected nodes beside the originals (Ctrl+D, Shift+D), without touching
    /// the clipboard.
    pub fn duplicate_selection(&mut self) {
        let ids = self.selected_ids();
        self.duplicate(&ids);
    }

    fn duplicate(&mut self, ids: &[NodeId]) {
        if ids.is_empty() {
            return;
        }
        let part = subgraph(&self.doc.graph, ids);
        let (x, y) = part.layout.values().fold((f32::INFINITY, f32::INFINITY), |(x, y), p| (x.min(p.0), y.min(p.1)));
        let at = if x.is_finite() { (x + DUPLICATE_OFFSET.0, y + DUPLICATE_OFFSET.1) } else { (0.0, 0.0) };
        let (g, new) = merge(&self.doc.graph, &part, at);
        self.commit_new_nodes(g, &new, "Duplicated");
    }

    fn commit_new_nodes(&mut self, g: Graph, ids: &[NodeId], verb: &str) {
        self.doc.seal();
        if self.doc.commit(g, false) {
            self.reload_editor();
            self.select_ids(ids);
            self.status = format!("{verb} {} node{}", ids.len(), if ids.len() == 1 { "" } else { "s" });
        }
    }

    /// The nodes a node-menu action applies to: the selection when the node is part of it,
    /// else the node alone.
    fn action_targets(&self, id: NodeId) -> Vec<NodeId> {
        let sel = self.selected_ids();
        if sel.contains(&id) {
            sel
        } else {
            vec![id]
        }
    }

    /// Carries out an action chosen in a node's right-click menu.
    pub(super) fn node_action(&mut self, ctx: &egui::Context, id: NodeId, action: NodeAction) {
        match action {
            NodeAction::View => self.toggle_viewer(id),
            NodeAction::Duplicate => {
                let ids = self.action_targets(id);
                self.duplicate(&ids);
            }
            NodeAction::Copy => {
                let ids = self.action_targets(id);
                self.select_ids(&ids);
                self.copy_selection(ctx);
            }
            NodeAction::Delete => {
                let ids = self.action_targets(id);
                self.select_ids(&ids);
                self.delete_selected();
            }
        }
    }

    /// Shows a node's output in the viewport, or the Planet again when it is already shown.
    pub fn toggle_viewer(&mut self, id: NodeId) {
        self.ed_state.viewed = if self.ed_state.viewed == Some(id) { None } else { Some(id) };
        self.update_viewer();
        if self.ed_state.viewed.is_some() {
            // The node may be one no display node needs: evaluate it too (the cache keeps the
            // rest).
            self.request_eval();
        }
    }

    /// Shows the selected node in the viewport (V), or the Planet again.
    pub fn view_selected(&mut self) {
        match self.selected_ids().as_slice() {
            [id] => self.toggle_viewer(*id),
            _ if self.ed_state.viewed.is_some() => {
                self.ed_state.viewed = None;
                self.update_viewer();
            }
            _ => self.status = "Select one node to show it in the viewport (V)".into(),
        }
    }
}
