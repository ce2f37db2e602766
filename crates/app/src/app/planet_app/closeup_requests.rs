//! The app's side of the viewport's close-ups: asking the evaluation thread for the tile the
//! camera needs once it is idle, and handing the answer to the viewport.

use super::PlanetApp;
use planetgraph_core::eval::EvalResult;
use planetgraph_core::nodes::output::planet::PlanetSettings;
use planetgraph_core::nodes::NodeKind;

impl PlanetApp {
    /// Asks for the next close-up tile the viewport's camera needs (nearest the picture's centre
    /// first), when one is neither on screen nor asked for, and the evaluation thread is idle or
    /// busy with a close-up the camera no longer wants (the new request cancels that one; a
    /// close-up never holds up an evaluation of the graph, whose request cancels it in turn).
    pub(super) fn request_closeup(&mut self, ctx: &egui::Context) {
        let Some(n) = self.viewport.field_n() else { return };
        if self.viewport.why_empty().is_some() {
            return;
        }
        let ppp = ctx.pixels_per_point();
        let rect = self.viewport.picture_rect();
        let (w, h) = ((rect.width() * ppp).max(1.0) as u32, (rect.height() * ppp).max(1.0) as u32);
        let Some(tile) = self.viewport.closeups.next_wanted(&self.viewport.view.camera, w, h, n) else { return };
        // Busy with the close-up asked for last (nothing newer was requested since): it is
        // cancelled only when the camera no longer wants it.
        let busy_with_closeup = self.viewport.closeups.is_pending(self.pipeline.generation());
        if self.pipeline.is_busy() && (!busy_with_closeup || self.viewport.closeups.pending_wanted()) {
            return;
        }
        let Some(planet) = self.doc.graph.first_of(NodeKind::Planet) else { return };
        let generation = self.pipeline.request_tile(self.doc.graph.clone(), planetgraph_core::inspect::CloseUp::evaluated(tile), n, planet.id);
        self.viewport.closeups.requested(tile, generation);
    }

    /// Takes the answer to a close-up request (`generation`).
    pub(super) fn closeup_arrived(&mut self, ctx: &egui::Context, generation: u64, result: EvalResult) {
        if !self.viewport.closeups.is_pending(generation) {
            return;
        }
        let Some(planet) = self.doc.graph.first_of(NodeKind::Planet) else { return };
        let Ok(settings) = planet.settings::<PlanetSettings>() else { return };
        let ctx = ctx.clone();
        let exaggeration = self.viewport.mesh.exaggeration;
        self.viewport.closeups.accept(result, planet.id, settings, exaggeration, move || ctx.request_repaint());
    }
}
