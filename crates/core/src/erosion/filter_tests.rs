//! Tests of the erosion filter's gullies ([`super::GullyFilter`]).

use super::*;

fn spec() -> GullySpec {
    GullySpec { spacing_rad: 0.02, octaves: 6, strength: 0.6, gain: 0.8, follow: 1.0, min_slope: 0.0, seed: 3 }
}

const DRY: PointWater = PointWater { river: 0.0, scale: 1.0 };

#[test]
fn the_fast_sine_and_cosine_are_close_to_the_library_s() {
    for k in -20_000..20_000 {
        let x = k as f32 * 0.000_137;
        for y in [x, -x, x * 3.0, x + 0.25, x * 31.0] {
            let (sin, cos) = sin_cos_turns(y);
            let (sin_exact, cos_exact) = (f64::from(y) * std::f64::consts::TAU).sin_cos();
            assert!((f64::from(sin) - sin_exact).abs() < 2e-6 && (f64::from(cos) - cos_exact).abs() < 2e-6, "at {y}: {sin}, {cos} against {sin_exact}, {cos_exact}");
        }
    }
}

/// A level adds octaves as its cells shrink; a coarse level gets none.
#[test]
fn a_level_gets_the_octaves_its_cells_resolve() {
    // Cells of 1/128 of a quarter turn (0.0123 rad) cannot hold a 0.02 rad wavelength.
    assert!(GullyFilter::new(&spec(), 128).is_empty());
    let (a, b) = (GullyFilter::new(&spec(), 1024), GullyFilter::new(&spec(), 8192));
    assert!(a.octave_count() >= 2 && b.octave_count() == 6, "{} then {}", a.octave_count(), b.octave_count());
    // Shared octaves keep their wavelength and seed; only the finest faded one differs.
    for (x, y) in a.octaves.iter().zip(&b.octaves) {
        assert_eq!((x.cells_per_radian, x.seed), (y.cells_per_radian, y.seed));
        assert!(x.amplitude_per_slope <= y.amplitude_per_slope);
    }
}

/// An octave that would show less than [`MIN_OCTAVE_SHARE`] of its depth costs a whole
/// octave for nothing: it is left out, and one just above it is kept.
#[test]
fn an_octave_barely_resolved_is_left_out() {
    let cell = crate::planet::diffusion::cell_angle(1024);
    let at = |cells_per_wave: f32| GullyFilter::new(&GullySpec { spacing_rad: cells_per_wave * cell, octaves: 1, ..spec() }, 1024).octave_count();
    assert_eq!(at(2.05), 0, "2.5 % of its depth");
    assert_eq!(at(2.2), 1, "10 % of its depth");
}

/// Flat ground stays flat; steeper ground gets deeper gullies.
#[test]
fn the_gullies_grow_with_the_slope_and_vanish_on_flats() {
    let f = GullyFilter::new(&spec(), 8192);
    let p = Vec3::new(0.3, 0.5, 0.8).normalize();
    let east = Vec3::Y.cross(p).normalize();
    assert_eq!(f.at(p, Vec3::ZERO, DRY), 0.0);
    let spread = |slope: f32| {
        let mut s = 0.0f32;
        for k in 0..400 {
            let q = (p + east * (k as f32 * 1e-4)).normalize();
            s = s.max(f.at(q, east * slope, DRY).abs());
        }
        s
    };
    let (gentle, steep) = (spread(0.5), spread(2.0));
    assert!(gentle > 0.0 && (steep / gentle - 4.0).abs() < 0.5, "{gentle} then {steep}");
    // With a slope for flat ground, flats get gullies as deep as that slope gives.
    let floor = GullyFilter::new(&GullySpec { min_slope: 0.5, ..spec() }, 8192);
    let on_flat = (0..400).map(|k| floor.at((p + east * (k as f32 * 1e-4)).normalize(), Vec3::ZERO, DRY).abs()).fold(0.0f32, f32::max);
    assert!(on_flat > 0.3 * gentle && on_flat < 3.0 * gentle, "{on_flat} on flat ground against {gentle}");
}

/// The stripes run downhill: along the slope the filter varies far less than across it.
#[test]
fn the_gullies_run_downhill() {
    let mut s = spec();
    (s.octaves, s.follow) = (1, 0.0);
    let f = GullyFilter::new(&s, 1 << 16);
    let p = Vec3::new(-0.2, 0.7, 0.6).normalize();
    let down = Vec3::Y.cross(p).normalize();
    let across = p.cross(down);
    let g = down * 3.0;
    let step = 0.02 / 40.0;
    let variation = |dir: Vec3| -> f32 { (0..400).map(|k| (f.at((p + dir * (k as f32 * step)).normalize(), g, DRY) - f.at((p + dir * ((k + 1) as f32 * step)).normalize(), g, DRY)).abs()).sum() };
    let (along, over) = (variation(down), variation(across));
    assert!(over > 4.0 * along, "across {over}, along {along}");
}

/// A row of points evaluated in lanes (in vector instructions where the CPU has them) gives
/// each point, to the bit, what it gets alone: with drift, on flats, under rivers, in
/// lakes, and in a row whose length is not a whole number of lane groups.
#[test]
fn a_row_in_lanes_gives_each_point_its_own_value() {
    let f = GullyFilter::new(&GullySpec { min_slope: 0.3, ..spec() }, 8192);
    let p = Vec3::new(0.4, -0.2, 0.9).normalize();
    let (east, north) = (Vec3::Y.cross(p).normalize(), p.cross(Vec3::Y.cross(p).normalize()));
    let count = 8 * WIDE_LANES + 5;
    let points: Vec<Vec3> = (0..count).map(|k| (p + east * (k as f32 * 3e-5) + north * (k as f32 * 1e-5)).normalize()).collect();
    let gradients: Vec<Vec3> = (0..count).map(|k| if k % 7 == 3 { Vec3::ZERO } else { east * 0.7 + north * (0.3 * (k as f32 * 0.05).sin()) }).collect();
    let water: Vec<PointWater> = (0..count).map(|k| PointWater { river: [0.0, 0.5, 1.0][k % 3], scale: [1.0, 0.0, 0.6, 1.0, 1.0][k % 5] }).collect();
    for filter in [f.clone(), GullyFilter::new(&spec(), 8192)] {
        let mut row = vec![f32::NAN; count];
        filter.at_row(&points, &gradients, &water, &mut row);
        let mut changed = 0;
        for k in 0..count {
            let alone = filter.at(points[k], gradients[k], water[k]);
            assert_eq!(row[k].to_bits(), alone.to_bits(), "point {k}");
            changed += usize::from(alone != 0.0);
        }
        assert!(changed > count / 2, "{changed} of {count} points get gullies");
        // Every vector path the CPU has, not only the one `at_row` picks.
        for (path, by_path) in filter.row_by_every_path(&points, &gradients, &water) {
            for k in 0..count {
                assert_eq!(by_path[k].to_bits(), row[k].to_bits(), "point {k} by the {path} path");
            }
        }
    }
}

/// Under a river the filter leaves troughs only; a lake or mask scale of 0 leaves the ground.
#[test]
fn rivers_get_troughs_and_lakes_keep_their_floor() {
    let f = GullyFilter::new(&spec(), 8192);
    let p = Vec3::new(0.1, -0.3, 0.9).normalize();
    let g = Vec3::X.cross(p).normalize();
    for k in 0..200 {
        let q = (p + Vec3::X * (k as f32 * 3e-4)).normalize();
        assert!(f.at(q, g, PointWater { river: 1.0, scale: 1.0 }) <= 0.0);
        assert_eq!(f.at(q, g, PointWater { river: 0.0, scale: 0.0 }), 0.0);
    }
}
