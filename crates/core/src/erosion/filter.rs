//! The erosion filter: branching gullies and spurs added to a relief point by point
//! (ALGORITHMS.md section 14).
//!
//! Each octave is a sum of stripes over the eight corners of a jittered 3-D lattice around the
//! point, blended by smooth weights: corner `k` adds the wave `exp(i 2 pi w (q - c_k) . t)`, `q`
//! the point in lattice units, `w` the wavelengths per lattice cell, `c_k` the corner's
//! jittered pivot and `t` the unit tangent across the slope; the real part of the blend brought
//! to unit length is the octave's value. The crests and troughs of every stripe therefore run
//! downhill. The octave's amplitude is a share of the slope times its wavelength, so flats
//! (plains, valley floors, the tops of domes) keep their shape and steep ground gets deep
//! gullies. Each finer octave is aligned with the gradient of the sum so far (the input's
//! gradient plus the analytic derivatives of the octaves added), so the finer gullies bend into
//! the coarser ones: they branch. Positions are 3-D points of the unit sphere, so no face seam
//! exists; the cost is that of eight lattice corners per octave, whatever the level.

use crate::planet::rounding::floor_to_i32;
use glam::{Vec3, Vec4};
use std::f32::consts::TAU;

/// Lattice jitter: how far a pivot may move from its corner, in lattice cells each way.
const JITTER: f32 = 0.4;

/// Wavelengths per lattice cell: the stripes' phase drifts from one corner's to the next over a
/// cell, so a cell of two wavelengths makes gullies about four times as long as they are apart.
const WAVES_PER_CELL: f32 = 2.0;

/// The slope an octave's amplitude follows is at most this many times the ground's (so the
/// octaves cannot steepen one another without bound where their walls line up).
const MAX_STEEPENING: f32 = 3.0;

/// Least share of its depth an octave must show at a level to be added there: an octave costs
/// as much at 2 % of its depth as at all of it, and the default 20 km gullies sit at 2.05 cells
/// per wavelength at 1024 (2 %, a few metres), so without this a 1024 build spent 1.9 s and
/// every close-up tile a sixth of its filter on relief nobody can see.
pub const MIN_OCTAVE_SHARE: f32 = 0.05;

/// Length of the blended phasor below which the stripes fade (where they fork).
const FORK_WIDTH: f32 = 0.4;

/// One octave of gullies.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Octave {
    /// Lattice cells per radian of arc (a cell holds [`WAVES_PER_CELL`] wavelengths).
    cells_per_radian: f32,
    /// Amplitude per unit of slope (input units per radian): strength, gain and the level's
    /// fade times the wavelength over 2 pi, in radians.
    amplitude_per_slope: f32,
    /// Seed of the octave's pivots.
    seed: u32,
}

/// The octaves of an erosion filter that a level resolves, and how each follows the terrain.
#[derive(Debug, Clone, PartialEq)]
pub struct GullyFilter {
    octaves: Vec<Octave>,
    follow: f32,
    /// Slope added along a smooth random direction, input units per radian.
    min_slope: f32,
    /// Lattice cells per radian of that direction field, and its seed.
    drift: (f32, u32),
}

/// What shapes the filter at one point besides the height's gradient.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointWater {
    /// Share of a river at the point, 0..1: the filter keeps its troughs and drops its ridges
    /// where it is 1.
    pub river: f32,
    /// Scale of the filter at the point, 0..1 (a lake or a mask fades it out).
    pub scale: f32,
}

/// The settings of a filter, in the units of its node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GullySpec {
    /// Wavelength of the coarsest octave, radians of arc.
    pub spacing_rad: f32,
    /// Octaves at most, each half the wavelength of the one before.
    pub octaves: usize,
    /// Slope a gully's walls add, as a share of the slope they are cut into (coarsest octave).
    pub strength: f32,
    /// Factor of the strength from one octave to the next.
    pub gain: f32,
    /// 0: every octave follows the input's gradient (parallel gullies); 1: each follows the
    /// gradient of the sum so far (branching gullies).
    pub follow: f32,
    /// Slope (input units per radian) added along a smooth random direction, so flat ground
    /// gets gullies as deep as on such a slope, running any way; on steeper ground it bends the
    /// gullies slightly.
    pub min_slope: f32,
    /// Seed of the lattice.
    pub seed: u32,
}

impl GullyFilter {
    /// The octaves of `spec` that a level of `n` cells per face edge resolves, each faded in
    /// from 2 to 4 cells per wavelength as the Detail node's ([`crate::planet::fbm::resolved_share`];
    /// those showing less than [`MIN_OCTAVE_SHARE`] of their depth left out), so a finer level
    /// adds octaves and keeps the coarser ones unchanged.
    pub fn new(spec: &GullySpec, n: usize) -> GullyFilter {
        let cell = crate::planet::diffusion::cell_angle(n.max(1));
        let octaves = (0..spec.octaves.min(24))
            .filter_map(|k| {
                let wavelength = spec.spacing_rad / (1u32 << k) as f32;
                let fade = crate::planet::fbm::resolved_share(f64::from(wavelength / cell));
                let amplitude_per_slope = spec.strength * spec.gain.powi(k as i32) * fade * wavelength / TAU;
                (fade >= MIN_OCTAVE_SHARE && amplitude_per_slope > 0.0).then(|| Octave { cells_per_radian: 1.0 / (wavelength * WAVES_PER_CELL), amplitude_per_slope, seed: spec.seed.wrapping_mul(0x9E37_79B9).wrapping_add(k as u32) })
            })
            .collect();
        let drift = (1.0 / (spec.spacing_rad * WAVES_PER_CELL), spec.seed ^ 0x5BD1_E995);
        GullyFilter { octaves, follow: spec.follow.clamp(0.0, 1.0), min_slope: spec.min_slope.max(0.0), drift }
    }

    /// Whether the level resolves none of the octaves (the filter changes nothing).
    pub fn is_empty(&self) -> bool {
        self.octaves.is_empty()
    }

    /// How many octaves the level resolves.
    pub fn octave_count(&self) -> usize {
        self.octaves.len()
    }

    /// The height to add at the unit direction `p` where the input's gradient is `gradient`
    /// (a tangent vector, input units per radian); the result is in the input's units.
    pub fn at(&self, p: Vec3, gradient: Vec3, water: PointWater) -> f32 {
        self.at_near(p, gradient, water, &mut self.near())
    }

    /// A fresh [`Near`] for [`GullyFilter::at_near`].
    pub fn near(&self) -> Near {
        Near { drift: CornerVectors::default(), octaves: vec![CornerVectors::default(); self.octaves.len()] }
    }

    /// [`GullyFilter::at`] for a point near the one before (the next cell of a row): the
    /// random vectors of each octave's lattice corners come from `near` while the point stays
    /// in the same lattice cell. The same value, to the bit.
    pub fn at_near(&self, p: Vec3, gradient: Vec3, water: PointWater, near: &mut Near) -> f32 {
        if water.scale <= 0.0 {
            return 0.0;
        }
        // A `Near` made for another filter holds the wrong number of octaves (its cells are
        // keyed by seed, so it can only cost a recomputation, never a wrong value).
        near.octaves.resize(self.octaves.len(), CornerVectors::default());
        let river = water.river.clamp(0.0, 1.0);
        let gradient = if self.min_slope > 0.0 { gradient + drift(p, self.drift.0, self.drift.1, &mut near.drift) * self.min_slope } else { gradient };
        let mut sum = 0.0;
        let mut g_sum = gradient;
        let most = MAX_STEEPENING * gradient.length();
        for (o, corners) in self.octaves.iter().zip(&mut near.octaves) {
            let g = gradient * (1.0 - self.follow) + g_sum * self.follow;
            let slope = g_sum.length().min(most);
            let across = p.cross(g);
            let len = across.length();
            if len <= 1e-12 || slope <= 0.0 {
                continue;
            }
            let t = across / len;
            let (v, dv) = stripes(p * o.cells_per_radian, t, o.seed, corners);
            let a = o.amplitude_per_slope * slope * water.scale;
            // Under a river only the troughs stay.
            let (shape, dshape) = if v > 0.0 { (v * (1.0 - river), 1.0 - river) } else { (v, 1.0) };
            sum += a * shape;
            g_sum += dv * (a * dshape * o.cells_per_radian);
        }
        sum
    }
}

/// What [`GullyFilter::at_near`] keeps from one point to the next: the last lattice cell of
/// the drift and of each octave, with its corners' random vectors.
pub struct Near {
    drift: CornerVectors,
    octaves: Vec<CornerVectors>,
}

/// A lattice cell and the random vectors of its eight corners ([`unit`] of bits 0, 10 and 20
/// of each corner's hash), by axis.
#[derive(Debug, Clone, Copy, Default)]
struct CornerVectors {
    cell: Option<([i32; 3], u32)>,
    x: [f32; 8],
    y: [f32; 8],
    z: [f32; 8],
}

/// The blended stripes at lattice point `q` across the unit tangent `t`: the value (-1..1) and
/// its derivative along `q` (per lattice cell, the weights' own derivative left out).
///
/// The corners' waves are blended as phasors and the sum is brought back to unit length, so
/// the stripes keep their full depth between corners and their phase moves smoothly from one
/// corner's to the next; where the phases of the corners cancel, the stripes fork (and the
/// amplitude fades over a short distance, where the phasor's length falls below
/// [`FORK_WIDTH`]).
#[inline]
fn stripes(q: Vec3, t: Vec3, seed: u32, corners: &mut CornerVectors) -> (f32, Vec3) {
    // Corner k's phase, in waves, is WAVES_PER_CELL ((f - d_k) - JITTER r_k) . t, that is
    // WAVES_PER_CELL (f.t - d_k.t - JITTER r_k.t), the lower four corners in one 4-lane vector
    // and the upper four (d_k.z = 1) in another.
    let c = Lattice::at(q, seed, corners);
    let f = c.fraction;
    let [w_lo, w_hi] = c.weights;
    let rt = |half: usize| {
        let lanes = |v: &[f32; 8]| Vec4::from_slice(&v[4 * half..4 * half + 4]);
        lanes(&corners.x) * t.x + lanes(&corners.y) * t.y + lanes(&corners.z) * t.z
    };
    let d_t = Vec4::new(0.0, t.x, t.y, t.x + t.y);
    let ph_lo = (Vec4::splat(f.dot(t)) - d_t - rt(0) * JITTER) * WAVES_PER_CELL;
    let ph_hi = (Vec4::splat(f.dot(t) - t.z) - d_t - rt(1) * JITTER) * WAVES_PER_CELL;
    let quarter = Vec4::splat(0.25);
    let re = (w_lo * sin_turns4(ph_lo + quarter) + w_hi * sin_turns4(ph_hi + quarter)).element_sum();
    let im = (w_lo * sin_turns4(ph_lo) + w_hi * sin_turns4(ph_hi)).element_sum();
    let norm = 1.0 / (re * re + im * im + FORK_WIDTH * FORK_WIDTH).sqrt();
    (re * norm, t * (-TAU * WAVES_PER_CELL * im * norm))
}

/// The lattice cell around a point: the point's fraction within it and the blending weights
/// of its eight corners (smooth, summing to 1); the corners' random vectors are in the
/// [`CornerVectors`] it fills. Corner `k` is `(k & 1, (k >> 1) & 1, k >> 2)` from the cell's lowest
/// corner: the weights hold corners 0-3 (z = 0), then 4-7.
struct Lattice {
    fraction: Vec3,
    weights: [Vec4; 2],
}

impl Lattice {
    /// The cell around `q` for the lattice of `seed`, its corners' random vectors found and
    /// kept in `corners` unless they are already that cell's.
    #[inline]
    fn at(q: Vec3, seed: u32, corners: &mut CornerVectors) -> Lattice {
        let (ix, iy, iz) = (floor_to_i32(q.x), floor_to_i32(q.y), floor_to_i32(q.z));
        let fraction = q - Vec3::new(ix as f32, iy as f32, iz as f32);
        let (wx, wy, wz) = (smooth(fraction.x), smooth(fraction.y), smooth(fraction.z));
        let across = Vec4::new((1.0 - wx) * (1.0 - wy), wx * (1.0 - wy), (1.0 - wx) * wy, wx * wy);
        let key = Some(([ix, iy, iz], seed));
        if corners.cell != key {
            // The hash's three products, shared between the corners.
            let hx = [ix, ix.wrapping_add(1)].map(|x| (x as u32).wrapping_mul(HASH_X));
            let hy = [iy, iy.wrapping_add(1)].map(|y| (y as u32).wrapping_mul(HASH_Y));
            let hz = [iz, iz.wrapping_add(1)].map(|z| (z as u32).wrapping_mul(HASH_Z));
            let hashes: [u32; 8] = std::array::from_fn(|k| mix(seed ^ hx[k & 1] ^ hy[(k >> 1) & 1] ^ hz[k >> 2]));
            *corners = CornerVectors { cell: key, x: hashes.map(unit), y: hashes.map(|h| unit(h >> 10)), z: hashes.map(|h| unit(h >> 20)) };
        }
        Lattice { fraction, weights: [across * (1.0 - wz), across * wz] }
    }
}

/// Length of the blended drift below which it is not brought to unit length.
const DRIFT_TAPER: f32 = 0.5;

/// A smooth random tangent (of unit length but near its zeros) at the unit direction `p`:
/// random directions at the corners
/// of a lattice of `cells_per_radian`, blended by the same weights as the stripes.
fn drift(p: Vec3, cells_per_radian: f32, seed: u32, corners: &mut CornerVectors) -> Vec3 {
    let c = Lattice::at(p * cells_per_radian, seed, corners);
    let weights: [f32; 8] = std::array::from_fn(|k| c.weights[k / 4][k % 4]);
    let sum: Vec3 = (0..8).map(|k| Vec3::new(corners.x[k], corners.y[k], corners.z[k]) * weights[k]).sum();
    let tangent = sum - p * p.dot(sum);
    // Unit length away from the field's zeros; near one it fades to nothing, so a hilltop or
    // saddle of the field stays smooth instead of gathering stripes into a star.
    tangent / tangent.length().max(DRIFT_TAPER)
}

/// Quintic smoothstep of a lattice fraction (zero first and second derivatives at the corners).
#[inline]
fn smooth(x: f32) -> f32 {
    x * x * x * (x * (x * 6.0 - 15.0) + 10.0)
}

/// Ten bits of a hash as -0.5..0.5.
#[inline]
fn unit(h: u32) -> f32 {
    (h & 1023) as f32 * (1.0 / 1023.0) - 0.5
}

/// The hash's factor of a corner's x.
const HASH_X: u32 = 0x8DA6_B343;
/// The hash's factor of a corner's y.
const HASH_Y: u32 = 0xD816_3841;
/// The hash's factor of a corner's z.
const HASH_Z: u32 = 0xCB1A_B31F;

/// The hash's finaliser: every input bit moves every output bit.
#[inline]
fn mix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x7FEB_352D);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846C_A68B);
    h ^ (h >> 16)
}

/// `sin(2 pi x)` of four values `x` (in turns) to about 4e-6: each turn reduced to -0.5..0.5,
/// folded without branches to a quarter turn either side of 0 (`sin(pi - a) = sin(a)`), then
/// a Taylor polynomial of degree 9.
#[inline]
fn sin_turns4(x: Vec4) -> Vec4 {
    let y = x - (x + Vec4::splat(0.5)).floor();
    let y = (Vec4::splat(0.25) - (y.abs() - Vec4::splat(0.25)).abs()).copysign(y);
    let a = y * TAU;
    let a2 = a * a;
    a * (Vec4::ONE + a2 * (Vec4::splat(-1.0 / 6.0) + a2 * (Vec4::splat(1.0 / 120.0) + a2 * (Vec4::splat(-1.0 / 5040.0) + a2 * (1.0 / 362_880.0)))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> GullySpec {
        GullySpec { spacing_rad: 0.02, octaves: 6, strength: 0.6, gain: 0.8, follow: 1.0, min_slope: 0.0, seed: 3 }
    }

    const DRY: PointWater = PointWater { river: 0.0, scale: 1.0 };

    #[test]
    fn the_fast_sine_is_close_to_the_library_s() {
        for k in -2000..2000 {
            let x = k as f32 * 0.00137;
            let four = sin_turns4(Vec4::new(x, x + 0.25, -x, x * 3.0));
            let exact = Vec4::new((x * TAU).sin(), (x * TAU).cos(), -(x * TAU).sin(), (x * 3.0 * TAU).sin());
            assert!((four - exact).abs().max_element() < 2e-5, "at {x}: {four} against {exact}");
        }
    }

    /// A level adds octaves as its cells shrink; a coarse level gets none.
    #[test]
    fn a_level_gets_the_octaves_its_cells_resolve() {
        // Cells of 1/128 of a quarter turn (0.0123 rad) cannot hold a 0.02 rad wavelength.
        assert!(GullyFilter::new(&spec(), 128).is_empty());
        let (a, b) = (GullyFilter::new(&spec(), 1024), GullyFilter::new(&spec(), 8192));
        assert!(a.octave_count() >= 2 && b.octave_count() == 6, "{} then {}", a.octave_count(), b.octave_count());
        // Shared octaves keep their wavelength and seed; only the finest faded one differs.
        for (x, y) in a.octaves.iter().zip(&b.octaves) {
            assert_eq!((x.cells_per_radian, x.seed), (y.cells_per_radian, y.seed));
            assert!(x.amplitude_per_slope <= y.amplitude_per_slope);
        }
    }

    /// An octave that would show less than [`MIN_OCTAVE_SHARE`] of its depth costs a whole
    /// octave for nothing: it is left out, and one just above it is kept.
    #[test]
    fn an_octave_barely_resolved_is_left_out() {
        let cell = crate::planet::diffusion::cell_angle(1024);
        let at = |cells_per_wave: f32| GullyFilter::new(&GullySpec { spacing_rad: cells_per_wave * cell, octaves: 1, ..spec() }, 1024).octave_count();
        assert_eq!(at(2.05), 0, "2.5 % of its depth");
        assert_eq!(at(2.2), 1, "10 % of its depth");
    }

    /// Flat ground stays flat; steeper ground gets deeper gullies.
    #[test]
    fn the_gullies_grow_with_the_slope_and_vanish_on_flats() {
        let f = GullyFilter::new(&spec(), 8192);
        let p = Vec3::new(0.3, 0.5, 0.8).normalize();
        let east = Vec3::Y.cross(p).normalize();
        assert_eq!(f.at(p, Vec3::ZERO, DRY), 0.0);
        let spread = |slope: f32| {
            let mut s = 0.0f32;
            for k in 0..400 {
                let q = (p + east * (k as f32 * 1e-4)).normalize();
                s = s.max(f.at(q, east * slope, DRY).abs());
            }
            s
        };
        let (gentle, steep) = (spread(0.5), spread(2.0));
        assert!(gentle > 0.0 && (steep / gentle - 4.0).abs() < 0.5, "{gentle} then {steep}");
        // With a slope for flat ground, flats get gullies as deep as that slope gives.
        let floor = GullyFilter::new(&GullySpec { min_slope: 0.5, ..spec() }, 8192);
        let on_flat = (0..400).map(|k| floor.at((p + east * (k as f32 * 1e-4)).normalize(), Vec3::ZERO, DRY).abs()).fold(0.0f32, f32::max);
        assert!(on_flat > 0.3 * gentle && on_flat < 3.0 * gentle, "{on_flat} on flat ground against {gentle}");
    }

    /// The stripes run downhill: along the slope the filter varies far less than across it.
    #[test]
    fn the_gullies_run_downhill() {
        let mut s = spec();
        (s.octaves, s.follow) = (1, 0.0);
        let f = GullyFilter::new(&s, 1 << 16);
        let p = Vec3::new(-0.2, 0.7, 0.6).normalize();
        let down = Vec3::Y.cross(p).normalize();
        let across = p.cross(down);
        let g = down * 3.0;
        let step = 0.02 / 40.0;
        let variation = |dir: Vec3| -> f32 { (0..400).map(|k| (f.at((p + dir * (k as f32 * step)).normalize(), g, DRY) - f.at((p + dir * ((k + 1) as f32 * step)).normalize(), g, DRY)).abs()).sum() };
        let (along, over) = (variation(down), variation(across));
        assert!(over > 4.0 * along, "across {over}, along {along}");
    }

    /// Along a row the corners kept from one point to the next give each point, to the bit,
    /// what a fresh evaluation gives it (octaves, drift and a jump back to an earlier cell).
    #[test]
    fn kept_corners_change_no_value() {
        let f = GullyFilter::new(&GullySpec { min_slope: 0.3, ..spec() }, 8192);
        let p = Vec3::new(0.4, -0.2, 0.9).normalize();
        let (east, north) = (Vec3::Y.cross(p).normalize(), p.cross(Vec3::Y.cross(p).normalize()));
        let mut near = f.near();
        for k in (0..600).chain(0..50) {
            let q = (p + east * (k as f32 * 3e-5)).normalize();
            let g = east * 0.7 + north * (0.3 * (k as f32 * 0.05).sin());
            assert_eq!(f.at_near(q, g, DRY, &mut near).to_bits(), f.at(q, g, DRY).to_bits(), "point {k}");
        }
    }

    /// Under a river the filter leaves troughs only; a lake or mask scale of 0 leaves the ground.
    #[test]
    fn rivers_get_troughs_and_lakes_keep_their_floor() {
        let f = GullyFilter::new(&spec(), 8192);
        let p = Vec3::new(0.1, -0.3, 0.9).normalize();
        let g = Vec3::X.cross(p).normalize();
        for k in 0..200 {
            let q = (p + Vec3::X * (k as f32 * 3e-4)).normalize();
            assert!(f.at(q, g, PointWater { river: 1.0, scale: 1.0 }) <= 0.0);
            assert_eq!(f.at(q, g, PointWater { river: 0.0, scale: 0.0 }), 0.0);
        }
    }
}
