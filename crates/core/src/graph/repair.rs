//! Opening a graph with errors for repair: what the editor cannot hold (a link to a node or
//! port that does not exist, a link between ports of different types, a second link into one
//! input, an unknown parameter, a parameter of the wrong type) is taken out and reported; what
//! it can hold (cycles, values out of range, unconnected inputs) stays and is shown on the
//! nodes. Duplicate ids and broken groups cannot be repaired this way.

use super::model::Graph;
use super::validate::validate;
use std::collections::BTreeSet;

/// Takes out of `g` what the editor cannot hold and returns one sentence per change, each
/// naming its node. A valid graph is left as it is (and gives no sentences).
pub fn repair(g: &mut Graph) -> Vec<String> {
    let mut notes = Vec::new();
    let mut fed = BTreeSet::new();
    let before = std::mem::take(&mut g.links);
    for l in before {
        let label = |id| g.node(id).map_or_else(|| format!("node {id}"), |n| n.describe());
        let (Some(from), Some(to)) = (g.node(l.from), g.node(l.to)) else {
            notes.push(format!("removed the link {}.{} -> {}.{}: {} does not exist", l.from, l.output, l.to, l.input, if g.node(l.from).is_none() { label(l.from) } else { label(l.to) }));
            continue;
        };
        let out = from.kind.meta().outputs.iter().find(|p| p.name == l.output);
        let inp = to.kind.meta().inputs.iter().find(|p| p.name == l.input);
        let why = match (out, inp) {
            (None, _) => Some(format!("{} has no output '{}'", from.describe(), l.output)),
            (_, None) => Some(format!("{} has no input '{}'", to.describe(), l.input)),
            (Some(o), Some(i)) if o.ty != i.ty => Some(format!("{}.{} gives a {} but {}.{} takes a {}", from.describe(), o.name, o.ty.name(), to.describe(), i.name, i.ty.name())),
            _ if fed.contains(&(l.to, l.input.clone())) => Some(format!("{} input '{}' already has a link; an input takes one", to.describe(), l.input)),
            _ => None,
        };
        match why {
            Some(why) => notes.push(format!("removed the link {}.{} -> {}.{}: {why}", l.from, l.output, l.to, l.input)),
            None => {
                fed.insert((l.to, l.input.clone()));
                g.links.push(l);
            }
        }
    }
    for n in &mut g.nodes {
        let label = n.describe();
        let kind = n.kind;
        n.params.retain(|name, value| match kind.param(name) {
            None => {
                notes.push(format!("{label}: removed the unknown parameter '{name}'"));
                false
            }
            Some(def) if def.default_value().type_name() != value.type_name() => {
                notes.push(format!("{label}: parameter '{name}' had a {} where a {} belongs; it takes its default", value.type_name(), def.default_value().type_name()));
                false
            }
            Some(_) => true,
        });
    }
    notes
}

/// Problems that stop a graph from being opened even for repair: two nodes with one id, or a
/// group that does not fit its nodes. Each names its node or group.
pub fn unrepairable(g: &Graph) -> Vec<super::GraphError> {
    validate(g).into_iter().filter(|e| e.node.is_none() || e.message.contains("is used by more than one node")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Link, NodeId};
    use crate::nodes::{NodeKind, ParamValue};

    #[test]
    fn what_the_editor_cannot_hold_is_removed_and_named_and_the_rest_stays() {
        let mut g = Graph::default();
        let a = g.add_node(NodeKind::Noise, (0.0, 0.0));
        let b = g.add_node(NodeKind::Abs, (0.0, 0.0));
        let c = g.add_node(NodeKind::Invert, (0.0, 0.0));
        let col = g.add_node(NodeKind::Biomes, (0.0, 0.0));
        g.link(b, crate::nodes::FIELD_OUT, c, crate::nodes::FIELD_IN).expect("link");
        g.link(c, crate::nodes::FIELD_OUT, b, crate::nodes::FIELD_IN).expect("link"); // a cycle: stays
        g.links.push(Link { from: NodeId(77), output: "out".into(), to: c, input: "in".into() });
        g.links.push(Link { from: a, output: "nope".into(), to: b, input: "in".into() });
        g.links.push(Link { from: col, output: "colour".into(), to: b, input: "in".into() });
        g.set_param(a, "bogus", ParamValue::Float(1.0));
        g.set_param(a, "octaves", ParamValue::Float(1.0));
        g.set_param(a, "frequency", ParamValue::Float(-5.0)); // out of range: stays, shown on the node
        let notes = repair(&mut g);
        assert_eq!(notes.len(), 5, "{notes:#?}");
        assert!(notes.iter().any(|n| n.contains("node #77 does not exist")), "{notes:#?}");
        assert!(notes.iter().any(|n| n.contains("no output 'nope'")));
        assert!(notes.iter().any(|n| n.contains("unknown parameter 'bogus'")));
        assert!(notes.iter().any(|n| n.contains("'octaves'") && n.contains("default")));
        assert_eq!(g.links.len(), 2, "the cycle's two links stay");
        assert!(unrepairable(&g).is_empty());
        let left: Vec<String> = validate(&g).iter().map(|e| e.message.clone()).collect();
        assert!(left.iter().any(|m| m.contains("cycle")) && left.iter().any(|m| m.contains("frequency")), "{left:#?}");
        // A valid graph is untouched.
        let mut ok = Graph::default();
        let n = ok.add_node(NodeKind::Noise, (0.0, 0.0));
        let p = ok.add_node(NodeKind::Planet, (0.0, 0.0));
        ok.link(n, crate::nodes::FIELD_OUT, p, crate::nodes::output::planet::ELEVATION).expect("link");
        let copy = ok.clone();
        assert!(repair(&mut ok).is_empty());
        assert_eq!(ok, copy);
        // Two nodes with one id cannot be opened.
        ok.nodes.push(ok.nodes[0].clone());
        assert!(!unrepairable(&ok).is_empty());
    }
}
