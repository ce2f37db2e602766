//! Close-ups with real detail (issue 25, item 3, for `planetgraph render`): over the default
//! planet's highest range at 1.02 planet radii, the render with the close-up tile has at least
//! four times the high-frequency energy of the same view without it.
//!
//! High-frequency energy: the mean square of the discrete Laplacian (4 p - the four
//! neighbours) of the picture's grey levels, which weighs each spatial frequency by the fourth
//! power of its wave number, so a blur scores low and fine relief high.

#[path = "common/needs.rs"]
mod needs;

use planetgraph_cli::build::evaluate_planet;
use planetgraph_core::eval::Progress;
use planetgraph_core::planet::Grid;
use planetgraph_examples::default_graph;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;

fn laplacian_energy(png: &Path) -> f64 {
    let img = image::open(png).expect("the render").to_luma8();
    let (w, h) = img.dimensions();
    let p = |x: u32, y: u32| f64::from(img.get_pixel(x, y)[0]);
    let mut sum = 0.0;
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let l = 4.0 * p(x, y) - p(x - 1, y) - p(x + 1, y) - p(x, y - 1) - p(x, y + 1);
            sum += l * l;
        }
    }
    sum / f64::from((w - 2) * (h - 2))
}

#[test]
fn a_close_up_over_a_range_has_four_times_the_fine_detail() {
    if needs::skip_without_adapter("a_close_up_over_a_range_has_four_times_the_fine_detail") {
        return;
    }
    // The highest ground of the default planet, at the render's resolution.
    let g = default_graph().expect("default graph");
    let n = 128;
    let b = evaluate_planet(&g, Path::new("graphs/default.ron"), n, &AtomicBool::new(false), &Progress::default()).expect("evaluates");
    let top = b.field.data().iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(k, _)| k).expect("cells");
    let d = Grid::Whole(n).direction(top);
    let (yaw, pitch) = (d.x.atan2(d.z).to_degrees(), d.y.asin().to_degrees());
    let dir = tempfile::tempdir().expect("temp dir");
    let render = |detail: &str| {
        let out = dir.path().join(format!("{detail}.png"));
        let view = [format!("{yaw}"), format!("{pitch}")];
        let sun = [format!("{}", yaw - 35.0), format!("{}", (pitch + 25.0).min(89.0))];
        let res = n.to_string();
        let args = [
            "render",
            "graphs/default.ron",
            "--out",
            out.to_str().expect("utf-8"),
            "--resolution",
            &res,
            "--distance",
            "1.02",
            "--relief",
            "2",
            "--width",
            "320",
            "--height",
            "240",
            "--detail",
            detail,
            "--view",
            &view[0],
            &view[1],
            "--sun",
            &sun[0],
            &sun[1],
        ];
        let o = Command::new(env!("CARGO_BIN_EXE_planetgraph")).current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().expect("runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (laplacian_energy(&out), String::from_utf8_lossy(&o.stdout).to_string())
    };
    let (fine, said) = render("auto");
    assert!(said.contains("of 512 cells: ") && said.contains(" at 16384"), "{said}");
    let (coarse, _) = render("off");
    eprintln!("high-frequency energy: {fine:.3} with the close-up, {coarse:.3} without ({:.1} times)", fine / coarse);
    assert!(fine >= 4.0 * coarse, "{fine} against {coarse}");
}

/// The default graph evaluated for `request` (64 cells per face edge for the whole-planet
/// nodes of a region), without errors.
fn evaluate(g: &planetgraph_core::graph::Graph, request: &planetgraph_core::eval::request::Request) -> planetgraph_core::eval::EvalResult {
    let res = planetgraph_core::eval::Evaluator::new().run(&planetgraph_core::eval::compile(g), request, &AtomicBool::new(false), &Progress::default());
    assert!(res.errors.is_empty(), "{:?}", res.errors);
    res
}

/// Output `port` of node `id` in `res`, a field.
fn field_of(res: &planetgraph_core::eval::EvalResult, id: planetgraph_core::graph::NodeId, port: usize) -> planetgraph_core::planet::Field {
    res.output(id, port).and_then(|v| v.as_field()).expect("a field").as_ref().clone()
}

/// The node feeding the elevation input of `id`.
fn elevation_into(g: &planetgraph_core::graph::Graph, id: planetgraph_core::graph::NodeId) -> planetgraph_core::graph::NodeId {
    g.links.iter().find(|l| l.to == id && l.input == "elevation").expect("an elevation input").from
}

/// A tile of 64 cells at `level` in cell `c` of a whole-planet field at 64 (its corner).
fn tile_in(c: usize, level: usize) -> planetgraph_core::planet::tile::Tile {
    let (cell, k) = (planetgraph_core::planet::Cell::from_index(c, 64), level / 64);
    planetgraph_core::planet::tile::Tile::new(cell.face, level, (cell.i * k).min(level - 64), (cell.j * k).min(level - 64), 64).expect("tile")
}

/// The Ice sheet needs the whole planet, so a close-up tile once got its whole-planet run's
/// output sampled smoothly: every gully and river valley of the nodes above it vanished from
/// close-ups. On a tile of the default graph over ice-free land, the Planet's elevation is the
/// Erosion filter's on the tile, cell for cell; over the ice, never below the bed the ice's
/// weight lowered, which lies below the Erosion filter's.
#[test]
fn close_ups_keep_the_gullies_under_the_ice_sheet_node() {
    use planetgraph_core::eval::request::Request;
    use planetgraph_core::nodes::NodeKind;
    use planetgraph_core::planet::tile::Tile;
    use planetgraph_core::planet::Face;
    let g = default_graph().expect("default graph");
    let ice = g.first_of(NodeKind::IceSheet).expect("an Ice sheet").id;
    let bed = elevation_into(&g, ice);
    // A tile of 64 cells at level 4096 in the middle of the front face, and one at the
    // thickest ice of a whole-planet run at 64, each with a whole-planet run at 64.
    let thickness = field_of(&evaluate(&g, &Request::whole(64)), ice, 1);
    let thickest = thickness.data().iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(c, _)| c).expect("cells");
    for (tile, polar) in [(Tile::new(Face::Front, 4096, 2016, 2016, 64).expect("tile"), false), (tile_in(thickest, 4096), true)] {
        let res = evaluate(&g, &Request::region(Grid::Tile(tile), 64));
        let (surface, bed_h, thickness, lowered) = (field_of(&res, ice, 0), field_of(&res, bed, 0), field_of(&res, ice, 1), field_of(&res, ice, 3));
        let (mut bare, mut covered) = (0, 0);
        for (((s, b), t), l) in surface.data().iter().zip(bed_h.data()).zip(thickness.data()).zip(lowered.data()) {
            assert!(l <= b, "the ice's weight only lowers the bed");
            if *t == 0.0 {
                assert_eq!(s, l, "bare ground is the (lowered) bed on the tile");
                bare += 1;
            } else {
                assert!(s >= l, "the ice stands on its bed");
                covered += 1;
            }
            if !polar {
                assert_eq!(l, b, "no ice, no sinking: the bed on the tile, to the bit");
            }
        }
        if polar {
            assert!(covered > 0, "the tile at the thickest ice is under ice");
        } else {
            assert_eq!(covered, 0, "no ice in the tropics");
            assert!(bare > 0);
        }
    }
}

/// On a close-up tile across a coast the Erosion filter keeps the coastline of its input (the
/// Landscape evolution's refined elevation on the tile), cell for cell: its gullies neither
/// flood land nor raise the sea floor, so tiles of different levels, which resolve different
/// octaves, share one coastline.
#[test]
fn the_erosion_filter_keeps_the_coastline_of_a_close_up() {
    use planetgraph_core::eval::planet_of;
    use planetgraph_core::eval::request::Request;
    use planetgraph_core::nodes::NodeKind;
    let g = default_graph().expect("default graph");
    let sea = planet_of(&g).expect("a Planet node").sea_level;
    let filter = g.first_of(NodeKind::ErosionFilter).expect("an Erosion filter").id;
    let input = elevation_into(&g, filter);
    // A coast of the whole-planet run at 64: a land cell with sea to its right.
    let h = field_of(&evaluate(&g, &Request::whole(64)), input, 0);
    let h = h.data();
    let coast = (0..h.len() - 1).find(|&c| c % 64 < 63 && h[c] > sea && h[c + 1] < sea).expect("a coast");
    for level in [2048, 4096] {
        let res = evaluate(&g, &Request::region(Grid::Tile(tile_in(coast, level)), 64));
        let (before, after) = (field_of(&res, input, 0), field_of(&res, filter, 0));
        let (mut land, mut water) = (0, 0);
        for (b, a) in before.data().iter().zip(after.data()) {
            assert_eq!(*b >= sea, *a >= sea, "level {level}: {b} became {a}");
            if *b >= sea {
                land += 1;
            } else {
                water += 1;
            }
        }
        assert!(land > 0 && water > 0, "level {level}: the tile crosses the coast ({land} land, {water} sea)");
    }
}
