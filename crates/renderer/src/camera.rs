//! The orbit camera of the viewport.

use glam::{Mat4, Vec2, Vec3};

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
/// Altitude (planet radii) from which the relief that follows the altitude ([`relief_at`])
/// is the whole Relief setting.
pub const FULL_RELIEF_ALTITUDE: f32 = 0.5;

/// The exaggeration drawn at `altitude` (planet radii) for the Relief setting `relief` when the
/// relief follows the altitude: the whole setting from [`FULL_RELIEF_ALTITUDE`] up, less below
/// it as the altitude's 0.6th power (for 20x: 14.7x at 0.3 radii, 5.6x at 0.06, 2.9x at 0.02),
/// never below true scale (nor above the setting). A planet seen whole needs its ranges
/// exaggerated to show at all; from near by the same exaggeration crumples them.
pub fn relief_at(relief: f32, altitude: f32) -> f32 {
    let share = (altitude.max(0.0) / FULL_RELIEF_ALTITUDE).min(1.0).powf(0.6);
    (relief * share).max(relief.min(1.0))
}

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

    /// Turns the camera to look straight down at the point of the sphere in `direction`
    /// (distance and field of view kept, tilt 0; the latitude at most 65 degrees, so a pole
    /// is seen from the side). A zero direction changes nothing.
    pub fn face(&mut self, direction: Vec3) {
        let Some(d) = direction.try_normalize() else { return };
        self.yaw = d.x.atan2(d.z);
        self.pitch = d.y.clamp(-1.0, 1.0).asin().clamp(-1.13, 1.13);
        self.tilt = 0.0;
    }

    /// Keeps the eye at least [`MIN_ALTITUDE`] above `ground` (the radius, in planet radii, of
    /// the highest ground drawn around the point under the eye: [`crate::mesh::ground_radius_near`]),
    /// so an exaggerated range never swallows the camera; the tilt is kept within the
    /// new distance's [`Self::max_tilt`]. Returns whether the eye moved.
    pub fn keep_above(&mut self, ground: f32) -> bool {
        let floor = (ground.max(1.0) + MIN_ALTITUDE).min(MAX_DISTANCE);
        if self.distance >= floor {
            return false;
        }
        self.distance = floor;
        self.tilt = self.tilt.min(self.max_tilt());
        true
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
        self.tilt = self.tilt.min(self.max_tilt());
    }

    /// Zooms like [`Self::zoom`], keeping the ground under the pointer (`at`, in normalised
    /// device coordinates: -1..1, y up) under it; towards the centre when the pointer is off
    /// the planet.
    pub fn zoom_at(&mut self, delta: f32, at: Vec2, aspect: f32) {
        let ground = self.pick(at, aspect);
        self.zoom(delta);
        if let Some(p) = ground {
            self.bring_under(p, at, aspect);
        }
    }

    /// The largest tilt at this distance that keeps the planet in view: the bottom edge of
    /// the picture still looks below the horizon.
    pub fn max_tilt(&self) -> f32 {
        let horizon = (1.0 / self.distance.max(1.0 + 1e-6)).asin();
        (horizon + 0.4 * self.fov_y).min(MAX_TILT)
    }

    /// Tilts the view towards the horizon by a drag of `dy` pixels (down tilts up), no
    /// further than [`Self::max_tilt`].
    pub fn tilt_by(&mut self, dy: f32) {
        self.tilt = (self.tilt + dy * 0.005).clamp(0.0, self.max_tilt());
    }

    /// The ray through a point of the picture (normalised device coordinates, y up): its
    /// origin (the eye) and its unit direction, in planet radii.
    pub fn ray(&self, ndc: Vec2, aspect: f32) -> (Vec3, Vec3) {
        let inv = self.view_proj(aspect).inverse();
        let near = inv.project_point3(ndc.extend(0.0));
        let far = inv.project_point3(ndc.extend(1.0));
        (self.eye(), (far - near).normalize_or_zero())
    }

    /// The point of the unit sphere seen through a point of the picture (`None` off the
    /// planet). Relief is ignored: at planet scale it moves the point by a fraction of a
    /// pixel.
    pub fn pick(&self, ndc: Vec2, aspect: f32) -> Option<Vec3> {
        let (o, d) = self.ray(ndc, aspect);
        let b = o.dot(d);
        let disc = b * b - (o.length_squared() - 1.0);
        if disc < 0.0 {
            return None;
        }
        let t = -b - disc.sqrt();
        (t >= 0.0).then(|| o + d * t)
    }

    /// Turns the camera so that the ground point `p` (on the unit sphere) lies under the
    /// picture point `at`, as nearly as yaw and pitch allow. Returns false (camera unchanged)
    /// when it cannot.
    fn bring_under(&mut self, p: Vec3, at: Vec2, aspect: f32) -> bool {
        let before = *self;
        let lon = |v: Vec3| v.x.atan2(v.z);
        let lat = |v: Vec3| v.y.clamp(-1.0, 1.0).asin();
        for _ in 0..6 {
            let Some(q) = self.pick(at, aspect) else {
                *self = before;
                return false;
            };
            let mut dlon = lon(p) - lon(q);
            if dlon > std::f32::consts::PI {
                dlon -= std::f32::consts::TAU;
            } else if dlon < -std::f32::consts::PI {
                dlon += std::f32::consts::TAU;
            }
            self.yaw += dlon;
            self.pitch = (self.pitch + lat(p) - lat(q)).clamp(-1.55, 1.55);
        }
        true
    }

    /// A drag on the picture from `from` to `to` (normalised device coordinates): the ground
    /// that was under the pointer follows it. Off the planet, the drag turns the camera as
    /// [`Self::orbit`] does with the pixel delta `pixels`.
    pub fn drag_ground(&mut self, from: Vec2, to: Vec2, aspect: f32, pixels: Vec2) {
        let moved = self.pick(from, aspect).is_some_and(|p| self.bring_under(p, to, aspect));
        if !moved {
            self.orbit(pixels.x, pixels.y);
        }
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
        // A tilted view meets the planet along slanted rays: the near plane comes closer by
        // the cosine of the steepest ray's angle to the view direction (the picture's corner).
        let slant = (self.tilt + 0.75 * self.fov_y).cos().max(0.05);
        let near = ((self.distance - 1.8) * slant).max(self.altitude() * 0.2).max(1e-4);
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
    fn facing_a_point_puts_it_in_the_middle_of_the_picture() {
        for d in [Vec3::X, Vec3::new(-0.3, 0.5, -0.8), Vec3::new(0.1, -0.2, 0.9)] {
            let d = d.normalize();
            let mut cam = OrbitCamera { tilt: 0.4, ..Default::default() };
            cam.face(d);
            let picked = cam.pick(Vec2::ZERO, 1.5).expect("the middle of the picture is on the planet");
            assert!(picked.normalize().dot(d) > 0.9999, "{d}: the middle shows {picked}");
            assert_eq!(cam.tilt, 0.0);
        }
        // Near a pole the camera stays at 65 degrees of latitude, looking at it from the side.
        let mut cam = OrbitCamera::default();
        cam.face(Vec3::Y);
        assert!(cam.pitch <= 1.13 + 1e-6);
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
    fn the_ground_under_the_pointer_stays_under_it_when_dragging_and_zooming() {
        let aspect = 1.2;
        for distance in [3.9f32, 1.3, 1.05] {
            let mut cam = OrbitCamera { distance, ..Default::default() };
            let (from, to) = (Vec2::new(0.1, -0.2), Vec2::new(0.3, 0.05));
            let p = cam.pick(from, aspect).expect("on the planet");
            cam.drag_ground(from, to, aspect, Vec2::ZERO);
            let q = cam.pick(to, aspect).expect("on the planet");
            assert!((p - q).length() < 2e-3 * distance, "distance {distance}: {p} went to {q}");
            // The wheel zooms towards the pointer.
            let at = Vec2::new(-0.3, 0.25);
            let p = cam.pick(at, aspect).expect("on the planet");
            cam.zoom_at(300.0, at, aspect);
            assert!(cam.distance < distance);
            let q = cam.pick(at, aspect).expect("still on the planet");
            assert!((p - q).length() < 2e-3, "distance {distance}: zoom moved {p} to {q}");
        }
    }

    #[test]
    fn tilt_stops_while_the_planet_is_in_view() {
        for distance in [20.0f32, 3.9, 1.3, 1.01] {
            let mut cam = OrbitCamera { distance, ..Default::default() };
            cam.tilt_by(1e6);
            assert!(cam.pick(Vec2::new(0.0, -1.0), 1.5).is_some(), "distance {distance}, tilt {}: the bottom of the picture shows the planet", cam.tilt);
            // Zooming out afterwards keeps the planet in view too.
            cam.zoom(-5000.0);
            assert!(cam.pick(Vec2::new(0.0, -1.0), 1.5).is_some(), "after zooming out to {}", cam.distance);
        }
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

    #[test]
    fn the_relief_drawn_falls_near_the_ground_down_to_true_scale() {
        assert_eq!(relief_at(20.0, 2.9), 20.0, "a planet seen whole: the whole setting");
        assert_eq!(relief_at(20.0, FULL_RELIEF_ALTITUDE), 20.0);
        let (high, mid, low) = (relief_at(20.0, 0.3), relief_at(20.0, 0.06), relief_at(20.0, 0.02));
        assert!(high > mid && mid > low && low > 1.0, "{high} {mid} {low}");
        assert!((mid - 5.6).abs() < 0.1 && (low - 2.9).abs() < 0.1, "{mid} {low}");
        assert_eq!(relief_at(20.0, 0.0), 1.0, "true scale at the ground");
        assert_eq!(relief_at(0.5, 0.01), 0.5, "never above the setting");
    }
}
