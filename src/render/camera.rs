//! The orbit camera of the viewport.

use glam::{Mat4, Vec3};

/// A camera orbiting the planet centre.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OrbitCamera {
    /// Rotation around the Y axis in radians (0 looks at the +Z face).
    pub yaw: f32,
    /// Elevation angle in radians (positive looks from the north).
    pub pitch: f32,
    /// Distance from the centre in planet radii.
    pub distance: f32,
    /// Vertical field of view in radians.
    pub fov_y: f32,
    /// Tilt of the view away from the planet centre towards the horizon, in radians (0 looks
    /// straight down at the centre; [`MAX_TILT`] looks almost along the surface).
    pub tilt: f32,
}

/// Closest approach to the surface, in planet radii of altitude.
pub const MIN_ALTITUDE: f32 = 0.004;
/// Farthest distance from the centre in planet radii.
pub const MAX_DISTANCE: f32 = 20.0;
/// Largest tilt towards the horizon in radians (about 84 degrees).
pub const MAX_TILT: f32 = 1.47;

impl Default for OrbitCamera {
    fn default() -> Self {
        OrbitCamera { yaw: 0.5, pitch: 0.35, distance: 3.9, fov_y: 0.7, tilt: 0.0 }
    }
}

impl OrbitCamera {
    /// Camera position in planet radii.
    pub fn eye(&self) -> Vec3 {
        Vec3::new(self.pitch.cos() * self.yaw.sin(), self.pitch.sin(), self.pitch.cos() * self.yaw.cos()) * self.distance
    }

    /// Altitude above the unit sphere in planet radii.
    pub fn altitude(&self) -> f32 {
        self.distance - 1.0
    }

    /// Rotates by a drag of `(dx, dy)` pixels; the closer to the surface, the slower, so a
    /// drag moves the ground under the pointer by about the same amount at any height.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        let k = 0.008 * (self.altitude() / 2.9).clamp(0.01, 1.0);
        self.yaw -= dx * k;
        self.pitch = (self.pitch + dy * k).clamp(-1.55, 1.55);
    }

    /// Zooms by a scroll of `delta` points (positive zooms in). The altitude changes by a
    /// fixed factor per step, so steps slow down near the surface.
    pub fn zoom(&mut self, delta: f32) {
        let altitude = (self.altitude() * (-delta * 0.002).exp()).clamp(MIN_ALTITUDE, MAX_DISTANCE - 1.0);
        self.distance = 1.0 + altitude;
    }

    /// Tilts the view towards the horizon by a drag of `dy` pixels (down tilts up).
    pub fn tilt_by(&mut self, dy: f32) {
        self.tilt = (self.tilt + dy * 0.005).clamp(0.0, MAX_TILT);
    }

    /// The view matrix: from the eye, towards the centre tilted by `tilt` towards north.
    fn view(&self) -> Mat4 {
        let eye = self.eye();
        let n = eye.normalize_or_zero();
        // The local "up" of the screen at tilt 0: towards the north pole, in the tangent plane.
        let north = (Vec3::Y - n * n.y).try_normalize().unwrap_or(Vec3::Z);
        let (s, c) = self.tilt.sin_cos();
        let dir = -n * c + north * s;
        let up = n * s + north * c;
        Mat4::look_at_rh(eye, eye + dir, up)
    }

    /// View-projection matrix for an aspect ratio (width / height).
    pub fn view_proj(&self, aspect: f32) -> Mat4 {
        // The cube (normalisation off) reaches sqrt(3) radii from the centre; close to the
        // surface the near plane follows the altitude.
        let near = (self.distance - 1.8).max(self.altitude() * 0.2).max(1e-4);
        let proj = Mat4::perspective_rh(self.fov_y, aspect.max(0.01), near, self.distance + 2.0);
        proj * self.view()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_cube_lies_between_near_and_far_at_any_zoom() {
        for distance in [1.15f32, 2.0, 3.9, 20.0] {
            let cam = OrbitCamera { distance, ..Default::default() };
            let vp = cam.view_proj(1.5);
            for corner in 0..8 {
                let p = Vec3::new(if corner & 1 == 0 { -1.0 } else { 1.0 }, if corner & 2 == 0 { -1.0 } else { 1.0 }, if corner & 4 == 0 { -1.0 } else { 1.0 });
                let c = vp * p.extend(1.0);
                if c.w <= 0.0 {
                    continue; // behind the camera when zoomed into the cube: not visible anyway
                }
                let z = c.z / c.w;
                assert!(distance < 1.8 || (0.0..=1.0).contains(&z), "distance {distance}, corner {p}: depth {z}");
            }
        }
    }

    #[test]
    fn orbit_and_zoom_stay_in_range() {
        let mut cam = OrbitCamera::default();
        cam.orbit(0.0, 10_000.0);
        assert!(cam.pitch <= 1.55);
        cam.zoom(1e6);
        assert!(cam.altitude() >= MIN_ALTITUDE * 0.999);
        cam.zoom(-1e6);
        assert!(cam.distance <= MAX_DISTANCE * 1.001);
        cam.tilt_by(1e6);
        assert!(cam.tilt <= MAX_TILT);
    }

    #[test]
    fn zoom_steps_slow_down_near_the_surface_and_tilt_zero_looks_at_the_centre() {
        let mut cam = OrbitCamera::default();
        let mut steps = Vec::new();
        for _ in 0..40 {
            let before = cam.distance;
            cam.zoom(120.0);
            steps.push(before - cam.distance);
        }
        assert!(steps.windows(2).all(|w| w[1] <= w[0] + 1e-6), "every notch moves less than the one before");
        assert!(steps[0] > 100.0 * steps[39], "{} vs {}", steps[0], steps[39]);
        // At tilt 0 the centre projects to the middle of the screen; tilted, it moves down.
        let cam = OrbitCamera { distance: 1.2, ..Default::default() };
        let c = cam.view_proj(1.0) * Vec3::ZERO.extend(1.0);
        assert!((c.x / c.w).abs() < 1e-4 && (c.y / c.w).abs() < 1e-4);
        let tilted = OrbitCamera { tilt: 0.5, ..cam };
        let c = tilted.view_proj(1.0) * Vec3::ZERO.extend(1.0);
        assert!(c.y / c.w < -0.1, "the centre drops below the middle when tilting up: {}", c.y / c.w);
    }
}
