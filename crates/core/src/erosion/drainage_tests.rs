use super::*;
use crate::planet::Cell;
use glam::Vec3;

fn settings() -> DrainageSettings {
    DrainageSettings { sea_level: 0.3, rain_mm: 1000.0, radius_km: 6371.0, threshold_m3s: 5000.0, depth: 0.02, depth_exponent: 0.4, width_km: 60.0, width_exponent: 0.5, min_lake_depth: 0.005 }
}

fn run(h: &Field, s: &DrainageSettings) -> Drainage {
    drainage(h, None, s, &AtomicBool::new(false)).expect("not cancelled")
}

/// Rough fBm terrain over the whole planet, land and sea (about -0.3 to 1.0), with pits.
fn hills(n: usize) -> Field {
    let f = crate::planet::fbm::FastFbm::new(7, 8, 0.55, 2.0);
    crate::planet::fbm::fbm_field(&f, crate::planet::Grid::Whole(n), crate::planet::fbm::noise_radius(4.0), 1.0).map(|v| v + 0.35)
}

#[test]
fn every_land_cell_drains_to_the_sea_or_a_lake_downhill_along_neighbours() {
    let n = 64;
    let h = hills(n);
    let s = settings();
    let d = run(&h, &s);
    let table = pipes8(n);
    let (out, lakes) = (d.elevation.data(), d.lakes.data());
    let land = (0..6 * n * n).filter(|&c| h.data()[c] >= s.sea_level).count();
    assert!(land > 1000 && land < 6 * n * n - 1000, "land and sea: {land}");
    for c in (0..6 * n * n).filter(|&c| h.data()[c] >= s.sea_level) {
        let mut at = c;
        for step in 0.. {
            assert!(step < 6 * n * n, "a loop from {c}");
            if lakes[at] > 0.0 {
                break;
            }
            let next = d.downstream[at];
            assert_ne!(next, NONE, "{at} on the way from {c} has no way out");
            assert!(table.to[at].contains(&next), "{at} drains into {next}, not a neighbour");
            let next = next as usize;
            assert!(out[next] <= out[at], "uphill from {at} ({}) to {next} ({})", out[at], out[next]);
            if h.data()[next] < s.sea_level {
                break;
            }
            at = next;
        }
    }
    // Land stays land, sea stays as it was; there are lakes and rivers.
    for (c, (&before, &after)) in h.data().iter().zip(out).enumerate() {
        assert_eq!(before < s.sea_level, after < s.sea_level, "{c}");
        if before < s.sea_level {
            assert_eq!(after, before);
        }
    }
    assert!(lakes.iter().any(|&v| v > 0.0) && d.rivers.data().iter().any(|&v| v > 0.0));
    // Rivers run on across the face seams.
    let rivers = d.rivers.data();
    let crossing = (0..6 * n * n).filter(|&c| rivers[c] > 0.0 && d.downstream[c] != NONE && rivers[d.downstream[c] as usize] > 0.0 && Cell::from_index(c, n).face != Cell::from_index(d.downstream[c] as usize, n).face).count();
    assert!(crossing >= 10, "{crossing} river cells drain into a river cell on another face");
}

#[test]
fn discharge_is_the_rain_upstream_and_is_conserved_at_confluences() {
    let n = 64;
    let h = hills(n);
    let s = settings();
    let d = run(&h, &s);
    let q = d.discharge.data();
    let cells = 6 * n * n;
    let own = 4.0 * std::f64::consts::PI * (6371e3f64).powi(2) / cells as f64 * 1.0 / SECONDS_PER_YEAR;
    let mut inflow = vec![0f64; cells];
    let mut children = vec![0usize; cells];
    for c in (0..cells).filter(|&c| h.data()[c] >= s.sea_level) {
        let x = d.downstream[c];
        if x != NONE {
            inflow[x as usize] += f64::from(q[c]);
            children[x as usize] += 1;
        }
    }
    let mut confluences = 0;
    for c in (0..cells).filter(|&c| h.data()[c] >= s.sea_level) {
        let want = own + inflow[c];
        assert!((f64::from(q[c]) - want).abs() <= 1e-4 * want, "{c}: {} vs {want}", q[c]);
        if children[c] >= 2 && d.rivers.data()[c] > 0.0 {
            confluences += 1;
        }
    }
    assert!(confluences > 10, "{confluences} river confluences");
    // All the rain on land reaches the sea.
    let land = (0..cells).filter(|&c| h.data()[c] >= s.sea_level).count() as f64;
    let to_sea: f64 = (0..cells).filter(|&c| h.data()[c] >= s.sea_level && d.downstream[c] != NONE && h.data()[d.downstream[c] as usize] < s.sea_level).map(|c| f64::from(q[c])).sum();
    assert!((to_sea / (land * own) - 1.0).abs() < 1e-3, "{to_sea} vs {}", land * own);
    // Rain from a field in mm per year: twice the rain, twice the discharge.
    let rain = Field::filled(n, 2000.0);
    let d2 = drainage(&h, Some(&rain), &s, &AtomicBool::new(false)).expect("runs");
    let c = (0..cells).max_by(|&a, &b| q[a].total_cmp(&q[b])).expect("cells");
    assert!((d2.discharge.data()[c] / q[c] - 2.0).abs() < 1e-3);
}

/// A cone island of `r` radians around `centre`, peak 1, coast at 0.3.
fn cone(n: usize, centre: Vec3, r: f32) -> Field {
    Field::from_fn_dir(n, |d| {
        let a = d.dot(centre).clamp(-1.0, 1.0).acos();
        let ripple = 0.02 * ((d.x * 40.0).sin() + (d.y * 37.0).sin() + (d.z * 43.0).sin());
        (1.0 - 0.7 * a / r + ripple).max(0.0)
    })
}

#[test]
fn an_island_drains_alike_mid_face_across_an_edge_and_on_a_cube_corner() {
    let n = 96;
    let s = settings();
    let mut figures = Vec::new();
    for centre in [Vec3::new(0.1, 0.05, 1.0).normalize(), Vec3::new(1.0, 0.05, 1.0).normalize(), Vec3::ONE.normalize()] {
        let h = cone(n, centre, 0.5);
        let d = run(&h, &s);
        let q = d.discharge.data();
        let rivers = d.rivers.data();
        let cells = 6 * n * n;
        let river_cells = rivers.iter().filter(|&&v| v > 0.0).count();
        let mouths: Vec<f32> = (0..cells).filter(|&c| h.data()[c] >= s.sea_level && d.downstream[c] != NONE && h.data()[d.downstream[c] as usize] < s.sea_level).map(|c| q[c]).collect();
        let total: f32 = mouths.iter().sum();
        figures.push((river_cells as f32, total));
        assert!(d.elevation.data().iter().all(|v| v.is_finite()));
    }
    let (r0, t0) = figures[0];
    for &(r, t) in &figures[1..] {
        assert!((r / r0 - 1.0).abs() < 0.25, "river cells {figures:?}");
        assert!((t / t0 - 1.0).abs() < 0.05, "discharge to the sea {figures:?}");
    }
}

#[test]
fn rivers_at_a_preview_resolution_match_the_build() {
    let s = settings();
    let total_km = |n: usize| {
        let d = run(&hills(n), &s);
        let cell_km = std::f32::consts::FRAC_PI_2 / n as f32 * s.radius_km;
        d.rivers.data().iter().filter(|&&v| v > 0.0).count() as f32 * cell_km
    };
    let (coarse, fine) = (total_km(64), total_km(256));
    assert!((coarse / fine - 1.0).abs() < 0.35, "river length {coarse} km at 64, {fine} km at 256");
    // The carved surface agrees.
    let (a, b) = (run(&hills(64), &s).elevation, run(&hills(256), &s).elevation.resample(64));
    let corr = crate::planet::field::correlation(a.data(), b.data());
    assert!(corr > 0.95, "{corr}");
}

#[test]
fn the_same_result_whatever_the_thread_count() {
    let h = hills(48);
    let s = settings();
    let go = |t| rayon::ThreadPoolBuilder::new().num_threads(t).build().expect("pool").install(|| run(&h, &s));
    let (a, b) = (go(1), go(2));
    assert_eq!(a.elevation.data(), b.elevation.data());
    assert_eq!(a.discharge.data(), b.discharge.data());
    assert_eq!(a.downstream, b.downstream);
}

#[test]
fn no_nan_at_the_ends_of_every_parameter_and_without_sea() {
    let h = hills(24);
    let base = settings();
    let variants = [
        DrainageSettings { threshold_m3s: 1e-6, depth: 10.0, width_km: 5000.0, depth_exponent: 2.0, width_exponent: 2.0, ..base },
        DrainageSettings { threshold_m3s: 1e9, depth: 0.0, width_km: 0.1, depth_exponent: 0.0, width_exponent: 0.0, min_lake_depth: 0.0, ..base },
        DrainageSettings { rain_mm: 0.0, radius_km: 100.0, ..base },
        DrainageSettings { rain_mm: 20000.0, radius_km: 100000.0, sea_level: -1.0, ..base },
        DrainageSettings { sea_level: 2.0, ..base },
    ];
    for s in &variants {
        let d = run(&h, s);
        for f in [&d.elevation, &d.discharge, &d.rivers, &d.lakes] {
            assert!(f.data().iter().all(|v| v.is_finite()), "{s:?}");
        }
    }
    // All land: everything drains to the lowest cell, which is a lake's bottom or the outlet.
    let d = run(&h, &DrainageSettings { sea_level: -1.0, ..base });
    assert_eq!(d.downstream.iter().filter(|&&x| x == NONE).count(), 1);
}

#[test]
fn cancelled_returns_nothing() {
    assert_eq!(drainage(&hills(16), None, &settings(), &AtomicBool::new(true)).err(), Some(crate::planet::SimError::Cancelled));
}
