use super::*;
use crate::planet::coords::dir_to_cell;

const R_KM: f64 = 6371.0;
const N: usize = 128;
/// Lines of sight of five cells and relief discs of 200 km at 128 cells per face edge.
const S: LandformSettings = LandformSettings { lookup_km: 400.0, flat_deg: 0.1, relief_radius_km: 200.0 };

fn form_at(f: &Field, dir: Vec3) -> Option<Landform> {
    geomorphons(f, R_KM, &S)[dir_to_cell(dir.normalize(), f.n()).index(f.n())]
}

/// Angle in radians between the unit vector of `d` and the fixed centre of the test shapes.
fn from_centre(d: Vec3) -> f32 {
    let c = Vec3::new(0.3, 0.5, 0.8).normalize();
    d.normalize().dot(c).clamp(-1.0, 1.0).acos()
}

#[test]
fn level_ground_is_flat_with_no_relief() {
    let f = Field::filled(N, 100.0);
    assert!(geomorphons(&f, R_KM, &S).iter().all(|x| *x == Some(Landform::Flat)));
    let fig = landform_figures(&f, R_KM, &S).expect("land");
    assert_eq!(fig.share(Landform::Flat), 1.0);
    assert_eq!(fig.relief_m, [0.0; 4]);
}

#[test]
fn a_cone_has_a_peak_and_a_bowl_a_pit() {
    let cone = Field::from_fn_dir(N, |d| 10.0 + 30000.0 * (1.0 - from_centre(d) / 0.3).max(0.0));
    let bowl = Field::from_fn_dir(N, |d| 10.0 + 30000.0 * (from_centre(d) / 0.3).min(1.0));
    let centre = Vec3::new(0.3, 0.5, 0.8);
    assert_eq!(form_at(&cone, centre), Some(Landform::Peak));
    assert_eq!(form_at(&bowl, centre), Some(Landform::Pit));
    // Far from the shapes the ground is level.
    assert_eq!(form_at(&cone, -centre), Some(Landform::Flat));
    // The local relief at the apex: the cone's fall over the disc's 200 km radius (shapes
    // steeper than Earth's at this scale, so that cells of 78 km see them).
    let relief = local_relief(&cone, R_KM, S.relief_radius_km);
    let at_apex = relief[dir_to_cell(centre.normalize(), N).index(N)].expect("land");
    let expected = 30000.0 * 200.0 / (0.3 * R_KM as f32);
    assert!((at_apex - expected).abs() < 0.25 * expected, "relief at the apex {at_apex} m, expected about {expected}");
}

#[test]
fn an_even_slope_is_slope() {
    let ramp = Field::from_fn_dir(N, |d| 10.0 + 30000.0 * (d.normalize().x + 1.0));
    assert_eq!(form_at(&ramp, Vec3::new(0.3, 0.6, 0.74)), Some(Landform::Slope));
}

#[test]
fn ridges_and_valleys_along_a_great_circle_cross_the_seams() {
    let band = |d: Vec3| (-(d.normalize().y / 0.05).powi(2)).exp();
    let ridge = Field::from_fn_dir(N, |d| 10.0 + 2000.0 * band(d));
    let valley = Field::from_fn_dir(N, |d| 2010.0 - 2000.0 * band(d));
    // On the equator: across four faces and on the seams between them (45 degrees).
    for deg in [0.0f32, 30.0, 45.0, 100.0, 135.0, 225.0, 300.0, 315.0] {
        let d = Vec3::new(deg.to_radians().cos(), 0.0, deg.to_radians().sin());
        assert_eq!(form_at(&ridge, d), Some(Landform::Ridge), "ridge at longitude {deg}");
        assert_eq!(form_at(&valley, d), Some(Landform::Valley), "valley at longitude {deg}");
    }
}

#[test]
fn the_sea_is_left_out() {
    // Land where x > 0: half the planet, tilted up away from the coast.
    let f = Field::from_fn_dir(N, |d| 3000.0 * d.normalize().x);
    let forms = geomorphons(&f, R_KM, &S);
    let land = f.data().iter().filter(|&&z| z > 0.0).count();
    assert_eq!(forms.iter().filter(|x| x.is_some()).count(), land);
    let fig = landform_figures(&f, R_KM, &S).expect("land");
    assert!((fig.shares.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    assert!(fig.relief_m.windows(2).all(|w| w[0] <= w[1]), "quantiles rise: {:?}", fig.relief_m);
    assert!(landform_figures(&Field::filled(N, -5.0), R_KM, &S).is_none());
}

#[test]
fn the_table_reads_by_lower_and_higher_counts() {
    assert_eq!(Landform::from_counts(8, 0), Landform::Peak);
    assert_eq!(Landform::from_counts(0, 8), Landform::Pit);
    assert_eq!(Landform::from_counts(6, 0), Landform::Ridge);
    assert_eq!(Landform::from_counts(0, 6), Landform::Valley);
    assert_eq!(Landform::from_counts(3, 3), Landform::Slope);
    assert_eq!(Landform::from_counts(4, 2), Landform::Spur);
    assert_eq!(Landform::from_counts(2, 4), Landform::Hollow);
    assert_eq!(Landform::from_counts(3, 0), Landform::Shoulder);
    assert_eq!(Landform::from_counts(0, 3), Landform::Footslope);
    assert_eq!(Landform::from_counts(1, 1), Landform::Flat);
}
