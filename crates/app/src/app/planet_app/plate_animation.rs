//! The step mode of a Tectonic plates node: Reset, Step, Play (the animated flood fill, one
//! undo step), Pause and Finish, as edits of its typed settings.

use super::PlanetApp;
use crate::editor::types::StepAction;
use planetgraph_core::graph::NodeId;
use planetgraph_core::nodes::tectonics::plates::TectonicPlatesSettings;

impl PlanetApp {
    /// Applies a step-mode button of a Tectonic plates node (an undoable parameter edit).
    pub fn plate_step(&mut self, id: NodeId, action: StepAction) {
        let Some(Ok(s)) = self.doc.graph.node(id).map(|n| n.settings::<TectonicPlatesSettings>()) else { return };
        let cycles = if s.step_mode { s.cycles } else { 0 };
        let (mode, next) = match action {
            StepAction::Reset => (true, 0),
            StepAction::Step => (true, cycles + 1),
            StepAction::Play => (true, cycles),
            StepAction::Pause => {
                self.canvas.ed_state.playing = None;
                return;
            }
            StepAction::Finish => (false, cycles),
        };
        self.canvas.ed_state.playing = match action {
            StepAction::Play => Some(id),
            _ => None,
        };
        // Every button press is its own undo step (a parameter edit would merge otherwise).
        self.doc.seal();
        self.set_step(id, mode, next, false);
    }

    pub(super) fn set_step(&mut self, id: NodeId, mode: bool, cycles: usize, merge: bool) {
        let Some(Ok(mut s)) = self.doc.graph.node(id).map(|n| n.settings::<TectonicPlatesSettings>()) else { return };
        s.step_mode = mode;
        s.cycles = cycles.min(1_000_000);
        let mut g = self.doc.graph.clone();
        g.set_settings(id, &s);
        if self.doc.commit(g, merge) {
            self.reload_editor();
        }
    }

    /// Advances a playing flood fill by one cycle once the previous one is shown.
    pub(super) fn play_tick(&mut self, ctx: &egui::Context) {
        let Some(id) = self.canvas.ed_state.playing else { return };
        let Some(Ok(s)) = self.doc.graph.node(id).map(|n| n.settings::<TectonicPlatesSettings>()) else {
            self.canvas.ed_state.playing = None;
            return;
        };
        let cycles = s.cycles;
        if self.pipeline.is_busy() {
            return;
        }
        match self.canvas.ed_state.plates.get(&id) {
            Some(st) if st.complete => self.canvas.ed_state.playing = None,
            Some(st) if st.cycles == cycles => {
                // About 60 frames for the whole growth: random-driven plates claim one region
                // per cycle each, so they advance several cycles per frame.
                let step = if s.random_driven { (st.total / s.plates.max(1) / 60).max(1) } else { 1 };
                // The whole animation is one undo step.
                self.set_step(id, true, cycles + step, true);
                ctx.request_repaint_after(std::time::Duration::from_millis(60));
            }
            _ => ctx.request_repaint_after(std::time::Duration::from_millis(60)),
        }
    }
}
