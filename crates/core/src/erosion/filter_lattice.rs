//! The jittered 3-D lattice of the erosion filter's octaves and the arithmetic of its corners:
//! the hash, the blending weights, and a sine and cosine in turns.

use super::{lanes, V3};
use crate::planet::rounding::floor_to_i32_near;
use std::f32::consts::TAU;

/// The lattice cells around `L` points: each point's fraction within its cell, the blending
/// weights of the eight corners (smooth, summing to 1) and the ten-bit integers (0..1023, as
/// `f32`) of bits 0, 10 and 20 of each corner's hash, by axis: [`unit`] of them is the corner's
/// random vector. Corner `k` is `(k & 1, (k >> 1) & 1, k >> 2)` from the cell's lowest corner.
pub(super) struct Lattice<const L: usize> {
    pub(super) fraction: V3<L>,
    pub(super) weights: [[f32; L]; 8],
    pub(super) x: [[f32; L]; 8],
    pub(super) y: [[f32; L]; 8],
    pub(super) z: [[f32; L]; 8],
}

impl<const L: usize> Lattice<L> {
    /// The cells around `q` for the lattice of `seed`.
    #[inline(always)]
    pub(super) fn at(q: V3<L>, seed: u32) -> Lattice<L> {
        let cell = |v: [f32; L]| -> [i32; L] { lanes(|l| floor_to_i32_near(v[l])) };
        let (ix, iy, iz) = (cell(q.x), cell(q.y), cell(q.z));
        let fraction = V3 { x: lanes(|l| q.x[l] - ix[l] as f32), y: lanes(|l| q.y[l] - iy[l] as f32), z: lanes(|l| q.z[l] - iz[l] as f32) };
        let (wx, wy, wz): ([f32; L], [f32; L], [f32; L]) = (lanes(|l| smooth(fraction.x[l])), lanes(|l| smooth(fraction.y[l])), lanes(|l| smooth(fraction.z[l])));
        let across: [[f32; L]; 4] = [lanes(|l| (1.0 - wx[l]) * (1.0 - wy[l])), lanes(|l| wx[l] * (1.0 - wy[l])), lanes(|l| (1.0 - wx[l]) * wy[l]), lanes(|l| wx[l] * wy[l])];
        let mut weights = [[0.0; L]; 8];
        for k in 0..4 {
            weights[k] = lanes(|l| across[k][l] * (1.0 - wz[l]));
            weights[k + 4] = lanes(|l| across[k][l] * wz[l]);
        }
        // The hash's three products, shared between the corners.
        let product = |i: [i32; L], step: i32, factor: u32| -> [u32; L] { lanes(|l| (i[l].wrapping_add(step) as u32).wrapping_mul(factor)) };
        let hx = [product(ix, 0, HASH_X), product(ix, 1, HASH_X)];
        let hy = [product(iy, 0, HASH_Y), product(iy, 1, HASH_Y)];
        let hz = [product(iz, 0, HASH_Z), product(iz, 1, HASH_Z)];
        let (mut x, mut y, mut z) = ([[0.0; L]; 8], [[0.0; L]; 8], [[0.0; L]; 8]);
        for k in 0..8 {
            let h: [u32; L] = lanes(|l| mix(seed ^ hx[k & 1][l] ^ hy[(k >> 1) & 1][l] ^ hz[k >> 2][l]));
            x[k] = lanes(|l| ten_bits(h[l]));
            y[k] = lanes(|l| ten_bits(h[l] >> 10));
            z[k] = lanes(|l| ten_bits(h[l] >> 20));
        }
        Lattice { fraction, weights, x, y, z }
    }
}

/// Quintic smoothstep of a lattice fraction (zero first and second derivatives at the corners).
#[inline]
fn smooth(x: f32) -> f32 {
    x * x * x * (x * (x * 6.0 - 15.0) + 10.0)
}

/// The low ten bits of a hash, 0..1023.
#[inline]
fn ten_bits(h: u32) -> f32 {
    (h & 1023) as f32
}

/// [`ten_bits`] brought to -0.5..0.5.
#[inline]
pub(super) fn unit(bits: f32) -> f32 {
    bits * (1.0 / 1023.0) - 0.5
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

/// `sin(2 pi x)` and `cos(2 pi x)` of `x` in turns, each to about 1e-6, from one reduction:
/// the turn reduced to `y` in -0.5..0.5; the cosine is the sine of `0.25 - |y|` (a quarter
/// turn either side of 0 already), the sine that of `y` folded there without branches
/// (`sin(pi - a) = sin(a)`).
#[inline(always)]
pub(super) fn sin_cos_turns(x: f32) -> (f32, f32) {
    let y = x - (x + 0.5).floor();
    let cos_arg = 0.25 - y.abs();
    let sin_arg = (0.25 - cos_arg.abs()).copysign(y);
    (sin_quarter(sin_arg), sin_quarter(cos_arg))
}

/// `sin(2 pi y)` for `y` within a quarter turn of 0, to 1e-6: an odd polynomial of degree 7
/// in `a = 2 pi y`, its coefficients fitted to keep the largest error on `-pi/2..pi/2` small
/// (7e-7 in `f32`, where Taylor's terms need degree 9 for 4e-6).
#[inline(always)]
fn sin_quarter(y: f32) -> f32 {
    const C: [f32; 4] = [0.999_996_6, -0.166_648_22, 0.008_306_269, -0.000_183_622_3];
    let a = y * TAU;
    let a2 = a * a;
    a * (C[0] + a2 * (C[1] + a2 * (C[2] + a2 * C[3])))
}
