//! Links as they are drawn: a wire the editor refused (another type, a loop; the editor asks
//! [`crate::editor::wires::link_refusal`] of every wire let go on a port) says why in the
//! status line.

use super::PlanetApp;
use crate::editor::types::{EdNode, EdResponse};
use crate::editor::wires::link_refusal;
use egui_node_graph2::NodeResponse;
use planetgraph_core::graph::Graph;

type Response = NodeResponse<EdResponse, EdNode>;

impl PlanetApp {
    /// Says in the status line why a wire dropped on a port made no link (the reason the
    /// editor showed at the pointer while the wire was over the port).
    pub(super) fn explain_refused_links(&mut self, responses: &[Response]) {
        for r in responses {
            let NodeResponse::ConnectRefused { from, to } = r else { continue };
            let reason = link_refusal(&self.canvas.editor, *from, *to).unwrap_or_else(|| "the ports do not fit".to_string());
            self.status.text = format!("Not connected: {reason}");
        }
    }

    /// A Noise node whose type changed in `g` takes the new type's suggested frequency and
    /// persistence where it still had the old type's (see
    /// [`planetgraph_core::nodes::sources::noise::adapt_to_type`]). Returns whether any did.
    pub(super) fn adapt_noise_types(&mut self, g: &mut Graph) -> bool {
        use planetgraph_core::nodes::sources::noise::{adapt_to_type, NoiseSettings};
        let mut changed = false;
        for node in g.nodes.iter_mut().filter(|n| n.kind == planetgraph_core::nodes::NodeKind::Noise) {
            let Some(old) = self.doc.graph.node(node.id).filter(|o| o.kind == node.kind) else { continue };
            let (Ok(before), Ok(mut after)) = (old.settings::<NoiseSettings>(), node.settings::<NoiseSettings>()) else { continue };
            if adapt_to_type(&before, &mut after) {
                let label = after.noise_type.label();
                node.params = planetgraph_core::nodes::Settings::to_params(&after);
                self.note_edit(format!("{}: {label} noise with its suggested frequency {} /planet and persistence {}", node.describe(), after.frequency, after.persistence));
                changed = true;
            }
        }
        changed
    }

    /// Sets a Hydraulic erosion node's amounts to `preset`'s, as one undoable edit.
    pub(super) fn apply_erosion_preset(&mut self, id: planetgraph_core::graph::NodeId, preset: planetgraph_core::nodes::erosion::hydraulic::HydraulicPreset) {
        use planetgraph_core::nodes::erosion::hydraulic::HydraulicErosionSettings;
        let Some(node) = self.doc.graph.node(id) else { return };
        let name = node.describe();
        let mut s: HydraulicErosionSettings = match node.settings() {
            Ok(s) => s,
            Err(e) => {
                self.status.text = format!("{name}: {e}");
                return;
            }
        };
        preset.apply(&mut s);
        let mut g = self.doc.graph.clone();
        g.set_settings(id, &s);
        self.apply_edit(g);
        self.note_edit(format!("{name}: {} preset ({}); Ctrl+Z undoes it", preset.label(), preset.description().to_lowercase()));
    }
}
