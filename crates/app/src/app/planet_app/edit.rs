//! Editing the selection: copy, cut, paste and duplicate through RON text on the clipboard,
//! select all, the node menu's actions, and the node shown in the viewport.

use super::PlanetApp;
use crate::app::clipboard::{copy_text, paste_text};
use crate::editor::types::NodeAction;
use planetgraph_core::graph::part::{merge, subgraph, top_left};
use planetgraph_core::graph::{Graph, Link, Node, NodeId};

/// The node being renamed and the name typed so far.
pub(super) struct Rename {
    id: NodeId,
    text: String,
    /// The field takes the keyboard (with the whole name selected) when the window opens.
    focus: bool,
}

/// Where a duplicate lands relative to its original (graph points).
const DUPLICATE_OFFSET: (f32, f32) = (40.0, 40.0);

impl PlanetApp {
    /// Selects every node (Ctrl+A).
    pub fn select_all(&mut self) {
        self.canvas.editor.selected_nodes = self.canvas.editor.graph.iter_nodes().collect();
    }

    /// Selects the nodes with these domain ids (after the editor was rebuilt).
    pub(super) fn select_ids(&mut self, ids: &[NodeId]) {
        self.canvas.select(ids);
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
                self.status.text = format!("Copied {}", nodes_text(ids.len()));
                true
            }
            Err(e) => {
                self.status.text = format!("Cannot copy: {e}");
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
        let canvas = self.canvas.editor.pan_zoom.clip_rect;
        let screen = ctx.input(|i| i.pointer.hover_pos()).filter(|p| canvas.contains(*p)).unwrap_or(canvas.center());
        let p = self.canvas.editor.pan_zoom.to_graph() * screen;
        (p.x, p.y)
    }

    /// Pastes clipboard text at the pointer (Ctrl+V): the nodes get fresh ids, keep their
    /// links among themselves and are selected. Text that is not a graph leaves the document
    /// alone and says why in the status line.
    pub fn paste(&mut self, ctx: &egui::Context, text: &str) {
        match paste_text(&self.doc.graph, text, self.paste_point(ctx), self.doc.next_id()) {
            Ok((mut g, ids)) => {
                self.place_new_block(&mut g, &ids);
                self.commit_new_nodes(g, &ids, "Pasted");
            }
            Err(e) => self.status.text = format!("Nothing pasted: the clipboard does not hold PlanetGraph nodes ({e})"),
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
        let at = top_left(&part).map_or((0.0, 0.0), |(x, y)| (x + DUPLICATE_OFFSET.0, y + DUPLICATE_OFFSET.1));
        let (mut g, new) = merge(&self.doc.graph, &part, at, self.doc.next_id());
        self.place_new_block(&mut g, &new);
        self.commit_new_nodes(g, &new, "Duplicated");
    }

    fn commit_new_nodes(&mut self, g: Graph, ids: &[NodeId], verb: &str) {
        if self.apply_edit(g) {
            self.select_ids(ids);
            self.status.text = format!("{verb} {}", nodes_text(ids.len()));
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
            NodeAction::Rename => self.node_action_rename(id),
            NodeAction::Bypass => {
                let ids = self.action_targets(id);
                self.toggle_bypass(&ids);
            }
            NodeAction::Collapse => {
                let ids = self.action_targets(id);
                self.toggle_collapse(&ids);
            }
            NodeAction::Thumbnail => {
                let ids = self.action_targets(id);
                self.toggle_thumbnail(&ids);
            }
            NodeAction::Group => {
                let ids = self.action_targets(id);
                self.select_ids(&ids);
                self.group_selection();
            }
            NodeAction::OpenClose => self.open_or_close(id),
            NodeAction::EditGroup => self.edit_group(id),
            NodeAction::Ungroup => {
                self.select_ids(&[id]);
                self.ungroup_selected();
            }
            NodeAction::SaveGroup => self.save_group(id),
        }
    }

    /// Collapses the nodes to their title bars, or expands them when the first one is
    /// collapsed (H; one undo step).
    pub fn toggle_collapse(&mut self, ids: &[NodeId]) {
        self.toggle_flag(ids, |n| &mut n.collapsed, |_| true);
    }

    /// Draws thumbnails of the nodes' outputs on them, or stops when the first one shows one
    /// (one undo step). Preview nodes always show theirs.
    pub fn toggle_thumbnail(&mut self, ids: &[NodeId]) {
        let mut g = self.doc.graph.clone();
        let on = !ids.first().and_then(|id| g.node(*id)).is_some_and(Node::shows_thumbnail);
        for n in g.nodes.iter_mut().filter(|n| ids.contains(&n.id)) {
            n.thumbnail = Some(on);
        }
        self.apply_edit(g);
    }

    /// Bypasses the nodes, or brings them back when the first one is bypassed (M; one undo
    /// step). Display and output nodes are left alone.
    pub fn toggle_bypass(&mut self, ids: &[NodeId]) {
        self.toggle_flag(ids, |n| &mut n.bypass, |n| !n.kind.meta().category.is_sink());
    }

    /// Sets `flag` on the nodes `ids` that `applies` to, to the opposite of the first node's
    /// value, as one undo step.
    fn toggle_flag(&mut self, ids: &[NodeId], flag: fn(&mut Node) -> &mut bool, applies: fn(&Node) -> bool) {
        let mut g = self.doc.graph.clone();
        let on = !ids.first().and_then(|id| g.node_mut(*id)).is_some_and(|n| *flag(n));
        for n in g.nodes.iter_mut().filter(|n| ids.contains(&n.id) && applies(n)) {
            *flag(n) = on;
        }
        self.apply_edit(g);
    }

    /// Renames the selected node (F2).
    pub fn rename_selected(&mut self) {
        if let [id] = self.selected_ids().as_slice() {
            self.node_action_rename(*id);
        }
    }

    fn node_action_rename(&mut self, id: NodeId) {
        let g = &self.doc.graph;
        if let Some(text) = g.node(id).map(|n| n.title()).or_else(|| g.group(id).map(|grp| grp.label.as_str())) {
            self.dialogs.rename = Some(Rename { id, text: text.to_string(), focus: true });
        }
    }

    /// Gives a node a name (an empty name goes back to the kind's label), or a group its
    /// title (an empty one: "Group"); one undo step.
    pub fn rename_node(&mut self, id: NodeId, name: &str) {
        let mut g = self.doc.graph.clone();
        let name = name.trim();
        if let Some(grp) = g.group_mut(id) {
            grp.label = if name.is_empty() { "Group".into() } else { name.to_string() };
        } else if let Some(n) = g.node_mut(id) {
            n.label = (!name.is_empty() && name != n.kind.meta().label).then(|| name.to_string());
        }
        self.apply_edit(g);
    }

    /// The rename window.
    pub(super) fn rename_window(&mut self, ctx: &egui::Context) {
        let Some(mut r) = self.dialogs.rename.take() else { return };
        let mut done = None;
        egui::Window::new("Rename node").collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
            let field = name_field(ui, egui::TextEdit::singleline(&mut r.text).desired_width(280.0).hint_text("empty: the kind's name"), std::mem::take(&mut r.focus));
            done = ok_cancel(ui, &field);
        });
        match done {
            Some(true) => self.rename_node(r.id, &r.text),
            Some(false) => {}
            None => self.dialogs.rename = Some(r),
        }
    }

    /// Inserts a node that was just dropped onto a wire into that link (source -> node ->
    /// target), when the node has no links yet and has ports of the wire's type. One undo step.
    pub(super) fn drop_on_wire(&mut self, node: egui_node_graph2::NodeId) {
        let Some(rect) = self.canvas.editor.node_rects.get(&node).copied() else { return };
        let Some(id) = self.canvas.editor.graph.nodes.get(node).map(|n| n.user_data.id) else { return };
        if self.doc.graph.links.iter().any(|l| l.from == id || l.to == id) {
            return;
        }
        let eg = &self.canvas.editor.graph;
        let hit = self.canvas.editor.link_curves.iter().filter(|(_, _, pts)| curve_hits(pts, rect)).find_map(|(input, output, _)| {
            let (inp, out) = (eg.try_get_input(*input)?, eg.try_get_output(*output)?);
            let (to, from) = (&eg[inp.node], &eg[out.node]);
            let in_name = to.inputs.iter().find(|(_, i)| i == input)?.0.clone();
            let out_name = from.outputs.iter().find(|(_, o)| o == output)?.0.clone();
            Some(Link { from: from.user_data.id, output: out_name, to: to.user_data.id, input: in_name })
        });
        let Some(link) = hit else { return };
        let mut g = self.doc.graph.clone();
        if !g.insert_on_link(id, &link) {
            return;
        }
        self.make_room(&mut g, id, rect, &link);
        if self.apply_edit(g) {
            self.select_ids(&[id]);
            self.status.text = "Inserted the node into the wire it was dropped on".into();
        }
    }

    /// Moves nodes aside for node `id` (drawn at `rect`, graph points) just put into `link`:
    /// off its source when it lies on it, and the nodes it covers, with the wire's target and
    /// everything downstream of it, to its right.
    fn make_room(&self, g: &mut Graph, id: NodeId, mut rect: egui::Rect, link: &Link) {
        const GAP: f32 = 24.0;
        let rects: Vec<(NodeId, egui::Rect)> = self.canvas.editor.node_rects.iter().filter_map(|(n, r)| Some((self.canvas.editor.graph.nodes.get(*n)?.user_data.id, *r))).filter(|(n, _)| *n != id).collect();
        let shift = |g: &mut Graph, n: NodeId, dx: f32| {
            if let Some(p) = g.layout.get_mut(&n) {
                p.0 += dx;
            }
        };
        if let Some((_, src)) = rects.iter().find(|(n, r)| *n == link.from && r.intersects(rect)) {
            let dx = src.right() + GAP - rect.left();
            shift(g, id, dx);
            rect = rect.translate(egui::vec2(dx, 0.0));
        }
        let covered: Vec<&(NodeId, egui::Rect)> = rects.iter().filter(|(n, r)| *n != link.from && r.intersects(rect)).collect();
        let Some(left) = covered.iter().map(|(_, r)| r.left()).reduce(f32::min) else { return };
        let dx = rect.right() + GAP - left;
        // The wire's target and everything downstream of it move along.
        let mut moving: std::collections::BTreeSet<NodeId> = covered.iter().map(|(n, _)| *n).collect();
        let mut stack = vec![link.to];
        let mut seen = std::collections::BTreeSet::new();
        while let Some(n) = stack.pop() {
            if n == id || !seen.insert(n) {
                continue;
            }
            moving.insert(n);
            stack.extend(g.links.iter().filter(|l| l.from == n).map(|l| l.to));
        }
        for n in moving {
            shift(g, n, dx);
        }
    }

    /// Shows a node's output in the viewport (for a group, the node behind its first output),
    /// or the Planet again when it is already shown.
    pub fn toggle_viewer(&mut self, id: NodeId) {
        let id = self.doc.graph.group(id).and_then(|g| g.outputs.first()).map_or(id, |p| p.node);
        self.canvas.ed_state.viewed = if self.canvas.ed_state.viewed == Some(id) { None } else { Some(id) };
        self.update_viewer();
        if self.canvas.ed_state.viewed.is_some() {
            // The node may be one no display node needs: evaluate it too (the cache keeps the
            // rest).
            self.request_eval();
        }
    }

    /// Shows the selected node in the viewport (V), or the Planet again.
    pub fn view_selected(&mut self) {
        match self.selected_ids().as_slice() {
            [id] => self.toggle_viewer(*id),
            _ if self.canvas.ed_state.viewed.is_some() => {
                self.canvas.ed_state.viewed = None;
                self.update_viewer();
            }
            _ => self.status.text = "Select one node to show it in the viewport (V)".into(),
        }
    }
}

/// Whether the cubic Bézier `pts` passes through `rect` (sampled; the ends are left out, as
/// they lie on the ports of the wire's own nodes).
fn curve_hits(pts: &[egui::Pos2; 4], rect: egui::Rect) -> bool {
    (2..31).map(|k| k as f32 / 32.0).any(|t| {
        let u = 1.0 - t;
        let p = pts[0].to_vec2() * (u * u * u) + pts[1].to_vec2() * (3.0 * u * u * t) + pts[2].to_vec2() * (3.0 * u * t * t) + pts[3].to_vec2() * (t * t * t);
        rect.contains(p.to_pos2())
    })
}

/// "1 node" or "N nodes".
fn nodes_text(n: usize) -> String {
    format!("{n} node{}", if n == 1 { "" } else { "s" })
}

/// The OK and Cancel buttons of a small window: `Some(true)` for OK (or Enter in `field`),
/// `Some(false)` for Cancel, `None` while neither.
pub(super) fn ok_cancel(ui: &mut egui::Ui, field: &egui::Response) -> Option<bool> {
    let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    ui.horizontal(|ui| {
        if ui.button("OK").clicked() || enter {
            Some(true)
        } else if ui.button("Cancel").clicked() {
            Some(false)
        } else {
            None
        }
    })
    .inner
}

/// A name field; when `take_focus` (the window has just opened) it takes the keyboard with its
/// whole text selected, so typing replaces the suggested name.
pub(super) fn name_field(ui: &mut egui::Ui, edit: egui::TextEdit, take_focus: bool) -> egui::Response {
    let out = edit.show(ui);
    if take_focus {
        out.response.request_focus();
        let mut state = out.state;
        let len = out.galley.text().chars().count();
        state.cursor.set_char_range(Some(egui::text::CCursorRange::two(egui::text::CCursor::new(0), egui::text::CCursor::new(len))));
        state.store(ui.ctx(), out.response.id);
    }
    out.response.response
}
