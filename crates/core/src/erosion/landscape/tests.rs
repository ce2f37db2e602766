//! Physics tests of the landscape evolution: steady state against the stream-power law,
//! drainage to the sea, mass balance, seams, thread independence.

use super::analysis::slope_area_exponent;
use super::*;
use glam::Vec3;
use solver::{Level, Physics};

fn settings() -> LandscapeSettings {
    LandscapeSettings {
        time_myr: 20.0,
        level_myr: 0.5,
        level_ratio: 1.0,
        uplift_mm_yr: 0.0,
        land_uplift_mm_yr: 1.0,
        k: 1e-5,
        m: 0.45,
        n: 1.0,
        diffusion: 0.0,
        critical_angle_deg: 90.0,
        sea_level: 0.0,
        metres_per_unit: 6000.0,
        radius_km: 2000.0,
        lakes: false,
        river_area_km2: 1000.0,
        river_lines_m: 0.0,
    }
}

/// A continent (a cap of about 60 degrees) with low rolling hills, and a deep sea around it.
fn continent(n: usize) -> Field {
    Field::from_fn_dir(n, |d| {
        let cap = d.dot(Vec3::new(0.3, 0.5, 0.8).normalize());
        if cap > 0.5 {
            0.01 + 0.01 * ((d.x * 17.0).sin() * (d.y * 13.0).cos() + 1.0) + 0.005 * (d.z * 29.0).sin()
        } else {
            -0.5
        }
    })
}

fn run(h: &Field, uplift: Option<&Field>, s: &LandscapeSettings) -> Landscape {
    let inputs = LandscapeInputs { elevation: h, uplift, precipitation: None, erodibility: None };
    evolve(inputs, s, &AtomicUsize::new(0), &AtomicBool::new(false)).expect("runs")
}

/// Follows receivers from every cell that has one; each chain must end at the sea (a cell
/// below sea level without a receiver) within `cells` steps (no cycles, nothing trapped), also
/// through inland basins below sea level.
fn assert_drains_to_sea(l: &Landscape) {
    let cells = l.receiver.len();
    for c in 0..cells {
        let mut x = c;
        let mut hops = 0;
        while l.receiver[x] != grid::NONE {
            x = l.receiver[x] as usize;
            hops += 1;
            assert!(hops <= cells, "cycle from cell {c}");
        }
        assert!(l.height_m[x] < 0.0, "the water of cell {c} stops on land at cell {x}");
    }
}

#[test]
fn steady_state_recovers_the_concavity_and_relief_scales_with_uplift() {
    let n = 48;
    let h = continent(n);
    for (m, nexp) in [(0.45, 1.0), (0.6, 1.5)] {
        let mut s = settings();
        s.m = m;
        s.n = nexp;
        s.time_myr = 50.0;
        let a = run(&h, None, &s);
        let exponent = slope_area_exponent(&a.height_m, &a.receiver, &a.receiver_m, a.area_km2.data(), 2.0 * 4.0 * std::f32::consts::PI * 2000.0f32.powi(2) / (6 * n * n) as f32).expect("rivers");
        assert!((exponent + m / nexp).abs() < 0.05, "m={m} n={nexp}: slope-area exponent {exponent}, want {}", -m / nexp);
        // Steady: one more step of 100 000 years changes the land by much less than the uplift.
        let cells = 6 * n * n;
        let u = s.land_uplift_mm_yr as f32 / 1000.0;
        let uplift = a.height_m.iter().map(|&v| if v >= 0.0 { u } else { 0.0 }).collect();
        let mut level = Level::new(Grid::new(n, s.radius_km), a.height_m.clone(), uplift, vec![1.0; cells], vec![1.0; cells]);
        let physics = Physics { k: s.k, m, n: nexp, diffusion: 0.0, max_slope: f64::INFINITY, lakes: false };
        level.step(1e5, &physics);
        let land: Vec<usize> = (0..cells).filter(|&c| a.height_m[c] >= 0.0).collect();
        let mean_change = land.iter().map(|&c| f64::from((level.h[c] - a.height_m[c]).abs())).sum::<f64>() / land.len() as f64;
        eprintln!("m={m} n={nexp}: exponent {exponent}, mean change in a step {mean_change} m, uplift {} m", 1e5 * f64::from(u));
        assert!(mean_change < 0.05 * 1e5 * f64::from(u), "not steady: {mean_change} m in a step");
        // Double the uplift: relief grows by 2^(1/n).
        let mut s3 = s.clone();
        s3.land_uplift_mm_yr *= 2.0;
        let c = run(&h, None, &s3);
        let mean = |l: &Landscape| {
            let land: Vec<f64> = l.height_m.iter().filter(|&&v| v >= 0.0).map(|&v| f64::from(v)).collect();
            land.iter().sum::<f64>() / land.len() as f64
        };
        let ratio = mean(&c) / mean(&a);
        let want = 2f64.powf(1.0 / nexp);
        assert!((ratio / want - 1.0).abs() < 0.05, "m={m} n={nexp}: relief ratio {ratio}, want {want}");
    }
}

#[test]
fn every_land_cell_drains_to_the_sea_with_lakes_on_and_off() {
    // Hills full of closed basins.
    let h = Field::from_fn_dir(40, |d| 0.2 * ((d.x * 11.0).sin() * (d.y * 9.0).cos() * (d.z * 7.0).sin()) + 0.05 * (d.y * 3.0).cos());
    for (lakes, time) in [(false, 2.0), (true, 2.0), (true, 0.1)] {
        let mut s = settings();
        s.lakes = lakes;
        s.time_myr = time;
        s.diffusion = 0.05;
        s.critical_angle_deg = 30.0;
        let l = run(&h, None, &s);
        assert_drains_to_sea(&l);
        let lake_cells = l.lakes.data().iter().filter(|&&v| v > 0.0).count();
        eprintln!("lakes {lakes}, {time} Myr: {lake_cells} lake cells");
        if lakes && time < 1.0 {
            assert!(lake_cells > 0, "a planet of closed basins has lakes");
        } else if lakes {
            // Their sills are cut down over time; water always finds the sea.
        } else {
            assert_eq!(lake_cells, 0, "filled basins leave no lakes");
        }
        assert!(l.rivers.data().iter().any(|&v| v > 0.0));
    }
}

#[test]
fn mass_balance_of_uplift_erosion_and_the_sea() {
    let h = Field::from_fn_dir(32, |d| 0.15 * ((d.x * 7.0).sin() * (d.y * 5.0).cos()) + 0.02);
    for lakes in [false, true] {
        let mut s = settings();
        s.lakes = lakes;
        s.time_myr = 3.0;
        let l = run(&h, None, &s);
        let grid = Grid::new(32, s.radius_km);
        // Every cell's change apart from uplift, in m³: what the land lost to the sea, less
        // what depressions gained.
        let change: f64 = l.erosion_m.data().iter().enumerate().map(|(c, &e)| f64::from(e) * f64::from(grid.area(c))).sum();
        let want = l.filled_m3 - l.to_sea_m3;
        assert!(l.to_sea_m3 > 0.0);
        assert!((change - want).abs() <= 1e-3 * l.to_sea_m3, "lakes {lakes}: change {change:e} m³, sea and fills {want:e} m³");
    }
}

/// An island (a cone) centred on `c`, in a sea.
fn island(n: usize, c: Vec3) -> Field {
    let c = c.normalize();
    Field::from_fn_dir(n, |d| {
        let theta = d.dot(c).clamp(-1.0, 1.0).acos();
        if theta < 0.5 {
            0.3 * (1.0 - theta / 0.5)
        } else {
            -0.3
        }
    })
}

#[test]
fn an_island_evolves_the_same_mid_face_across_an_edge_and_on_a_corner() {
    let n = 64;
    let fr = Vec3::Z;
    let places = [("middle", fr), ("shifted", fr + 0.15 * Vec3::X + 0.1 * Vec3::Y), ("edge", fr + Vec3::X), ("corner", fr + Vec3::X + Vec3::Y)];
    let mut s = settings();
    s.time_myr = 5.0;
    s.diffusion = 0.02;
    let results: Vec<(&str, Landscape, Vec3)> = places.iter().map(|&(name, c)| (name, run(&island(n, c), None, &s), c.normalize())).collect();
    let grid = Grid::new(n, s.radius_km);
    // Compare the eroded volume, the highest point and the profile of mean height by distance
    // from the island's centre.
    let stats = |l: &Landscape, c: Vec3| {
        let mut rings = [(0.0f64, 0.0f64); 10];
        let mut eroded = 0.0;
        for cell in 0..6 * n * n {
            let d = crate::planet::Cell::from_index(cell, n).direction(n);
            let theta = d.dot(c).clamp(-1.0, 1.0).acos();
            let a = f64::from(grid.area(cell));
            eroded -= f64::from(l.erosion_m.data()[cell]) * a;
            let k = (theta / 0.05) as usize;
            if k < 10 {
                rings[k].0 += f64::from(l.height_m[cell]) * a;
                rings[k].1 += a;
            }
        }
        (eroded, rings.map(|(s, a)| s / a))
    };
    let all: Vec<(f64, [f64; 10])> = results.iter().map(|(_, l, c)| stats(l, *c)).collect();
    let (e0, r0) = all[0];
    // The shifted placement (inside the same face) shows how much the grid alone changes the
    // result: the bar for the seams is half as much again.
    let grid_noise = (0..10).map(|k| (all[1].1[k] - r0[k]).abs()).fold(0.0, f64::max);
    for ((name, _, _), (e, r)) in results.iter().zip(&all).skip(1) {
        eprintln!("{name}: eroded {e:e} m³ against {e0:e}; rings {r:.0?} against {r0:.0?}");
        assert!((e / e0 - 1.0).abs() < 0.03, "{name}: eroded {e:e} m³ against {e0:e} mid-face");
        for k in 0..10 {
            assert!((r[k] - r0[k]).abs() <= 1.5 * grid_noise + 10.0, "{name}: ring {k} mean {} m against {} m mid-face (the grid alone: {grid_noise} m)", r[k], r0[k]);
        }
    }
}

#[test]
fn the_same_bytes_for_one_and_four_threads() {
    let h = Field::from_fn_dir(160, |d| 0.2 * ((d.x * 11.0).sin() * (d.y * 9.0).cos()) + 0.03);
    let mut s = settings();
    s.time_myr = 1.0;
    s.diffusion = 0.1;
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool").install(|| run(&h, None, &s));
    let four = rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("pool").install(|| run(&h, None, &s));
    assert_eq!(one.elevation.data(), four.elevation.data());
    assert_eq!(one.area_km2.data(), four.area_km2.data());
}

#[test]
fn levels_double_up_to_the_resolution() {
    assert_eq!(levels(64), vec![64]);
    assert_eq!(levels(128), vec![128]);
    assert_eq!(levels(512), vec![128, 256, 512]);
    assert_eq!(levels(1000), vec![128, 250, 500, 1000]);
    assert_eq!(total_steps(512, 20.0, 0.5), 200 + 2 * FINE_STEPS);
    assert_eq!(total_steps(512, 20.0, 0.0), 200);
}

#[test]
fn bad_inputs_are_named() {
    let h = Field::from_fn_dir(8, |d| d.x);
    let mut bad = h.clone();
    bad.data_mut()[5] = f32::NAN;
    let s = settings();
    let inputs = LandscapeInputs { elevation: &h, uplift: Some(&bad), precipitation: None, erodibility: None };
    let err = evolve(inputs, &s, &AtomicUsize::new(0), &AtomicBool::new(false)).expect_err("NaN uplift");
    assert!(err.to_string().contains("uplift"), "{err}");
    let small = Field::filled(4, 1.0);
    let inputs = LandscapeInputs { elevation: &h, uplift: None, precipitation: Some(&small), erodibility: None };
    let err = evolve(inputs, &s, &AtomicUsize::new(0), &AtomicBool::new(false)).expect_err("sizes");
    assert!(err.to_string().contains("precipitation"), "{err}");
}

/// A hollow below sea level inside a continent is an inland basin, not sea: its water fills it
/// to its sill as a lake and flows on to the ocean, and the land around it is not worn down
/// into it (before, the solver took any ground below sea level for sea, and the fine levels'
/// detail sank more lowland into such hollows).
#[test]
fn a_hollow_below_sea_level_inland_is_a_lake_that_drains_to_the_ocean() {
    let n = 48;
    let axis = Vec3::new(0.3, 0.5, 0.8).normalize();
    let base = continent(n);
    // A hollow 300 m below sea level, about 6 degrees across (0.075 % of the planet, a lake
    // rather than a sea), in the continent's middle.
    let h = Field::from_fn_cell(n, |c| {
        let d = crate::planet::Cell::from_index(c, n).direction(n);
        if d.dot(axis) > 0.9985 {
            -0.05
        } else {
            base.data()[c]
        }
    });
    let mut s = settings();
    s.lakes = true;
    s.time_myr = 5.0;
    let l = run(&h, None, &s);
    assert_drains_to_sea(&l);
    let hollow: Vec<usize> = (0..6 * n * n).filter(|&c| h.data()[c] < 0.0 && crate::planet::Cell::from_index(c, n).direction(n).dot(axis) > 0.9).collect();
    assert!(hollow.len() > 4, "the hollow has cells");
    for &c in &hollow {
        assert_ne!(l.receiver[c], grid::NONE, "a hollow cell is land");
        assert_eq!(l.lakes.data()[c], 1.0, "a hollow cell holds a lake");
        assert_eq!(l.rivers.data()[c], 0.0, "a lake is not a river");
    }
    // Nothing around the hollow sank below sea level: the below-sea ground inland is the hollow.
    let sunk = (0..6 * n * n).filter(|&c| l.height_m[c] < 0.0 && h.data()[c] >= 0.0 && crate::planet::Cell::from_index(c, n).direction(n).dot(axis) > 0.6).count();
    assert_eq!(sunk, 0, "land sank below sea level inland");
    // Its water leaves over the sill: the first cell below the hollow on the way to the ocean
    // drains more than any cell of the hollow.
    let area = l.area_km2.data();
    let mut x = hollow.iter().copied().max_by(|&a, &b| area[a].total_cmp(&area[b])).expect("cells");
    let most = area[x];
    while hollow.contains(&x) {
        x = l.receiver[x] as usize;
    }
    assert!(most > 0.0 && area[x] > most, "the hollow's water flows on: {most} km² in it, {} below it", area[x]);
}

#[test]
fn finer_levels_keep_only_the_coarser_levels_lakes() {
    // A gentle ramp down to the sea under an egg-crate of 60 m bumps about 2.6 cells apart at
    // 256: detail the 128 level cannot hold, which dams closed pits only at 256.
    let h = Field::from_fn_dir(256, |d| {
        let d = d.normalize();
        (300.0 + 600.0 * d.x + 60.0 * (400.0 * d.y).sin() * (400.0 * d.z).sin()) / 6000.0
    });
    let s = LandscapeSettings { time_myr: 1.0, level_myr: 0.05, lakes: true, ..settings() };
    let coarse = run(&h.resample(128), None, &s);
    let fine = run(&h, None, &s);
    let allowed = coarse.lakes.resample(256);
    let lakes = fine.lakes.data().iter().filter(|&&v| v > 0.0).count();
    let outside = fine.lakes.data().iter().zip(allowed.data()).filter(|(&l, &a)| l > 0.0 && a < 0.5).count();
    eprintln!("lake cells: {} at 128, {lakes} at 256, {outside} of them where the 128 run had none", coarse.lakes.data().iter().filter(|&&v| v > 0.0).count());
    assert_eq!(outside, 0, "{outside} of {lakes} lake cells at 256 lie where the 128 run had no lake");
}

#[test]
fn large_rivers_are_painted_as_lines_on_coarse_cells_and_small_ones_at_their_true_width() {
    let cell = 20_000.0f32 * 20_000.0;
    // 4 m x sqrt(50 000) = 894 m over 20 km: a 4.5 % tint at its true width.
    let true_share = river_cover(50_000.0, cell, 0.0);
    assert!((true_share - 0.0447).abs() < 1e-3, "{true_share}");
    // With lines of 10 km: 10 km x ln(25) / ln(50) = 8.2 km, 0.41 of the cell.
    let line = river_cover(50_000.0, cell, 10_000.0);
    assert!((line - 0.411).abs() < 2e-3, "{line}");
    // The same line on cells four times as wide: a quarter of the share.
    assert!((river_cover(50_000.0, 16.0 * cell, 10_000.0) - 0.411 / 4.0).abs() < 1e-3);
    // The whole width from 100 000 m³/s, none below 2 000 m³/s.
    assert!((river_cover(200_000.0, cell, 10_000.0) - 0.5).abs() < 1e-6);
    assert_eq!(river_cover(1500.0, cell, 10_000.0), river_cover(1500.0, cell, 0.0));
    // Where the cells are narrower than the river, it covers them.
    assert_eq!(river_cover(50_000.0, 500.0 * 500.0, 10_000.0), 1.0);
}

/// The first finer level gets the time per finer level, each later one the ratio of the one
/// before; a ratio of 1 keeps every level's time.
#[test]
fn finer_levels_get_less_time_by_the_ratio() {
    let s = LandscapeSettings { level_myr: 2.0, level_ratio: 0.5, ..settings() };
    assert_eq!([1, 2, 3, 4].map(|k| level_years(&s, k)), [2e6, 1e6, 0.5e6, 0.25e6]);
    let same = LandscapeSettings { level_ratio: 1.0, ..s };
    assert_eq!([1, 2, 3].map(|k| level_years(&same, k)), [2e6; 3]);
}

/// After a step with landslides, no land cell stands above its receiver by more than the
/// critical slope over the distance between them (the cells that slid are written back), and
/// cells that did not slide keep the height the incision and diffusion left them.
#[test]
fn landslides_leave_no_slope_steeper_than_the_critical_angle() {
    let n = 24;
    let s = settings();
    // The continent's land raised 200 times (12 to 42 km over cells of about 130 km), so its
    // slopes are far steeper than the critical slope of 0.02.
    let h: Vec<f32> = continent(n).data().iter().map(|&v| if v > 0.0 { v * 200.0 * s.metres_per_unit } else { v * s.metres_per_unit }).collect();
    let cells = 6 * n * n;
    let max_slope = 0.02f64;
    let physics = Physics { k: s.k, m: 0.45, n: 1.0, diffusion: 0.0, max_slope, lakes: false };
    let mut level = Level::new(Grid::new(n, s.radius_km), h.clone(), vec![1e-3; cells], vec![1.0; cells], vec![1.0; cells]);
    let steady = Physics { max_slope: f64::INFINITY, ..physics };
    let mut without = Level::new(Grid::new(n, s.radius_km), h, vec![1e-3; cells], vec![1.0; cells], vec![1.0; cells]);
    level.step(1e4, &physics);
    without.step(1e4, &steady);
    let (mut slid, mut kept) = (0, 0);
    for c in 0..cells {
        let r = level.receiver[c];
        if level.is_sea(c) || r == grid::NONE {
            continue;
        }
        let below = level.h[r as usize].max(0.0);
        assert!(f64::from(level.h[c]) <= f64::from(below) + max_slope * f64::from(level.receiver_m[c]) * (1.0 + 1e-5) + 1e-3, "cell {c}: {} over {below}", level.h[c]);
        if level.h[c] < without.h[c] {
            slid += 1;
        } else {
            assert_eq!(level.h[c], without.h[c], "cell {c}");
            kept += 1;
        }
    }
    assert!(slid > 0 && kept > 0, "{slid} slid, {kept} kept");
}
