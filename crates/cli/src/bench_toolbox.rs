//! The toolbox's figures for `planetgraph bench` (issue 15): drainage, diamond-square,
//! L-system rivers and expressions on fBm terrain.

use super::bench::time_ms;
use planetgraph_core::nodes::Settings;
use planetgraph_core::planet::fbm::{fbm_field, noise_radius, FastFbm};
use planetgraph_core::planet::Field;
use std::sync::atomic::AtomicBool;

/// Rough terrain: fBm with about 35 % land (sea level 0).
fn terrain(n: usize) -> Field {
    fbm_field(&FastFbm::new(7, 8, 0.55, 2.0), planetgraph_core::planet::Grid::Whole(n), noise_radius(4.0), 1.0).map(|v| v - 0.15)
}

/// Prints the toolbox figures that `wants` names.
pub fn run(quick: bool, wants: &dyn Fn(&str) -> bool, print: &dyn Fn(&str, f64, &str), median: &dyn Fn(Vec<f64>) -> f64) {
    let reps = if quick { 1 } else { 5 };
    let cancel = AtomicBool::new(false);
    if wants("drainage_n1024_ms") {
        let h = terrain(1024);
        let s = planetgraph_core::nodes::erosion::drainage::DrainageRiversSettings::from_params(&planetgraph_core::nodes::NodeKind::DrainageRivers.default_params());
        if let Ok(s) = s {
            // The first run also builds the neighbour table of the resolution (cached).
            let times: Vec<f64> = (0..reps + 1).map(|_| time_ms(|| drop(planetgraph_core::erosion::drainage::drainage(&h, None, &s.drainage(&planetgraph_core::nodes::output::planet::EARTH), &cancel)))).skip(1).collect();
            print("drainage_n1024_ms", median(times), "ms");
        }
    }
    if wants("diamond_square_n1024_ms") {
        let s = planetgraph_core::nodes::sources::diamond_square::DiamondSquareSettings::from_params(&planetgraph_core::nodes::NodeKind::DiamondSquare.default_params());
        if let Ok(s) = s {
            let times: Vec<f64> = (0..reps).map(|_| time_ms(|| drop(planetgraph_core::nodes::sources::diamond_square::diamond_square(&s, 1024)))).collect();
            print("diamond_square_n1024_ms", median(times), "ms");
        }
    }
    if wants("expression_mcells_per_s") {
        // A simple formula over two inputs at 6 x 1024² cells, all threads.
        let n = 1024;
        let a = terrain(n);
        let b = a.map(|v| v * 0.5);
        let mut params = planetgraph_core::nodes::NodeKind::Expression.default_params();
        params.insert("formula".into(), planetgraph_core::nodes::ParamValue::Text("a * 2 + b - 0.5".into()));
        let inputs = [Some(a.into()), Some(b.into()), None, None];
        let ctx = planetgraph_core::nodes::OpContext { tile: None, n, cancel: &cancel, steps: None, planet: None, files: &[] };
        let times: Vec<f64> = (0..reps.max(3)).map(|_| time_ms(|| drop(planetgraph_core::nodes::NodeKind::Expression.run(&params, &inputs, &ctx)))).collect();
        print("expression_mcells_per_s", (6 * n * n) as f64 / (median(times) * 1e3), "Mcells/s");
    }
    if wants("erosion_filter_mcells_per_s") {
        // The Erosion filter node's defaults on a close-up tile of 1024 x 1024 cells at level
        // 16384 (611 m cells on Earth: four of its eight octaves resolved) over fBm relief.
        let tile = planetgraph_core::planet::Tile::new(planetgraph_core::planet::Face::Front, 16384, 8192, 8192, 1024);
        if let Ok(tile) = tile {
            let input = fbm_field(&FastFbm::new(7, 8, 0.55, 2.0), planetgraph_core::planet::Grid::Tile(tile.with_halo(1)), noise_radius(4.0), 1.0);
            let params = planetgraph_core::nodes::NodeKind::ErosionFilter.default_params();
            let inputs = [Some(input.into()), None, None, None];
            let planet = planetgraph_core::nodes::output::planet::EARTH;
            let ctx = planetgraph_core::nodes::OpContext { tile: Some(tile), n: tile.n, cancel: &cancel, steps: None, planet: Some(&planet), files: &[] };
            let times: Vec<f64> = (0..reps.max(3)).map(|_| time_ms(|| drop(planetgraph_core::nodes::NodeKind::ErosionFilter.run(&params, &inputs, &ctx)))).collect();
            print("erosion_filter_mcells_per_s", tile.cells() as f64 / (median(times) * 1e3), "Mcells/s");
        }
    }
    if wants("check_chain_300k_s") {
        // What `check` does with a graph: validate and compile a chain of 300 000 nodes (a
        // Noise, then Abs after Abs, into a Planet), which must stay linear in nodes and links.
        let g = chain(300_000);
        let times: Vec<f64> = (0..reps.min(3)).map(|_| time_ms(|| drop(planetgraph_core::eval::compile(&g)))).collect();
        print("check_chain_300k_s", median(times) / 1e3, "s");
    }
    if wants("lsystem_rivers_n512_ms") {
        // The node's defaults on the fBm terrain at 6 x 512² cells.
        let h = terrain(512);
        let s = planetgraph_core::nodes::erosion::lsystem_rivers::LSystemRiversSettings::from_params(&planetgraph_core::nodes::NodeKind::LSystemRivers.default_params());
        if let Ok(s) = s {
            let times: Vec<f64> = (0..reps).map(|_| time_ms(|| drop(planetgraph_core::erosion::lsystem::lsystem_rivers(&h, &s.lsystem(&planetgraph_core::nodes::output::planet::EARTH), &cancel)))).collect();
            print("lsystem_rivers_n512_ms", median(times), "ms");
        }
    }
}

/// A chain of `len` nodes: a Noise, Abs after Abs, into a Planet.
fn chain(len: usize) -> planetgraph_core::graph::Graph {
    use planetgraph_core::graph::{Graph, Link, Node, NodeId};
    use planetgraph_core::nodes::NodeKind;
    let mut g = Graph::default();
    g.nodes.push(Node::new(NodeId(1), NodeKind::Noise));
    for k in 2..len as u32 {
        g.nodes.push(Node::new(NodeId(k), NodeKind::Abs));
        g.links.push(Link { from: NodeId(k - 1), output: "out".into(), to: NodeId(k), input: "in".into() });
    }
    let last = len as u32;
    g.nodes.push(Node::new(NodeId(last), NodeKind::Planet));
    g.links.push(Link { from: NodeId(last - 1), output: "out".into(), to: NodeId(last), input: "elevation".into() });
    g
}
