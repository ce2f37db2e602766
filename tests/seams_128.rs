//! No face edge at the preview's level (issue 49): every example built at 128 cells per face
//! edge, its Planet's elevation and albedo (luminance) jump across each of the 24 face-edge
//! lines by no more, relative to the steps beside them, than they do across lines inside the
//! faces. The measure is symmetric: the mean jump between the two cells that face each other
//! across a line, over the mean of the two steps that lead up to it on either side.

use planetgraph_core::eval::{compile, Evaluator, Progress, Request};
use planetgraph_core::nodes::output::planet::{ALBEDO, ELEVATION};
use planetgraph_core::nodes::NodeKind;
use planetgraph_core::planet::coords::{neighbour, Cell};
use std::sync::atomic::AtomicBool;

const N: usize = 128;

/// The jump ratio across the line `offset` cells in from side `side` of face `face` (offset
/// 0: the face edge, the line between the face and its neighbour).
fn line_ratio(v: &[f32], face: usize, side: usize, offset: usize) -> f64 {
    let n = N;
    let (mut jump, mut beside) = (0.0f64, 0.0f64);
    for t in 2..n - 2 {
        let (i, j, di, dj) = match side {
            0 => (offset, t, -1i64, 0i64),
            1 => (n - 1 - offset, t, 1, 0),
            2 => (t, offset, 0, -1),
            _ => (t, n - 1 - offset, 0, 1),
        };
        let c = Cell::from_index(face * n * n + j * n + i, n);
        let (Some(x), Some(inward)) = (neighbour(c, di, dj, n), neighbour(c, -di, -dj, n)) else { continue };
        // The cell beyond `x`, away from `c` (on `x`'s face, whichever way its grid runs).
        let from = c.direction(n);
        let Some(beyond) = [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)].iter().filter_map(|&(a, b)| neighbour(x, a, b, n)).max_by(|a, b| a.direction(n).distance(from).total_cmp(&b.direction(n).distance(from))) else { continue };
        let at = |c: Cell| f64::from(v[c.index(n)]);
        jump += (at(c) - at(x)).abs();
        beside += 0.5 * ((at(c) - at(inward)).abs() + (at(x) - at(beyond)).abs());
    }
    jump / beside.max(1e-12)
}

/// The worst jump ratio over the 24 face-edge lines, and over 24 x 6 lines inside the faces.
fn worst(v: &[f32]) -> (f64, f64) {
    let (mut seam, mut inside) = (0.0f64, 0.0f64);
    for face in 0..6 {
        for side in 0..4 {
            seam = seam.max(line_ratio(v, face, side, 0));
            for offset in [N / 8, N / 4, 3 * N / 8, N / 2 - 1, 5 * N / 8, 3 * N / 4] {
                inside = inside.max(line_ratio(v, face, side, offset));
            }
        }
    }
    (seam, inside)
}

#[test]
fn no_example_shows_a_face_edge_at_128() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("graphs");
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("graphs").flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "ron")).collect();
    files.sort();
    let mut problems = Vec::new();
    for f in files {
        let g = planetgraph_core::io::load_graph(&f, planetgraph_core::io::Strictness::Complete).expect("example");
        let Some(planet) = g.first_of(NodeKind::Planet).map(|p| p.id) else { continue };
        let res = Evaluator::new().run(&compile(&g), &Request::whole(N), &AtomicBool::new(false), &Progress::default());
        assert!(res.errors.is_empty(), "{}: {:?}", f.display(), res.errors);
        let mut layers: Vec<(&str, Vec<f32>)> = Vec::new();
        if let Some(h) = res.input(planet, ELEVATION) {
            layers.push(("elevation", h.data().to_vec()));
        }
        if let Some(a) = res.input(planet, ALBEDO) {
            layers.push(("albedo", a.data.iter().map(|c| 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]).collect()));
        }
        for (name, v) in layers {
            let (seam, inside) = worst(&v);
            eprintln!("{}: {name}: worst face edge {seam:.2}, worst line inside the faces {inside:.2}", f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default());
            // A flat layer has no steps to compare with.
            if inside > 0.0 && seam > 1.15 * inside {
                problems.push(format!("{}: the {name} jumps {seam:.2} times the steps beside it across a face edge, at most {inside:.2} across lines inside the faces", f.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
