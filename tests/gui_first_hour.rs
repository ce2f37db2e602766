//! The editor's first hour (issue 24), driven through egui input events: a wire that would
//! close a loop or join ports of different types is refused with the reason, graphs with
//! errors open for repair, every recovery copy is offered, the view never shows what no
//! longer exists, File > New is empty with a hint, and the templates start new graphs.

#[path = "common/driver.rs"]
mod driver;

use driver::{chain, wait_until, Driver};
use egui::{Key, Modifiers, PointerButton};
use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::nodes::NodeKind;

#[test]
fn a_wire_that_would_close_a_loop_or_join_other_types_is_refused_with_the_reason() {
    let (g, [_, abs, invert, _, ramp]) = chain();
    let mut d = Driver::with(g);
    d.wait_for_evaluation();
    let before = d.app.doc.graph.clone();

    // Invert's output onto Abs's input: Abs -> Invert -> Abs would be a loop.
    let from = d.ports_of(invert, false)[0];
    let to = d.ports_of(abs, true)[0];
    d.drag(from, to);
    assert_eq!(d.app.doc.graph.links, before.links, "no link was made, and the old one into Abs is kept");
    assert!(d.app.status().contains("would close a loop") && d.app.status().contains("Abs #2"), "{}", d.app.status());

    // The colour ramp's colour output onto Invert's field input.
    let from = d.ports_of(ramp, false)[0];
    let to = d.ports_of(invert, true)[0];
    d.drag(from, to);
    assert_eq!(d.app.doc.graph.links, before.links);
    assert!(d.app.status().starts_with("Not connected") && d.app.status().contains("gives a colour") && d.app.status().contains("takes a field"), "{}", d.app.status());
}

#[test]
fn deleting_everything_empties_the_view_and_ids_are_never_reused() {
    let mut d = Driver::new();
    d.wait_for_evaluation();
    assert!(d.app.viewport.has_planet());
    let highest = d.app.doc.graph.nodes.iter().map(|n| n.id.0).max().expect("nodes");
    d.move_to(egui::pos2(400.0, 500.0));
    d.key(Key::A, Modifiers::COMMAND);
    d.key(Key::Delete, Modifiers::NONE);
    assert!(d.app.doc.graph.nodes.is_empty());
    d.wait_for_evaluation();
    wait_until(&mut d, "the empty graph's result", |d| d.app.status().contains("empty"));
    assert!(!d.app.viewport.has_planet(), "the deleted planet is not on screen");
    assert!(d.app.viewport.why_empty().is_some_and(|w| w.contains("empty")), "{:?}", d.app.viewport.why_empty());
    assert!(d.app.canvas.ed_state.previews.is_empty() || d.app.canvas.ed_state.previews.keys().all(|k| k.0 <= highest));

    // A new node takes an id no deleted node had.
    d.add_with_finder(egui::pos2(300.0, 300.0), "temperature");
    let t = d.app.doc.graph.first_of(NodeKind::Temperature).expect("added").id;
    assert!(t.0 > highest, "new id {} reuses one of 1..={highest}", t.0);
    // Undo the add, add again: still a fresh id.
    d.key(Key::Z, Modifiers::COMMAND);
    d.add_with_finder(egui::pos2(300.0, 300.0), "temperature");
    let t2 = d.app.doc.graph.first_of(NodeKind::Temperature).expect("added").id;
    assert!(t2.0 > t.0, "an undone node's id is not reused: {} then {}", t.0, t2.0);
}

#[test]
fn a_planet_waiting_for_an_input_keeps_its_picture_marked_out_of_date_with_what_is_missing() {
    let (g, [_, _, invert, planet, _]) = chain();
    let mut d = Driver::with(g);
    d.wait_for_evaluation();
    assert!(d.app.viewport.has_planet() && d.app.viewport.why_empty().is_none());
    // Pull the wire out of the Planet's elevation input.
    let input = d.ports_of(planet, true)[0];
    d.drag(input, input + egui::vec2(-60.0, 200.0));
    assert!(!d.app.doc.graph.links.iter().any(|l| l.from == invert && l.to == planet), "the wire was pulled out");
    d.wait_for_evaluation();
    wait_until(&mut d, "the idle planet's result", |d| d.app.viewport.why_empty().is_some());
    assert!(d.app.viewport.has_planet(), "the last picture stays");
    let why = d.app.viewport.why_empty().unwrap_or_default().to_string();
    assert!(why.contains("elevation"), "names the missing input: {why}");
}

#[test]
fn new_is_an_empty_graph_with_a_hint_and_a_template_starts_a_graph() {
    let mut d = Driver::new();
    d.wait_for_evaluation();
    d.key(Key::N, Modifiers::COMMAND);
    assert!(d.app.doc.graph.nodes.is_empty(), "File > New is empty");
    assert!(d.app.doc.path.is_none());
    d.wait_for_evaluation();
    wait_until(&mut d, "the empty result", |d| !d.app.viewport.has_planet() && d.app.viewport.why_empty().is_some());
    // The canvas hint's button opens the template picker.
    let button = d.clickables(egui::Order::Foreground).into_iter().find(|r| (r.width() - 220.0).abs() < 1.0 && (r.height() - 30.0).abs() < 1.0).expect("the hint's button");
    d.click(button.center(), PointerButton::Primary);
    d.frames(2);
    assert!(d.app.shows_templates(), "the picker is open");
    d.frames(3);
    let mut thumbs: Vec<egui::Rect> = d.clickables(egui::Order::Middle).into_iter().filter(|r| r.width() > 118.0 && r.width() < 140.0 && (r.height() - r.width()).abs() < 8.0).collect();
    thumbs.sort_by_key(|r| (r.top() as i32, r.left() as i32));
    let k = planetgraph_examples::templates::TEMPLATES.iter().position(|t| t.file == "noise_continents.ron").expect("template");
    assert!(thumbs.len() > k, "a render per template is on screen: {}", thumbs.len());
    d.click(thumbs[k].center(), PointerButton::Primary);
    d.frames(2);
    assert!(!d.app.shows_templates());
    assert_eq!(d.app.doc.graph, driver::start_graph(), "the template's graph");
    assert!(d.app.doc.path.is_none(), "a template is a new, untitled document");
    d.wait_for_evaluation();
    wait_until(&mut d, "the template's planet", |d| d.app.viewport.has_planet());
}

#[test]
fn a_graph_with_errors_opens_for_repair_and_its_problems_are_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut g, [c, abs, invert, planet, _]) = chain();
    g.link(invert, planetgraph_core::nodes::FIELD_OUT, abs, planetgraph_core::nodes::FIELD_IN).expect("link"); // a loop (replaces Constant -> Abs)
    g.links.push(planetgraph_core::graph::Link { from: NodeId(99), output: "out".into(), to: planet, input: "albedo".into() });
    let file = dir.path().join("broken.ron");
    std::fs::write(&file, planetgraph_core::io::to_ron_string(&g).expect("ron")).expect("write");
    assert!(planetgraph_core::io::load_graph(&file, planetgraph_core::io::Strictness::Complete).is_err(), "check and build refuse it");

    let mut d = Driver::new();
    d.app.open_path(file.clone());
    d.frames(2);
    assert_eq!(d.app.doc.path.as_deref(), Some(file.as_path()), "it opened");
    let msg = d.app.message().expect("a dialog lists the repairs").to_string();
    assert!(msg.contains("node #99 does not exist"), "{msg}");
    assert!(d.app.doc.is_dirty(), "the repaired graph differs from the file");
    assert!(d.app.doc.graph.node(c).is_some());
    d.wait_for_evaluation();
    wait_until(&mut d, "errors on the nodes", |d| d.app.canvas.ed_state.errors.get(&abs).is_some_and(|e| e.contains("cycle")));
    assert!(d.app.canvas.ed_state.errors.get(&invert).is_some_and(|e| e.contains("cycle")));
}

#[test]
fn every_recovery_copy_is_offered_even_one_with_a_loop_and_its_errors_show_after_recover() {
    let state = tempfile::tempdir().expect("tempdir");
    let (mut looped, [_, abs, invert, _, _]) = chain();
    looped.link(invert, planetgraph_core::nodes::FIELD_OUT, abs, planetgraph_core::nodes::FIELD_IN).expect("link");
    let (plain, _) = chain();
    // Two copies left by editors that are no longer running (ids above the kernel's pid_max).
    for (pid, g) in [(4_000_000_001u32, &plain), (4_000_000_002, &looped)] {
        std::fs::write(state.path().join(format!("recovery-{pid}.ron")), planetgraph_core::io::to_ron_string(g).expect("ron")).expect("write");
        std::fs::write(state.path().join(format!("recovery-{pid}.path")), "").expect("write");
    }
    // The looped copy is the newer one.
    let newer = std::fs::File::options().append(true).open(state.path().join("recovery-4000000002.ron")).expect("open");
    newer.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5)).expect("mtime");

    let mut d = Driver::new();
    d.app.set_state_dir(Some(state.path().to_path_buf()));
    d.app.wait_for_background_loads();
    d.frames(2);
    assert!(d.app.offers_recovery(), "the copy with a loop is offered");
    assert_eq!(d.app.recoveries_waiting(), 1, "and the other one after it");
    d.app.answer_recovery(true);
    d.frames(2);
    assert_eq!(d.app.doc.graph.links.len(), looped.links.len(), "the looped graph, loop and all");
    d.wait_for_evaluation();
    wait_until(&mut d, "the loop shown on its nodes", |d| d.app.canvas.ed_state.errors.get(&abs).is_some_and(|e| e.contains("cycle")));

    // The second copy is asked about next; recovering it keeps the first recovered work.
    assert!(d.app.offers_recovery());
    d.app.answer_recovery(true);
    d.frames(2);
    let mut want = plain.clone();
    want.normalize();
    assert_eq!(d.app.doc.graph, want);
    let spare: Vec<String> = std::fs::read_dir(state.path()).expect("dir").flatten().map(|e| e.file_name().to_string_lossy().to_string()).filter(|n| n.ends_with("-1.ron")).collect();
    assert_eq!(spare.len(), 1, "the first recovered work is kept as a spare copy");
    assert!(!d.app.offers_recovery());
}

#[test]
fn a_typed_value_outside_the_range_is_clamped_and_the_status_line_says_to_what() {
    let mut d = Driver::new();
    d.wait_for_evaluation();
    let noise = d.app.doc.graph.first_of(NodeKind::Noise).expect("noise").id;
    let rect = d.node_screen_rects().into_iter().find(|(n, _)| *n == noise).expect("on canvas").1;
    let mut values: Vec<egui::Rect> = d.draggables(|r| !driver::is_port(r) && r.width() > 20.0 && r.width() < 120.0 && r.height() < 30.0).into_iter().filter(|r| rect.contains_rect(*r)).collect();
    values.sort_by(|a, b| a.top().total_cmp(&b.top()));
    // Frequency, then Octaves (1..12).
    let octaves = values[1];
    d.click(octaves.center(), PointerButton::Primary);
    d.frames(1);
    d.key(Key::A, Modifiers::COMMAND);
    d.frame_with(vec![egui::Event::Text("1 000".into())], Modifiers::NONE);
    d.key(Key::Enter, Modifiers::NONE);
    d.frames(2);
    let n = d.app.doc.graph.node(noise).expect("noise");
    assert_eq!(n.params.get("octaves"), Some(&planetgraph_core::nodes::ParamValue::Int(12)), "clamped to the top of the range");
    assert!(d.app.status().contains("1000 is outside 1..12; set to 12"), "{}", d.app.status());
    // The edit's evaluation may start a few frames after the edit (on a loaded machine the
    // previous result can still be the last one when the first wait returns).
    for _ in 0..100 {
        d.wait_for_evaluation();
        if d.app.status().contains("Ready") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(d.app.status().contains("set to 12") && d.app.status().contains("Ready"), "the note stays in front of the result: {}", d.app.status());
}

#[test]
fn the_node_finder_and_the_titles_carry_the_descriptions() {
    use egui_node_graph2::{NodeDataTrait, NodeTemplateTrait};
    let d = Driver::new();
    let node = d.app.canvas.editor.graph.nodes.values().find(|n| n.user_data.node_kind() == Some(NodeKind::Noise)).expect("noise");
    let tip = node.user_data.title_tooltip().expect("a title tooltip");
    assert!(tip.contains(NodeKind::Noise.meta().description), "{tip}");
    let mut st = planetgraph_app::editor::EdState::default();
    let t = planetgraph_app::editor::types::EdTemplate::Kind(NodeKind::HydraulicErosion);
    assert_eq!(t.node_finder_description(&mut st).as_deref(), Some(NodeKind::HydraulicErosion.meta().description));
}

#[test]
fn an_unconnected_export_waits_for_an_input_instead_of_reporting_an_error() {
    let (mut g, [_, _, _, _, _]) = chain();
    let e = g.add_node(NodeKind::Export, (740.0, 400.0));
    let mut d = Driver::with(g);
    d.wait_for_evaluation();
    assert!(!d.app.canvas.ed_state.errors.contains_key(&e), "{:?}", d.app.canvas.ed_state.errors.get(&e));
    let idle = d.app.canvas.ed_state.idle.get(&e).cloned().unwrap_or_default();
    assert!(idle.contains("'field' or 'colour'"), "{idle}");
}

#[test]
fn the_globe_follows_the_pointer_zooms_towards_it_and_tilt_keeps_the_planet_in_view() {
    use planetgraph_app::app::viewport::to_ndc;
    let mut d = Driver::new();
    d.wait_for_evaluation();
    let rect = d.app.viewport.picture_rect();
    assert!(rect.width() > 100.0, "the picture is laid out: {rect:?}");
    let aspect = rect.width() / rect.height();
    let start = rect.center() + egui::vec2(-40.0, 30.0);
    let ground = d.app.viewport.view.camera.pick(to_ndc(rect, start), aspect).expect("the planet is under the pointer");
    // A 60 px drag: the same ground is under the pointer at its end.
    let end = start + egui::vec2(60.0, -20.0);
    d.drag(start, end);
    let cam = d.app.viewport.view.camera;
    let now = cam.pick(to_ndc(rect, end), aspect).expect("still on the planet");
    // One pixel of the picture, as a distance on the unit sphere near the centre of the disc.
    let pixel = 2.0 * (cam.distance - 1.0) * (cam.fov_y / 2.0).tan() / rect.height();
    assert!((now - ground).length() < 2.0 * pixel, "the ground moved {} px away from the pointer", (now - ground).length() / pixel);

    // The wheel zooms towards the pointer.
    let at = rect.center() + egui::vec2(70.0, -50.0);
    d.move_to(at);
    let ground = d.app.viewport.view.camera.pick(to_ndc(rect, at), aspect).expect("on the planet");
    let before = d.app.viewport.view.camera.distance;
    for _ in 0..4 {
        d.frame_with(vec![egui::Event::MouseWheel { unit: egui::MouseWheelUnit::Point, delta: egui::vec2(0.0, 120.0), phase: egui::TouchPhase::Move, source: egui::MouseWheelSource::Wheel, modifiers: Modifiers::NONE }], Modifiers::NONE);
    }
    // The zoom stops with the wheel: nothing moves in the frames after the last step.
    d.frames(1);
    let settled = d.app.viewport.view.camera.distance;
    d.frames(20);
    assert_eq!(d.app.viewport.view.camera.distance, settled, "the zoom went on after the wheel stopped");
    let cam = d.app.viewport.view.camera;
    assert!(cam.distance < before, "zoomed in");
    let now = cam.pick(to_ndc(rect, at), aspect).expect("on the planet");
    let pixel = 2.0 * (cam.distance - 1.0) * (cam.fov_y / 2.0).tan() / rect.height();
    assert!((now - ground).length() < 3.0 * pixel, "the ground under the pointer moved {} px", (now - ground).length() / pixel);

    // A long tilt drag (Shift) stops while the planet still fills the bottom of the picture.
    d.move_to(rect.center());
    d.button(PointerButton::Secondary, true);
    for k in 1..=10 {
        d.move_to(rect.center() + egui::vec2(0.0, 40.0 * k as f32));
    }
    d.button(PointerButton::Secondary, false);
    let cam = d.app.viewport.view.camera;
    assert!(cam.tilt > 0.0, "tilted");
    assert!(cam.pick(glam::Vec2::new(0.0, -1.0), aspect).is_some(), "the bottom of the picture still shows the planet at tilt {}", cam.tilt);
}

#[test]
fn a_new_node_lands_in_view_clear_of_the_minimap_and_of_the_other_nodes() {
    let mut d = Driver::new();
    d.wait_for_evaluation();
    let canvas = d.app.canvas.editor.pan_zoom.clip_rect;
    // Over an existing node, and in the bottom-right corner where the minimap sits.
    let over = d.node_screen_rects().into_iter().map(|(_, r)| r).next().expect("a node").center();
    let corner = canvas.right_bottom() - egui::vec2(30.0, 30.0);
    for (k, at) in [over, corner].into_iter().enumerate() {
        d.add_with_finder(at, "terrace");
        d.frames(2);
        let id = d.app.doc.graph.nodes.iter().filter(|n| n.kind == NodeKind::Terrace).map(|n| n.id).max().expect("added");
        let rects = d.node_screen_rects();
        let mine = rects.iter().find(|(n, _)| *n == id).expect("drawn").1;
        assert!(canvas.contains_rect(mine), "case {k}: {mine:?} not inside {canvas:?}");
        let minimap = egui::Rect::from_min_size(canvas.right_bottom() - egui::vec2(212.0, 142.0), egui::vec2(200.0, 130.0));
        assert!(!mine.intersects(minimap), "case {k}: under the minimap");
        for (n, r) in &rects {
            assert!(*n == id || !r.intersects(mine), "case {k}: on top of node {n}");
        }
    }
}

#[test]
fn switching_a_noise_to_ridged_gives_it_ridged_defaults_in_one_undo_step() {
    use planetgraph_core::nodes::ParamValue;
    let mut g = Graph::default();
    let n = g.add_node(NodeKind::Noise, (20.0, 60.0));
    let p = g.add_node(NodeKind::Planet, (300.0, 60.0));
    g.link(n, planetgraph_core::nodes::FIELD_OUT, p, planetgraph_core::nodes::output::planet::ELEVATION).expect("link");
    let mut d = Driver::with(g);
    d.wait_for_evaluation();
    // What the Type combo box does: the editor's value of the parameter changes.
    let node = d.app.canvas.editor.graph.iter_nodes().find(|k| d.app.canvas.editor.graph[*k].user_data.id == n).expect("noise");
    let input = d.app.canvas.editor.graph[node].inputs.iter().find(|(name, _)| name == "type").map(|(_, i)| *i).expect("type");
    d.app.canvas.editor.graph[input].value.0 = Some(ParamValue::Choice("ridged".into()));
    d.frames(2);
    let params = &d.app.doc.graph.node(n).expect("noise").params;
    assert_eq!(params.get("type"), Some(&ParamValue::Choice("ridged".into())));
    assert_eq!(params.get("frequency"), Some(&ParamValue::Float(12.0)), "{params:?}");
    assert!(d.app.status().contains("Ridged noise with its suggested frequency 12"), "{}", d.app.status());
    d.key(Key::Z, Modifiers::COMMAND);
    assert_eq!(d.app.doc.graph.node(n).expect("noise").params.get("frequency"), Some(&ParamValue::Float(4.0)), "one undo takes both back");
}

#[test]
fn optional_input_ports_say_so_and_required_ones_are_plain() {
    use planetgraph_app::editor::types::{port_label, EdKind, EdNode};
    let materials = EdNode { id: NodeId(1), kind: EdKind::Node(NodeKind::Materials), label: None, bypass: false, collapsed: false, thumbnail: None };
    // Saved names read as words on the node ("slope deg", not "slope_deg").
    assert_eq!(port_label("slope_deg", materials.input_optional("slope_deg")).0, "slope deg (optional)", "Materials measures the slope itself without one");
    assert_eq!(port_label("elevation_m", materials.input_optional("elevation_m")).0, "elevation m", "Materials needs its elevation");
    assert_eq!(port_label("water", materials.input_optional("water")).0, "water (optional)");
    let biomes = EdNode { kind: EdKind::Node(NodeKind::Biomes), ..materials.clone() };
    assert_eq!(port_label("slope_deg", biomes.input_optional("slope_deg")).0, "slope deg (optional)");
}

#[test]
fn the_finder_offers_the_planet_surface_group_and_it_textures_the_planet() {
    let mut g = Graph::default();
    let n = g.add_node(NodeKind::Noise, (20.0, 60.0));
    let p = g.add_node(NodeKind::Planet, (600.0, 60.0));
    g.link(n, planetgraph_core::nodes::FIELD_OUT, p, planetgraph_core::nodes::output::planet::ELEVATION).expect("link");
    let mut d = Driver::with(g);
    d.wait_for_evaluation();
    d.add_with_finder(egui::pos2(300.0, 400.0), "planet surface");
    let grp = d.app.doc.graph.groups.first().cloned().expect("the Planet surface group was added");
    assert_eq!(grp.label, "Planet surface");
    assert_eq!(grp.members.len(), 8);
    // Three wires: the elevation in, and the albedo to the Planet.
    let mut g = d.app.doc.graph.clone();
    let input = grp.inputs.first().expect("input").clone();
    use planetgraph_core::nodes::{texture::materials, FIELD_IN, FIELD_OUT};
    let out = grp.outputs.iter().find(|o| o.port == materials::ALBEDO.name()).expect("albedo").clone();
    assert_eq!(input.port, FIELD_IN.name(), "the elevation goes into To metres");
    g.link(n, FIELD_OUT, input.node, FIELD_IN).expect("link");
    g.link(out.node, materials::ALBEDO, p, planetgraph_core::nodes::output::planet::ALBEDO).expect("the albedo comes from Materials");
    assert!(d.app.apply_edit(g));
    d.wait_for_evaluation();
    wait_until(&mut d, "the textured planet", |d| d.app.pipeline.last_result().is_some_and(|r| r.input(p, planetgraph_core::nodes::output::planet::ALBEDO).is_some()));
    assert!(d.app.canvas.ed_state.errors.is_empty(), "{:?}", d.app.canvas.ed_state.errors);
}

#[test]
fn hydraulic_erosion_presets_set_the_amounts_in_one_undoable_click() {
    use planetgraph_core::nodes::erosion::hydraulic::{HydraulicErosionSettings, HydraulicPreset};
    let mut g = Graph::default();
    let c = g.add_node(NodeKind::Constant, (20.0, 60.0));
    let h = g.add_node(NodeKind::HydraulicErosion, (260.0, 20.0));
    let p = g.add_node(NodeKind::Planet, (560.0, 60.0));
    g.link(c, planetgraph_core::nodes::FIELD_OUT, h, planetgraph_core::nodes::FIELD_IN).expect("link");
    g.link(h, planetgraph_core::nodes::erosion::hydraulic::ELEVATION, p, planetgraph_core::nodes::output::planet::ELEVATION).expect("link");
    let mut d = Driver::with(g);
    d.wait_for_evaluation();
    let rect = d.node_screen_rects().into_iter().find(|(n, _)| *n == h).expect("on canvas").1;
    // The node's Preset… menu: the widest clickable near the bottom of the node.
    let menu = d.clickables(egui::Order::Middle).into_iter().chain(d.clickables(egui::Order::Background)).filter(|r| rect.contains_rect(*r) && r.width() > 100.0 && r.height() < 30.0).max_by(|a, b| a.top().total_cmp(&b.top())).expect("a preset menu");
    d.click(menu.center(), PointerButton::Primary);
    d.frames(2);
    let mut entries: Vec<egui::Rect> = d.clickables(egui::Order::Foreground).into_iter().filter(|r| r.height() < 30.0).collect();
    entries.sort_by(|a, b| a.top().total_cmp(&b.top()));
    assert_eq!(entries.len(), 4, "light, moderate, strong, badlands: {entries:?}");
    d.click(entries[2].center(), PointerButton::Primary);
    d.frames(2);
    let s: HydraulicErosionSettings = d.app.doc.graph.node(h).expect("node").settings().expect("settings");
    assert_eq!(HydraulicPreset::matching(&s), Some(HydraulicPreset::Strong), "{s:?}");
    assert!(d.app.status().contains("Strong preset"), "{}", d.app.status());
    d.key(Key::Z, Modifiers::COMMAND);
    let s: HydraulicErosionSettings = d.app.doc.graph.node(h).expect("node").settings().expect("settings");
    assert_eq!(HydraulicPreset::matching(&s), Some(HydraulicPreset::Moderate), "one undo takes the preset back");
    // The units are explained where the values are: in the node's description and tooltips.
    let desc = NodeKind::HydraulicErosion.meta().description;
    assert!(desc.contains("height unit (h.u.)") && desc.contains("time unit (t.u.)"), "{desc}");
    for p in NodeKind::HydraulicErosion.params() {
        if let planetgraph_core::nodes::ParamSpec::Float { unit, .. } = p.spec {
            assert!(!unit.symbol().contains("time"), "{}: no abstract '/time' units left", p.name);
        }
    }
}

#[test]
fn the_planet_s_settings_are_set_once_and_an_older_file_says_which_nodes_changed() {
    use planetgraph_core::nodes::ParamValue;
    let dir = tempfile::tempdir().expect("tempdir");
    // A version-2 file whose To metres kept a highest peak of its own (4000 m against the
    // Planet's 6000 m).
    let text = r#"(version: 2, nodes: [
        (id: 1, kind: Noise),
        (id: 2, kind: ToMetres, params: {"max_elevation_m": Float(4000.0)}),
        (id: 3, kind: Preview),
        (id: 4, kind: Planet),
    ], links: [(from: 1, output: "out", to: 2, input: "in"), (from: 2, output: "out", to: 3, input: "in"), (from: 1, output: "out", to: 4, input: "elevation")],
    layout: {1: (20.0, 60.0), 2: (260.0, 60.0), 3: (500.0, 60.0), 4: (260.0, 300.0)})"#;
    let file = dir.path().join("old.ron");
    std::fs::write(&file, text).expect("write");
    let mut d = Driver::new();
    d.app.open_path(file.clone());
    d.frames(2);
    let msg = d.app.message().expect("a dialog says what changed").to_string();
    assert!(msg.contains("To metres #2") && msg.contains("4000") && msg.contains("6000"), "{msg}");
    // The To metres node shows no planet setting of its own any more.
    let to_metres = d.app.canvas.editor.graph.iter_nodes().find(|k| d.app.canvas.editor.graph[*k].user_data.id == NodeId(2)).expect("to metres");
    assert!(d.app.canvas.editor.graph[to_metres].inputs.iter().all(|(name, _)| name == "in"), "{:?}", d.app.canvas.editor.graph[to_metres].inputs.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>());
    d.app.close_dialog();
    d.wait_for_evaluation();
    let top = |d: &Driver| d.app.pipeline.last_result().and_then(|r| r.field(NodeId(2)).map(|f| f.data().iter().copied().fold(f32::MIN, f32::max)));
    let before = top(&d).expect("the preview shows metres");
    let noise_top = d.app.pipeline.last_result().and_then(|r| r.field(NodeId(1)).map(|f| f.data().iter().copied().fold(f32::MIN, f32::max))).expect("noise");
    assert!((before - noise_top * 6000.0).abs() < 1.0, "metres on the planet's 6000 m scale, not the old copy's 4000 m: {before} for {noise_top}");
    // Raise the planet's highest peak on the Planet node: the metres upstream follow.
    let planet = d.app.canvas.editor.graph.iter_nodes().find(|k| d.app.canvas.editor.graph[*k].user_data.id == NodeId(4)).expect("planet");
    let input = d.app.canvas.editor.graph[planet].inputs.iter().find(|(name, _)| name == "max_elevation_m").map(|(_, i)| *i).expect("peak");
    d.app.canvas.editor.graph[input].value.0 = Some(ParamValue::Float(9000.0));
    d.frames(2);
    d.wait_for_evaluation();
    let after = top(&d).expect("the preview shows metres");
    assert!((after / before - 1.5).abs() < 0.01, "{before} m -> {after} m");
}
