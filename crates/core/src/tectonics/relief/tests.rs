//! Tests of the Earth-like relief on whole small planets.

use super::*;
use crate::planet::RegionSurface;
use crate::tectonics::PlateSettings;
use std::sync::Arc;

fn planet(n: usize, seed: u32) -> ReliefSurface {
    let regions = Arc::new(RegionSurface::new(40, 0.9, 3));
    let plates = Plates::grow(regions, &PlateSettings { count: 24, expansion_range: 2.0, random_driven: true, max_cycles: None, seed: 11 }).expect("plates");
    earth_relief(&plates, &ReliefSettings { seed, ..Default::default() }, n, &AtomicBool::new(false)).expect("not cancelled")
}

/// The elevation in metres, through the default settings' scale.
fn metres(p: &ReliefSurface) -> Field {
    let s = ReliefSettings::default();
    p.elevation.map(|v| if v >= 0.0 { v * s.max_elevation_m } else { v * s.max_depth_m })
}

fn area_share(n: usize, keep: impl Fn(usize) -> bool) -> f64 {
    let areas = crate::planet::coords::face_solid_angles(n);
    (0..6 * n * n).filter(|&c| keep(c)).map(|c| areas[c % (n * n)]).sum::<f64>() / (4.0 * std::f64::consts::PI)
}

#[test]
fn land_fraction_ocean_depths_and_trenches_are_earth_like() {
    let n = 96;
    let p = planet(n, 4);
    let m = metres(&p);
    let h = m.data();
    let land = area_share(n, |c| h[c] > 0.0);
    assert!((land - 0.29).abs() < 0.03, "land {land}");
    let (lo, hi) = m.min_max();
    assert!(lo < -8000.0, "deepest {lo}");
    assert!(hi > 3000.0, "highest {hi}");
    // Ocean floor deepens with age: young floor is shallower than old floor.
    let age = p.age_myr.data();
    let crust = p.crust.data();
    let mean = |keep: &dyn Fn(usize) -> bool| {
        let v: Vec<f32> = (0..h.len()).filter(|&c| keep(c)).map(|c| h[c]).collect();
        v.iter().sum::<f32>() / v.len().max(1) as f32
    };
    let young = mean(&|c| crust[c] < 0.01 && age[c] < 10.0);
    let old = mean(&|c| crust[c] < 0.01 && age[c] > 60.0 && age[c] < 150.0);
    assert!(young > -3800.0 && old < -4500.0, "young {young} old {old}");
    assert!(p.uplift_mm_yr.min_max().1 > 1.0);
}

#[test]
fn erodibility_is_low_only_inside_plateaus_on_land() {
    let p = planet(96, 4);
    let m = metres(&p);
    let (e, h) = (p.erodibility.data(), m.data());
    let floor = ReliefSettings::default().plateau_erodibility;
    assert!(e.iter().all(|&x| (floor - 1e-6..=1.0).contains(&x)));
    // Ocean floor beyond the continental slope is never a plateau.
    let crust = p.crust.data();
    assert!((0..e.len()).filter(|&c| crust[c] == 0.0).all(|c| e[c] > 0.5));
    // Some land is dry plateau, most is not; plateaus stand high.
    let dry = area_share(96, |c| e[c] < 0.5);
    let land = area_share(96, |c| h[c] > 0.0);
    assert!(dry > 0.002 && dry < 0.3 * land, "dry {dry} of land {land}");
    let high: f64 = (0..e.len()).filter(|&c| e[c] < 0.5).map(|c| f64::from(h[c])).sum::<f64>() / (0..e.len()).filter(|&c| e[c] < 0.5).count() as f64;
    assert!(high > 1500.0, "plateau mean {high} m");
}

#[test]
fn the_same_planet_comes_out_whatever_the_thread_count() {
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool").install(|| planet(48, 2));
    let many = rayon::ThreadPoolBuilder::new().num_threads(3).build().expect("pool").install(|| planet(48, 2));
    assert_eq!(one.elevation, many.elevation);
    assert_eq!(one.age_myr, many.age_myr);
    assert_eq!(one.uplift_mm_yr, many.uplift_mm_yr);
    assert_eq!(one.erodibility, many.erodibility);
}

#[test]
fn a_finer_build_matches_the_structure_resolution() {
    // Above the structure resolution the plate features are sampled up: the planet at twice
    // the resolution, sampled down, still correlates closely with the planet built there.
    let regions = Arc::new(RegionSurface::new(40, 0.9, 3));
    let plates = Plates::grow(regions, &PlateSettings { count: 24, expansion_range: 2.0, random_driven: true, max_cycles: None, seed: 11 }).expect("plates");
    let cancel = AtomicBool::new(false);
    let s = ReliefSettings::default();
    let base = earth_relief(&plates, &s, STRUCTURE_N, &cancel).expect("surface");
    let fine = earth_relief(&plates, &s, STRUCTURE_N * 2, &cancel).expect("surface");
    let down = metres(&fine).resample(STRUCTURE_N);
    let r = crate::planet::field::correlation(metres(&base).data(), down.data());
    assert!(r > 0.97, "correlation {r}");
}

/// Rock variation multiplies the land's erodibility by patches of harder and softer rock, and
/// leaves the rest of the relief and the sea's erodibility as they were.
#[test]
fn rock_variation_patterns_the_land_s_erodibility_only() {
    let n = 48;
    let regions = Arc::new(RegionSurface::new(40, 0.9, 3));
    let plates = Plates::grow(regions, &PlateSettings { count: 24, expansion_range: 2.0, random_driven: true, max_cycles: None, seed: 11 }).expect("plates");
    let run = |rock_variation: f32| earth_relief(&plates, &ReliefSettings { seed: 4, rock_variation, ..Default::default() }, n, &AtomicBool::new(false)).expect("not cancelled");
    let (plain, varied) = (run(0.0), run(1.0));
    assert_eq!(plain.elevation, varied.elevation);
    assert_eq!(plain.uplift_mm_yr, varied.uplift_mm_yr);
    let (e0, e1) = (plain.erodibility.data(), varied.erodibility.data());
    let land: Vec<usize> = (0..e0.len()).filter(|&c| plain.crust.data()[c] > 0.99).collect();
    let ratios: Vec<f32> = land.iter().map(|&c| e1[c] / e0[c]).collect();
    let (lo, hi) = ratios.iter().fold((f32::INFINITY, 0.0f32), |(a, b), &r| (a.min(r), b.max(r)));
    assert!(lo < 0.8 && hi > 1.25 && lo > 0.2 && hi < 5.0, "harder and softer rock: {lo}..{hi}");
    let deep_sea = (0..e0.len()).filter(|&c| plain.crust.data()[c] < 0.01);
    assert!(deep_sea.into_iter().all(|c| e0[c] == e1[c]), "the ocean floor keeps its erodibility");
    assert_eq!(rock_factor(0.0, 0.5), 1.0);
    assert!((rock_factor(1.0, 0.5) - 2.0).abs() < 1e-6);
}

/// The relief's caches (continents, plate warp, surface noises) are keyed by every setting
/// their values depend on: a relief that differs from a cached one in a single setting gives
/// the bytes it gives with the caches empty. A setting missing from a key would hand it the
/// other relief's entry.
#[test]
fn the_relief_s_caches_tell_every_setting_apart() {
    let n = 40;
    let regions = Arc::new(RegionSurface::new(40, 0.9, 3));
    let plates = Plates::grow(regions, &PlateSettings { count: 24, expansion_range: 2.0, random_driven: true, max_cycles: None, seed: 11 }).expect("plates");
    let run = |s: &ReliefSettings| earth_relief(&plates, s, n, &AtomicBool::new(false)).expect("not cancelled");
    let clear = || {
        crust::clear_cache();
        lookup::clear_cache();
        noise::clear_cache();
    };
    let base = ReliefSettings { seed: 21, rock_variation: 1.0, ..Default::default() };
    let variants = [
        ReliefSettings { seed: 22, ..base },
        ReliefSettings { land_fraction: 0.4, ..base },
        ReliefSettings { continents: 3, ..base },
        ReliefSettings { coast_frequency: 5.0, ..base },
        ReliefSettings { radius_km: 3000.0, ..base },
        ReliefSettings { boundary_warp: 1.5, ..base },
        ReliefSettings { rock_variation: 0.0, ..base },
    ];
    let bits = |p: &ReliefSurface| [&p.elevation, &p.erodibility, &p.plate_id, &p.crust].map(|f| f.data().iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    clear();
    let fresh_base = bits(&run(&base));
    for other in variants {
        clear();
        let fresh = bits(&run(&other));
        // Each after the other has filled the caches: the variant after the base, and the
        // base after the variant.
        clear();
        run(&base);
        assert!(bits(&run(&other)) == fresh, "{other:?} after the base: not the bytes it gives with the caches empty");
        clear();
        run(&other);
        assert!(bits(&run(&base)) == fresh_base, "the base after {other:?}: not the bytes it gives with the caches empty");
        // The variant is a different relief (rock variation changes the erodibility alone).
        assert!(fresh != fresh_base, "{other:?} made the same relief");
    }
}
