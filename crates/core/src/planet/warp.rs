//! The tangent warp of seed 000 (Zucker & Higashi 2018) between linear face coordinates and
//! cube coordinates.

/// Warp angle with the lowest area-distortion RMSE (seed 000). `PI / 4` is the plain tangent
/// warp.
pub const WARP_THETA: f32 = 0.868_73;

/// Maps a linear face coordinate `x` in [-1, 1] to the cube-plane coordinate in [-1, 1].
pub fn warp(x: f32) -> f32 {
    (x * WARP_THETA).tan() / WARP_THETA.tan()
}

/// Derivative `du/dx` of [`warp`] at `x`: how much the warp stretches a step of the linear
/// face coordinate there.
pub fn warp_slope(x: f32) -> f32 {
    WARP_THETA / ((x * WARP_THETA).cos().powi(2) * WARP_THETA.tan())
}

/// Inverse of [`warp`]: cube-plane coordinate `u` in [-1, 1] to linear face coordinate.
pub fn unwarp(u: f32) -> f32 {
    (u * WARP_THETA.tan()).atan() / WARP_THETA
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warp_round_trip_and_fixed_points() {
        for k in 0..=200 {
            let x = -1.0 + k as f32 / 100.0;
            assert!((unwarp(warp(x)) - x).abs() < 1e-5);
        }
        assert!((warp(1.0) - 1.0).abs() < 1e-6);
        assert!((warp(-1.0) + 1.0).abs() < 1e-6);
        assert_eq!(warp(0.0), 0.0);
    }

    #[test]
    fn warp_slope_is_the_derivative() {
        for k in 0..=20 {
            let x = -1.0 + k as f32 / 10.0;
            let h = 1e-3;
            let numeric = (warp(x + h) - warp(x - h)) / (2.0 * h);
            assert!((warp_slope(x) - numeric).abs() < 1e-3, "{x}: {} vs {numeric}", warp_slope(x));
        }
    }

    #[test]
    fn warp_evens_out_cell_sizes() {
        // Angular size of the centre cell vs the edge cell, with and without the warp.
        let ang = |u0: f32, u1: f32| (u1.atan() - u0.atan()).abs();
        let n = 64.0;
        let lin = ang(1.0 - 2.0 / n, 1.0) / ang(0.0, 2.0 / n);
        let w = ang(warp(1.0 - 2.0 / n), 1.0) / ang(warp(0.0), warp(2.0 / n));
        assert!(lin < 0.6, "unwarped edge cells are much smaller: {lin}");
        assert!((w - 1.0).abs() < 0.25, "warped cells are close to even: {w}");
    }
}
