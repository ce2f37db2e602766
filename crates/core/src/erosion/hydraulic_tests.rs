//! Tests of the hydraulic erosion: conservation, transport, water across seams, creep, the
//! depth ramp, parameter extremes.

use super::*;
use crate::erosion::test_hills;
use crate::planet::Cell;

fn run(f: &Field, s: &HydraulicSettings) -> HydraulicResult {
    hydraulic(f, s, &AtomicBool::new(false), &AtomicUsize::new(0)).expect("not cancelled")
}

#[test]
fn terrain_plus_sediment_is_conserved() {
    let f = test_hills(24);
    for semi_lagrangian in [false, true] {
        let r = run(&f, &HydraulicSettings { iterations: 80, semi_lagrangian, ..Default::default() });
        let (a, b) = r.totals;
        // Donor cell: every transfer is a pairwise move of f32 values; over ~4e5 cell
        // updates the rounding of sums of values around 5 stays far below 1e-5 relative.
        // Semi-Lagrangian: the back-trace is rescaled to the total each step (an f32
        // multiply per cell, the same order of rounding).
        assert!(((a - b) / a).abs() < 1e-5, "{semi_lagrangian}: {a} vs {b}");
        let before: f64 = f.data().iter().map(|&x| x as f64).sum();
        let after: f64 = r.elevation.data().iter().map(|&x| x as f64).sum();
        assert!(((before - after) / before).abs() < 1e-5, "{semi_lagrangian}: {before} vs {after}");
        // And it really eroded something.
        let changed = f.data().iter().zip(r.elevation.data()).filter(|(a, b)| (*a - *b).abs() > 1e-4).count();
        assert!(changed > f.data().len() / 10, "{semi_lagrangian}: {changed} cells changed");
    }
}

#[test]
fn semi_lagrangian_transport_moves_sediment_downstream_and_is_deterministic() {
    // A slope down towards +i on the front face with sediment on one cell: after a few
    // steps the sediment's centre lies further down the slope.
    let n = 17;
    let f = Field::from_fn_dir(n, |d| 0.6 - 0.5 * d.x);
    let at = |i, j| crate::planet::Cell { face: crate::planet::Face::Front, i, j }.index(n);
    let mut sediment = vec![0.0; 6 * n * n];
    sediment[at(6, 8)] = 0.01;
    let s = HydraulicSettings { iterations: 30, rain: 0.05, dissolve: 0.0, deposit: 0.0, evaporation: 0.0, sediment_diffusion: 0.0, semi_lagrangian: true, ..Default::default() };
    let go = || simulate(&f, vec![0.02; 6 * n * n], sediment.clone(), &s, &AtomicBool::new(false), &AtomicUsize::new(0)).expect("run");
    let r = go();
    let sed = r.sediment.data();
    let total: f32 = (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).map(|(i, j)| sed[at(i, j)]).sum();
    let centre: f32 = (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).map(|(i, j)| sed[at(i, j)] * i as f32).sum::<f32>() / total.max(1e-12);
    assert!(centre > 6.5, "sediment centre at i = {centre}");
    let go1 = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool").install(go);
    assert_eq!(go1.elevation, r.elevation);
}

#[test]
fn a_column_of_water_spreads_and_water_never_goes_negative() {
    // Odd n: cell 8 is the face centre, so its neighbours lie symmetrically.
    let n = 17;
    let f = Field::filled(n, 0.5);
    let at = |i, j| Cell { face: crate::planet::Face::Front, i, j }.index(n);
    let mut water = vec![0.0; 6 * n * n];
    water[at(8, 8)] = 0.2;
    let s = HydraulicSettings { rain: 0.0, evaporation: 0.0, iterations: 3, dissolve: 0.0, deposit: 0.0, ..Default::default() };
    let r = simulate(&f, water, vec![0.0; 6 * n * n], &s, &AtomicBool::new(false), &AtomicUsize::new(0)).expect("run");
    let w = r.water.data();
    assert!(w.iter().all(|&x| x >= 0.0 && x.is_finite()));
    assert!(w[at(8, 8)] < 0.2, "the column went down");
    for (i, j) in [(7, 8), (9, 8), (8, 7), (8, 9)] {
        assert!(w[at(i, j)] > 0.0, "water reached ({i}, {j})");
    }
    // Symmetric spreading, and no water lost.
    assert!((w[at(7, 8)] - w[at(9, 8)]).abs() < 1e-4 && (w[at(8, 7)] - w[at(8, 9)]).abs() < 1e-4);
    let total: f32 = w.iter().sum();
    assert!((total - 0.2).abs() < 1e-4, "{total}");
}

#[test]
fn water_runs_across_face_edges_and_corners() {
    // Ground falling away from the front face towards the right face, and towards the
    // front-right-top corner; water starts on the front face only and must run over the
    // seams onto the faces it slopes down to, none of it lost.
    use crate::planet::Face;
    let n = 16;
    let face_total = |w: &[f32], face: Face| w[face.index() * n * n..(face.index() + 1) * n * n].iter().map(|&x| x as f64).sum::<f64>();
    for (target, towards) in [("edge", Face::Right.normal()), ("corner", Face::Right.normal() + Face::Top.normal() + Face::Front.normal())] {
        let f = Field::from_fn_dir(n, |d| 0.5 - 0.3 * d.dot(towards.normalize()));
        let mut water = vec![0.0; 6 * n * n];
        water[Face::Front.index() * n * n..(Face::Front.index() + 1) * n * n].fill(0.05);
        let s = HydraulicSettings { rain: 0.0, evaporation: 0.0, dissolve: 0.0, deposit: 0.0, iterations: 200, ..Default::default() };
        let r = simulate(&f, water, vec![0.0; 6 * n * n], &s, &AtomicBool::new(false), &AtomicUsize::new(0)).expect("run");
        let w = r.water.data();
        let total: f64 = w.iter().map(|&x| x as f64).sum();
        assert!((total - 0.05 * (n * n) as f64).abs() < 1e-3, "{target}: water lost: {total}");
        let (right, top) = (face_total(w, Face::Right), face_total(w, Face::Top));
        if target == "edge" {
            assert!(right > 0.3 * total && top < 0.05 * total, "edge: right {right}, top {top} of {total}");
        } else {
            // Symmetric about the corner's diagonal: as much to the top as to the right.
            assert!(right > 0.1 * total && (top - right).abs() < 0.05 * total, "corner: top {top}, right {right} of {total}");
        }
    }
}

#[test]
fn sediment_settles_in_still_water() {
    let n = 8;
    let f = Field::filled(n, 0.2);
    let cells = 6 * n * n;
    let s = HydraulicSettings { rain: 0.0, evaporation: 0.0, min_slope: 0.0, iterations: 400, ..Default::default() };
    let r = simulate(&f, vec![0.1; cells], vec![0.01; cells], &s, &AtomicBool::new(false), &AtomicUsize::new(0)).expect("run");
    let left: f32 = r.sediment.data().iter().sum();
    assert!(left < 0.01 * cells as f32 * 0.01, "suspended sediment left: {left}");
    // It went into the ground: the flat ground rose by the sediment it held.
    let mean = r.elevation.data().iter().sum::<f32>() / cells as f32;
    assert!((mean - 0.21).abs() < 1e-4, "{mean}");
}

#[test]
fn creep_spreads_a_spike_on_land_only_and_conserves() {
    // No water: only creep acts. A spike on land spreads to its neighbours; a spike under
    // the sea stays as it is.
    let n = 17;
    let at = |i, j| Cell { face: crate::planet::Face::Front, i, j }.index(n);
    let mut data = vec![0.2; 6 * n * n];
    data[at(8, 8)] = 0.6;
    for i in 6..11 {
        for j in 6..11 {
            data[Cell { face: crate::planet::Face::Back, i, j }.index(n)] = -0.5;
        }
    }
    let back = Cell { face: crate::planet::Face::Back, i: 8, j: 8 }.index(n);
    data[back] = -0.2;
    let f = Field::from_vec(n, data).expect("field");
    let s = HydraulicSettings { rain: 0.0, iterations: 200, creep: 1.0, ..Default::default() };
    let r = run(&f, &s);
    let e = r.elevation.data();
    assert!(e[at(8, 8)] < 0.5, "the spike went down: {}", e[at(8, 8)]);
    assert!(e[at(7, 8)] > 0.21 && (e[at(7, 8)] - e[at(9, 8)]).abs() < 1e-5, "{} {}", e[at(7, 8)], e[at(9, 8)]);
    assert!((e[back] + 0.2).abs() < 1e-6, "no creep under the sea: {}", e[back]);
    let before: f64 = f.data().iter().map(|&x| x as f64).sum();
    let after: f64 = e.iter().map(|&x| x as f64).sum();
    assert!(((before - after) / before).abs() < 1e-6, "{before} vs {after}");
}

#[test]
fn the_depth_ramp_keeps_a_thin_film_of_rain_from_eroding_much() {
    // A plain slope in rain: without the ramp the thin film erodes the whole slope; with it
    // erosion is a fraction, as the film is far shallower than the full-capacity depth.
    let f = Field::from_fn_dir(32, |d| 0.6 - 0.5 * d.x);
    let eroded = |full_depth| {
        let r = run(&f, &HydraulicSettings { iterations: 40, creep: 0.0, full_depth, ..Default::default() });
        f.data().iter().zip(r.elevation.data()).map(|(a, b)| (a - b).abs() as f64).sum::<f64>()
    };
    let (ramp, plain) = (eroded(0.5), eroded(0.0));
    assert!(ramp < 0.5 * plain, "with ramp {ramp}, without {plain}");
    assert!(ramp > 0.0);
}

#[test]
fn no_nan_over_parameter_extremes() {
    let f = test_hills(12);
    for rain in [0.0, 1.0] {
        for dt in [0.001, 0.5] {
            for gravity in [0.1, 50.0] {
                for (dissolve, deposit) in [(0.0, 0.0), (10.0, 10.0)] {
                    for (relief, semi_lagrangian, creep, full_depth) in [(0.1, false, 0.0, 0.0), (200.0, false, 1.0, 10.0), (0.1, true, 1.0, 0.01), (200.0, true, 0.0, 0.0)] {
                        let s = HydraulicSettings { iterations: 20, rain, dt, gravity, dissolve, deposit, relief, evaporation: 1.0, capacity: 10.0, semi_lagrangian, creep, full_depth, ..Default::default() };
                        let r = run(&f, &s);
                        for field in [&r.elevation, &r.water, &r.sediment, &r.speed, &r.presence] {
                            assert!(field.data().iter().all(|v| v.is_finite()), "{s:?}");
                        }
                        assert!(r.water.data().iter().all(|&w| w >= 0.0));
                        assert!(r.sediment.data().iter().all(|&x| x >= -1e-6), "{s:?}");
                    }
                }
            }
        }
    }
}

/// Water of the wrong length is an error that says so, not a cancel.
#[test]
fn water_of_the_wrong_length_is_an_error_not_a_cancel() {
    let n = 8;
    let f = Field::filled(n, 0.2);
    let r = simulate(&f, vec![0.1; 5], vec![0.0; 6 * n * n], &HydraulicSettings::default(), &AtomicBool::new(false), &AtomicUsize::new(0));
    match r {
        Err(crate::planet::SimError::Invalid(m)) => assert!(m.contains("5 water") && m.contains("384 cells"), "{m}"),
        Err(e) => panic!("expected an error naming the lengths, got {e:?}"),
        Ok(_) => panic!("expected an error naming the lengths, got a result"),
    }
    let cancelled = simulate(&f, vec![0.0; 6 * n * n], vec![0.0; 6 * n * n], &HydraulicSettings::default(), &AtomicBool::new(true), &AtomicUsize::new(0));
    assert_eq!(cancelled.err(), Some(crate::planet::SimError::Cancelled));
}
