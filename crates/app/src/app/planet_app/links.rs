//! Links as they are drawn: a wire that would close a loop is refused before it exists, and a
//! wire dropped on a port of another type says why nothing was connected.

use super::PlanetApp;
use crate::editor::types::{EdNode, EdResponse, EdType};
use crate::graph::validate::find_cycle;
use crate::graph::Graph;
use egui_node_graph2::{AnyParameterId, NodeResponse};
use std::collections::BTreeSet;

type Response = NodeResponse<EdResponse, EdNode>;

impl PlanetApp {
    /// The title and port name of an editor port, and its type's name.
    fn port_text(&self, port: AnyParameterId) -> (String, String, &'static str) {
        let g = &self.editor.graph;
        let (node, name, typ) = match port {
            AnyParameterId::Input(i) => {
                let p = &g[i];
                let name = g[p.node].inputs.iter().find(|(_, id)| *id == i).map(|(n, _)| n.clone()).unwrap_or_default();
                (p.node, name, p.typ)
            }
            AnyParameterId::Output(o) => {
                let p = &g[o];
                let name = g[p.node].outputs.iter().find(|(_, id)| *id == o).map(|(n, _)| n.clone()).unwrap_or_default();
                (p.node, name, p.typ)
            }
        };
        let type_name = match typ {
            EdType::Port(t) => t.name(),
            EdType::Param => "parameter",
        };
        (g[node].label.clone(), name, type_name)
    }

    /// Says in the status line why a wire dropped on a port made no link.
    pub(super) fn explain_refused_links(&mut self, responses: &[Response]) {
        for r in responses {
            let NodeResponse::ConnectRefused { from, to } = r else { continue };
            let (a, b) = (self.port_text(*from), self.port_text(*to));
            self.status = match (from, to) {
                (AnyParameterId::Output(_), AnyParameterId::Input(_)) | (AnyParameterId::Input(_), AnyParameterId::Output(_)) => {
                    let (out, inp) = if matches!(from, AnyParameterId::Output(_)) { (a, b) } else { (b, a) };
                    format!("Not connected: {} '{}' gives a {}, but {} '{}' takes a {}. Put a node between them that turns one into the other", out.0, out.1, out.2, inp.0, inp.1, inp.2)
                }
                _ => "Not connected: a wire goes from an output (right side of a node) to an input (left side)".to_string(),
            };
        }
    }

    /// A Noise node whose type changed in `g` takes the new type's suggested frequency and
    /// persistence where it still had the old type's (see
    /// [`crate::nodes::sources::noise::adapt_to_type`]). Returns whether any did.
    pub(super) fn adapt_noise_types(&mut self, g: &mut Graph) -> bool {
        use crate::nodes::sources::noise::{adapt_to_type, NoiseSettings};
        let mut changed = false;
        for node in g.nodes.iter_mut().filter(|n| n.kind == crate::nodes::NodeKind::Noise) {
            let Some(old) = self.doc.graph.node(node.id).filter(|o| o.kind == node.kind) else { continue };
            let (Ok(before), Ok(mut after)) = (old.settings::<NoiseSettings>(), node.settings::<NoiseSettings>()) else { continue };
            if adapt_to_type(&before, &mut after) {
                let label = after.noise_type.label();
                node.params = crate::nodes::Settings::to_params(&after);
                self.note_edit(format!("{}: {label} noise with its suggested frequency {} /planet and persistence {}", node.describe(), after.frequency, after.persistence));
                changed = true;
            }
        }
        changed
    }

    /// Sets a Hydraulic erosion node's amounts to `preset`'s, as one undoable edit.
    pub(super) fn apply_erosion_preset(&mut self, id: crate::graph::NodeId, preset: crate::nodes::erosion::hydraulic::HydraulicPreset) {
        use crate::nodes::erosion::hydraulic::HydraulicErosionSettings;
        let Some(node) = self.doc.graph.node(id) else { return };
        let name = node.describe();
        let mut s: HydraulicErosionSettings = match node.settings() {
            Ok(s) => s,
            Err(e) => {
                self.status = format!("{name}: {e}");
                return;
            }
        };
        preset.apply(&mut s);
        let mut g = self.doc.graph.clone();
        g.set_settings(id, &s);
        self.apply_edit(g);
        self.note_edit(format!("{name}: {} preset ({}); Ctrl+Z undoes it", preset.label(), preset.description().to_lowercase()));
    }

    /// Whether the wire just drawn closes a loop in `g` (the graph read back from the editor).
    /// If it does, the wire is taken away again and the status line names the loop.
    pub(super) fn refuse_loop(&mut self, responses: &[Response], g: &Graph) -> bool {
        let Some((output, input)) = responses.iter().find_map(|r| match r {
            NodeResponse::ConnectEventEnded { output, input, .. } => Some((*output, *input)),
            _ => None,
        }) else {
            return false;
        };
        let before: BTreeSet<_> = find_cycle(&self.doc.graph).into_iter().collect();
        let new: Vec<_> = find_cycle(g).into_iter().filter(|id| !before.contains(id)).collect();
        if new.is_empty() {
            return false;
        }
        let (out, inp) = (self.port_text(AnyParameterId::Output(output)), self.port_text(AnyParameterId::Input(input)));
        let names: Vec<String> = new.iter().filter_map(|id| g.node(*id)).map(|n| n.describe()).collect();
        // Back to the document's graph (unchanged, so nothing to evaluate): the wire disappears.
        self.rebuild_editor();
        self.status = format!("Not connected: {} '{}' -> {} '{}' would close a loop through {}, and a node cannot depend on its own output", out.0, out.1, inp.0, inp.1, names.join(", "));
        true
    }
}
