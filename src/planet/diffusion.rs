//! Resolution-independent counts for local smoothing on the cube-sphere, shared by the blur
//! and box-filter nodes, the sea floor and the tectonic elevation.

/// Mean angular size of a cell edge in radians at resolution `n` (cells per face edge).
pub fn cell_angle(n: usize) -> f32 {
    std::f32::consts::FRAC_PI_2 / n as f32
}

/// Passes of a local smoothing (box filter, Jacobi step) at resolution `n` for `passes` at the
/// reference resolution 128: such a diffusion reaches about `sqrt(passes)` cells, so the count
/// grows with `(n / 128)^2` to smooth the same distance on the planet.
pub fn diffusion_passes(iterations: usize, n: usize) -> usize {
    let scale = (n as f64 / 128.0).powi(2);
    (iterations as f64 * scale).round() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_scale_with_the_square_of_the_resolution() {
        assert_eq!(diffusion_passes(128, 16), 2);
        assert_eq!(diffusion_passes(20, 512), 320);
        assert_eq!(diffusion_passes(0, 512), 0);
    }
}
