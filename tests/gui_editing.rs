//! The editor's daily work driven through egui input events: clipboard, duplicate, select
//! all, the node menu, the viewer, canvas navigation, idle nodes, Run, autosave and recovery.

#[path = "common/driver.rs"]
mod driver;

use driver::{overlaps, start_graph, wait_until, Driver};
use egui::{Event, Key, Modifiers, PointerButton, Pos2};
use planetgraph_app::app::{Document, PlanetApp};
use planetgraph_core::graph::part::subgraph;
use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::nodes::NodeKind;

/// The part of the graph with these nodes, renumbered from 1 and placed at the origin, to
/// compare copies.
fn canonical(g: &Graph, ids: &[NodeId]) -> Graph {
    let (out, _) = planetgraph_core::graph::part::merge(&Graph::default(), &subgraph(g, ids), (0.0, 0.0), 0);
    out
}

#[test]
fn copy_paste_into_a_new_document_gives_the_same_ron_and_duplicate_keeps_inner_links() {
    let mut d = Driver::new();
    // Select Noise #1 and the node it feeds, copy them.
    let first = NodeId(1);
    let fed = d.app.doc.graph.links.iter().find(|l| l.from == first).expect("Noise #1 feeds a node").to;
    d.app.canvas.editor.selected_nodes = d.app.canvas.editor.graph.iter_nodes().filter(|n| [first, fed].contains(&d.app.canvas.editor.graph[*n].user_data.id)).collect();
    d.frame_with(vec![Event::Copy], Modifiers::COMMAND);
    let text = d.copied.clone();
    assert!(text.contains("version") && text.contains("Noise"), "{text}");
    let copied = subgraph(&d.app.doc.graph, &[first, fed]);
    assert_eq!(copied.links.len(), 1, "the link between them");

    // Paste into a new, empty document: the same nodes, parameters and link.
    let mut other = Driver::with(Graph::default());
    other.move_to(Pos2::new(300.0, 300.0));
    other.frame_with(vec![Event::Paste(text.clone())], Modifiers::COMMAND);
    assert_eq!(other.app.doc.graph.nodes.len(), 2);
    let pasted: Vec<NodeId> = other.app.doc.graph.nodes.iter().map(|n| n.id).collect();
    assert_eq!(canonical(&other.app.doc.graph, &pasted), canonical(&d.app.doc.graph, &[first, fed]));
    assert_eq!(other.app.selected_ids().len(), 2, "pasted nodes are selected");
    // They land at the pointer.
    let p = other.app.canvas.editor.pan_zoom.to_graph() * Pos2::new(300.0, 300.0);
    let top_left = other.app.doc.graph.layout.values().fold((f32::MAX, f32::MAX), |a, b| (a.0.min(b.0), a.1.min(b.1)));
    assert!((top_left.0 - p.x).abs() < 1.0 && (top_left.1 - p.y).abs() < 1.0, "{top_left:?} vs {p:?}");
    // Copying the pasted nodes gives the same text back.
    other.frame_with(vec![Event::Copy], Modifiers::COMMAND);
    let again = planetgraph_core::io::parse_graph(&other.copied, std::path::Path::new("clipboard"), planetgraph_core::io::Strictness::Editable).expect("ron");
    assert_eq!(canonical(&again, &pasted), canonical(&other.app.doc.graph, &pasted));
    // Undo takes the paste back in one step; text that is not a graph changes nothing.
    other.key(Key::Z, Modifiers::COMMAND);
    assert!(other.app.doc.graph.nodes.is_empty());
    other.frame_with(vec![Event::Paste("hello".into())], Modifiers::COMMAND);
    assert!(other.app.doc.graph.nodes.is_empty());

    // Duplicate (Ctrl+D): two more nodes, linked to each other like the originals.
    let before = d.app.doc.graph.clone();
    d.key(Key::D, Modifiers::COMMAND);
    let new: Vec<NodeId> = d.app.doc.graph.nodes.iter().map(|n| n.id).filter(|id| before.node(*id).is_none()).collect();
    assert_eq!(new.len(), 2);
    assert_eq!(d.app.doc.graph.links.iter().filter(|l| new.contains(&l.from) && new.contains(&l.to)).count(), 1, "the inner link is kept");
    assert_eq!(canonical(&d.app.doc.graph, &new), canonical(&before, &[first, fed]));
    d.key(Key::Z, Modifiers::COMMAND);
    assert_eq!(d.app.doc.graph, before, "undo removes the duplicate");
    d.key(Key::Z, Modifiers::SHIFT | Modifiers::COMMAND);
    assert_eq!(d.app.doc.graph.nodes.len(), before.nodes.len() + 2, "redo brings it back");

    // Ctrl+A selects every node; Ctrl+X cuts them all (one undo step).
    d.key(Key::A, Modifiers::COMMAND);
    assert_eq!(d.app.selected_ids().len(), d.app.doc.graph.nodes.len());
    d.frame_with(vec![Event::Cut], Modifiers::COMMAND);
    assert!(d.app.doc.graph.nodes.is_empty());
    d.key(Key::Z, Modifiers::COMMAND);
    assert_eq!(d.app.doc.graph.nodes.len(), before.nodes.len() + 2);
}

#[test]
fn right_click_on_a_node_opens_its_menu_and_shows_it_in_the_viewport() {
    let mut d = Driver::new();
    d.wait_for_evaluation();
    let (id, rect) = d.node_screen_rects().into_iter().find(|(id, _)| *id == NodeId(1)).expect("Noise #1 drawn");
    d.click(rect.center_top() + egui::vec2(0.0, 8.0), PointerButton::Secondary);
    d.frames(1);
    assert!(d.app.canvas.editor.node_finder.is_none(), "a right click on a node is not the finder");
    // The menu's first entry is "Show in viewport".
    let item = *d.clickables(egui::Order::Foreground).iter().min_by(|a, b| a.top().total_cmp(&b.top())).expect("the node menu");
    d.click(item.center(), PointerButton::Primary);
    d.frames(1);
    assert_eq!(d.app.canvas.ed_state.viewed, Some(id));
    d.wait_for_evaluation();
    assert_eq!(d.app.viewport.viewer_label(), Some("Noise #1"));
    // V with the node selected goes back to the planet.
    d.app.canvas.editor.selected_nodes = d.app.canvas.editor.graph.iter_nodes().filter(|n| d.app.canvas.editor.graph[*n].user_data.id == id).collect();
    d.key(Key::V, Modifiers::NONE);
    assert_eq!(d.app.canvas.ed_state.viewed, None);
    assert_eq!(d.app.viewport.viewer_label(), None);
}

#[test]
fn zoom_keeps_the_layout_and_home_frames_every_node_it_can_legibly() {
    let g = planetgraph_core::io::load_graph(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("graphs/volcanic_island.ron"), planetgraph_core::io::Strictness::Complete).expect("example");
    let mut d = Driver::with(g);
    d.frames(2);
    let canvas = d.app.canvas.editor.pan_zoom.clip_rect;
    let layout = d.app.doc.graph.layout.clone();
    assert!(overlaps(&d.node_screen_rects()).is_empty(), "{:?}", overlaps(&d.node_screen_rects()));
    // Zoom out and in around a point with the wheel: no overlap at any step, and the saved
    // layout never changes.
    d.move_to(canvas.center() + egui::vec2(120.0, -40.0));
    for step in [-400.0f32, -400.0, -400.0, 400.0, 400.0, 400.0, 300.0] {
        d.frame_with(vec![Event::MouseWheel { unit: egui::MouseWheelUnit::Point, delta: egui::vec2(0.0, step), phase: egui::TouchPhase::Move, source: egui::MouseWheelSource::Wheel, modifiers: Modifiers::NONE }], Modifiers::NONE);
        d.frames(3);
        let rects = d.node_screen_rects();
        assert!(overlaps(&rects).is_empty(), "zoom {}: {:?}", d.app.canvas.editor.pan_zoom.zoom, overlaps(&rects));
        assert_eq!(d.app.doc.graph.layout, layout, "zooming is not an edit");
    }
    assert!(!d.app.doc.is_dirty());
    // The point under the pointer stays put while zooming.
    let anchor = d.pointer;
    let before = d.app.canvas.editor.pan_zoom.to_graph() * anchor;
    d.frame_with(vec![Event::MouseWheel { unit: egui::MouseWheelUnit::Point, delta: egui::vec2(0.0, -200.0), phase: egui::TouchPhase::Move, source: egui::MouseWheelSource::Wheel, modifiers: Modifiers::NONE }], Modifiers::NONE);
    d.frames(2);
    let after = d.app.canvas.editor.pan_zoom.to_graph() * anchor;
    assert!(before.distance(after) < 1.0, "{before:?} -> {after:?}");
    // Home frames every node inside the canvas, unless the text would be too small to read:
    // then the graph's top-left corner at the legible zoom.
    d.key(Key::Home, Modifiers::NONE);
    d.frames(2);
    let zoom = d.app.canvas.editor.pan_zoom.zoom;
    assert!(zoom >= planetgraph_app::app::planet_app::LEGIBLE_ZOOM - 1e-4, "Home zoomed to {zoom}");
    let rects = d.node_screen_rects();
    if zoom > planetgraph_app::app::planet_app::LEGIBLE_ZOOM + 1e-4 {
        for (id, r) in &rects {
            assert!(canvas.contains_rect(*r), "{id:?} at {r:?} outside {canvas:?}");
        }
    } else {
        let corner = rects.iter().map(|(_, r)| r.min).reduce(|a, b| a.min(b)).expect("nodes");
        assert!(canvas.contains(corner), "the top-left {corner:?} in {canvas:?}");
    }
}

#[test]
fn every_example_opens_framed_without_overlapping_nodes() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("graphs");
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("graphs").flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "ron")).collect();
    files.sort();
    let mut problems = Vec::new();
    for f in files {
        let g = planetgraph_core::io::load_graph(&f, planetgraph_core::io::Strictness::Editable).expect("example");
        let ctx = egui::Context::default();
        let app = PlanetApp::new(Document::new(g, Some(f.clone())), &ctx).expect("app");
        let mut d = Driver::of(ctx, app);
        // Measured with the results shown: previews and status lines make nodes taller.
        d.app.pipeline.res.preview = 32;
        d.app.pipeline.res.viewport = 32;
        d.wait_for_evaluation();
        let canvas = d.app.canvas.editor.pan_zoom.clip_rect;
        let rects = d.node_screen_rects();
        // Every node is in view, unless that would make the text too small to read: then the
        // zoom stays legible and the graph's top-left corner is in view.
        let zoom = d.app.canvas.editor.pan_zoom.zoom;
        if zoom < planetgraph_app::app::planet_app::LEGIBLE_ZOOM - 1e-4 {
            problems.push(format!("{}: opened at zoom {zoom}, text too small to read", f.display()));
        }
        let all_in = rects.iter().all(|(_, r)| canvas.contains_rect(*r));
        let corner = rects.iter().map(|(_, r)| r.min).reduce(|a, b| a.min(b)).unwrap_or_default();
        let legible_corner = canvas.contains(corner) && (zoom - planetgraph_app::app::planet_app::LEGIBLE_ZOOM).abs() < 1e-4;
        if !(all_in || legible_corner) {
            problems.push(format!("{}: neither every node nor the top-left corner {corner:?} in {canvas:?} at zoom {zoom}", f.display()));
        }
        for (a, b) in overlaps(&rects) {
            let graph_rect = |id: NodeId| d.app.canvas.editor.node_rects.iter().find(|(n, _)| d.app.canvas.editor.graph[**n].user_data.id == id).map(|(_, r)| *r);
            problems.push(format!("{}: nodes {} ({:?}) and {} ({:?}) overlap", f.display(), a.0, graph_rect(a), b.0, graph_rect(b)));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn an_unconnected_node_is_idle_and_the_status_says_so_without_error() {
    let mut d = Driver::new();
    d.wait_for_evaluation();
    d.add_with_finder(Pos2::new(700.0, 700.0), "Add");
    let add = d.app.doc.graph.nodes.iter().filter(|n| n.kind == NodeKind::Add).map(|n| n.id).max().expect("the new Add node");
    wait_until(&mut d, "the Add node hint", |d| d.app.canvas.ed_state.idle.contains_key(&add) && !d.app.is_evaluating());
    assert!(d.app.canvas.ed_state.errors.is_empty(), "{:?}", d.app.canvas.ed_state.errors);
    assert!(d.app.canvas.ed_state.idle.get(&add).is_some_and(|h| h.contains("needs")));
    let status = d.app.status().to_string();
    assert!(status.contains("idle") && !status.to_lowercase().contains("error"), "{status}");

    // Cancel a refinement that has work to do (the viewport at 512, not cached): the status
    // says so and names what the viewport still shows; Run (F5) then evaluates again.
    d.app.pipeline.res.viewport = 512;
    d.app.request_eval();
    d.app.cancel_eval();
    wait_until(&mut d, "the cancel", |d| !d.app.is_evaluating() && d.app.status().starts_with("Cancelled"));
    assert!(d.app.status().contains("F5"), "{}", d.app.status());
    d.key(Key::F5, Modifiers::NONE);
    wait_until(&mut d, "the run at 512", |d| !d.app.is_evaluating() && d.app.status().starts_with("Ready: evaluated at 512"));
}

#[test]
fn losing_the_focus_autosaves_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let state = dir.path().join("state");
    let mut d = Driver::with(start_graph());
    d.app.set_state_dir(Some(state.clone()));
    d.app.wait_for_background_loads();
    d.frames(2);
    let copies = || std::fs::read_dir(&state).map(|r| r.flatten().filter(|e| e.file_name().to_string_lossy().ends_with(".ron")).count()).unwrap_or(0);
    // Losing the focus with nothing unsaved writes nothing.
    d.focused = false;
    d.frames(2);
    assert_eq!(copies(), 0, "no copy without unsaved changes");
    d.focused = true;
    d.frames(1);
    d.app.canvas.editor.selected_nodes = d.app.canvas.editor.graph.iter_nodes().take(1).collect();
    d.key(Key::D, Modifiers::COMMAND);
    d.frames(2);
    assert_eq!(copies(), 0, "within the minute, with the focus, nothing is written");
    // Seconds later, not a minute, the window loses the focus: the copy is written at once.
    d.focused = false;
    d.frames(1);
    assert_eq!(copies(), 1, "autosaved when the focus went");
    let copy = std::fs::read_dir(&state).expect("state").flatten().map(|e| e.path()).find(|p| p.extension().is_some_and(|e| e == "ron")).expect("copy");
    let saved = planetgraph_core::io::load_graph(&copy, planetgraph_core::io::Strictness::Editable).expect("the copy is a graph");
    assert_eq!(saved.nodes.len(), d.app.doc.graph.nodes.len(), "the copy holds the duplicate");
}

#[test]
fn autosave_then_a_crash_then_recovery_restores_the_edits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("mine.ron");
    planetgraph_core::io::save_graph(&file, &start_graph()).expect("save");
    let mut d = Driver::with(start_graph());
    d.app.open_path(file.clone());
    d.app.set_state_dir(Some(dir.path().join("state")));
    d.app.wait_for_background_loads();
    d.frames(2);
    d.app.canvas.editor.selected_nodes = d.app.canvas.editor.graph.iter_nodes().take(1).collect();
    d.key(Key::D, Modifiers::COMMAND);
    let edited = d.app.doc.graph.clone();
    assert!(d.app.doc.is_dirty());
    // Within the minute nothing is written; after it, the copy is there.
    d.frames(2);
    let copies = |dir: &std::path::Path| std::fs::read_dir(dir).map(|r| r.flatten().filter(|e| e.file_name().to_string_lossy().ends_with(".ron")).count()).unwrap_or(0);
    assert_eq!(copies(&dir.path().join("state")), 0);
    d.time += 61.0;
    d.frames(2);
    assert_eq!(copies(&dir.path().join("state")), 1, "autosaved after a minute");

    // A crash: the process "dies" (its copy is renamed to a dead process id), and a new editor
    // starts with the same state folder.
    let state = dir.path().join("state");
    let mine = std::fs::read_dir(&state).expect("state").flatten().map(|e| e.path()).find(|p| p.extension().is_some_and(|e| e == "ron")).expect("copy");
    std::fs::rename(&mine, state.join("recovery-4000000000.ron")).expect("rename");
    std::fs::rename(mine.with_extension("path"), state.join("recovery-4000000000.path")).expect("rename");
    drop(d);
    let mut e = Driver::with(Graph::default());
    e.app.set_state_dir(Some(state.clone()));
    e.app.wait_for_background_loads();
    e.frames(1);
    assert!(e.app.offers_recovery(), "the next start offers the copy");
    e.app.answer_recovery(true);
    e.frames(1);
    assert_eq!(e.app.doc.graph, edited, "the edits are back");
    assert_eq!(e.app.doc.path.as_deref(), Some(file.as_path()));
    assert!(e.app.doc.is_dirty(), "recovered work is unsaved until saved");
    assert_eq!(copies(&state), 0, "the copy is consumed");
    // Saving clears this editor's own copy on the next frame.
    assert!(e.app.save_to(&file));
    e.frames(1);
    assert_eq!(copies(&state), 0);
    assert_eq!(e.app.recent_files().first().and_then(|p| p.file_name()), file.file_name(), "saved file is first in Open Recent");
}

#[test]
fn the_finder_opens_the_same_way_after_a_filtered_search() {
    let mut d = Driver::with(Graph::default());
    let shown = |d: &mut Driver| {
        d.move_to(Pos2::new(400.0, 300.0));
        d.key(Key::A, Modifiers::SHIFT);
        d.frames(2);
        let n = d.clickables(egui::Order::Foreground).len();
        d.key(Key::Escape, Modifiers::NONE);
        d.frames(1);
        n
    };
    let fresh = shown(&mut d);
    d.key(Key::A, Modifiers::SHIFT);
    d.frames(1);
    d.frame_with(vec![Event::Text("noi".into())], Modifiers::NONE);
    d.frames(2);
    d.key(Key::Escape, Modifiers::NONE);
    d.frames(1);
    assert_eq!(shown(&mut d), fresh, "the same clickable entries as the first time");
}

#[test]
fn a_node_dropped_onto_a_wire_is_inserted_in_one_undo_step() {
    let mut d = Driver::new();
    d.frames(2);
    // A new Scale and bias node in an empty corner.
    d.add_with_finder(Pos2::new(300.0, 700.0), "scale and");
    let new = d.app.doc.graph.nodes.iter().filter(|n| n.kind == NodeKind::ScaleBias).map(|n| n.id).max().expect("new node");
    let links_before = d.app.doc.graph.links.len();
    let before = d.app.doc.graph.clone();
    // The middle of the first wire, on screen.
    let t = d.app.canvas.editor.pan_zoom.to_screen();
    let (_, _, pts) = d.app.canvas.editor.link_curves.first().cloned().expect("a wire");
    let mid = t * (((pts[0].to_vec2() + pts[3].to_vec2()) * 0.125 + (pts[1].to_vec2() + pts[2].to_vec2()) * 0.375).to_pos2());
    let (_, rect) = d.node_screen_rects().into_iter().find(|(id, _)| *id == new).expect("drawn");
    d.drag(rect.center_top() + egui::vec2(-20.0, 8.0), mid + egui::vec2(0.0, -2.0));
    let g = &d.app.doc.graph;
    assert_eq!(g.links.len(), links_before + 1, "one link became two");
    assert_eq!(g.links.iter().filter(|l| l.to == new).count(), 1);
    assert_eq!(g.links.iter().filter(|l| l.from == new).count(), 1);
    // Its neighbours moved aside: it covers no other node.
    d.frames(2);
    let rects = d.node_screen_rects();
    let mine = rects.iter().find(|(id, _)| *id == new).expect("drawn").1;
    for (id, r) in &rects {
        assert!(*id == new || !r.intersects(mine), "the inserted node lies on node {id}: {mine:?} and {r:?}");
    }
    // Undo takes the insertion back (the move stays); a second undo the move.
    d.key(Key::Z, Modifiers::COMMAND);
    assert_eq!(d.app.doc.graph.links, before.links);
    d.key(Key::Z, Modifiers::COMMAND);
    assert_eq!(d.app.doc.graph, before);
}

#[test]
fn a_frame_around_the_selection_moves_its_nodes_and_is_saved() {
    let mut d = Driver::new();
    d.frames(2);
    let first = NodeId(1);
    let fed = d.app.doc.graph.links.iter().find(|l| l.from == first).expect("Noise #1 feeds a node").to;
    d.app.canvas.editor.selected_nodes = d.app.canvas.editor.graph.iter_nodes().filter(|n| [first, fed].contains(&d.app.canvas.editor.graph[*n].user_data.id)).collect();
    d.key(Key::J, Modifiers::COMMAND);
    d.frames(2);
    d.frame_with(vec![Event::Text("Terrain".into())], Modifiers::NONE);
    d.key(Key::Enter, Modifiers::NONE);
    d.frames(1);
    assert_eq!(d.app.doc.graph.frames.len(), 1);
    let frame = d.app.doc.graph.frames[0].clone();
    assert_eq!(frame.label, "Terrain", "typing replaces the suggested name");
    let before = d.app.doc.graph.clone();
    let inside: Vec<NodeId> = before.layout.iter().filter(|(_, p)| frame.contains(**p)).map(|(id, _)| *id).collect();
    assert!(inside.contains(&first) && inside.contains(&fed), "{inside:?}");

    // Drag the frame's bar (framed into view with Home first): the frame and the nodes
    // inside move by the same amount.
    d.key(Key::Home, Modifiers::NONE);
    d.frames(2);
    let t = d.app.canvas.editor.pan_zoom.to_screen();
    let bar = t * egui::pos2(frame.rect.0 + 60.0, frame.rect.1 + 13.0);
    d.drag(bar, bar + egui::vec2(90.0, 60.0));
    let g = d.app.doc.graph.clone();
    let moved = (g.frames[0].rect.0 - frame.rect.0, g.frames[0].rect.1 - frame.rect.1);
    assert!(moved.0 > 10.0 && moved.1 > 10.0, "{moved:?}");
    for (id, p) in &before.layout {
        let q = g.layout[id];
        let expect = if inside.contains(id) { (p.0 + moved.0, p.1 + moved.1) } else { *p };
        assert!((q.0 - expect.0).abs() < 0.01 && (q.1 - expect.1).abs() < 0.01, "node {id:?}: {q:?} vs {expect:?}");
    }
    // Undo brings everything back in one step.
    d.key(Key::Z, Modifiers::COMMAND);
    assert_eq!(d.app.doc.graph, before);

    // Saved and reopened, the frame is still there.
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("framed.ron");
    assert!(d.app.save_to(&file));
    let back = Document::open(&file).expect("reopen");
    assert_eq!(back.graph.frames, before.frames);
}

#[test]
fn rename_and_bypass_from_the_keyboard_are_undoable_and_saved() {
    let mut d = Driver::new();
    d.wait_for_evaluation();
    // Clamp #3 is fed by Noise #1.
    let clamp = NodeId(3);
    assert_eq!(d.app.doc.graph.node(clamp).map(|n| n.kind), Some(NodeKind::Clamp));
    d.app.canvas.editor.selected_nodes = d.app.canvas.editor.graph.iter_nodes().filter(|n| d.app.canvas.editor.graph[*n].user_data.id == clamp).collect();
    d.key(Key::F2, Modifiers::NONE);
    d.frames(1);
    d.frame_with(vec![Event::Text("Shelf cut".into())], Modifiers::NONE);
    d.key(Key::Enter, Modifiers::NONE);
    d.frames(1);
    let n = d.app.doc.graph.node(clamp).expect("clamp").clone();
    assert_eq!(n.label.as_deref(), Some("Shelf cut"));
    assert_eq!(n.describe(), "Shelf cut (Clamp #3)");
    assert!(d.app.canvas.editor.graph.iter_nodes().any(|e| d.app.canvas.editor.graph[e].label == "Shelf cut"), "the title shows the name");

    // M bypasses: the node passes Noise #1's field on unchanged.
    d.app.canvas.editor.selected_nodes = d.app.canvas.editor.graph.iter_nodes().filter(|n| d.app.canvas.editor.graph[*n].user_data.id == clamp).collect();
    d.key(Key::M, Modifiers::NONE);
    assert!(d.app.doc.graph.node(clamp).is_some_and(|n| n.bypass));
    wait_until(&mut d, "the bypassed result", |d| !d.app.is_evaluating() && d.app.pipeline.last_result().is_some_and(|r| r.field(clamp).is_some() && r.field(clamp).map(|f| f.data().to_vec()) == r.field(NodeId(1)).map(|f| f.data().to_vec())));

    // Saved and reopened, both stay; undo takes them back one at a time.
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("named.ron");
    assert!(d.app.save_to(&file));
    let back = Document::open(&file).expect("reopen");
    assert_eq!(back.graph.node(clamp), d.app.doc.graph.node(clamp));
    d.key(Key::Z, Modifiers::COMMAND);
    assert!(d.app.doc.graph.node(clamp).is_some_and(|n| !n.bypass && n.label.is_some()));
    d.key(Key::Z, Modifiers::COMMAND);
    assert!(d.app.doc.graph.node(clamp).is_some_and(|n| n.label.is_none()));
}

#[test]
fn collapse_shrinks_a_node_to_its_title_keeps_its_links_and_is_undoable_and_saved() {
    let mut d = Driver::new();
    d.wait_for_evaluation();
    let clamp = NodeId(3);
    let height = |d: &Driver| d.node_screen_rects().into_iter().find(|(id, _)| *id == clamp).map(|(_, r)| r.height()).expect("clamp's rect");
    let before = height(&d);
    let links = d.app.doc.graph.links.clone();
    // H collapses the selected node to its title bar.
    d.app.canvas.editor.selected_nodes = d.app.canvas.editor.graph.iter_nodes().filter(|n| d.app.canvas.editor.graph[*n].user_data.id == clamp).collect();
    d.key(Key::H, Modifiers::NONE);
    d.frames(2);
    assert!(d.app.doc.graph.node(clamp).is_some_and(|n| n.collapsed));
    let after = height(&d);
    assert!(after < before * 0.5, "collapsed: {after} px high, {before} expanded");
    assert_eq!(d.app.doc.graph.links, links, "links stay");
    // Its ports are on the title bar, so its wires still end at the node.
    let ports = d.draggables(driver::is_port);
    let rect = d.node_screen_rects().into_iter().find(|(id, _)| *id == clamp).map(|(_, r)| r).expect("rect");
    assert!(ports.iter().any(|p| rect.expand(8.0).contains(p.center())), "ports drawn on the collapsed node");
    // Saved and reopened, it stays collapsed; undo expands it.
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("collapsed.ron");
    assert!(d.app.save_to(&file));
    assert!(std::fs::read_to_string(&file).expect("saved").contains("collapsed: true"));
    assert!(Document::open(&file).expect("reopen").graph.node(clamp).is_some_and(|n| n.collapsed));
    d.key(Key::Z, Modifiers::COMMAND);
    d.frames(2);
    assert!(d.app.doc.graph.node(clamp).is_some_and(|n| !n.collapsed));
    assert!((height(&d) - before).abs() < 1.0, "expanded again");
}

#[test]
fn reroute_points_are_added_on_a_wire_dragged_removed_undone_and_saved() {
    let mut d = Driver::new();
    d.wait_for_evaluation();
    let t = d.app.canvas.editor.pan_zoom.to_screen();
    // The middle of the wire from Noise #1 into Clamp #3.
    let clamp_in = d.app.canvas.editor.graph.iter_nodes().find(|n| d.app.canvas.editor.graph[*n].user_data.id == NodeId(3)).map(|n| d.app.canvas.editor.graph[n].get_input("in").expect("in")).expect("clamp");
    let c = d.app.canvas.editor.link_curves.iter().find(|(i, _, _)| *i == clamp_in).map(|(_, _, c)| *c).expect("the wire");
    let mid = t * (((c[0].to_vec2() + c[3].to_vec2()) * 0.125 + (c[1].to_vec2() + c[2].to_vec2()) * 0.375).to_pos2());
    let double_click = |d: &mut Driver, p: Pos2| {
        d.click(p, PointerButton::Primary);
        d.click(p, PointerButton::Primary);
        d.frames(2);
    };
    double_click(&mut d, mid);
    let points = |d: &Driver| d.app.doc.graph.reroutes.iter().find(|r| r.to == NodeId(3) && r.input == "in").map(|r| r.points.clone()).unwrap_or_default();
    assert_eq!(points(&d).len(), 1, "a double click on the wire adds a reroute point: {:?}", d.app.doc.graph.reroutes);
    let at = points(&d)[0];
    assert!((t * egui::pos2(at.0, at.1)).distance(mid) < 2.0, "at the pointer");
    // Dragging moves it; the wire passes through it.
    let to = mid + egui::vec2(-60.0, 90.0);
    d.drag(mid, to);
    d.frames(2);
    let moved = points(&d)[0];
    assert!((t * egui::pos2(moved.0, moved.1)).distance(to) < 3.0, "dragged to {to:?}: {moved:?}");
    let through = d.app.canvas.editor.link_curves.iter().filter(|(i, _, _)| *i == clamp_in).count();
    assert_eq!(through, 2, "the wire is drawn in two pieces through the point");
    // Saved and reopened, the point stays.
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("rerouted.ron");
    assert!(d.app.save_to(&file));
    assert_eq!(Document::open(&file).expect("reopen").graph.reroutes, d.app.doc.graph.reroutes);
    // A double click on the point removes it; undo brings it back.
    double_click(&mut d, to);
    assert!(points(&d).is_empty(), "removed");
    d.key(Key::Z, Modifiers::COMMAND);
    d.frames(1);
    assert_eq!(points(&d).len(), 1, "undo restores it");
}
