//! The editor driven through egui input events, without a window (shared by the GUI tests).

#![allow(dead_code)]

use egui::{Event, Key, Modifiers, PointerButton, Pos2, RawInput, Rect};
use planetgraph_app::app::{Document, PlanetApp};
use planetgraph_core::graph::Graph;

/// Pairs of nodes whose rectangles overlap (by more than half a point).
pub fn overlaps(rects: &[(planetgraph_core::graph::NodeId, Rect)]) -> Vec<(planetgraph_core::graph::NodeId, planetgraph_core::graph::NodeId)> {
    let mut out = Vec::new();
    for (i, (a, ra)) in rects.iter().enumerate() {
        for (b, rb) in &rects[i + 1..] {
            if ra.shrink(0.5).intersects(rb.shrink(0.5)) {
                out.push((*a, *b));
            }
        }
    }
    out
}

/// The graph the tests start from: the noise planet, whose layout the clicks below rely on.
pub fn start_graph() -> Graph {
    planetgraph_core::io::load_graph(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("graphs/noise_continents.ron"), planetgraph_core::io::Strictness::Complete).expect("noise_continents.ron")
}

pub struct Driver {
    pub ctx: egui::Context,
    pub app: PlanetApp,
    pub time: f64,
    pub pointer: Pos2,
    /// The text the app put on the clipboard in the last frame that copied.
    pub copied: String,
    /// Whether the window has the keyboard focus (sent with every frame).
    pub focused: bool,
    /// The last graph checked to save and reopen (every state a GUI test reaches is).
    reopened: Option<Graph>,
    /// Where those checks save.
    scratch: tempfile::TempDir,
}

impl Driver {
    pub fn new() -> Driver {
        Driver::with(start_graph())
    }

    /// Drives an app as it is (no frames run yet).
    pub fn of(ctx: egui::Context, app: PlanetApp) -> Driver {
        Driver { ctx, app, time: 0.0, pointer: Pos2::ZERO, copied: String::new(), focused: true, reopened: None, scratch: tempfile::tempdir().expect("tempdir") }
    }

    pub fn with(g: Graph) -> Driver {
        let ctx = egui::Context::default();
        let app = PlanetApp::new(Document::new(g, None), &ctx).expect("evaluation thread");
        let mut d = Driver::of(ctx, app);
        d.frames(3);
        d.app.reset_canvas_view();
        d.frames(1);
        d
    }

    pub fn frame_with(&mut self, events: Vec<Event>, modifiers: Modifiers) {
        self.time += 0.05;
        // Modifiers are state in egui: each frame sets them first.
        let events = std::iter::once(Event::ModifiersChanged(modifiers)).chain(events).collect();
        let mut input = RawInput { screen_rect: Some(Rect::from_min_size(Pos2::ZERO, egui::vec2(1600.0, 900.0))), time: Some(self.time), events, ..Default::default() };
        input.viewports.entry(egui::ViewportId::ROOT).or_default().focused = Some(self.focused);
        let app = &mut self.app;
        let out = self.ctx.run_ui(input, |ui| app.ui(ui, None));
        for command in out.platform_output.commands {
            if let egui::OutputCommand::CopyText(text) = command {
                self.copied = text;
            }
        }
        self.check_save_and_reopen();
    }

    /// Any graph the editor holds can be saved and reopened as it is: checked for every new
    /// state a GUI test reaches.
    fn check_save_and_reopen(&mut self) {
        let g = &self.app.doc.graph;
        if self.reopened.as_ref() == Some(g) {
            return;
        }
        let file = self.scratch.path().join("state.ron");
        planetgraph_core::io::save_graph(&file, g).expect("every state saves");
        let back = Document::open(&file).unwrap_or_else(|e| panic!("a saved state does not reopen: {e}"));
        assert!(back.repairs.is_empty(), "a saved state needed repairs to reopen: {:?}", back.repairs);
        let mut want = g.clone();
        want.normalize();
        assert_eq!(back.graph, want, "a saved state reopens as it was");
        self.reopened = Some(g.clone());
    }

    /// Screen rectangles of the nodes on the canvas, by domain id.
    pub fn node_screen_rects(&self) -> Vec<(planetgraph_core::graph::NodeId, Rect)> {
        let t = self.app.canvas.editor.pan_zoom.to_screen();
        self.app.canvas.editor.node_rects.iter().map(|(n, r)| (self.app.canvas.editor.graph[*n].user_data.id, t * *r)).collect()
    }

    /// The centres of a node's link ports on screen, top to bottom: its inputs (left edge) or
    /// its outputs (right edge).
    pub fn ports_of(&self, id: planetgraph_core::graph::NodeId, inputs: bool) -> Vec<Pos2> {
        let rect = self.node_screen_rects().into_iter().find(|(n, _)| *n == id).map(|(_, r)| r).expect("node on the canvas");
        let edge = if inputs { rect.left() } else { rect.right() };
        let mut ports: Vec<Pos2> = self.draggables(is_port).into_iter().map(|r| r.center()).filter(|c| (c.x - edge).abs() < 12.0 && c.y > rect.top() && c.y < rect.bottom()).collect();
        ports.sort_by(|a, b| a.y.total_cmp(&b.y));
        ports
    }

    pub fn frames(&mut self, n: usize) {
        for _ in 0..n {
            self.frame_with(Vec::new(), Modifiers::NONE);
        }
    }

    pub fn move_to(&mut self, p: Pos2) {
        self.pointer = p;
        self.frame_with(vec![Event::PointerMoved(p)], Modifiers::NONE);
    }

    pub fn button(&mut self, button: PointerButton, pressed: bool) {
        let pos = self.pointer;
        self.frame_with(vec![Event::PointerButton { pos, button, pressed, modifiers: Modifiers::NONE }], Modifiers::NONE);
    }

    pub fn click(&mut self, p: Pos2, button: PointerButton) {
        self.move_to(p);
        self.button(button, true);
        self.button(button, false);
    }

    pub fn drag(&mut self, from: Pos2, to: Pos2) {
        self.move_to(from);
        self.button(PointerButton::Primary, true);
        for k in 1..=6 {
            self.move_to(from + (to - from) * (k as f32 / 6.0));
        }
        self.button(PointerButton::Primary, false);
        self.frames(2);
    }

    pub fn key(&mut self, key: Key, modifiers: Modifiers) {
        let ev = |pressed| Event::Key { key, physical_key: None, pressed, repeat: false, modifiers };
        self.frame_with(vec![ev(true)], modifiers);
        self.frame_with(vec![ev(false)], modifiers);
    }

    /// Runs frames until the evaluation has finished and shows its result (up to two minutes:
    /// the tests run side by side on a few cores).
    pub fn wait_for_evaluation(&mut self) {
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_secs(120) {
            self.frames(1);
            if !self.app.is_evaluating() && self.app.pipeline.last_result().is_some() {
                self.frames(2);
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        panic!("evaluation did not finish");
    }

    /// Interactive widget rects of the last frame with the given size test.
    pub fn draggables(&self, want: impl Fn(&Rect) -> bool) -> Vec<Rect> {
        // Widget rects are in their layer's coordinates; the graph layer is transformed.
        let transforms = self.ctx.memory(|m| m.to_global.clone());
        let rects: Vec<(egui::LayerId, Rect, bool)> = self.ctx.viewport(|vp| vp.prev_pass.widgets.layers().flat_map(|(_, ws)| ws.iter()).map(|w| (w.layer_id, w.rect, w.sense.senses_drag())).collect());
        rects.into_iter().filter(|(_, _, drag)| *drag).map(|(l, r, _)| transforms.get(&l).map_or(r, |t| *t * r)).filter(|r| want(r)).collect()
    }
}

pub fn is_port(r: &Rect) -> bool {
    (r.width() - 10.0).abs() < 0.5 && (r.height() - 10.0).abs() < 0.5
}

impl Driver {
    /// Adds a node with the finder at `at` (Shift+A, type `search`, Enter).
    pub fn add_with_finder(&mut self, at: Pos2, search: &str) {
        self.move_to(at);
        self.key(Key::A, Modifiers::SHIFT);
        self.frames(1);
        self.frame_with(vec![Event::Text(search.into())], Modifiers::NONE);
        self.frames(1);
        self.key(Key::Enter, Modifiers::NONE);
        self.frames(2);
    }

    /// Clickable widget rects on screen in layers of the given order in the last frame (menus
    /// and the finder are foreground areas).
    pub fn clickables(&self, order: egui::Order) -> Vec<Rect> {
        let transforms = self.ctx.memory(|m| m.to_global.clone());
        let rects: Vec<(egui::LayerId, Rect)> = self.ctx.viewport(|vp| vp.prev_pass.widgets.layers().flat_map(|(_, ws)| ws.iter()).filter(|w| w.sense.senses_click() && w.layer_id.order == order).map(|w| (w.layer_id, w.rect)).collect());
        let rects: Vec<Rect> = rects.into_iter().map(|(l, r)| transforms.get(&l).map_or(r, |t| *t * r)).collect();
        // Containers (a menu's frame, a scroll area: clickable since egui 0.32) are left out;
        // the widgets inside them are what a user clicks.
        rects.iter().copied().filter(|r| !rects.iter().any(|o| o != r && r.contains_rect(*o))).collect()
    }
}

/// Runs frames until `done` holds (at most about 30 s).
pub fn wait_until(d: &mut Driver, what: &str, done: impl Fn(&Driver) -> bool) {
    for _ in 0..3000 {
        d.frames(1);
        if done(d) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("timed out waiting for {what}");
}

/// Constant -> Abs -> Invert -> Planet, laid out left to right, and a Colour ramp below.
pub fn chain() -> (Graph, [planetgraph_core::graph::NodeId; 5]) {
    let mut g = Graph::default();
    let c = g.add_node(planetgraph_core::nodes::NodeKind::Constant, (20.0, 60.0));
    let a = g.add_node(planetgraph_core::nodes::NodeKind::Abs, (260.0, 60.0));
    let i = g.add_node(planetgraph_core::nodes::NodeKind::Invert, (500.0, 60.0));
    let p = g.add_node(planetgraph_core::nodes::NodeKind::Planet, (740.0, 60.0));
    let r = g.add_node(planetgraph_core::nodes::NodeKind::ColourRamp, (260.0, 420.0));
    g.link(c, planetgraph_core::nodes::FIELD_OUT, a, planetgraph_core::nodes::FIELD_IN).expect("link");
    g.link(a, planetgraph_core::nodes::FIELD_OUT, i, planetgraph_core::nodes::FIELD_IN).expect("link");
    g.link(i, planetgraph_core::nodes::FIELD_OUT, p, planetgraph_core::nodes::output::planet::ELEVATION).expect("link");
    g.link(c, planetgraph_core::nodes::FIELD_OUT, r, planetgraph_core::nodes::FIELD_IN).expect("link");
    (g, [c, a, i, p, r])
}
