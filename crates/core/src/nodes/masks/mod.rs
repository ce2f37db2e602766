//! Mask nodes (World Machine's selectors): masks from height bands and curvature, and the
//! distance to the coast. Slope lives in `modify/slope.rs`.

pub mod coast_distance;
pub mod curvature;
pub mod falloff;
pub mod height_band;
pub mod wetness;

/// Hermite smoothstep of `x` from `a` (0) to `b` (1); a step at `a` when `b <= a`.
pub fn smoothstep(a: f32, b: f32, x: f32) -> f32 {
    if b <= a {
        return if x >= a { 1.0 } else { 0.0 };
    }
    crate::planet::smoothstep((x - a) / (b - a))
}
