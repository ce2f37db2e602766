//! Property tests over generated input (proptest, a bounded number of cases each): the graph
//! loader on damaged files, the formula parser on random text, and validation and evaluation of
//! generated graphs. Nothing panics, every error is located, and every field is finite.

use planetgraph_core::eval::executor::waiting_for;
use planetgraph_core::eval::program::compile_with;
use planetgraph_core::eval::{Evaluator, Progress, Request};
use planetgraph_core::graph::{validate, Graph, Link, Node, NodeId};
use planetgraph_core::io::{parse_graph, LoadError, Strictness};
use planetgraph_core::nodes::combine::formula::Formula;
use planetgraph_core::nodes::{NodeKind, ParamSpec, ParamValue, Value};
use proptest::prelude::*;
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn example() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("graphs").join("export_all.ron")).expect("example graph")
}

/// A damage done to a file's text.
#[derive(Debug, Clone)]
enum Damage {
    /// Cut `len` bytes at a fraction of the text.
    Cut(f64, usize),
    /// Insert text at a fraction of the text.
    Insert(f64, String),
    /// Replace the n-th number with another.
    Number(usize, String),
    /// Keep only a prefix (a truncated file).
    Truncate(f64),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (0.0..1.0, 1usize..40).prop_map(|(a, l)| Damage::Cut(a, l)),
        (0.0..1.0, "[(){}\\[\\]:,\" a-zA-Z0-9_.#-]{1,12}").prop_map(|(a, t)| Damage::Insert(a, t)),
        (0usize..400, prop_oneof![Just("-1".to_string()), Just("1e39".to_string()), Just("NaN".to_string()), Just("99999999999".to_string()), Just("0".to_string()), "-?[0-9]{1,6}(\\.[0-9]{1,3})?"]).prop_map(|(i, t)| Damage::Number(i, t)),
        (0.0..1.0).prop_map(Damage::Truncate),
    ]
}

/// The byte offset at fraction `a` of `text`, on a character boundary.
fn at(text: &str, a: f64) -> usize {
    let mut i = ((text.len() as f64) * a) as usize;
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, d: &Damage) -> String {
    match d {
        Damage::Cut(a, len) => {
            let i = at(text, *a);
            let mut j = (i + len).min(text.len());
            while !text.is_char_boundary(j) {
                j -= 1;
            }
            format!("{}{}", &text[..i], &text[j..])
        }
        Damage::Insert(a, t) => {
            let i = at(text, *a);
            format!("{}{t}{}", &text[..i], &text[i..])
        }
        Damage::Number(k, t) => {
            let spans: Vec<(usize, usize)> = {
                let b = text.as_bytes();
                let mut v = Vec::new();
                let mut i = 0;
                while i < b.len() {
                    if b[i].is_ascii_digit() {
                        let s = i;
                        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                            i += 1;
                        }
                        v.push((s, i));
                    } else {
                        i += 1;
                    }
                }
                v
            };
            match spans.get(k % spans.len().max(1)) {
                Some(&(s, e)) => format!("{}{t}{}", &text[..s], &text[e..]),
                None => text.to_string(),
            }
        }
        Damage::Truncate(a) => text[..at(text, *a)].to_string(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// A damaged graph file loads or is refused with a message that names the file, and a
    /// syntax error's line and column lie inside the text.
    #[test]
    fn damaged_graph_files_are_refused_with_located_errors(ds in prop::collection::vec(damage(), 1..4)) {
        let mut text = example();
        for d in &ds {
            text = apply(&text, d);
        }
        match parse_graph(&text, Path::new("damaged.ron"), Strictness::Complete) {
            Ok(g) => prop_assert!(validate(&g).is_empty()),
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.starts_with("damaged.ron"), "{}", msg);
                if let LoadError::Syntax { line, column, .. } = e {
                    let lines = text.lines().count().max(1);
                    prop_assert!(line >= 1 && line <= lines + 1, "line {} of {}", line, lines);
                    prop_assert!(column >= 1);
                }
            }
        }
    }

    /// Random formulas parse or fail at a column inside the text (plus one for "at the end").
    #[test]
    fn formulas_parse_or_fail_at_a_column(text in "([abcdxyz]|[0-9.]{1,4}|[-+*/^(),]|sin|cos|exp|sqrt|pow|min|max|clamp|noise|mix|abs|floor|smoothstep| ){0,24}") {
        match Formula::parse(&text) {
            Ok(_) => {}
            Err(e) => prop_assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{} in {:?}", e, text),
        }
    }
}

/// One generated node: a kind and, per declared parameter, which value to give it.
#[derive(Debug, Clone)]
struct GenNode {
    kind: usize,
    /// Per parameter: 0 default, 1 a random value inside the range, 2 one outside it.
    choices: Vec<(u8, f64)>,
}

/// A parameter value for `spec` by choice `c` with a random fraction `r` in 0..1.
fn value_for(spec: ParamSpec, default: ParamValue, c: u8, r: f64) -> ParamValue {
    match (spec, c) {
        (_, 0) => default,
        (ParamSpec::Float { min, max, .. }, 1) => ParamValue::Float(min + (max - min) * r as f32),
        (ParamSpec::Float { max, .. }, _) => ParamValue::Float(max * 2.0 + 1.0),
        (ParamSpec::Int { min, max, .. }, 1) => ParamValue::Int(min + ((max - min) as f64 * r) as i64),
        (ParamSpec::Int { max, .. }, _) => ParamValue::Int(max.saturating_add(1)),
        (ParamSpec::Seed { .. }, _) => ParamValue::Seed((r * u32::MAX as f64) as u32),
        (ParamSpec::Bool { .. }, _) => ParamValue::Bool(r > 0.5),
        (ParamSpec::Choice { options, .. }, 1) => ParamValue::Choice(options[((options.len() as f64 * r) as usize).min(options.len() - 1)].id.to_string()),
        (ParamSpec::Choice { .. }, _) => ParamValue::Choice("no_such_option".into()),
        _ => default,
    }
}

fn gen_node() -> impl Strategy<Value = GenNode> {
    let choice = prop_oneof![4 => Just(0u8), 4 => Just(1u8), 1 => Just(2u8)];
    (0..NodeKind::ALL.len(), prop::collection::vec((choice, 0.0..1.0f64), 24)).prop_map(|(kind, choices)| GenNode { kind, choices })
}

/// Kinds whose run at a tiny resolution still takes long (whole simulations): kept out of the
/// generated graphs so each case stays fast; their own tests cover them.
fn slow(kind: NodeKind) -> bool {
    matches!(kind, NodeKind::LandscapeEvolution | NodeKind::EarthRelief | NodeKind::HydraulicErosion | NodeKind::DropletErosion | NodeKind::LSystemRivers | NodeKind::Export)
}

/// Builds a graph from generated nodes after five fixed producers (a field, regions, plates, a
/// colour and a vector), linking each required input, and each optional one where `links`
/// says so, to an earlier node's output of its type (and, where `back` is set, one link
/// backwards: a possible cycle).
fn build(nodes: &[GenNode], links: &[(usize, bool)], back: Option<(usize, usize)>) -> Graph {
    let mut g = Graph::default();
    for kind in [NodeKind::Noise, NodeKind::Regions, NodeKind::TectonicPlates, NodeKind::ColourRamp, NodeKind::Gradient] {
        g.nodes.push(Node::new(NodeId(g.nodes.len() as u32 + 1), kind));
    }
    for gn in nodes {
        let kind = NodeKind::ALL[gn.kind];
        // Nodes that read files get no generated files: tests/import.rs covers them.
        let kind = if slow(kind) || kind.meta().reads_files { NodeKind::Noise } else { kind };
        let mut node = Node::new(NodeId(g.nodes.len() as u32 + 1), kind);
        for (def, &(c, r)) in kind.params().iter().zip(gn.choices.iter().cycle()) {
            node.params.insert(def.name.to_string(), value_for(def.spec, def.default_value(), c, r));
        }
        g.nodes.push(node);
    }
    let mut k = 0;
    for i in 0..g.nodes.len() {
        let inputs = g.nodes[i].kind.meta().inputs;
        for input in inputs {
            let (pick, link) = links[k % links.len()];
            k += 1;
            if !link && input.optional {
                continue;
            }
            let candidates: Vec<(NodeId, &'static str)> = g.nodes[..i].iter().flat_map(|n| n.kind.meta().outputs.iter().filter(|o| o.ty == input.ty).map(move |o| (n.id, o.name))).collect();
            if let Some(&(from, output)) = candidates.get(pick % candidates.len().max(1)) {
                g.links.push(Link { from, output: output.into(), to: g.nodes[i].id, input: input.name.into() });
            }
        }
    }
    if let Some((a, b)) = back {
        let (a, b) = (a % g.nodes.len(), b % g.nodes.len());
        let (from, to) = (&g.nodes[a.max(b)], &g.nodes[a.min(b)]);
        if let (Some(o), Some(inp)) = (from.kind.meta().outputs.first(), to.kind.meta().inputs.iter().find(|p| from.kind.meta().outputs.first().is_some_and(|o| o.ty == p.ty))) {
            let (from, to) = (from.id, to.id);
            g.links.retain(|l| !(l.to == to && l.input == inp.name));
            g.links.push(Link { from, output: o.name.into(), to, input: inp.name.into() });
        }
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Generated graphs: validation names an existing node (or the graph) in every error; a
    /// valid graph evaluates at 8 cells per face edge without a panic (an internal error) and
    /// with finite numbers in every field it produces.
    #[test]
    fn generated_graphs_validate_and_evaluate_to_finite_fields(
        nodes in prop::collection::vec(gen_node(), 1..6),
        links in prop::collection::vec((0usize..16, any::<bool>()), 1..24),
        back in prop::option::weighted(0.2, (0usize..8, 0usize..8)),
    ) {
        let g = build(&nodes, &links, back);
        let errors = validate(&g);

        for e in &errors {
            prop_assert!(e.node.is_none_or(|id| g.node(id).is_some()), "{}", e);
            prop_assert!(!e.message.is_empty());
        }
        if !errors.is_empty() {
            return Ok(());
        }
        let every: Vec<NodeId> = g.nodes.iter().map(|n| n.id).collect();
        let res = Evaluator::new().run(&compile_with(&g, &every), &Request::whole(8), &AtomicBool::new(false), &Progress::default());
        prop_assert!(!res.outputs.is_empty());

        for (id, msg) in &res.errors {
            prop_assert!(g.node(*id).is_some() && !msg.is_empty(), "{}: {}", id, msg);
            prop_assert!(!msg.contains("internal error"), "{}: {}", id, msg);
        }
        for (id, values) in &res.outputs {
            for v in values.iter() {
                if let Some(Value::Field(f)) = v {
                    prop_assert!(f.data().iter().all(|x| x.is_finite()), "{} produced a non-finite value", id);
                }
            }
        }
    }
}

/// A generated node with every parameter at its default or inside its range.
fn gen_node_in_range() -> impl Strategy<Value = GenNode> {
    let choice = prop_oneof![1 => Just(0u8), 3 => Just(1u8)];
    (0..NodeKind::ALL.len(), prop::collection::vec((choice, 0.0..1.0f64), 24)).prop_map(|(kind, choices)| GenNode { kind, choices })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// `check` is as strict as `build` for everything that does not depend on the resolution:
    /// a generated graph of in-range settings that validation passes evaluates without an error
    /// on any node (plates against the regions they grow over, an Export's options, a formula:
    /// each refused by validation, not only when run).
    #[test]
    fn what_check_passes_build_does_not_refuse(
        nodes in prop::collection::vec(gen_node_in_range(), 1..7),
        links in prop::collection::vec((0usize..16, any::<bool>()), 1..24),
    ) {
        let g = build(&nodes, &links, None);
        if !validate(&g).is_empty() {
            return Ok(());
        }
        let every: Vec<NodeId> = g.nodes.iter().map(|n| n.id).collect();
        let res = Evaluator::new().run(&compile_with(&g, &every), &Request::whole(8), &AtomicBool::new(false), &Progress::default());
        // An overflow to infinity depends on the values flowing in (a Power of a large field
        // then scaled by 100 leaves f32), not on any setting, so no check can foresee it; the
        // run reports it on the node where it happens, which is what is asked of it. The nodes
        // downstream of such a node wait for it, and say so: excused with it.
        let mut excused: Vec<NodeId> = res.errors.iter().filter(|(_, m)| m.contains("non-finite value")).map(|(id, _)| *id).collect();
        loop {
            let waiting: Vec<NodeId> = res.errors.iter().filter(|(id, m)| !excused.contains(id) && excused.iter().any(|&src| **m == waiting_for(src))).map(|(id, _)| *id).collect();
            if waiting.is_empty() {
                break;
            }
            excused.extend(waiting);
        }
        let refused: Vec<String> = res.errors.iter().filter(|(id, _)| !excused.contains(id)).map(|(id, m)| format!("{}: {m}", g.describe_node(*id))).collect();
        prop_assert!(refused.is_empty(), "validation passed, the run refused: {:?}", refused);
    }
}
