//! What an edit changed, in words, for the editor's status line after an undo or a redo
//! ("Undid: Noise #1: Octaves 6 → 8").

use super::{Graph, Node};
use crate::nodes::ParamValue;

/// A parameter value as the status line shows it (numbers without float noise).
fn short(v: &ParamValue) -> String {
    match v {
        // The shortest text that reads back as the same f32 (2.5, not 2.5000001), as the
        // editor's fields show it.
        ParamValue::Float(x) => x.to_string(),
        ParamValue::Int(i) => i.to_string(),
        ParamValue::Bool(b) => if *b { "on" } else { "off" }.to_string(),
        ParamValue::Seed(s) => s.to_string(),
        ParamValue::Text(t) => format!("'{t}'"),
        ParamValue::Choice(c) => c.clone(),
        _ => "a new value".to_string(),
    }
}

/// The nodes' count in words ("Noise #1", "3 nodes").
fn nodes(list: &[&Node]) -> String {
    match list {
        [one] => one.describe(),
        many => format!("{} nodes", many.len()),
    }
}

/// What changed from `before` to `after`, in a few words: nodes added or deleted, links made
/// or taken out, a parameter's old and new value, a rename, a bypass, nodes moved; "the graph
/// changed" for the rest (frames, groups, reroutes).
pub fn describe_change(before: &Graph, after: &Graph) -> String {
    let added: Vec<&Node> = after.nodes.iter().filter(|n| before.node(n.id).is_none()).collect();
    let removed: Vec<&Node> = before.nodes.iter().filter(|n| after.node(n.id).is_none()).collect();
    match (added.is_empty(), removed.is_empty()) {
        (false, true) => return format!("added {}", nodes(&added)),
        (true, false) => return format!("deleted {}", nodes(&removed)),
        (false, false) => return format!("added {} and deleted {}", nodes(&added), nodes(&removed)),
        (true, true) => {}
    }
    let made = after.links.iter().filter(|l| !before.links.contains(l)).count();
    let cut = before.links.iter().filter(|l| !after.links.contains(l)).count();
    if made + cut > 0 {
        let link = |k: usize| if k == 1 { "1 link".to_string() } else { format!("{k} links") };
        return match (made, cut) {
            (m, 0) => format!("connected {}", link(m)),
            (0, c) => format!("disconnected {}", link(c)),
            (m, c) => format!("rewired {} ({} made, {} taken out)", if m + c == 2 { "a link".to_string() } else { "links".to_string() }, m, c),
        };
    }
    let mut changed = Vec::new();
    for (b, a) in before.nodes.iter().filter_map(|b| Some((b, after.node(b.id)?))) {
        for def in a.kind.params() {
            let (old, new) = (b.params.get(def.name).cloned().unwrap_or(def.default_value()), a.params.get(def.name).cloned().unwrap_or(def.default_value()));
            if old != new {
                changed.push(format!("{}: {} {} → {}", a.describe(), def.label, short(&old), short(&new)));
            }
        }
        if a.label != b.label {
            changed.push(format!("renamed {} to '{}'", b.describe(), a.title()));
        }
        if a.bypass != b.bypass {
            changed.push(format!("{} {}", if a.bypass { "bypassed" } else { "stopped bypassing" }, a.describe()));
        }
        if a.collapsed != b.collapsed {
            changed.push(format!("{} {}", if a.collapsed { "collapsed" } else { "expanded" }, a.describe()));
        }
        if a.shows_thumbnail() != b.shows_thumbnail() {
            changed.push(format!("{} the thumbnail of {}", if a.shows_thumbnail() { "showed" } else { "hid" }, a.describe()));
        }
    }
    match changed.len() {
        0 if before.layout != after.layout => "moved nodes".to_string(),
        0 => "the graph changed (frames, groups or reroutes)".to_string(),
        1 => changed.remove(0),
        k => format!("{} and {} more changes", changed.remove(0), k - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;

    #[test]
    fn edits_are_told_in_words() {
        let mut g = Graph::default();
        let noise = g.add_node(NodeKind::Noise, (0.0, 0.0));
        let planet = g.add_node(NodeKind::Planet, (300.0, 0.0));
        let mut h = g.clone();
        h.set_param(noise, "octaves", ParamValue::Int(3));
        let before = g.nodes[0].params.get("octaves").cloned().unwrap_or(NodeKind::Noise.param("octaves").expect("octaves").default_value());
        assert_eq!(describe_change(&g, &h), format!("Noise #1: Octaves {} → 3", short(&before)));
        let mut linked = g.clone();
        linked.link(noise, crate::nodes::FIELD_OUT, planet, crate::nodes::output::planet::ELEVATION).expect("link");
        assert_eq!(describe_change(&g, &linked), "connected 1 link");
        assert_eq!(describe_change(&linked, &g), "disconnected 1 link");
        let mut more = g.clone();
        more.add_node(NodeKind::Blur, (0.0, 200.0));
        assert_eq!(describe_change(&g, &more), "added Blur #3");
        assert_eq!(describe_change(&more, &g), "deleted Blur #3");
        let mut thumb = g.clone();
        thumb.nodes[0].thumbnail = Some(false);
        assert_eq!(describe_change(&g, &thumb), "hid the thumbnail of Noise #1");
        let mut moved = g.clone();
        moved.layout.insert(noise, (40.0, 0.0));
        assert_eq!(describe_change(&g, &moved), "moved nodes");
        let mut f = g.clone();
        f.set_param(noise, "frequency", ParamValue::Float(2.5));
        assert!(describe_change(&g, &f).ends_with("→ 2.5"), "{}", describe_change(&g, &f));
    }
}
