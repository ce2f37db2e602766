//! Evaluation results into the editor: errors, timings, previews, the viewport's planet and
//! inspection values, the plates' growth state.

use super::PlanetApp;
use crate::app::previews::{colour_preview_pixels, preview_pixels};
use crate::app::viewer::{ViewedValue, ViewerContent};
use crate::editor::types::PlateStatus;
use planetgraph_core::eval::EvalResult;
use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::nodes::display::colour_preview::ColourPreviewSettings;
use planetgraph_core::nodes::display::preview::{PreviewRamp, PreviewSettings, PreviewView};
use planetgraph_core::nodes::output::planet::PlanetSettings;
use planetgraph_core::nodes::NodeKind;

impl PlanetApp {
    /// A closed group shows the first error (or idle hint) of its nodes, and their summed time.
    fn group_results(&mut self) {
        let st = &mut self.canvas.ed_state;
        for grp in self.doc.graph.groups.iter().filter(|g| !g.open) {
            let title = |id: NodeId| self.doc.graph.node(id).map_or_else(|| id.to_string(), |n| n.title().to_string());
            let first = |m: &std::collections::HashMap<NodeId, String>| grp.members.iter().find_map(|id| m.get(id).map(|e| format!("{}: {e}", title(*id))));
            if let Some(e) = first(&st.errors) {
                st.errors.insert(grp.id, e);
            } else if let Some(h) = first(&st.idle) {
                st.idle.insert(grp.id, h);
            }
            let ms: f64 = grp.members.iter().filter_map(|id| st.timings.get(id)).sum();
            st.timings.insert(grp.id, ms);
        }
    }

    pub(super) fn apply_results(&mut self, ctx: &egui::Context) {
        let results = self.pipeline.poll();
        if !results.is_empty() {
            self.disk_cache_notice();
        }
        for r in results {
            if r.tile.is_some() {
                self.closeup_arrived(ctx, r.generation, r.result);
                continue;
            }
            if r.result.cancelled {
                self.viewport.set_refining(Some("cancelled: Run (F5) evaluates again".to_string()));
                self.status.evaluation_says(match self.pipeline.shown_n() {
                    Some(n) => format!("Cancelled: the viewport still shows the evaluation at {n} cells per face edge, from before the last edits if any. Run (F5) evaluates again"),
                    None => "Cancelled: nothing evaluated yet. Run (F5) evaluates again".into(),
                });
                continue;
            }
            let res = r.result;
            self.canvas.ed_state.errors = res.errors.iter().map(|(k, v)| (*k, v.clone())).collect();
            self.canvas.ed_state.idle = res.idle.iter().map(|(k, v)| (*k, v.clone())).collect();
            for (id, ms) in &res.timings_ms {
                self.canvas.ed_state.timings.insert(*id, *ms);
            }
            self.group_results();
            if res.n == self.pipeline.res.preview {
                update_previews(ctx, &self.doc.graph, &res, &mut self.canvas.ed_state.previews, &mut self.canvas.ed_state.thumbnail_ranges);
                self.canvas.ed_state.previews_stale = false;
            }
            let next = self.pipeline.stage_landed(res.n);
            self.viewport.set_refining(next.map(|m| format!("showing {} cells per face edge, evaluating {m}…", res.n)));
            // Only the newest request's results arrive here, coarse first, so each one refines
            // the picture.
            let why_empty = match self.doc.graph.first_of(NodeKind::Planet) {
                None => {
                    // Nothing left to show: the old planet must not stay on screen.
                    self.viewport.clear_field();
                    Some(if self.doc.graph.nodes.is_empty() {
                        "The graph is empty: add nodes (right click or Shift+A on the canvas) or open a template (File > New from template)".to_string()
                    } else {
                        "No Planet node: add one (Output > Planet) to see the planet here".to_string()
                    })
                }
                Some(planet) => match res.field(planet.id) {
                    Some(f) => {
                        let albedo = res.input(planet.id, planetgraph_core::nodes::output::planet::ALBEDO).cloned();
                        match planet.settings::<PlanetSettings>() {
                            Ok(settings) => self.viewport.set_field(f.clone(), albedo, settings),
                            Err(e) => {
                                self.canvas.ed_state.errors.insert(planet.id, e.to_string());
                            }
                        }
                        None
                    }
                    None => Some(match res.errors.get(&planet.id).or_else(|| res.idle.get(&planet.id)) {
                        Some(why) => format!("The Planet node has nothing to show: {why}"),
                        None => "The Planet node has nothing to show".to_string(),
                    }),
                },
            };
            self.viewport.set_why_empty(why_empty);
            self.viewport.set_tectonics(planetgraph_core::inspect::tectonic_values(&self.doc.graph, &res));
            self.viewport.set_textures(planetgraph_core::inspect::texture_values(&self.doc.graph, &res));
            for node in self.doc.graph.nodes.iter().filter(|n| n.kind == NodeKind::TectonicPlates) {
                if let Some(p) = res.port_value(node.id, planetgraph_core::nodes::tectonics::plates::PLATES) {
                    let claimed = p.plate_of.iter().filter(|&&x| x != planetgraph_core::tectonics::UNCLAIMED).count();
                    self.canvas.ed_state.plates.insert(node.id, PlateStatus { cycles: p.cycles, claimed, total: p.plate_of.len(), complete: p.complete });
                }
            }
            let mut notes = Vec::new();
            if !res.errors.is_empty() {
                notes.push(format!("{} node{} with errors", res.errors.len(), if res.errors.len() == 1 { "" } else { "s" }));
            }
            if !res.idle.is_empty() {
                notes.push(format!("{} idle, waiting for an input", res.idle.len()));
            }
            let notes = if notes.is_empty() { String::new() } else { format!("; {}", notes.join(", ")) };
            let empty = self.doc.graph.nodes.is_empty();
            let ready = if empty { "Ready: the graph is empty".to_string() } else { format!("Ready: evaluated at {} cells per face edge in {:.0} ms ({} computed, {} cached){notes}", res.n, res.total_ms, res.timings_ms.len(), res.cached) };
            match next {
                // An earlier stage: the viewport's banner says what is shown and what comes;
                // only the last stage may say "Ready" (of a graph), and the edit's note waits
                // for it.
                Some(next) => self.status.progress(if empty { ready } else { format!("Evaluating: showing {} cells per face edge, {next} next", res.n) }),
                None => self.status.report(ready),
            }
            self.pipeline.keep(res);
            self.update_viewer();
        }
    }
}

impl PlanetApp {
    /// Gives the viewport the viewed node's newest value (or clears the viewer when the node
    /// is gone).
    pub(super) fn update_viewer(&mut self) {
        let Some(id) = self.canvas.ed_state.viewed else {
            self.viewport.set_viewer(None);
            return;
        };
        let Some(node) = self.doc.graph.node(id) else {
            self.canvas.ed_state.viewed = None;
            self.viewport.set_viewer(None);
            return;
        };
        let label = node.describe();
        let res = self.pipeline.last_result();
        let field = res.and_then(|r| r.field(id).or_else(|| r.shown_field(id)));
        let colour = res.and_then(|r| r.colour(id).or_else(|| r.shown_colour(id)));
        let value = match (field, colour) {
            (Some(f), _) => Some(ViewedValue::Field(f.clone())),
            (None, Some(c)) => Some(ViewedValue::Colour(c.clone())),
            _ => None,
        };
        let note = match value {
            Some(_) => None,
            None => Some(match (self.canvas.ed_state.errors.get(&id), self.canvas.ed_state.idle.get(&id)) {
                (Some(e), _) => format!("nothing to show: {e}"),
                (None, Some(i)) => format!("nothing to show yet: {i}"),
                _ if self.pipeline.is_busy() => "evaluating…".to_string(),
                _ => "nothing to show: its output is not a field or colours (regions, plates and vectors are shown by the viewport's own modes)".to_string(),
            }),
        };
        self.viewport.set_viewer(Some(ViewerContent { label, value, note }));
    }
}

/// Refreshes the picture of every Preview node, and the thumbnail (with its value range) of
/// every other node that shows one, from an evaluation result.
pub(super) fn update_previews(ctx: &egui::Context, g: &Graph, res: &EvalResult, previews: &mut std::collections::HashMap<NodeId, egui::TextureHandle>, ranges: &mut std::collections::HashMap<NodeId, (f32, f32)>) {
    ranges.clear();
    previews.retain(|id, _| g.node(*id).is_some());
    for node in &g.nodes {
        let pixels = match node.kind {
            NodeKind::Preview => match (res.shown_field(node.id), node.settings::<PreviewSettings>()) {
                (Some(field), Ok(s)) => Some(preview_pixels(field, s.view == PreviewView::Globe, s.ramp == PreviewRamp::Hypsometric)),
                _ => None,
            },
            NodeKind::ColourPreview => match (res.shown_colour(node.id), node.settings::<ColourPreviewSettings>()) {
                (Some(colours), Ok(s)) => Some(colour_preview_pixels(colours, s.view == PreviewView::Globe)),
                _ => None,
            },
            _ if !node.shows_thumbnail() => None,
            // The first output, black at its lowest value and white at its highest.
            _ => match (res.field(node.id), res.colour(node.id)) {
                (Some(field), _) => {
                    ranges.insert(node.id, field.min_max());
                    Some(preview_pixels(field, false, false))
                }
                (None, Some(colours)) => Some(colour_preview_pixels(colours, false)),
                _ => None,
            },
        };
        let Some((w, h, rgb)) = pixels else {
            previews.remove(&node.id);
            continue;
        };
        let img = egui::ColorImage::from_rgb([w, h], &rgb);
        match previews.get_mut(&node.id) {
            Some(tex) => tex.set(img, egui::TextureOptions::LINEAR),
            None => {
                previews.insert(node.id, ctx.load_texture(format!("preview-{}", node.id.0), img, egui::TextureOptions::LINEAR));
            }
        }
    }
}
