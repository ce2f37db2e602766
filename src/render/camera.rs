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
        let near = (self.distance - 1.2).max(0.01);
        let proj = Mat4::perspective_rh(self.fov_y, aspect.max(0.01), near, self.distance + 2.0);
        proj * view
    }
}
