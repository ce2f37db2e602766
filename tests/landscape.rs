//! The landscape evolution on the default planet: Hack's law on its river network, the rivers
//! that water their valley floors through dry land, and the
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

/// The first node of `kind` in `g` and the field of its output `port` in `r`.
fn output_of<'a>(g: &Graph, r: &'a planetgraph_core::eval::EvalResult, kind: NodeKind, port: &str) -> &'a planetgraph_core::planet::Field {
    let node = g.first_of(kind).unwrap_or_else(|| panic!("no {kind:?} node"));
    let k = kind.meta().outputs.iter().position(|p| p.name == port).unwrap_or_else(|| panic!("{kind:?} has no output {port}"));
    r.output(node.id, k).and_then(|v| v.as_field()).unwrap_or_else(|| panic!("{kind:?}.{port} was not computed"))
}

#[test]
fn rivers_water_their_valley_floors_in_dry_land() {
    // The default graph's biomes read the rain, raised towards 1000 mm/yr times the share of
    // the cell that is a river's valley floor (1 - hillslopes) where the river carries at least
    // 300 m³/s of the rain that falls upstream (widened by a Blur): green ribbons through the deserts (the Nile,
    // the Indus), not wadis. Here: dry land under rivers on at least 0.3 of the cell.
    let g = default_graph();
    let n = 512;
    let r = Evaluator::new().evaluate(&g, n, &AtomicBool::new(false), &Progress::default());
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let rain = output_of(&g, &r, NodeKind::Precipitation, "precipitation");
    let discharge = output_of(&g, &r, NodeKind::DrainageRivers, "discharge");
    let hillslopes = output_of(&g, &r, NodeKind::LandscapeEvolution, "hillslopes");
    let biome = output_of(&g, &r, NodeKind::Biomes, "biome");
    let metres = output_of(&g, &r, NodeKind::ToMetres, "out");
    let desert = planetgraph_core::nodes::texture::biomes::Biome::Desert as usize as f32;
    let (mut floors, mut floor_desert, mut dry, mut dry_desert) = (0usize, 0usize, 0usize, 0usize);
    for c in 0..6 * n * n {
        if metres.data()[c] <= 0.0 || rain.data()[c] >= 250.0 {
            continue;
        }
        let is_desert = usize::from(biome.data()[c] == desert);
        if hillslopes.data()[c] <= 0.7 && discharge.data()[c] >= 300.0 {
            (floors, floor_desert) = (floors + 1, floor_desert + is_desert);
        } else {
            (dry, dry_desert) = (dry + 1, dry_desert + is_desert);
        }
    }
    let (on_floors, elsewhere) = (floor_desert as f64 / floors.max(1) as f64, dry_desert as f64 / dry.max(1) as f64);
    eprintln!("dry land (under 250 mm/yr) at {n}: {floors} cells on watered valley floors, {on_floors:.2} of them desert; {dry} cells elsewhere, {elsewhere:.2} desert");
    assert!(floors >= 20, "only {floors} watered valley floors in dry land");
    assert!(on_floors <= 0.2 && elsewhere >= 0.6, "desert on watered floors {on_floors:.2}, elsewhere {elsewhere:.2}");
}
