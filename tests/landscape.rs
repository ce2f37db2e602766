//! The landscape evolution on the default planet: Hack's law on its river network, and the
//! preview at 128 against the build at 512 (elevation and the largest basins).

mod common;
use common::correlation;

use planetgraph_core::erosion::landscape::analysis::{hack_exponent, upstream_first};
use planetgraph_core::erosion::landscape::grid::NONE;
use planetgraph_core::erosion::landscape::{evolve, Landscape, LandscapeInputs};
use planetgraph_core::eval::{Evaluator, Progress};
use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::io::{load_graph, Strictness};
use planetgraph_core::nodes::erosion::landscape::LandscapeEvolutionSettings;
use planetgraph_core::nodes::NodeKind;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize};

fn default_graph() -> Graph {
    load_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("graphs/default.ron"), Strictness::Complete).expect("default.ron")
}

/// Evaluates the graph at `n` and reruns its Landscape evolution node from the same inputs,
/// keeping the receivers the node's outputs leave out.
fn landscape(g: &Graph, n: usize) -> Landscape {
    let node = g.first_of(NodeKind::LandscapeEvolution).expect("landscape node");
    let r = Evaluator::new().evaluate(g, n, &AtomicBool::new(false), &Progress::default());
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let input = |port: &str| -> Option<std::sync::Arc<planetgraph_core::planet::Field>> {
        let link = g.links.iter().find(|l| l.to == node.id && l.input == port)?;
        let k = g.node(link.from)?.kind.meta().outputs.iter().position(|p| p.name == link.output)?;
        r.output(link.from, k)?.as_field().cloned()
    };
    let settings = node.settings::<LandscapeEvolutionSettings>().expect("settings").simulation(&planetgraph_core::eval::planet_of(g).expect("planet settings"));
    let (elevation, uplift, precipitation, erodibility) = (input("elevation").expect("elevation"), input("uplift"), input("precipitation"), input("erodibility"));
    let inputs = LandscapeInputs { elevation: &elevation, uplift: uplift.as_deref(), precipitation: precipitation.as_deref(), erodibility: erodibility.as_deref() };
    let l = evolve(inputs, &settings, &AtomicUsize::new(0), &AtomicBool::new(false)).expect("runs");
    // The rerun is the node's own result.
    let id: NodeId = node.id;
    assert_eq!(r.field(id).expect("node output").data(), l.elevation.data());
    l
}

#[test]
fn hacks_law_holds_on_the_default_planet() {
    let l = landscape(&default_graph(), 256);
    // Basins from 10 000 km² (about 13 cells at 256) up to the continental rivers.
    let h = hack_exponent(&l.receiver, &l.receiver_m, l.area_km2.data(), 1e4, 1e7).expect("rivers");
    eprintln!("Hack's exponent of the default planet at 256: {h:.3}");
    assert!((0.5..=0.65).contains(&h), "Hack's exponent {h}, Earth's rivers 0.5..0.65");
}

/// The mouth (last land cell) each land cell drains to, or NONE at sea.
fn basins(l: &Landscape) -> Vec<u32> {
    let mut mouth = vec![NONE; l.receiver.len()];
    let order = upstream_first(&l.receiver);
    for &c in order.iter().rev() {
        if l.height_m[c] < 0.0 {
            continue;
        }
        let r = l.receiver[c];
        mouth[c] = if r == NONE || l.height_m[r as usize] < 0.0 { c as u32 } else { mouth[r as usize] };
    }
    mouth
}

#[test]
fn the_preview_at_128_shows_the_build_at_512() {
    let g = default_graph();
    let (preview, build) = (landscape(&g, 128), landscape(&g, 512));
    let c = correlation(preview.elevation.data(), build.elevation.resample(128).data());
    eprintln!("elevation correlation of the 128 preview with the 512 build: {c:.4}");
    assert!(c >= 0.95, "correlation {c}");
    // The ten largest basins of the preview: each preview cell's basin at 512 is the most
    // common basin among its 4 x 4 build cells; each basin keeps at least a quarter of its
    // area in one build basin, and together at least 70 %.
    let (pb, bb) = (basins(&preview), basins(&build));
    let mut sizes: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
    for &m in pb.iter().filter(|&&m| m != NONE) {
        *sizes.entry(m).or_default() += 1;
    }
    let mut largest: Vec<(usize, u32)> = sizes.iter().map(|(&m, &s)| (s, m)).collect();
    largest.sort_by(|a, b| b.cmp(a));
    let (n, fine) = (128usize, 512usize);
    let build_basin_of = |c: usize| {
        let (face, rem) = (c / (n * n), c % (n * n));
        let (i, j) = (rem % n, rem / n);
        let mut counts: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
        for dj in 0..4 {
            for di in 0..4 {
                let f = face * fine * fine + (j * 4 + dj) * fine + i * 4 + di;
                *counts.entry(bb[f]).or_default() += 1;
            }
        }
        counts.into_iter().max_by_key(|&(m, k)| (k, std::cmp::Reverse(m))).map_or(NONE, |(m, _)| m)
    };
    let (mut matched, mut total) = (0usize, 0usize);
    for &(size, mouth) in largest.iter().take(10) {
        let mut hits: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
        for c in (0..pb.len()).filter(|&c| pb[c] == mouth) {
            *hits.entry(build_basin_of(c)).or_default() += 1;
        }
        let best = hits.iter().filter(|(&m, _)| m != NONE).map(|(_, &k)| k).max().unwrap_or(0);
        let share = best as f64 / size as f64;
        let d = planetgraph_core::planet::Cell::from_index(mouth as usize, n).direction(n);
        eprintln!("preview basin of {size} cells (mouth at lat {:.1}, lon {:.1}): {:.0} % drains to one build basin", d.y.asin().to_degrees(), d.x.atan2(d.z).to_degrees(), share * 100.0);
        // On low coastal plains the divides between small basins move with the resolution
        // (one basin of 400 cells near lat -24, lon -70 keeps 30 %); most of the preview's
        // area drains as the build's does.
        assert!(share >= 0.25, "a preview basin of {size} cells spreads over the build's basins ({share:.2} in the largest)");
        (matched, total) = (matched + best, total + size);
    }
    let overall = matched as f64 / total as f64;
    eprintln!("the ten largest preview basins: {:.0} % of their cells drain to their build basin", overall * 100.0);
    assert!(overall >= 0.7, "the preview's basins drain elsewhere in the build: {overall:.2}");
}
