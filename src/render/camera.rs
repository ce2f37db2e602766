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
}

impl Default for OrbitCamera {
    fn default() -> Self {
        OrbitCamera { yaw: 0.5, pitch: 0.35, distance: 3.9, fov_y: 0.7 }
    }
}

impl OrbitCamera {
    /// Camera position in planet radii.
    pub fn eye(&self) -> Vec3 {
        Vec3::new(self.pitch.cos() * self.yaw.sin(), self.pitch.sin(), self.pitch.cos() * self.yaw.cos()) * self.distance
    }

    /// Rotates by a drag of `(dx, dy)` pixels.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.yaw -= dx * 0.008;
        self.pitch = (self.pitch + dy * 0.008).clamp(-1.55, 1.55);
    }

    /// Zooms by a scroll of `delta` points (positive zooms in).
    pub fn zoom(&mut self, delta: f32) {
        self.distance = (self.distance * (-delta * 0.002).exp()).clamp(1.15, 20.0);
    }

    /// View-projection matrix for an aspect ratio (width / height).
    pub fn view_proj(&self, aspect: f32) -> Mat4 {
        let view = Mat4::look_at_rh(self.eye(), Vec3::ZERO, Vec3::Y);
        // The cube (normalisation off) reaches sqrt(3) radii from the centre.
        let near = (self.distance - 1.8).max(0.02);
        let proj = Mat4::perspective_rh(self.fov_y, aspect.max(0.01), near, self.distance + 2.0);
        proj * view
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
        assert!(cam.distance >= 1.15);
        cam.zoom(-1e6);
        assert!(cam.distance <= 20.0);
    }
}
