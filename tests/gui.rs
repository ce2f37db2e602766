//! Drives the real editor through egui input events (no window): open the node finder, add a
//! node, connect it, change a parameter, undo, delete.

#[path = "common/driver.rs"]
mod driver;

use driver::{is_port, start_graph, wait_until, Driver};
use egui::{Event, Key, Modifiers, PointerButton, Pos2};
use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::nodes::{NodeKind, ParamValue};

#[test]
fn add_connect_edit_undo_delete_through_the_ui() {
    let mut d = Driver::new();
    d.wait_for_evaluation();
    let nodes_before = d.app.doc.graph.nodes.len();
    assert!(d.app.canvas.ed_state.previews.len() >= 2, "preview thumbnails exist");

    // Open the finder with a right click on empty canvas, search, press Enter.
    let spot = Pos2::new(300.0, 640.0);
    d.click(spot, PointerButton::Secondary);
    assert!(d.app.canvas.editor.node_finder.is_some(), "right click opens the finder");
    d.frames(1);
    d.frame_with(vec![Event::Text("scale and".into())], Modifiers::NONE);
    d.frames(1);
    d.key(Key::Enter, Modifiers::NONE);
    d.frames(2);
    assert_eq!(d.app.doc.graph.nodes.len(), nodes_before + 1, "a node was added");
    let new = d.app.doc.graph.nodes.iter().find(|n| n.kind == NodeKind::ScaleBias).expect("Scale and bias node").id;

    // Connect Noise #1's output to the new node's input by dragging between the ports.
    let ports = d.draggables(is_port);
    let input = *ports.iter().filter(|r| (r.center().x - spot.x).abs() < 30.0 && r.center().y > spot.y && r.center().y < spot.y + 60.0).min_by(|a, b| a.center().y.total_cmp(&b.center().y)).expect("input port of the new node");
    let noise_out = *ports.iter().filter(|r| r.center().x > 120.0 && r.center().x < 235.0 && r.center().y < 300.0).max_by(|a, b| a.center().y.total_cmp(&b.center().y)).expect("output port of Noise #1");
    d.drag(noise_out.center(), input.center());
    let link = d.app.doc.graph.links.iter().find(|l| l.to == new).cloned().expect("the drag made a link");
    assert_eq!((link.from, link.output.as_str(), link.input.as_str()), (NodeId(1), "out", "in"));

    // Change the Scale parameter by dragging its value.
    let scale_value = *d
        .draggables(|r| !is_port(r) && r.width() > 20.0 && r.width() < 110.0 && r.height() < 30.0)
        .iter()
        .filter(|r| r.left() > spot.x && r.left() < spot.x + 200.0 && r.center().y > input.center().y + 5.0 && r.center().y < input.center().y + 30.0)
        .max_by(|a, b| a.left().total_cmp(&b.left()))
        .expect("Scale drag value");
    d.drag(scale_value.center(), scale_value.center() + egui::vec2(40.0, 0.0));
    let scale = d.app.doc.graph.node(new).and_then(|n| n.params.get("scale")).cloned();
    let Some(ParamValue::Float(s)) = scale else { panic!("scale missing") };
    assert!(s > 1.05, "dragging changed the parameter: {s}");
    d.wait_for_evaluation();

    // Undo: the whole drag is one step, then the link, then the node.
    d.key(Key::Z, Modifiers::COMMAND);
    assert_eq!(d.app.doc.graph.node(new).and_then(|n| n.params.get("scale")), Some(&ParamValue::Float(1.0)));
    d.key(Key::Z, Modifiers::COMMAND);
    assert!(d.app.doc.graph.links.iter().all(|l| l.to != new), "link undone");
    d.key(Key::Y, Modifiers::COMMAND);
    assert!(d.app.doc.graph.links.iter().any(|l| l.to == new), "link redone");
    d.key(Key::Z, Modifiers::COMMAND);
    d.key(Key::Z, Modifiers::COMMAND);
    assert!(d.app.doc.graph.node(new).is_none(), "node undone");
    assert_eq!(d.app.doc.graph, start_graph().tap_layout(&d.app.doc.graph));
    d.key(Key::Z, Modifiers::SHIFT | Modifiers::COMMAND);
    assert!(d.app.doc.graph.node(new).is_some(), "redo with Ctrl+Shift+Z");

    // Select the node by clicking its title and delete it with the Delete key.
    d.click(spot + egui::vec2(30.0, 8.0), PointerButton::Primary);
    assert_eq!(d.app.canvas.editor.selected_nodes.len(), 1, "clicking the title selects");
    d.key(Key::Delete, Modifiers::NONE);
    assert!(d.app.doc.graph.node(new).is_none(), "Delete removes the selected node");

    // Shift+A opens the finder at the pointer too.
    d.move_to(Pos2::new(200.0, 700.0));
    d.key(Key::A, Modifiers::SHIFT);
    assert!(d.app.canvas.editor.node_finder.is_some());
}

trait TapLayout {
    fn tap_layout(self, other: &planetgraph_core::graph::Graph) -> Self;
}

impl TapLayout for planetgraph_core::graph::Graph {
    /// The graph with `other`'s layout, to compare content only.
    fn tap_layout(mut self, other: &planetgraph_core::graph::Graph) -> Self {
        self.layout = other.layout.clone();
        self
    }
}

#[test]
fn opening_a_bad_file_explains_and_keeps_the_graph() {
    let mut d = Driver::new();
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("broken.ron");
    std::fs::write(&bad, "(version: 2, nodes: [(id: 1, kind: Noise, params: {\"octaves\": Int(99)}),\n  (id: 2 kind: Planet)])").expect("write");
    let before = d.app.doc.graph.clone();
    d.app.open_path(bad);
    d.frames(2);
    let msg = d.app.message().expect("a dialog explains").to_string();
    assert!(msg.contains("broken.ron:2:"), "names the line and column: {msg}");
    assert_eq!(d.app.doc.graph, before, "the current graph stays open");
    d.app.close_dialog();

    // A graph with a value out of range opens for repair, the error shown on its node.
    let out_of_range = dir.path().join("out_of_range.ron");
    std::fs::write(&out_of_range, "(version: 1, nodes: [(id: 1, kind: Noise, params: {\"octaves\": Int(99)})])").expect("write");
    d.app.open_path(out_of_range.clone());
    d.frames(2);
    assert_eq!(d.app.doc.path.as_deref(), Some(out_of_range.as_path()));
    d.wait_for_evaluation();
    wait_until(&mut d, "the error on the node", |d| d.app.canvas.ed_state.errors.get(&NodeId(1)).is_some_and(|e| e.contains("outside 1..12")));

    // A good file opens; an edit marks the title, saving clears the mark and writes the file.
    let good = dir.path().join("good.ron");
    planetgraph_core::io::save_graph(&good, &start_graph()).expect("save");
    d.app.open_path(good.clone());
    d.frames(2);
    assert_eq!(d.app.doc.path.as_deref(), Some(good.as_path()));
    assert!(!d.app.doc.title().starts_with('*'));
    let mut g = d.app.doc.graph.clone();
    g.set_param(NodeId(6), "sea_level", ParamValue::Float(0.2));
    d.app.doc.commit(g, false);
    assert!(d.app.doc.title().starts_with("* good.ron"));
    assert!(d.app.save(false));
    assert!(!d.app.doc.title().starts_with('*'));
    let reloaded = planetgraph_core::io::load_graph(&good, planetgraph_core::io::Strictness::Complete).expect("reload");
    assert_eq!(reloaded.node(NodeId(6)).and_then(|n| n.params.get("sea_level")), Some(&ParamValue::Float(0.2)));
}

/// Frames (with short sleeps for the background evaluation) until `done` or a timeout.
#[test]
fn plate_growth_steps_plays_and_finishes_from_the_node() {
    use planetgraph_app::editor::types::StepAction;
    let mut g = Graph::default();
    let regions = g.add_node(NodeKind::Regions, (0.0, 0.0));
    let plates = g.add_node(NodeKind::TectonicPlates, (0.0, 200.0));
    let elevation = g.add_node(NodeKind::PlateElevation, (250.0, 0.0));
    let planet = g.add_node(NodeKind::Planet, (500.0, 0.0));
    g.set_param(regions, "resolution", ParamValue::Int(12));
    g.set_param(plates, "plates", ParamValue::Int(8));
    use planetgraph_core::nodes::tectonics::{plate_elevation, plates as plates_node, regions as regions_node};
    g.link(regions, regions_node::REGIONS, plates, plates_node::REGIONS).expect("link");
    g.link(plates, plates_node::PLATES, elevation, plate_elevation::PLATES).expect("link");
    g.link(elevation, plate_elevation::ELEVATION, planet, planetgraph_core::nodes::output::planet::ELEVATION).expect("link");
    let mut d = Driver::with(g);
    d.app.pipeline.res.preview = 32;
    d.app.pipeline.res.viewport = 32;
    let status = |d: &Driver| d.app.canvas.ed_state.plates.get(&plates).copied();
    wait_until(&mut d, "the first evaluation", |d| status(d).is_some_and(|s| s.complete));

    d.app.plate_step(plates, StepAction::Reset);
    wait_until(&mut d, "cycle 0", |d| status(d).is_some_and(|s| s.cycles == 0 && !s.complete));
    assert_eq!(status(&d).map(|s| s.claimed), Some(8), "only the seed regions");
    d.app.plate_step(plates, StepAction::Step);
    wait_until(&mut d, "cycle 1", |d| status(d).is_some_and(|s| s.cycles == 1));
    let after_one = status(&d).map(|s| s.claimed).unwrap_or(0);
    assert!(after_one > 8);

    d.app.plate_step(plates, StepAction::Play);
    assert_eq!(d.app.canvas.ed_state.playing, Some(plates));
    wait_until(&mut d, "the animation to complete", |d| status(d).is_some_and(|s| s.complete) && d.app.canvas.ed_state.playing.is_none());
    // The whole animation is one undo step: undo goes back to cycle 1.
    d.key(Key::Z, Modifiers::COMMAND);
    let cycles = d.app.doc.graph.node(plates).and_then(|n| n.params.get("cycles")).cloned();
    assert_eq!(cycles, Some(ParamValue::Int(1)));

    d.app.plate_step(plates, StepAction::Finish);
    assert_eq!(d.app.doc.graph.node(plates).and_then(|n| n.params.get("step_mode")), Some(&ParamValue::Bool(false)));
    wait_until(&mut d, "complete plates", |d| status(d).is_some_and(|s| s.complete));
}

#[test]
fn ctrl_e_opens_the_export_window_and_the_export_runs_in_the_background() {
    let g = planetgraph_core::io::load_graph(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/graphs/export_all.ron")), planetgraph_core::io::Strictness::Complete).expect("graph");
    let mut d = Driver::with(g);
    assert!(!d.app.export_open());
    d.key(Key::E, Modifiers::COMMAND);
    assert!(d.app.export_open(), "Ctrl+E opens File > Export");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("exported");
    let ctx = d.ctx.clone();
    d.app.start_export(out.clone(), 32, &ctx);
    wait_until(&mut d, "the export", |d| d.app.export_summary().is_some());
    let (summary, ok) = d.app.export_summary().expect("summary");
    assert!(ok, "{summary}");
    assert!(summary.contains("Wrote") && summary.contains("manifest.json"), "{summary}");
    assert!(out.join("manifest.json").exists() && out.join("planet.glb").exists());
}

/// Clicks the leftmost button of the export window's bottom row (Export, or Replace and
/// export).
fn press_export(d: &mut Driver) {
    let window = d.ctx.memory(|m| m.area_rect(egui::Id::unique("Export"))).expect("the export window");
    let rects: Vec<egui::Rect> = d.clickables(egui::Order::Middle).into_iter().filter(|r| window.contains_rect(*r)).collect();
    let bottom = rects.iter().map(|r| r.bottom()).fold(f32::MIN, f32::max);
    let button = *rects.iter().filter(|r| (r.bottom() - bottom).abs() < 2.0).min_by(|a, b| a.left().total_cmp(&b.left())).expect("a button");
    d.click(button.center(), PointerButton::Primary);
    d.frames(2);
}

#[test]
fn the_export_window_lists_the_files_it_would_replace_and_leaves_the_others() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut g = Graph::default();
    let c = g.add_node(NodeKind::Constant, (20.0, 20.0));
    let p = g.add_node(NodeKind::Planet, (300.0, 20.0));
    g.link(c, planetgraph_core::nodes::FIELD_OUT, p, planetgraph_core::nodes::output::planet::ELEVATION).expect("link");
    let mut d = Driver::with(g);
    // The window proposes the folder `export` beside the document.
    d.app.doc.path = Some(dir.path().join("tiny.ron"));
    let out = dir.path().join("export");
    std::fs::create_dir_all(&out).expect("folder");
    for (name, text) in [("elevation_equirect.png", "old"), ("manifest.json", "old"), ("notes.txt", "mine")] {
        std::fs::write(out.join(name), text).expect("write");
    }
    d.key(Key::E, Modifiers::COMMAND);
    d.frames(2);
    press_export(&mut d);
    assert_eq!(d.app.export_replacing(), Some(&["elevation_equirect.png".to_string(), "manifest.json".to_string()][..]), "the exact files to replace are listed");
    assert!(d.app.export_summary().is_none(), "nothing runs before the answer");
    press_export(&mut d);
    wait_until(&mut d, "the export", |d| d.app.export_summary().is_some());
    let (summary, ok) = d.app.export_summary().expect("summary");
    assert!(ok, "{summary}");
    assert_eq!(std::fs::read_to_string(out.join("notes.txt")).expect("notes"), "mine", "other files stay");
    assert!(std::fs::read(out.join("elevation_equirect.png")).expect("png").starts_with(b"\x89PNG"), "the old file was replaced");
}

#[test]
fn where_no_desktop_dialog_opens_the_typed_path_dialogs_take_over_and_say_why() {
    let mut d = Driver::new();
    // A dialog that answers at once without a path does not exist here.
    assert_eq!(d.app.desktop_dialog(|| None), None);
    assert!(d.app.status().contains("No desktop file dialog"), "{}", d.app.status());
    // From then on none is tried, and Ctrl+O goes straight to the typed path.
    assert_eq!(d.app.desktop_dialog(|| panic!("a desktop dialog was tried again")), None);
    d.key(Key::O, Modifiers::COMMAND);
    let (save, text) = d.app.typed_path_dialog().expect("the typed-path dialog");
    assert!(!save && !text.is_empty(), "open, starting from a folder: {text}");
    // In a new editor, a user who takes a while and then cancels has cancelled: the desktop
    // dialogs stay.
    let mut e = Driver::new();
    let slow_cancel = || {
        std::thread::sleep(std::time::Duration::from_millis(400));
        None
    };
    assert_eq!(e.app.desktop_dialog(slow_cancel), Some(None));
    assert!(!e.app.status().contains("No desktop"), "{}", e.app.status());
    assert_eq!(e.app.desktop_dialog(|| Some(std::path::PathBuf::from("picked.ron"))), Some(Some(std::path::PathBuf::from("picked.ron"))));
}

/// After an edit the viewport shows a coarse stage first (the same graph at 32 cells per face
/// edge), marked as updating with the node previews dimmed, then the previews' level; the
/// marks go when the last stage lands.
#[test]
fn an_edit_shows_a_coarse_stage_first_marked_until_the_last_stage_lands() {
    use planetgraph_core::nodes::tectonics::plates::TectonicPlatesSettings;
    let g = planetgraph_examples::default_graph().expect("default graph");
    let plates = g.first_of(NodeKind::TectonicPlates).expect("plates").id;
    let mut d = Driver::with(g);
    // At 128 the last stage takes long enough (Landscape evolution's 128 run, most of a second)
    // that a frame always sees the coarse stage on its own: at 64 both stages could land between
    // two frames, and the frame showed only the last.
    d.app.pipeline.res.preview = 128;
    d.app.pipeline.res.viewport = 128;
    d.app.request_eval();
    // Ready: nothing evaluating, the status says so and the viewport's out-of-date mark is gone.
    let ready = |d: &Driver| !d.app.is_evaluating() && d.app.status().starts_with("Ready: evaluated at 128") && d.app.viewport.refining().is_none();
    wait_until(&mut d, "the first evaluation", ready);
    assert!(d.app.viewport.refining().is_none() && !d.app.canvas.ed_state.previews_stale);
    let settings: TectonicPlatesSettings = d.app.doc.graph.node(plates).and_then(|n| n.settings().ok()).expect("settings");
    d.app.doc.graph.set_settings(plates, &TectonicPlatesSettings { seed: settings.seed + 1, ..settings });
    d.app.request_eval();
    assert!(d.app.viewport.refining().is_some_and(|w| w.contains("evaluating")), "marked at once");
    assert!(!d.app.status().starts_with("Ready"), "the last evaluation's Ready goes at once: {}", d.app.status());
    assert!(d.app.canvas.ed_state.previews_stale);
    let mut saw_coarse = false;
    for _ in 0..3000 {
        d.frames(1);
        if d.app.viewport.refining().is_some_and(|w| w.contains("showing 32 cells per face edge, evaluating 128")) {
            saw_coarse = true;
            assert!(d.app.canvas.ed_state.previews_stale, "the previews wait for their level");
        }
        if ready(&d) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(ready(&d), "the preview stage landed");
    // The stages in order, whatever the frames saw (on a loaded machine both can land between two
    // frames; when a frame saw the coarse stage alone, the previews were marked meanwhile).
    assert_eq!(d.app.stages_shown(), [32, 128], "the coarse stage first, then the preview's (a frame saw the coarse one: {saw_coarse})");
    assert!(d.app.viewport.refining().is_none() && !d.app.canvas.ed_state.previews_stale, "the marks go with the last stage");
}

#[test]
fn a_number_in_the_export_window_takes_a_double_click_and_typing() {
    let mut d = Driver::new();
    d.key(Key::E, Modifiers::COMMAND);
    assert_eq!(d.app.export_resolution(), Some(512));
    let window = d.ctx.memory(|m| m.area_rect(egui::Id::unique("Export"))).expect("the export window");
    // The drag values of the window's own layer (the canvas's lie behind it).
    let layer = egui::LayerId::new(egui::Order::Middle, egui::Id::unique("Export"));
    let fields: Vec<egui::Rect> =
        d.ctx.viewport(|vp| vp.prev_pass.widgets.layers().filter(|(l, _)| **l == layer).flat_map(|(_, ws)| ws.iter()).filter(|w| w.sense.senses_drag() && w.rect.height() < 30.0 && w.rect.width() > 20.0).map(|w| w.rect).collect());
    assert!(fields.iter().all(|r| window.contains_rect(*r)) && !fields.is_empty(), "{fields:?} in {window:?}");
    // The folder's text edit, then the resolution.
    let field = *fields.iter().max_by(|a, b| a.top().total_cmp(&b.top())).expect("fields");
    d.click(field.center(), PointerButton::Primary);
    d.click(field.center(), PointerButton::Primary);
    d.frames(2);
    d.key(Key::A, Modifiers::COMMAND);

    d.frame_with(vec![egui::Event::Text("1024".into())], Modifiers::NONE);
    d.key(Key::Enter, Modifiers::NONE);
    d.frames(2);
    assert_eq!(d.app.export_resolution(), Some(1024));
}
