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

use crate::planet::rounding::NEAR_RANGE;
use glam::Vec3;
use lattice::{sin_cos_turns, unit, Lattice};
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

/// Most lattice cells per radian of an octave: a point of the unit sphere then lies within
/// [`NEAR_RANGE`] of the origin in lattice units, where its cell is found with vector
/// instructions. 2^21 is three times the lattice of the finest waves any level resolves (two
/// cells of [`crate::planet::tile::MAX_LEVEL`], 2^22 / 2 pi cells per radian), so no octave a
/// level can show is left out.
const MAX_CELLS_PER_RADIAN: f32 = NEAR_RANGE / 2.0;

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
                let cells_per_radian = 1.0 / (wavelength * WAVES_PER_CELL);
                // A lattice finer than this has no room in an f32 beside the point's position
                // (and its waves would be far below any level's cells).
                let held = cells_per_radian < MAX_CELLS_PER_RADIAN;
                (fade >= MIN_OCTAVE_SHARE && amplitude_per_slope > 0.0 && held).then(|| Octave { cells_per_radian, amplitude_per_slope, seed: spec.seed.wrapping_mul(0x9E37_79B9).wrapping_add(k as u32) })
            })
            .collect();
        let drift = ((1.0 / (spec.spacing_rad * WAVES_PER_CELL)).min(MAX_CELLS_PER_RADIAN), spec.seed ^ 0x5BD1_E995);
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
        self.at_lanes([p], [gradient], [water])[0]
    }

    /// [`GullyFilter::at`] of `L` points at once, each lane computed with the same operations
    /// in the same order as a lone point, so the values are the same to the bit whatever `L`
    /// (and a compiler that turns the lanes into vector instructions changes none of them;
    /// [`GullyFilter::at_row`] is that).
    #[inline(always)]
    fn at_lanes<const L: usize>(&self, p: [Vec3; L], gradient: [Vec3; L], water: [PointWater; L]) -> [f32; L] {
        let p = V3::from(p);
        let scale: [f32; L] = lanes(|l| water[l].scale);
        let river: [f32; L] = lanes(|l| water[l].river.clamp(0.0, 1.0));
        let mut gradient = V3::from(gradient);
        if self.min_slope > 0.0 {
            let d = drift(p, self.drift.0, self.drift.1);
            gradient = gradient.add(d.times(lanes(|_| self.min_slope)));
        }
        let mut sum = [0.0f32; L];
        let mut g_sum = gradient;
        let length = gradient.length();
        let most: [f32; L] = lanes(|l| MAX_STEEPENING * length[l]);
        for o in &self.octaves {
            let g = gradient.times(lanes(|_| 1.0 - self.follow)).add(g_sum.times(lanes(|_| self.follow)));
            let slope_len = g_sum.length();
            let slope: [f32; L] = lanes(|l| slope_len[l].min(most[l]));
            let across = p.cross(g);
            let len = across.length();
            let t = across.times(lanes(|l| 1.0 / len[l]));
            let (v, dv) = stripes(p.times(lanes(|_| o.cells_per_radian)), t, o.seed);
            let a: [f32; L] = lanes(|l| o.amplitude_per_slope * slope[l] * scale[l]);
            // Under a river only the troughs stay: the ridges (v > 0) are scaled down.
            let keep: [f32; L] = lanes(|l| if v[l] > 0.0 { 1.0 - river[l] } else { 1.0 });
            let shape: [f32; L] = lanes(|l| v[l] * keep[l]);
            let s: [f32; L] = lanes(|l| a[l] * keep[l] * o.cells_per_radian);
            // A lane without a direction across the slope, or without slope, gets nothing
            // from this octave (its other values are left unused).
            let skip: [bool; L] = lanes(|l| (len[l] <= 1e-12) | (slope[l] <= 0.0));
            sum = lanes(|l| if skip[l] { sum[l] } else { sum[l] + a[l] * shape[l] });
            g_sum.x = lanes(|l| if skip[l] { g_sum.x[l] } else { g_sum.x[l] + dv.x[l] * s[l] });
            g_sum.y = lanes(|l| if skip[l] { g_sum.y[l] } else { g_sum.y[l] + dv.y[l] * s[l] });
            g_sum.z = lanes(|l| if skip[l] { g_sum.z[l] } else { g_sum.z[l] + dv.z[l] * s[l] });
        }
        lanes(|l| if scale[l] <= 0.0 { 0.0 } else { sum[l] })
    }

    /// [`GullyFilter::at_lanes`] of a row of points, written to `out` (the lengths must agree):
    /// [`WIDE_LANES`] at a time in AVX-512 vector instructions where the CPU has them,
    /// [`ROW_LANES`] at a time in AVX2 where it has those (both without FMA, so every lane
    /// rounds as a lone point does), plainly elsewhere.
    pub fn at_row(&self, p: &[Vec3], gradient: &[Vec3], water: &[PointWater], out: &mut [f32]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: AVX-512F support was detected at run time just above.
            unsafe { self.at_row_avx512(p, gradient, water, out) };
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 support was detected at run time just above.
            unsafe { self.at_row_avx2(p, gradient, water, out) };
            return;
        }
        self.at_row_plain(p, gradient, water, out);
    }

    /// [`GullyFilter::at_row`] compiled with AVX2.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn at_row_avx2(&self, p: &[Vec3], gradient: &[Vec3], water: &[PointWater], out: &mut [f32]) {
        self.at_row_plain(p, gradient, water, out);
    }

    /// [`GullyFilter::at_row`] compiled with AVX-512: sixteen lanes a vector, and twice the
    /// registers, so fewer of the corners' values wait in memory.
    ///
    /// # Safety
    /// The CPU must support AVX-512F.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn at_row_avx512(&self, p: &[Vec3], gradient: &[Vec3], water: &[PointWater], out: &mut [f32]) {
        self.at_row_in::<WIDE_LANES>(p, gradient, water, out);
    }

    /// [`GullyFilter::at_row`] as the compiler's target allows.
    #[inline(always)]
    fn at_row_plain(&self, p: &[Vec3], gradient: &[Vec3], water: &[PointWater], out: &mut [f32]) {
        self.at_row_in::<ROW_LANES>(p, gradient, water, out);
    }

    /// The row by each path this CPU can run, named (for the tests: each must give every
    /// point's own bits).
    #[cfg(test)]
    fn row_by_every_path(&self, p: &[Vec3], gradient: &[Vec3], water: &[PointWater]) -> Vec<(&'static str, Vec<f32>)> {
        let mut rows = vec![("plain", vec![f32::NAN; p.len()])];
        self.at_row_plain(p, gradient, water, &mut rows[0].1);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            let mut row = vec![f32::NAN; p.len()];
            // SAFETY: AVX2 support was detected at run time just above.
            unsafe { self.at_row_avx2(p, gradient, water, &mut row) };
            rows.push(("avx2", row));
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") {
            let mut row = vec![f32::NAN; p.len()];
            // SAFETY: AVX-512F support was detected at run time just above.
            unsafe { self.at_row_avx512(p, gradient, water, &mut row) };
            rows.push(("avx512", row));
        }
        rows
    }

    /// The row in chunks of `L` points, the rest one by one.
    #[inline(always)]
    fn at_row_in<const L: usize>(&self, p: &[Vec3], gradient: &[Vec3], water: &[PointWater], out: &mut [f32]) {
        let (p, p_rest) = p.as_chunks::<L>();
        let (g, g_rest) = gradient.as_chunks::<L>();
        let (w, w_rest) = water.as_chunks::<L>();
        let (o, o_rest) = out.as_chunks_mut::<L>();
        for (((p, g), w), o) in p.iter().zip(g).zip(w).zip(o) {
            *o = self.at_lanes(*p, *g, *w);
        }
        for (((p, g), w), o) in p_rest.iter().zip(g_rest).zip(w_rest).zip(o_rest) {
            *o = self.at(*p, *g, *w);
        }
    }
}

/// Points that [`GullyFilter::at_row`] evaluates together: eight `f32` lanes of AVX2.
const ROW_LANES: usize = 8;

/// Points that the AVX-512 path evaluates together.
const WIDE_LANES: usize = 16;

/// `L` values, lane by lane (a plain loop, which the compiler turns into vector instructions;
/// `std::array::from_fn` and `map` are not always inlined, and then they are not).
#[inline(always)]
fn lanes<T: Copy + Default, const L: usize>(mut f: impl FnMut(usize) -> T) -> [T; L] {
    let mut out = [T::default(); L];
    for (l, o) in out.iter_mut().enumerate() {
        *o = f(l);
    }
    out
}

/// `L` vectors by axis, with the operations of [`Vec3`] lane by lane in its order.
#[derive(Clone, Copy)]
struct V3<const L: usize> {
    x: [f32; L],
    y: [f32; L],
    z: [f32; L],
}

impl<const L: usize> V3<L> {
    #[inline(always)]
    fn from(v: [Vec3; L]) -> V3<L> {
        V3 { x: lanes(|l| v[l].x), y: lanes(|l| v[l].y), z: lanes(|l| v[l].z) }
    }

    #[inline(always)]
    fn add(self, o: V3<L>) -> V3<L> {
        V3 { x: lanes(|l| self.x[l] + o.x[l]), y: lanes(|l| self.y[l] + o.y[l]), z: lanes(|l| self.z[l] + o.z[l]) }
    }

    #[inline(always)]
    fn times(self, s: [f32; L]) -> V3<L> {
        V3 { x: lanes(|l| self.x[l] * s[l]), y: lanes(|l| self.y[l] * s[l]), z: lanes(|l| self.z[l] * s[l]) }
    }

    #[inline(always)]
    fn over(self, s: [f32; L]) -> V3<L> {
        V3 { x: lanes(|l| self.x[l] / s[l]), y: lanes(|l| self.y[l] / s[l]), z: lanes(|l| self.z[l] / s[l]) }
    }

    #[inline(always)]
    fn dot(self, o: V3<L>) -> [f32; L] {
        lanes(|l| (self.x[l] * o.x[l]) + (self.y[l] * o.y[l]) + (self.z[l] * o.z[l]))
    }

    #[inline(always)]
    fn length(self) -> [f32; L] {
        let d = self.dot(self);
        lanes(|l| d[l].sqrt())
    }

    #[inline(always)]
    fn cross(self, o: V3<L>) -> V3<L> {
        V3 { x: lanes(|l| self.y[l] * o.z[l] - o.y[l] * self.z[l]), y: lanes(|l| self.z[l] * o.x[l] - o.z[l] * self.x[l]), z: lanes(|l| self.x[l] * o.y[l] - o.x[l] * self.y[l]) }
    }
}

/// The blended stripes at lattice points `q` across the unit tangents `t`: the value (-1..1)
/// and its derivative along `q` (per lattice cell, the weights' own derivative left out).
///
/// Corner `k`'s phase, in waves, is `WAVES_PER_CELL ((f - d_k) - JITTER r_k) . t`, `f` the
/// point's fraction in its cell, `d_k` the corner's offset and `r_k` its random vector. The
/// corners' waves are blended as phasors and the sum is brought back to unit length, so the
/// stripes keep their full depth between corners and their phase moves smoothly from one
/// corner's to the next; where the phases of the corners cancel, the stripes fork (and the
/// amplitude fades over a short distance, where the phasor's length falls below
/// [`FORK_WIDTH`]).
#[inline(always)]
fn stripes<const L: usize>(q: V3<L>, t: V3<L>, seed: u32) -> ([f32; L], V3<L>) {
    let c = Lattice::at(q, seed);
    let w = WAVES_PER_CELL;
    // With r_k = bits_k / 1023 - 0.5 (the corner's ten-bit integers), the phase is
    // w (f - d_k) . t + w JITTER 0.5 (t.x + t.y + t.z) - (bits_k . t) w JITTER / 1023: all
    // but the last term are shared by the corners (but for d_k), so a corner costs three
    // products and a sum before its sine and cosine.
    let scaled_t = t.times(lanes(|_| w * JITTER / 1023.0));
    let centre: [f32; L] = lanes(|l| (0.5 * w * JITTER) * ((t.x[l] + t.y[l]) + t.z[l]));
    let f_t = c.fraction.dot(t);
    let lower_base: [f32; L] = lanes(|l| w * f_t[l] + centre[l]);
    let upper_base: [f32; L] = lanes(|l| w * (f_t[l] - t.z[l]) + centre[l]);
    // Corner k's wave as (re, im), the lower four corners (d_k.z = 0) from `lower_base`, the
    // upper four from `upper_base`.
    let wave = |corner: usize, base: &[f32; L], d_t: &[f32; L]| -> ([f32; L], [f32; L]) {
        let mut re = [0.0; L];
        let mut im = [0.0; L];
        for l in 0..L {
            let r_t = c.x[corner][l] * scaled_t.x[l] + c.y[corner][l] * scaled_t.y[l] + c.z[corner][l] * scaled_t.z[l];
            let phase = (base[l] - d_t[l]) - r_t;
            let (sin, cos) = sin_cos_turns(phase);
            re[l] = c.weights[corner][l] * cos;
            im[l] = c.weights[corner][l] * sin;
        }
        (re, im)
    };
    let offsets: [[f32; L]; 4] = [[0.0; L], lanes(|l| w * t.x[l]), lanes(|l| w * t.y[l]), lanes(|l| w * (t.x[l] + t.y[l]))];
    // Corner k's pair first (lower plus upper), then the pairs summed as (0 + 1) + (2 + 3).
    let mut re_pairs = [[0.0f32; L]; 4];
    let mut im_pairs = [[0.0f32; L]; 4];
    for k in 0..4 {
        let (lo_re, lo_im) = wave(k, &lower_base, &offsets[k]);
        let (hi_re, hi_im) = wave(k + 4, &upper_base, &offsets[k]);
        re_pairs[k] = lanes(|l| lo_re[l] + hi_re[l]);
        im_pairs[k] = lanes(|l| lo_im[l] + hi_im[l]);
    }
    let total = |pairs: &[[f32; L]; 4]| -> [f32; L] { lanes(|l| (pairs[0][l] + pairs[1][l]) + (pairs[2][l] + pairs[3][l])) };
    let (re, im) = (total(&re_pairs), total(&im_pairs));
    let norm: [f32; L] = lanes(|l| 1.0 / (re[l] * re[l] + im[l] * im[l] + FORK_WIDTH * FORK_WIDTH).sqrt());
    let slope: [f32; L] = lanes(|l| -TAU * WAVES_PER_CELL * im[l] * norm[l]);
    (lanes(|l| re[l] * norm[l]), t.times(slope))
}

/// Length of the blended drift below which it is not brought to unit length.
const DRIFT_TAPER: f32 = 0.5;

/// Smooth random tangents (of unit length but near their zeros) at the unit directions `p`:
/// random directions at the corners of a lattice of `cells_per_radian`, blended by the same
/// weights as the stripes.
#[inline(always)]
fn drift<const L: usize>(p: V3<L>, cells_per_radian: f32, seed: u32) -> V3<L> {
    let c = Lattice::at(p.times(lanes(|_| cells_per_radian)), seed);
    let sum_of = |axis: &[[f32; L]; 8]| {
        let mut s = [0.0; L];
        for (a, w) in axis.iter().zip(&c.weights) {
            s = lanes(|l| s[l] + unit(a[l]) * w[l]);
        }
        s
    };
    let sum = V3 { x: sum_of(&c.x), y: sum_of(&c.y), z: sum_of(&c.z) };
    let along = p.dot(sum);
    let tangent = V3 { x: lanes(|l| sum.x[l] - p.x[l] * along[l]), y: lanes(|l| sum.y[l] - p.y[l] * along[l]), z: lanes(|l| sum.z[l] - p.z[l] * along[l]) };
    // Unit length away from the field's zeros; near one it fades to nothing, so a hilltop or
    // saddle of the field stays smooth instead of gathering stripes into a star.
    let length = tangent.length();
    tangent.over(lanes(|l| length[l].max(DRIFT_TAPER)))
}

#[path = "filter_lattice.rs"]
mod lattice;

#[cfg(test)]
#[path = "filter_tests.rs"]
mod tests;
