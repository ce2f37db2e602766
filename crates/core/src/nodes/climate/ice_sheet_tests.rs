use super::*;
use crate::nodes::output::planet::EARTH;
use crate::nodes::params::Settings;
use crate::nodes::NodeKind;
use glam::Vec3;
use std::sync::atomic::AtomicBool;

fn defaults() -> IceSheetSettings {
    IceSheetSettings::from_params(&NodeKind::IceSheet.default_params()).expect("defaults")
}

/// Runs the node on a bed in metres and a temperature field; returns its outputs with the
/// surface and the lowered bed in metres.
fn run_all(s: &IceSheetSettings, bed_m: &Field, temperature: &Field, precipitation: Option<&Field>) -> Vec<Field> {
    let n = bed_m.n();
    let cancel = AtomicBool::new(false);
    let ctx = OpContext { n, tile: None, cancel: &cancel, steps: None, planet: Some(&EARTH), files: &[] };
    let bed = bed_m.map(|m| EARTH.from_metres(m));
    let inputs = [Some(bed.into()), Some(temperature.clone().into()), precipitation.map(|p| p.clone().into())];
    let out = IceSheet::run(s, &Inputs(&inputs), &ctx).expect("runs");
    let field = |k: usize| Field::clone(out[k].as_field().expect("a field"));
    let metres = |k: usize| field(k).map(|v| EARTH.to_metres(v));
    vec![metres(SURFACE.index()), field(THICKNESS.index()), field(ICE.index()), metres(BED.index()), field(SINKING.index())]
}

/// The surface in metres, the thickness and the cover of [`run_all`].
fn run(s: &IceSheetSettings, bed_m: &Field, temperature: &Field, precipitation: Option<&Field>) -> (Field, Field, Field) {
    let mut out = run_all(s, bed_m, temperature, precipitation).into_iter();
    let mut next = || out.next().expect("an output");
    (next(), next(), next())
}

/// Angle in radians between two directions.
fn angle(a: Vec3, b: Vec3) -> f32 {
    a.dot(b).clamp(-1.0, 1.0).acos()
}

/// A flat continent 300 m high of radius `r` (radians) around `centre` in a sea 3000 m deep,
/// with a peak of `peak_m` at `peak` (within 0.03 rad).
fn continent(n: usize, centre: Vec3, r: f32, peak: Vec3, peak_m: f32) -> Field {
    Field::from_fn_dir(n, |d| {
        if angle(d, centre) > r {
            -3000.0
        } else if angle(d, peak) < 0.03 {
            peak_m
        } else {
            300.0
        }
    })
}

#[test]
fn the_plastic_profile_gives_greenland_and_east_antarctica_heights() {
    let p = IceProfile::new(60.0);
    assert!((p.height_m(500.0) - 2580.0).abs() < 60.0, "{}", p.height_m(500.0));
    assert!((p.height_m(1200.0) - 4000.0).abs() < 80.0, "{}", p.height_m(1200.0));
    assert_eq!(p.height_m(0.0), 0.0);
    assert_eq!(p.height_m(-5.0), 0.0);
}

#[test]
fn a_cold_continent_domes_up_from_its_margin_and_a_peak_stands_through_it() {
    let n = 96;
    let radius_km = EARTH.radius_km;
    let r = 0.25f32;
    let s = IceSheetSettings { crevasses_m: 0.0, ..defaults() };
    let profile = IceProfile::new(s.yield_stress_kpa);
    // A mid-face continent and one on a cube corner: the dome is the same across the seams.
    for centre in [Vec3::new(0.2, 0.1, 1.0).normalize(), Vec3::ONE.normalize()] {
        let side = centre.cross(Vec3::Y).normalize();
        let peak = (centre * 0.12f32.cos() + side * 0.12f32.sin()).normalize();
        let bed = continent(n, centre, r, peak, 5500.0);
        let cold = Field::filled(n, -30.0);
        let out = run_all(&s, &bed, &cold, None);
        let (surface, thickness, ice, sinking) = (&out[0], &out[1], &out[2], &out[4]);
        // At the centre the ice stands at the profile's height over the flat bed, lowered by
        // the ice's weight (within the margin's position, a cell, and the blur of the coast
        // into the base).
        let want = 300.0 - sinking.sample_dir(centre) + profile.height_m(r * radius_km);
        let got = surface.sample_dir(centre);
        assert!((got - want).abs() < 0.08 * want, "{centre}: centre at {got} m, want about {want} m");
        // It rises from the margin inwards along any line.
        let up = side.cross(centre);
        let along = |a: f32| surface.sample_dir((centre * a.cos() + up * a.sin()).normalize());
        let heights: Vec<f32> = [0.2, 0.15, 0.1, 0.05].iter().map(|&a| along(a)).collect();
        assert!(heights.windows(2).all(|w| w[1] > w[0]), "{centre}: {heights:?}");
        // The peak stands above the ice, bare: a nunatak (sunk with the sheet around it).
        let peak_m = 5500.0 - sinking.sample_dir(peak);
        assert!(thickness.sample_dir(peak) < 1.0 && (surface.sample_dir(peak) - peak_m).abs() < 1.0, "{centre}: the peak is under {} m of ice", thickness.sample_dir(peak));
        // The sea stays open.
        let sea = (centre * 0.6f32.cos() + up * 0.6f32.sin()).normalize();
        assert_eq!(thickness.sample_dir(sea), 0.0);
        assert_eq!(ice.sample_dir(sea), 0.0);
        assert_eq!(ice.sample_dir(centre), 1.0);
    }
}

#[test]
fn warm_land_and_dry_cold_land_keep_their_bed() {
    let n = 48;
    let centre = Vec3::new(0.2, 0.1, 1.0).normalize();
    let bed = continent(n, centre, 0.4, centre, 300.0);
    // Warmer than the snow line everywhere: nothing changes, to the bit.
    let (surface, thickness, _) = run(&defaults(), &bed, &Field::filled(n, 5.0), None);
    assert!(thickness.data().iter().all(|&t| t == 0.0));
    let units = |f: &Field| f.map(|m| EARTH.from_metres(m));
    assert_eq!(units(&surface).data(), units(&bed).data());
    // At -13 °C: ice where 2000 mm/yr falls (its line about -11 °C), none where 100 mm/yr
    // falls (about -23 °C).
    let cold = Field::filled(n, -13.0);
    let (_, wet, _) = run(&defaults(), &bed, &cold, Some(&Field::filled(n, 2000.0)));
    let (_, dry, _) = run(&defaults(), &bed, &cold, Some(&Field::filled(n, 100.0)));
    assert!(wet.sample_dir(centre) > 1000.0, "{}", wet.sample_dir(centre));
    assert_eq!(dry.sample_dir(centre), 0.0);
}

#[test]
fn the_margin_is_rough_and_the_interior_smooth() {
    let n = 128;
    let centre = Vec3::new(0.2, 0.1, 1.0).normalize();
    let bed = continent(n, centre, 0.35, centre, 300.0);
    let cold = Field::filled(n, -30.0);
    let smooth = run(&IceSheetSettings { crevasses_m: 0.0, ..defaults() }, &bed, &cold, None).0;
    let rough = run(&IceSheetSettings { crevasses_m: 200.0, ..defaults() }, &bed, &cold, None).0;
    // Mean absolute difference in a ring 30..90 km inside the margin, and deep inside.
    let ring = |lo: f32, hi: f32| {
        let cells: Vec<usize> = (0..6 * n * n)
            .filter(|&c| {
                let km = (0.35 - angle(crate::planet::Cell::from_index(c, n).direction(n), centre)) * EARTH.radius_km;
                (lo..hi).contains(&km)
            })
            .collect();
        cells.iter().map(|&c| (rough.data()[c] - smooth.data()[c]).abs()).sum::<f32>() / cells.len().max(1) as f32
    };
    let (margin, interior) = (ring(30.0, 90.0), ring(600.0, 1500.0));
    assert!(margin > 20.0, "margin roughness {margin} m");
    assert_eq!(interior, 0.0, "interior roughness {interior} m");
}

#[test]
fn the_ice_presses_its_bed_down_by_its_weight_over_the_mantle() {
    let n = 96;
    let centre = Vec3::new(0.2, 0.1, 1.0).normalize();
    let bed = continent(n, centre, 0.25, centre, 300.0);
    let out = run_all(&IceSheetSettings { crevasses_m: 0.0, ..defaults() }, &bed, &Field::filled(n, -30.0), None);
    let (surface, thickness, lowered, sinking) = (&out[0], &out[1], &out[3], &out[4]);
    // Under the middle of the sheet, where the thickness varies slowly, the bed sinks by
    // 917/3300 of it (Airy isostasy: about 1.1 km under 4 km of ice).
    let (t, down) = (thickness.sample_dir(centre), sinking.sample_dir(centre));
    assert!(t > 3000.0, "{t} m of ice");
    assert!((down - t * 917.0 / 3300.0).abs() < 0.05 * down, "{down} m under {t} m of ice");
    for c in 0..6 * n * n {
        // The lowered bed is the bed less the sinking, and the ice stands on it.
        assert!((lowered.data()[c] - (bed.data()[c] - sinking.data()[c])).abs() < 0.5, "cell {c}");
        assert!((surface.data()[c] - lowered.data()[c] - thickness.data()[c]).abs() < 0.5, "cell {c}");
    }
    // Far from the ice the bed keeps its height, to the bit.
    let far = Vec3::new(-0.2, -0.1, -1.0).normalize();
    assert_eq!(sinking.sample_dir(far), 0.0);
    assert_eq!(lowered.sample_dir(far), bed.sample_dir(far));
}

#[test]
fn an_inland_basin_below_sea_level_lies_under_the_ice() {
    // A cold continent with a closed hollow 500 m below sea level near its middle: the ice
    // covers it (as Vostok's), it is not open water in the sheet; the sea around stays open.
    let n = 96;
    let centre = Vec3::new(0.2, 0.1, 1.0).normalize();
    let side = centre.cross(Vec3::Y).normalize();
    let hollow = (centre * 0.05f32.cos() + side * 0.05f32.sin()).normalize();
    let plain = continent(n, centre, 0.25, centre, 300.0);
    let bed = Field::from_fn_cell(n, |c| if angle(crate::planet::Cell::from_index(c, n).direction(n), hollow) < 0.04 { -500.0 } else { plain.data()[c] });
    let (_, thickness, ice) = run(&IceSheetSettings { crevasses_m: 0.0, ..defaults() }, &bed, &Field::filled(n, -30.0), None);
    assert!(thickness.sample_dir(hollow) > 1000.0, "{} m of ice over the hollow", thickness.sample_dir(hollow));
    assert_eq!(ice.sample_dir(hollow), 1.0);
    let sea = (centre * 0.6f32.cos() + side * 0.6f32.sin()).normalize();
    assert_eq!(ice.sample_dir(sea), 0.0);
}
