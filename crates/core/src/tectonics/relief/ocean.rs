//! Ocean floor by age: depth below sea level from the time since the floor formed at a ridge
//! (Stein & Stein 1992, GDH1), and the age from the distance to the ridge over the spreading
//! speed.

/// The oldest ocean floor, Myr (Earth's oldest is about 180 Myr).
pub const MAX_AGE_MYR: f32 = 180.0;

/// Depth in metres (positive) of ocean floor `age_myr` old: `2600 + 365 sqrt(t)` up to 20 Myr,
/// then `5651 - 2473 exp(-0.0278 t)`, flattening near 5.65 km (GDH1). The two branches meet
/// within 3 m.
pub fn depth_m(age_myr: f32) -> f32 {
    let t = age_myr.clamp(0.0, MAX_AGE_MYR);
    if t < 20.0 {
        2600.0 + 365.0 * t.sqrt()
    } else {
        5651.0 - 2473.0 * (-0.0278 * t).exp()
    }
}

/// Age in Myr of floor `distance_km` from its ridge on a plate moving away from it at
/// `half_rate_cm_yr` (half the ridge's opening speed), capped at [`MAX_AGE_MYR`]. 1 cm/yr is
/// 10 km/Myr.
pub fn age_myr(distance_km: f32, half_rate_cm_yr: f32) -> f32 {
    (distance_km / (10.0 * half_rate_cm_yr.max(0.2))).min(MAX_AGE_MYR)
}

/// How much sediment raises floor `age_myr` old, m: a blanket that thickens towards about
/// 1 km on the oldest floor (60 Myr e-folding), of which 0.7 shows as shallower water once the
/// floor has sunk under its load.
pub fn sediment_uplift_m(age_myr: f32) -> f32 {
    0.7 * 1000.0 * (1.0 - (-age_myr.max(0.0) / 60.0).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_follows_the_square_root_of_age_and_flattens() {
        assert!((depth_m(0.0) - 2600.0).abs() < 1e-3);
        // Square-root law while young: four times older, twice the subsidence.
        let s1 = depth_m(4.0) - 2600.0;
        let s4 = depth_m(16.0) - 2600.0;
        assert!((s4 / s1 - 2.0).abs() < 1e-3);
        // The branches meet.
        assert!((depth_m(19.999) - depth_m(20.0)).abs() < 5.0);
        // Deepening all the way, flattening near 5.6 km.
        let mut last = 0.0;
        for k in 0..=180 {
            let d = depth_m(k as f32);
            assert!(d >= last);
            last = d;
        }
        assert!((5400.0..5651.0).contains(&last), "{last}");
    }

    #[test]
    fn age_is_distance_over_half_rate() {
        // 5 cm/yr half rate = 50 km/Myr: 1000 km is 20 Myr.
        assert!((age_myr(1000.0, 5.0) - 20.0).abs() < 1e-4);
        assert_eq!(age_myr(1.0e6, 1.0), MAX_AGE_MYR);
    }
}
