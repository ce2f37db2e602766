//! The editor's start-up: the library of saved groups and the recovery copies a crash left
//! are read in the background, and odd files among them are refused by name.

#[path = "common/driver.rs"]
mod driver;

use driver::{start_graph, Driver};
use egui::Pos2;
use planetgraph_core::graph::Graph;
use planetgraph_core::nodes::NodeKind;

/// The library of saved groups and the recovery copies are read off the UI thread: setting
/// the folders returns before anything is read; a FIFO or an oversized file where a copy would
/// be is refused by name (a FIFO used to block the start for good); the good copy and the
/// saved group arrive with the next frames.
#[test]
fn library_and_recovery_are_read_in_the_background_and_odd_files_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (state, lib) = (dir.path().join("state"), dir.path().join("groups"));
    std::fs::create_dir_all(&state).expect("state");
    // A group in the library.
    let mut g = Graph::default();
    let a = g.add_node(NodeKind::Noise, (0.0, 0.0));
    let b = g.add_node(NodeKind::Terrace, (260.0, 0.0));
    g.link(a, planetgraph_core::nodes::FIELD_OUT, b, planetgraph_core::nodes::FIELD_IN).expect("link");
    let id = g.make_group(&[a, b], "Stepped noise").expect("group");
    planetgraph_app::app::library::Library { dir: lib.clone(), groups: Vec::new() }.save(&g, id).expect("saved group");
    // A good copy of an editor that died, a FIFO and a 65 MB file (sparse) named like copies.
    planetgraph_core::io::save_graph(&state.join("recovery-4000000001.ron"), &start_graph()).expect("copy");
    let fifo = state.join("recovery-4000000002.ron");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let big = state.join("recovery-4000000003.ron");
    std::fs::File::create(&big).expect("big").set_len(65 << 20).expect("sparse");

    let mut d = Driver::with(Graph::default());
    d.app.set_state_dir(Some(state.clone()));
    d.app.set_library_dir(Some(lib.clone()));
    assert_eq!(d.app.background_loads_pending(), 2, "both are read in the background");
    assert!(!d.app.offers_recovery(), "nothing is read on the calling thread");
    d.app.wait_for_background_loads();
    assert_eq!(d.app.background_loads_pending(), 0);
    d.frames(1);
    assert!(d.app.offers_recovery(), "the good copy is offered");
    assert_eq!(d.app.recoveries_waiting(), 0, "and only it");
    let status = d.app.status().to_string();
    assert!(status.starts_with("2 recovery copies cannot be read"), "{status}");
    assert!(status.contains(&fifo.display().to_string()) && status.contains("pipe"), "{status}");
    assert!(status.contains(&big.display().to_string()) && status.contains("64 MB"), "{status}");
    d.app.answer_recovery(false);
    d.frames(1);
    d.add_with_finder(Pos2::new(500.0, 400.0), "Stepped");
    assert_eq!((d.app.doc.graph.nodes.len(), d.app.doc.graph.groups.len()), (2, 1), "the saved group is in the finder");
}
