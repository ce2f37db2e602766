//! The editor's menus driven through egui_kittest: widgets are found by their accessible
//! labels (AccessKit), as a screen reader would, instead of by their place on the screen.
//! The canvas (ports, wires, the wheel) has no labels, so those tests keep the event driver
//! of `tests/common/driver.rs`.

#[path = "common/driver.rs"]
mod driver;

use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use planetgraph_app::app::{Document, PlanetApp};
use planetgraph_core::graph::Graph;

/// A harness the size of the default window around the real app on `g`.
fn harness(g: Graph) -> Harness<'static, Option<PlanetApp>> {
    let mut h = Harness::builder().with_size([1600.0, 900.0]).build_ui_state(
        |ui, app: &mut Option<PlanetApp>| {
            if let Some(app) = app {
                app.ui(ui, None);
            }
        },
        None,
    );
    // The app is made on the harness's context, so its style and repaints are the harness's.
    let app = PlanetApp::new(Document::new(g, None), &h.ctx).expect("evaluation thread");
    *h.state_mut() = Some(app);
    h.run_steps(3);
    h
}

fn app<'h>(h: &'h mut Harness<'static, Option<PlanetApp>>) -> &'h mut PlanetApp {
    h.state_mut().as_mut().expect("the app")
}

/// Opens the menu `menu` and clicks its entry `entry` (an entry's label ends with its shortcut,
/// as a screen reader reads it: "Undo Ctrl+Z").
fn menu(h: &mut Harness<'static, Option<PlanetApp>>, menu: &str, entry: &str) {
    h.get_by_label(menu).click();
    h.run_steps(2);
    h.get_by_label(entry).click();
    h.run_steps(2);
}

#[test]
fn edit_menu_selects_deletes_undoes_and_redoes_by_label() {
    let mut h = harness(driver::start_graph());
    let nodes = app(&mut h).doc.graph.nodes.len();
    assert!(nodes > 3, "the start graph has nodes");

    // Nothing to undo yet: the entry is there and disabled.
    h.get_by_label("Edit").click();
    h.run_steps(2);
    assert!(h.get_by_label("Undo Ctrl+Z").accesskit_node().is_disabled(), "Undo is disabled on a fresh document");
    assert!(h.get_by_label("Delete selected Del").accesskit_node().is_disabled(), "nothing is selected");
    h.get_by_label("Select all Ctrl+A").click();
    h.run_steps(2);
    assert_eq!(app(&mut h).canvas.editor.selected_nodes.len(), nodes, "Select all selects every node");

    menu(&mut h, "Edit", "Delete selected Del");
    assert!(app(&mut h).doc.graph.nodes.is_empty(), "Delete selected removed every node");
    menu(&mut h, "Edit", "Undo Ctrl+Z");
    assert_eq!(app(&mut h).doc.graph.nodes.len(), nodes, "Undo brought them back");
    assert_eq!(app(&mut h).doc.graph, driver::start_graph(), "exactly as they were");
    menu(&mut h, "Edit", "Redo Ctrl+Shift+Z");
    assert!(app(&mut h).doc.graph.nodes.is_empty(), "Redo deleted them again");
}

#[test]
fn file_new_empties_the_graph_and_its_hint_opens_the_template_picker() {
    let mut h = harness(driver::start_graph());
    menu(&mut h, "File", "New Ctrl+N");
    assert!(app(&mut h).doc.graph.nodes.is_empty(), "File > New is an empty graph");
    assert!(app(&mut h).doc.path.is_none(), "and an untitled document");
    // The empty canvas offers the template picker by a labelled button.
    h.get_by_label_contains("Start from a template").click();
    h.run_steps(2);
    assert!(app(&mut h).shows_templates(), "the hint's button opens the template picker");
}
