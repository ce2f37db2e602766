//! Fast Perlin fBm on the sphere, shared by the Noise node, the tectonic elevation and the
//! volcanic island.
//!
//! [`FastPerlin`] is a branch-free evaluation of exactly the noise crate's `perlin_3d` over the
//! crate's own permutation tables (same seeds, same gradients, same interpolation), so the
//! result equals `noise::Fbm::<Perlin>::get` up to float rounding (tested) while running
//! several times faster.

use super::cell_directions::CellDirections;
use super::rounding::floor64;
use super::Field;
use noise::permutationtable::{NoiseHasher, PermutationTable};
use std::f64::consts::TAU;

/// Gradient vectors of the noise crate's `perlin_3d`, indexed by `hash & 15`.
const GRADIENTS: [[f64; 3]; 16] = [
    [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0],
    [1.0, -1.0, 0.0],
    [-1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0],
    [-1.0, 0.0, 1.0],
    [1.0, 0.0, -1.0],
    [-1.0, 0.0, -1.0],
    [0.0, 1.0, 1.0],
    [0.0, -1.0, 1.0],
    [0.0, 1.0, -1.0],
    [0.0, -1.0, -1.0],
    [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0],
    [0.0, -1.0, 1.0],
    [0.0, -1.0, -1.0],
];

/// 3D Perlin noise identical to `noise::Perlin::new(seed)` (range -1..1).
#[derive(Clone)]
pub struct FastPerlin {
    perm: [u8; 256],
}

impl FastPerlin {
    /// Reads the noise crate's permutation table for `seed`.
    pub fn new(seed: u32) -> FastPerlin {
        let table = PermutationTable::new(seed);
        let mut perm = [0u8; 256];
        for (k, p) in perm.iter_mut().enumerate() {
            // A one-element hash is a plain table lookup.
            *p = table.hash(&[k as isize]) as u8;
        }
        FastPerlin { perm }
    }

    /// Noise at a point.
    #[inline]
    pub fn get(&self, p: [f64; 3]) -> f64 {
        let f = p.map(floor64);
        let hashes = self.corner_hashes(f[0] as isize, f[1] as isize, f[2] as isize);
        blend([hashes], [[p[0] - f[0]], [p[1] - f[1]], [p[2] - f[2]]])[0]
    }

    /// [`FastPerlin::get`] at `L` points in order along a row: the hashes of a point's lattice
    /// cell come from `last` when the point before was in the same cell (else they are found
    /// and kept there), and the blend runs on all points together ([`blend`]). The same
    /// values as `get`, to the bit.
    #[inline(always)]
    fn get_row<const L: usize>(&self, p: [[f64; 3]; L], last: &mut Corners) -> [f64; L] {
        let mut hashes = [[0u8; 8]; L];
        let mut fraction = [[0.0f64; L]; 3];
        for l in 0..L {
            let f = p[l].map(floor64);
            let cell = f.map(|v| v as isize);
            if last.cell != Some(cell) {
                *last = Corners { cell: Some(cell), hashes: self.corner_hashes(cell[0], cell[1], cell[2]) };
            }
            hashes[l] = last.hashes;
            for axis in 0..3 {
                fraction[axis][l] = p[l][axis] - f[axis];
            }
        }
        blend(hashes, fraction)
    }

    /// The gradient indices (0..16) of the eight corners of the lattice cell at `(x, y, z)`,
    /// corner `4 i + 2 j + k` at `(x + i, y + j, z + k)`.
    #[inline]
    fn corner_hashes(&self, x: isize, y: isize, z: isize) -> [u8; 8] {
        // The noise crate hashes a corner as perm[perm[perm[x] ^ y] ^ z]; share the chain.
        let t = &self.perm;
        let (x0, x1) = ((x & 255) as usize, ((x + 1) & 255) as usize);
        let (y0, y1) = ((y & 255) as usize, ((y + 1) & 255) as usize);
        let (z0, z1) = ((z & 255) as usize, ((z + 1) & 255) as usize);
        let (a0, a1) = (t[x0] as usize, t[x1] as usize);
        let (b00, b01, b10, b11) = (t[a0 ^ y0] as usize, t[a0 ^ y1] as usize, t[a1 ^ y0] as usize, t[a1 ^ y1] as usize);
        [t[b00 ^ z0], t[b00 ^ z1], t[b01 ^ z0], t[b01 ^ z1], t[b10 ^ z0], t[b10 ^ z1], t[b11 ^ z0], t[b11 ^ z1]].map(|h| h & 15)
    }
}

/// The lattice cell of the last point a [`FastPerlin`] evaluated along a row, and its
/// corners' gradient indices ([`FastPerlin::get_row`]).
#[derive(Debug, Clone, Copy, Default)]
struct Corners {
    cell: Option<[isize; 3]>,
    hashes: [u8; 8],
}

/// The noise at `L` points, each at fractions `(dx, dy, dz)` (by axis, then point) of a
/// lattice cell whose corners have the gradients `hashes` ([`FastPerlin::corner_hashes`]):
/// the same operations in the same order for every point, so a row's points can run in vector
/// lanes and a single point ([`FastPerlin::get`]) gets the same bits.
#[inline(always)]
fn blend<const L: usize>(hashes: [[u8; 8]; L], [dx, dy, dz]: [[f64; L]; 3]) -> [f64; L] {
    const SCALE: f64 = 1.154_700_538_379_251_5;
    let minus_one = |v: [f64; L]| v.map(|x| x - 1.0);
    let (ex, ey, ez) = (minus_one(dx), minus_one(dy), minus_one(dz));
    let g = |corner: usize, px: &[f64; L], py: &[f64; L], pz: &[f64; L]| -> [f64; L] {
        std::array::from_fn(|l| {
            let v = GRADIENTS[hashes[l][corner] as usize];
            v[0] * px[l] + v[1] * py[l] + v[2] * pz[l]
        })
    };
    let g000 = g(0, &dx, &dy, &dz);
    let g001 = g(1, &dx, &dy, &ez);
    let g010 = g(2, &dx, &ey, &dz);
    let g011 = g(3, &dx, &ey, &ez);
    let g100 = g(4, &ex, &dy, &dz);
    let g101 = g(5, &ex, &dy, &ez);
    let g110 = g(6, &ex, &ey, &dz);
    let g111 = g(7, &ex, &ey, &ez);
    let q = |t: [f64; L]| t.map(|t| t * t * t * (t * (t * 6.0 - 15.0) + 10.0));
    let (cx, cy, cz) = (q(dx), q(dy), q(dz));
    let lin = |a: &[f64; L], b: &[f64; L], t: &[f64; L]| -> [f64; L] { std::array::from_fn(|l| b[l] * t[l] + a[l] * (1.0 - t[l])) };
    let x0 = lin(&lin(&g000, &g001, &cz), &lin(&g010, &g011, &cz), &cy);
    let x1 = lin(&lin(&g100, &g101, &cz), &lin(&g110, &g111, &cz), &cy);
    lin(&x0, &x1, &cx).map(|r| (r * SCALE).clamp(-1.0, 1.0))
}

/// Fractal Brownian motion over [`FastPerlin`] octaves, with the noise crate's `Fbm`
/// conventions (octave `k` uses seed + k, first amplitude = persistence, result normalised by
/// the sum of amplitudes).
pub struct FastFbm {
    /// Seed of the first octave.
    seed: u32,
    octaves: Vec<FastPerlin>,
    persistence: f64,
    lacunarity: f64,
    scale: f64,
}

impl FastFbm {
    /// fBm with `octaves` octaves (at least 1).
    pub fn new(seed: u32, octaves: usize, persistence: f64, lacunarity: f64) -> FastFbm {
        let octaves = octaves.max(1);
        let denom: f64 = (1..=octaves).map(|k| persistence.powi(k as i32)).sum();
        FastFbm { seed, octaves: (0..octaves).map(|k| FastPerlin::new(seed.wrapping_add(k as u32))).collect(), persistence, lacunarity, scale: if denom > 0.0 { 1.0 / denom } else { 0.0 } }
    }

    /// Value at a point (about -1..1).
    #[inline]
    pub fn get(&self, p: [f64; 3]) -> f64 {
        let mut p = p;
        let mut sum = 0.0;
        let mut amp = self.persistence;
        for o in &self.octaves {
            sum += o.get(p) * amp;
            amp *= self.persistence;
            p = [p[0] * self.lacunarity, p[1] * self.lacunarity, p[2] * self.lacunarity];
        }
        sum * self.scale
    }

    /// [`FastFbm::get`] at `L` points in order along a row, each octave through
    /// [`FastPerlin::get_row`] with its own entry of `last`: the same values, to the bit.
    #[inline(always)]
    fn get_row<const L: usize>(&self, p: [[f64; 3]; L], last: &mut [Corners]) -> [f64; L] {
        debug_assert_eq!(last.len(), self.octaves.len(), "one entry per octave");
        let mut p = p;
        let mut sum = [0.0; L];
        let mut amp = self.persistence;
        for (o, last) in self.octaves.iter().zip(last) {
            let v = o.get_row(p, last);
            for l in 0..L {
                sum[l] += v[l] * amp;
            }
            amp *= self.persistence;
            p = p.map(|q| [q[0] * self.lacunarity, q[1] * self.lacunarity, q[2] * self.lacunarity]);
        }
        sum.map(|s| s * self.scale)
    }
}

/// Points of a row evaluated together by [`FastFbm::get_many`] and [`FastPerlin::get_many`]
/// (four `f64` lanes of AVX2).
const LANES: usize = 4;

/// A noise that evaluates points of a row `L` at a time, carrying what one point leaves for
/// the next (the lattice cells' hashes) in a `Last`.
trait RowNoise {
    /// What a point leaves for the next one.
    type Last;
    /// A `Last` that holds nothing yet.
    fn fresh(&self) -> Self::Last;
    /// The values at `L` points in order along a row.
    fn lanes<const L: usize>(&self, p: [[f64; 3]; L], last: &mut Self::Last) -> [f64; L];
}

impl RowNoise for FastPerlin {
    type Last = Corners;
    fn fresh(&self) -> Corners {
        Corners::default()
    }
    #[inline(always)]
    fn lanes<const L: usize>(&self, p: [[f64; 3]; L], last: &mut Corners) -> [f64; L] {
        self.get_row(p, last)
    }
}

impl RowNoise for FastFbm {
    type Last = Vec<Corners>;
    fn fresh(&self) -> Vec<Corners> {
        vec![Corners::default(); self.octaves.len()]
    }
    #[inline(always)]
    fn lanes<const L: usize>(&self, p: [[f64; 3]; L], last: &mut Vec<Corners>) -> [f64; L] {
        self.get_row(p, last)
    }
}

impl FastFbm {
    /// [`FastFbm::get`] at each of `points` (in order along a row, for the lattice cells they
    /// share), [`LANES`] points at a time: in AVX2 vector instructions where the CPU has them.
    /// The same values as `get`, to the bit.
    pub fn get_many(&self, points: &[[f64; 3]]) -> Vec<f64> {
        many(self, points)
    }
}

impl FastPerlin {
    /// [`FastPerlin::get`] at each of `points`, as [`FastFbm::get_many`].
    pub fn get_many(&self, points: &[[f64; 3]]) -> Vec<f64> {
        many(self, points)
    }
}

/// `noise` at each of `points`: in AVX2 where the CPU has it, plainly elsewhere.
fn many<N: RowNoise>(noise: &N, points: &[[f64; 3]]) -> Vec<f64> {
    let mut out = vec![0.0; points.len()];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 support was detected at run time just above.
        unsafe { many_avx2(noise, points, &mut out) };
        return out;
    }
    many_plain(noise, points, &mut out);
    out
}

/// [`many`] as the compiler's target allows: [`LANES`] points at a time, the rest one by one.
#[inline(always)]
fn many_plain<N: RowNoise>(noise: &N, points: &[[f64; 3]], out: &mut [f64]) {
    let mut last = noise.fresh();
    let ((groups, rest), (values, rest_values)) = (points.as_chunks::<LANES>(), out.as_chunks_mut::<LANES>());
    for (p, v) in groups.iter().zip(values) {
        *v = noise.lanes(*p, &mut last);
    }
    for (p, v) in rest.iter().zip(rest_values) {
        *v = noise.lanes([*p], &mut last)[0];
    }
}

/// [`many_plain`] compiled with AVX2, where the blend of [`LANES`] points runs in 4-lane
/// vector instructions. Without FMA (not enabled), every lane rounds as the scalar code does.
///
/// # Safety
/// The CPU must support AVX2 (checked with `is_x86_feature_detected!` by the caller).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn many_avx2<N: RowNoise>(noise: &N, points: &[[f64; 3]], out: &mut [f64]) {
    many_plain(noise, points, out);
}

/// The direction `d` as the point `r` times it, in `f64` (where a noise of radius `r` is
/// evaluated).
pub fn point_at(d: glam::Vec3, r: f64) -> [f64; 3] {
    [f64::from(d.x) * r, f64::from(d.y) * r, f64::from(d.z) * r]
}

/// [`point_at`] of each of the directions `dirs` (where [`FastFbm::get_many`] evaluates a
/// noise of radius `r` over them).
pub fn points_at(dirs: &[glam::Vec3], r: f64) -> Vec<[f64; 3]> {
    dirs.iter().map(|&d| point_at(d, r)).collect()
}

/// What an fBm field of the whole planet is made from: seed, octaves, persistence and
/// lacunarity, cells per face edge, radius and amplitude (floats by their bits).
type FieldKey = (u32, usize, u64, u64, usize, u64, u32);

/// Bytes the recent fBm fields of the whole planet may hold together (a field at 128 cells per
/// face edge takes 0.4 MB).
const RECENT_FIELD_BYTES: usize = 16 << 20;

/// The finest whole-planet level whose fBm fields are cached: the editor's preview level, which
/// every edit evaluates again. Finer fields are made afresh, so a node's memory at the levels
/// of builds is what it declares (`crates/core/tests/node_memory.rs`).
const CACHED_FIELD_MAX_N: usize = 128;

/// The most recently used fBm fields of the whole planet.
static RECENT_FIELDS: super::cache::Recent<FieldKey, Field> = super::cache::Recent::new();

/// An fBm field on `grid` (the whole planet or a tile): `amp * fbm(r * direction)` per cell, in
/// parallel rows. Fields of the whole planet at preview levels come from a small cache of
/// recent ones (the nodes that texture the land evaluate the same noise at every edit upstream
/// of them).
pub fn fbm_field(f: &FastFbm, grid: super::Grid, r: f64, amp: f32) -> Field {
    match grid {
        super::Grid::Whole(n) if n <= CACHED_FIELD_MAX_N => {
            let key = (f.seed, f.octaves.len(), f.persistence.to_bits(), f.lacunarity.to_bits(), n, r.to_bits(), amp.to_bits());
            Field::clone(&RECENT_FIELDS.get_or(key, RECENT_FIELD_BYTES, |v| 4 * v.data().len(), || fbm_field_now(f, grid, r, amp)))
        }
        _ => fbm_field_now(f, grid, r, amp),
    }
}

/// [`fbm_field`] evaluated.
fn fbm_field_now(f: &FastFbm, grid: super::Grid, r: f64, amp: f32) -> Field {
    let dirs = CellDirections::new(grid);
    Field::from_rows_on(grid, |row, chunk| {
        for (v, x) in chunk.iter_mut().zip(f.get_many(&points_at(&dirs.row(grid, row), r))) {
            *v = x as f32 * amp;
        }
    })
}

/// Octaves of Perlin noise on the sphere from a coarsest frequency down to the finest one a
/// level resolves, for detail that appears as a close-up or a build gets finer: each octave at
/// twice the frequency of the one before, faded in as its wavelength shrinks from four to two
/// cells of the level, weighted so that the weights of all `count` octaves sum to 1 (a finer
/// level adds octaves and never rescales the ones it shares with a coarser level).
pub struct LevelOctaves {
    /// Noise, radius in noise space, weight.
    layers: Vec<(FastPerlin, f64, f32)>,
}

impl LevelOctaves {
    /// Up to `count` octaves from `frequency` features around the equator, seeded `seed`,
    /// `seed + 1` and so on, each `roughness` times as strong as the one before, those that
    /// cells at level `n` (per face edge) resolve.
    pub fn new(seed: u32, frequency: f32, count: usize, roughness: f32, n: usize) -> LevelOctaves {
        let count = count.clamp(1, 16);
        let p = roughness.clamp(0.0, 1.0);
        let total: f32 = (0..count).map(|k| p.powi(k as i32)).sum::<f32>().max(1e-6);
        let cell = f64::from(super::diffusion::cell_angle(n.max(1)));
        let layers = (0..count)
            .filter_map(|k| {
                let radius = f64::from(frequency.max(1e-3)) * 2f64.powi(k as i32) / TAU;
                let fade = resolved_share(1.0 / (radius * cell));
                (fade > 0.0).then(|| (FastPerlin::new(seed.wrapping_add(k as u32)), radius, fade * p.powi(k as i32) / total))
            })
            .collect();
        LevelOctaves { layers }
    }

    /// Whether the level resolves none of the octaves.
    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }

    /// The octaves resolved: radius in noise space and weight of each, coarsest first.
    pub fn octaves(&self) -> impl Iterator<Item = (f64, f32)> + '_ {
        self.layers.iter().map(|(_, r, w)| (*r, *w))
    }

    /// The weighted sum at the unit direction `d` of the octaves' noise (about -1..1), each
    /// value first passed through `shape` (the identity for fBm).
    pub fn at(&self, d: glam::Vec3, shape: impl Fn(f32) -> f32) -> f32 {
        let (x, y, z) = (f64::from(d.x), f64::from(d.y), f64::from(d.z));
        self.layers.iter().map(|(noise, r, w)| w * shape(noise.get([x * r, y * r, z * r]) as f32)).sum()
    }

    /// [`LevelOctaves::at`] at every cell of `grid`: rows in parallel, each octave's noise along
    /// a row in vector lanes ([`FastPerlin::get_row`]). The same values as `at`, to the bit.
    pub fn field(&self, grid: super::Grid, shape: impl Fn(f32) -> f32 + Sync) -> Field {
        let dirs = CellDirections::new(grid);
        Field::from_rows_on(grid, |row, out| {
            let row_dirs = dirs.row(grid, row);
            let noise: Vec<Vec<f64>> = self.layers.iter().map(|(perlin, r, _)| perlin.get_many(&points_at(&row_dirs, *r))).collect();
            for (i, v) in out.iter_mut().enumerate() {
                *v = self.layers.iter().zip(&noise).map(|((_, _, weight), values)| weight * shape(values[i] as f32)).sum();
            }
        })
    }
}

/// How much of an octave of `cells_per_wave` cells per wavelength a level shows: none at two
/// cells or fewer, all of it from four, linear between (so an octave fades in as a close-up or
/// a build gets finer instead of appearing at once).
pub fn resolved_share(cells_per_wave: f64) -> f32 {
    ((cells_per_wave / 2.0 - 1.0).clamp(0.0, 1.0)) as f32
}

/// Radius of the sphere in noise space for `frequency` features around the equator.
pub fn noise_radius(frequency: f32) -> f64 {
    frequency as f64 / TAU
}

#[cfg(test)]
mod tests {
    use super::*;
    use noise::{Fbm, MultiFractal, NoiseFn, Perlin};

    #[test]
    fn a_cached_field_is_the_evaluated_one() {
        let f = FastFbm::new(4242, 3, 0.5, 2.0);
        let grid = super::super::Grid::Whole(12);
        let fresh = fbm_field_now(&f, grid, 3.0, 0.7);
        for _ in 0..2 {
            let cached = fbm_field(&f, grid, 3.0, 0.7);
            assert!(cached.data().iter().zip(fresh.data()).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
        // Another seed, radius or amplitude is another field.
        assert_ne!(fbm_field(&FastFbm::new(4243, 3, 0.5, 2.0), grid, 3.0, 0.7).data(), fresh.data());
        assert_ne!(fbm_field(&f, grid, 3.5, 0.7).data(), fresh.data());
        assert_ne!(fbm_field(&f, grid, 3.0, 0.8).data(), fresh.data());
    }

    #[test]
    fn fast_perlin_equals_noise_crate() {
        for seed in [0u32, 1, 12345] {
            let reference = Perlin::new(seed);
            let fast = FastPerlin::new(seed);
            for k in 0..2000 {
                let t = k as f64 * 0.137;
                let p = [t.sin() * 7.3 - 2.0, (t * 1.7).cos() * 5.1, t * 0.05 - 30.0];
                assert!((reference.get(p) - fast.get(p)).abs() < 1e-12, "seed {seed} at {p:?}");
            }
        }
    }

    #[test]
    fn fbm_field_matches_pointwise_evaluation() {
        // Rows of 12 are whole groups of lanes; rows of 15 end in three single points.
        let f = FastFbm::new(5, 6, 0.5, 2.0);
        for n in [12, 15] {
            let field = fbm_field_now(&f, crate::planet::Grid::Whole(n), 0.7, 2.0);
            let direct = Field::from_fn_dir(n, |d| f.get([d.x as f64 * 0.7, d.y as f64 * 0.7, d.z as f64 * 0.7]) as f32 * 2.0);
            assert!(field.data().iter().zip(direct.data()).all(|(a, b)| a.to_bits() == b.to_bits()), "level {n}");
        }
    }

    /// A level's octaves as a field, row by row in lanes, are each cell's own sum to the bit:
    /// on the whole planet (rows of 15 end in three single points) and on a tile whose halo
    /// runs over a face's edge.
    #[test]
    fn level_octaves_as_a_field_match_each_cell_s() {
        let octaves = LevelOctaves::new(11, 40.0, 6, 0.6, 4096);
        assert!(octaves.octaves().count() >= 3);
        let ridge = |v: f32| 1.0 - v.abs();
        let tile = crate::planet::Tile::new(crate::planet::Face::Right, 4096, 4088, 100, 8).expect("tile").with_halo(2);
        for grid in [crate::planet::Grid::Whole(15), crate::planet::Grid::Tile(tile)] {
            let field = octaves.field(grid, ridge);
            for (k, v) in field.data().iter().enumerate() {
                assert_eq!(v.to_bits(), octaves.at(grid.direction(k), ridge).to_bits(), "{grid}, value {k}");
            }
        }
    }

    #[test]
    fn fast_fbm_equals_noise_crate_fbm() {
        let reference = Fbm::<Perlin>::new(9).set_octaves(8).set_persistence(0.5).set_lacunarity(2.0).set_frequency(1.0);
        let fast = FastFbm::new(9, 8, 0.5, 2.0);
        for k in 0..2000 {
            let t = k as f64 * 0.311;
            let p = [t.cos() * 0.6, t.sin() * 0.6, (t * 0.3).sin() * 0.6];
            assert!((reference.get(p) - fast.get(p)).abs() < 1e-12);
        }
    }
}
