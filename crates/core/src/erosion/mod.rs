//! Erosion, water and reefs on the whole cube-sphere (seeds 002 and 004): every flux,
//! neighbour and trace crosses the face seams, so no cube edge shows.

pub mod coral;
pub mod drainage;
pub mod droplet;
pub mod filter;
pub mod hydraulic;
pub mod landscape;
pub mod lsystem;
pub mod seafloor;
pub mod thermal;

/// Seconds in a year (365.25 days): annual rates to per-second flows.
pub const SECONDS_PER_YEAR: f64 = 365.25 * 86_400.0;

/// Rolling hills for the erosion tests (elevation about 0 to 0.8, seamless).
/// Zeroes values too small to matter (also keeps denormals out of the inner loops).
#[inline]
pub fn flush(x: f32) -> f32 {
    if x.abs() < 1e-20 {
        0.0
    } else {
        x
    }
}

#[cfg(test)]
pub(crate) fn test_hills(n: usize) -> crate::planet::Field {
    crate::planet::Field::from_fn_dir(n, |d| 0.4 + 0.3 * (d.x * 6.0).sin() * (d.y * 5.0).cos() + 0.1 * (d.z * 13.0).sin())
}
