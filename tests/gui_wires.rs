//! Wires say no before they are let go (issue 49): dragged over a port that would refuse it
//! (another type, or a loop), the wire turns red and the reason shows at the pointer; let go
//! there, nothing is connected and the status line gives the same reason. A loop through a
//! closed group names the group, not the nodes inside it.

#[path = "common/driver.rs"]
mod driver;

use driver::{chain, Driver};
use egui::PointerButton;

/// Presses on `from`, moves to `to` and reports what the editor says there before the button
/// is let go; then lets go.
fn drag_and_read(d: &mut Driver, from: egui::Pos2, to: egui::Pos2) -> Option<String> {
    d.move_to(from);
    d.button(PointerButton::Primary, true);
    for k in 1..=6 {
        d.move_to(from + (to - from) * (k as f32 / 6.0));
    }
    d.frames(1);
    let said = d.app.canvas.editor.drag_refusal.clone();
    d.button(PointerButton::Primary, false);
    d.frames(2);
    said
}

#[test]
fn a_refused_wire_says_why_before_it_is_let_go() {
    let (g, [_, abs, invert, planet, ramp]) = chain();
    let mut d = Driver::with(g);
    d.wait_for_evaluation();
    let before = d.app.doc.graph.clone();

    // Invert's output over Abs's input: a loop, refused while still held.
    let said = {
        let (a, b) = (d.ports_of(invert, false)[0], d.ports_of(abs, true)[0]);
        drag_and_read(&mut d, a, b)
    }
    .expect("a refusal before release");
    assert!(said.contains("would close a loop") && said.contains("Abs #2") && said.contains("Invert #3"), "{said}");
    assert_eq!(d.app.doc.graph.links, before.links, "no link was made");
    assert_eq!(d.app.status(), format!("Not connected: {said}"), "the status line gives the reason shown at the pointer");

    // The colour ramp's output over Invert's field input: types differ.
    let said = {
        let (a, b) = (d.ports_of(ramp, false)[0], d.ports_of(invert, true)[0]);
        drag_and_read(&mut d, a, b)
    }
    .expect("a refusal before release");
    assert!(said.contains("gives a colour") && said.contains("takes a field"), "{said}");
    assert_eq!(d.app.doc.graph.links, before.links);

    // A wire that fits says nothing and is made: Abs's output into the Planet's elevation
    // (it replaces Invert's wire there).
    let said = {
        let (a, b) = (d.ports_of(abs, false)[0], d.ports_of(planet, true)[0]);
        drag_and_read(&mut d, a, b)
    };
    assert_eq!(said, None);
    assert!(d.app.doc.graph.links.iter().any(|l| l.from == abs && l.to == planet), "{:?}", d.app.doc.graph.links);
    assert_eq!(d.app.canvas.editor.drag_refusal, None, "nothing is said once no wire is dragged");
}

#[test]
fn a_loop_through_a_closed_group_names_the_group() {
    let (mut g, [_, abs, invert, _, _]) = chain();
    let group = g.make_group(&[abs], "Shaping").expect("group");
    let mut d = Driver::with(g);
    d.wait_for_evaluation();
    let said = {
        let (a, b) = (d.ports_of(invert, false)[0], d.ports_of(group, true)[0]);
        drag_and_read(&mut d, a, b)
    }
    .expect("a refusal before release");
    assert!(said.contains("group 'Shaping'") && said.contains("Invert #3"), "{said}");
    assert!(!said.contains("Abs"), "the node inside the closed group is not named: {said}");
}
