//! Groups in the editor: make one from the selection (Ctrl+G), open and close it (Tab),
//! ungroup (Ctrl+Shift+G), choose its name, ports and shown parameters, save it to the user's
//! library (it then appears in the finder under "My groups"). Every change is one undo step.

use super::edit::{name_field, ok_cancel};
use super::PlanetApp;
use crate::app::library::{default_library_dir, Library};
use crate::editor::types::EdTemplate;
use egui::{Color32, Rect};
use planetgraph_core::graph::{add_port, Group, GroupPort, NodeId};
use std::path::PathBuf;

/// The group whose settings are being edited, with the choices so far.
pub(super) struct GroupEdit {
    id: NodeId,
    label: String,
    group: Group,
    /// The name field takes the keyboard when the window opens.
    focus: bool,
}

impl PlanetApp {
    /// Uses `dir` as the library of saved groups (`None`: no library, as in tests) and lists
    /// its groups in the finder once they are read (in the background).
    pub fn set_library_dir(&mut self, dir: Option<PathBuf>) {
        let Some(dir) = dir else {
            self.library = None;
            return;
        };
        // Empty until the folder is read in the background; groups saved meanwhile are kept.
        self.library = Some(Library { dir: dir.clone(), groups: Vec::new() });
        self.loads.library(dir);
    }

    /// The finder's entries for the library's groups.
    pub(super) fn library_templates(&self) -> Vec<EdTemplate> {
        let ready = self.ready_surface.iter().map(|b| EdTemplate::Ready(b.clone()));
        ready.chain(self.library.iter().flat_map(|l| l.groups.iter()).map(|e| EdTemplate::Group(e.body.clone()))).collect()
    }

    /// The library folder of the running editor.
    pub fn with_default_library(mut self) -> PlanetApp {
        self.set_library_dir(default_library_dir());
        self
    }

    /// Makes a group of the selected nodes (Ctrl+G) and opens its settings.
    pub fn group_selection(&mut self) {
        let ids = self.selected_ids();
        let mut g = self.doc.graph.clone();
        if let Some(grp) = ids.iter().find_map(|id| g.group(*id)) {
            self.status.text = format!("Cannot group: '{}' is a group, and groups cannot hold groups; ungroup it first (Ctrl+Shift+G)", grp.label);
            return;
        }
        match g.make_group(&ids, "Group") {
            Ok(id) => {
                if self.apply_edit(g) {
                    self.select_ids(&[id]);
                    self.status.text = format!("Grouped {} nodes: Tab opens the group, Ctrl+Shift+G ungroups", ids.len());
                    self.edit_group(id);
                }
            }
            Err(e) => self.status.text = format!("Cannot group: {e}"),
        }
    }

    /// Dissolves the selected groups into their nodes (Ctrl+Shift+G).
    pub fn ungroup_selected(&mut self) {
        let mut g = self.doc.graph.clone();
        let groups: Vec<Group> = self.selected_ids().iter().filter_map(|id| g.group(*id).cloned()).collect();
        if groups.is_empty() {
            self.status.text = "Select a group to ungroup (Ctrl+Shift+G)".into();
            return;
        }
        for grp in &groups {
            g.ungroup(grp.id);
        }
        if self.apply_edit(g) {
            let members: Vec<NodeId> = groups.iter().flat_map(|grp| grp.members.iter().copied()).collect();
            self.select_ids(&members);
        }
    }

    /// Opens group `id` to edit its nodes in place, or, for a node of an open group, closes
    /// that group (Tab).
    pub fn open_or_close(&mut self, id: NodeId) {
        let mut g = self.doc.graph.clone();
        let (gid, open) = match (g.group(id), g.group_of(id)) {
            (Some(grp), _) => (grp.id, true),
            (None, Some(grp)) if grp.open => (grp.id, false),
            _ => {
                self.status.text = "Tab opens a selected group, or closes the open group of a selected node".into();
                return;
            }
        };
        g.set_group_open(gid, open);
        let members = g.group(gid).map(|grp| grp.members.clone()).unwrap_or_default();
        if self.apply_edit(g) {
            self.select_ids(if open { &members } else { std::slice::from_ref(&gid) });
            if open {
                self.status.text = "Group open: edit its nodes, Tab closes it again".into();
            }
        }
    }

    /// Tab on the selection.
    pub fn open_or_close_selected(&mut self) {
        match self.selected_ids().first() {
            Some(id) => self.open_or_close(*id),
            None => self.status.text = "Select a group to open it (Tab)".into(),
        }
    }

    /// Opens the settings window of group `id`.
    pub(super) fn edit_group(&mut self, id: NodeId) {
        if let Some(grp) = self.doc.graph.group(id) {
            self.dialogs.group = Some(GroupEdit { id, label: grp.label.clone(), group: grp.clone(), focus: true });
        }
    }

    /// Saves group `id` to the user's library.
    pub(super) fn save_group(&mut self, id: NodeId) {
        let Some(lib) = self.library.as_mut() else {
            self.status.text = "No library folder: set PLANETGRAPH_LIBRARY_DIR or HOME".into();
            return;
        };
        match lib.save(&self.doc.graph, id) {
            Ok(path) => {
                self.status.text = format!("Saved to my groups as {} (add it from the finder, My groups)", path.display());
            }
            Err(e) => self.status.text = format!("Cannot save the group: {e}"),
        }
    }

    /// The rectangles (graph points) and titles of the open groups, around their nodes as
    /// drawn in the last frame.
    pub(super) fn open_group_outlines(&self) -> Vec<(String, Rect)> {
        let rects: std::collections::HashMap<NodeId, Rect> = self.canvas.editor.node_rects.iter().filter_map(|(n, r)| Some((self.canvas.editor.graph.nodes.get(*n)?.user_data.id, *r))).collect();
        self.doc.graph.groups.iter().filter(|g| g.open).filter_map(|g| Some((g.label.clone(), g.members.iter().filter_map(|m| rects.get(m).copied()).reduce(|a, b| a.union(b))?))).collect()
    }

    /// The group settings window: name, and which member ports and parameters the group node
    /// shows. Ports with a wire across the group's border stay.
    pub(super) fn group_window(&mut self, ctx: &egui::Context) {
        let Some(mut e) = self.dialogs.group.take() else { return };
        let graph = &self.doc.graph;
        let mut done = None;
        egui::Window::new("Group settings").collapsible(false).resizable(true).default_height(420.0).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
            ui.label("Name");
            let r = name_field(ui, egui::TextEdit::singleline(&mut e.label).desired_width(320.0), std::mem::take(&mut e.focus));
            ui.label(egui::RichText::new("Tick what the group node shows. Inputs and outputs with a wire across the group's border always show.").small().weak());
            egui::ScrollArea::vertical().max_height(360.0).show(ui, |ui| {
                for m in e.group.members.clone() {
                    let Some(node) = graph.node(m) else { continue };
                    let meta = node.kind.meta();
                    ui.separator();
                    ui.label(egui::RichText::new(node.describe()).strong());
                    for p in meta.inputs {
                        let wired = graph.links.iter().any(|l| l.to == m && l.input == p.name && !e.group.contains(l.from));
                        port_box(ui, &mut e.group.inputs, m, p.name, node.title(), wired, "input");
                    }
                    for p in meta.outputs {
                        let wired = graph.links.iter().any(|l| l.from == m && l.output == p.name && !e.group.contains(l.to));
                        port_box(ui, &mut e.group.outputs, m, p.name, node.title(), wired, "output");
                    }
                    for d in node.kind.params() {
                        let mut on = e.group.params.iter().any(|q| q.node == m && q.param == d.name);
                        if ui.checkbox(&mut on, format!("parameter: {}", d.label)).on_hover_text(d.tooltip).changed() {
                            if on {
                                e.group.expose_param(m, d.name, d.label, node.title());
                            } else {
                                e.group.params.retain(|q| !(q.node == m && q.param == d.name));
                            }
                        }
                    }
                }
            });
            ui.separator();
            done = ok_cancel(ui, &r);
        });
        match done {
            Some(true) => {
                let mut g = self.doc.graph.clone();
                if let Some(grp) = g.group_mut(e.id) {
                    let label = e.label.trim();
                    e.group.label = if label.is_empty() { "Group".to_string() } else { label.to_string() };
                    *grp = e.group;
                    g.normalize();
                    self.apply_edit(g);
                }
            }
            Some(false) => {}
            None => self.dialogs.group = Some(e),
        }
    }
}

/// A checkbox that adds or removes member port `node.port` from a group's `ports`; a port
/// with a wire across the border stays ticked.
fn port_box(ui: &mut egui::Ui, ports: &mut Vec<GroupPort>, node: NodeId, port: &str, title: &str, wired: bool, what: &str) {
    let mut on = ports.iter().any(|p| p.node == node && p.port == port);
    let r = ui.add_enabled(!wired, egui::Checkbox::new(&mut on, format!("{what}: {port}")));
    let r = if wired { r.on_disabled_hover_text("A wire crosses the group's border here") } else { r };
    if r.changed() {
        if on {
            add_port(ports, node, port, title);
        } else {
            ports.retain(|p| !(p.node == node && p.port == port));
        }
    }
}

/// Draws the outline of each open group around its nodes (graph points).
pub(super) fn draw_open_groups(ui: &egui::Ui, outlines: &[(String, Rect)]) {
    let c = Color32::from_rgb(150, 150, 190);
    for (label, r) in outlines {
        let r = r.expand(14.0);
        ui.painter().rect_stroke(r, 8.0, egui::Stroke::new(2.0, c), egui::StrokeKind::Outside);
        let text = format!("⊞ {label}: open group (Tab closes)");
        ui.painter().text(r.left_top() + egui::vec2(6.0, -4.0), egui::Align2::LEFT_BOTTOM, text, egui::FontId::proportional(14.0), c);
    }
}
