//! The Diamond-square node (seeds 003 and 004): midpoint displacement on the six faces of the
//! cube. Each face is a lattice of 2^L + 1 points per edge in linear face coordinates; the
//! diamond step sets a square's centre to the mean of its corners plus a random offset, the
//! square step sets an edge midpoint to the mean of its diamond plus an offset, and the
//! offsets' range shrinks by the roughness factor at each level.
//!
//! Without seams: a point's random offset is a hash of its position on the cube, and a point
//! on a face's border takes its diamond from both faces (the two border points beside it, the
//! centre inside its face and the one across the edge), so the faces that share an edge or a
//! corner compute the same values there, and a cube edge is a lattice line like any other. Resolution independent: a level's points and offsets do not depend
//! on how many levels follow, so a finer build only adds detail below the preview's cells.

use crate::nodes::prelude::*;
use crate::planet::coords::face_ab_to_cube;
use crate::planet::rng::mix64;
use crate::planet::Face;
use rayon::prelude::*;

crate::settings! {
    /// Settings of the Diamond-square node.
    pub struct DiamondSquareSettings, keys DiamondSquareKeys {
        /// Width of the first level's offsets.
        range: f32 = float("Range", 1.0, 0.0, 100.0, Unit::None, 0.01, "Width of the random offsets of the first level (offsets lie within ± half of it); 6 gives rugged terrain."),
        /// Factor of the range from one level to the next.
        roughness: f32 = float("Roughness factor", 0.45, 0.05, 0.95, Unit::None, 0.005, "The offsets' range is multiplied by this at each level. 0.5 is the boundary: above it the surface turns very rough."),
        /// Levels whose points all take the full range.
        start_level: usize = int("Start level", 2, 0, 6, "Levels of points that take random values in the full range before the range starts to shrink: 0 starts from the cube's 8 corners (a few huge features), each level more doubles the number of large features along a face edge."),
        /// Random seed.
        seed: u32 = seed(1),
    }
}

/// The Diamond-square node.
pub struct DiamondSquare;

impl Node for DiamondSquare {
    type Settings = DiamondSquareSettings;
    const META: NodeMeta = NodeMeta::new(
        "Diamond-square",
        Category::Sources,
        "Midpoint displacement (diamond-square) on the cube's faces: random offsets whose range shrinks by the roughness factor at each level; the faces share their edges and corners exactly, and the coarse levels do not depend on the resolution. Like every diamond-square it shows creases along its coarsest lattice lines; a Warp after it hides them.",
        &[],
        OUT,
        file!(),
    ).costing(9);

    fn run(s: &DiamondSquareSettings, _: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        Ok(vec![diamond_square(s, ctx.n).into()])
    }
}

/// Levels of the lattice for `n` cells per face edge: at least one lattice interval per cell.
fn levels(n: usize) -> u32 {
    n.max(1).next_power_of_two().trailing_zeros()
}

/// The random offset of the lattice point at cube position `p` (coordinates in [-1, 1]),
/// within ± `range` / 2.
fn offset(seed: u32, p: glam::Vec3, range: f32) -> f32 {
    // Lattice points are dyadic fractions: 2^24 steps per unit keep them exact and apart.
    let q = |x: f32| ((x + 1.0) * 16_777_216.0).round() as i64 as u64;
    let h = mix64(q(p.x).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ q(p.y).wrapping_mul(0xC2B2_AE3D_27D4_EB4F) ^ q(p.z).wrapping_mul(0x1656_67B1_9E37_79F9) ^ u64::from(seed).wrapping_mul(0xD6E8_FEB8_6659_FD93));
    ((h >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * range
}

/// The six faces' lattices of `(2^levels + 1)²` points each, computed level by level on all
/// faces together: a border point's diamond reaches into the neighbouring face, and both
/// faces sum the same four values in the same grouping, so they agree to the bit.
fn lattices(s: &DiamondSquareSettings, levels: u32) -> Vec<Vec<f32>> {
    let size = 1usize << levels;
    let m = size + 1;
    let pos = |face: Face, i: usize, j: usize| face_ab_to_cube(face, i as f32 / size as f32, j as f32 / size as f32, false);
    let range_at = |level: u32| s.range * s.roughness.powi(level.saturating_sub(s.start_level as u32) as i32);
    let mut faces: Vec<Vec<f32>> = Face::ALL
        .iter()
        .map(|&face| {
            let mut v = vec![0f32; m * m];
            for (i, j) in [(0, 0), (size, 0), (0, size), (size, size)] {
                v[j * m + i] = offset(s.seed, pos(face, i, j), range_at(0));
            }
            v
        })
        .collect();
    for level in 1..=levels {
        let step = size >> (level - 1);
        let half = step / 2;
        let range = range_at(level);
        // Diamond step: square centres.
        faces.par_iter_mut().zip(Face::ALL.par_iter()).for_each(|(v, &face)| {
            for j in (half..size).step_by(step) {
                for i in (half..size).step_by(step) {
                    let mean = 0.25 * (v[(j - half) * m + i - half] + v[(j - half) * m + i + half] + v[(j + half) * m + i - half] + v[(j + half) * m + i + half]);
                    v[j * m + i] = mean + offset(s.seed, pos(face, i, j), range);
                }
            }
        });
        // The square step's border points and, for each, the diamond centre across the edge
        // (on the neighbouring face, half a step in from the edge).
        let across: Vec<Vec<(usize, usize, f32)>> = Face::ALL
            .par_iter()
            .map(|&face| {
                border_midpoints(size, half, step)
                    .map(|(i, j)| {
                        let out = if i == 0 {
                            -face.right()
                        } else if i == size {
                            face.right()
                        } else if j == 0 {
                            -face.down()
                        } else {
                            face.down()
                        };
                        let p = pos(face, i, j) - face.normal() * (2.0 * half as f32 / size as f32);
                        let g = Face::from_normal(out);
                        let lattice = |x: f32| ((x + 1.0) * 0.5 * size as f32).round() as usize;
                        let (gi, gj) = (lattice(p.dot(g.right())), lattice(p.dot(g.down())));
                        (i, j, faces[g.index()][gj * m + gi])
                    })
                    .collect()
            })
            .collect();
        // Square step: edge midpoints (one coordinate an odd multiple of half).
        faces.par_iter_mut().zip(Face::ALL.par_iter()).zip(across.par_iter()).for_each(|((v, &face), across)| {
            for j in (0..=size).step_by(half) {
                let start = if (j / half).is_multiple_of(2) { half } else { 0 };
                for i in (start..=size).step_by(step) {
                    if i == 0 || j == 0 || i == size || j == size {
                        continue;
                    }
                    let mean = 0.25 * (v[(j - half) * m + i] + v[(j + half) * m + i] + v[j * m + i - half] + v[j * m + i + half]);
                    v[j * m + i] = mean + offset(s.seed, pos(face, i, j), range);
                }
            }
            for &(i, j, other) in across {
                // Along the edge and across it, each pair summed on its own (the sums do not
                // depend on which face computes them).
                let (along, inward) = if i == 0 || i == size {
                    (v[(j - half) * m + i] + v[(j + half) * m + i], if i == 0 { v[j * m + half] } else { v[j * m + size - half] })
                } else {
                    (v[j * m + i - half] + v[j * m + i + half], if j == 0 { v[half * m + i] } else { v[(size - half) * m + i] })
                };
                v[j * m + i] = 0.25 * (along + (inward + other)) + offset(s.seed, pos(face, i, j), range);
            }
        });
    }
    faces
}

/// The square step's points on a face's border at a level (`half` apart, between the points
/// `step` apart that are already set).
fn border_midpoints(size: usize, half: usize, step: usize) -> impl Iterator<Item = (usize, usize)> {
    let along = move || (half..size).step_by(step);
    along().map(|k| (k, 0)).chain(along().map(move |k| (k, size))).chain(along().map(|k| (0, k))).chain(along().map(move |k| (size, k)))
}

/// The field at resolution `n`: each face's lattice sampled at the cell centres (bilinear in
/// linear face coordinates).
pub fn diamond_square(s: &DiamondSquareSettings, n: usize) -> Field {
    let levels = levels(n);
    let size = 1usize << levels;
    let m = size + 1;
    let lattices = lattices(s, levels);
    let scale = size as f32 / n as f32;
    Field::from_fn_cell(n, |c| {
        let cell = crate::planet::Cell::from_index(c, n);
        let v = &lattices[cell.face.index()];
        let (x, y) = ((cell.i as f32 + 0.5) * scale, (cell.j as f32 + 0.5) * scale);
        let (i0, j0) = ((x.floor() as usize).min(size - 1), (y.floor() as usize).min(size - 1));
        let (fx, fy) = (x - i0 as f32, y - j0 as f32);
        let at = |i: usize, j: usize| v[j * m + i];
        let top = at(i0, j0) * (1.0 - fx) + at(i0 + 1, j0) * fx;
        let bottom = at(i0, j0 + 1) * (1.0 - fx) + at(i0 + 1, j0 + 1) * fx;
        top * (1.0 - fy) + bottom * fy
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;

    fn defaults() -> DiamondSquareSettings {
        DiamondSquareSettings::from_params(&NodeKind::DiamondSquare.default_params()).expect("the declared defaults")
    }

    #[test]
    fn faces_agree_on_every_shared_edge_and_corner_point() {
        let s = defaults();
        let levels = 5;
        let size = 1usize << levels;
        let m = size + 1;
        let lattices = lattices(&s, levels);
        // Every border point of every face, keyed by its cube position.
        let mut seen: std::collections::HashMap<[i64; 3], f32> = std::collections::HashMap::new();
        let mut shared = 0;
        for (fi, &face) in Face::ALL.iter().enumerate() {
            for j in 0..m {
                for i in 0..m {
                    if !(i == 0 || j == 0 || i == size || j == size) {
                        continue;
                    }
                    let p = face_ab_to_cube(face, i as f32 / size as f32, j as f32 / size as f32, false);
                    let key = [p.x, p.y, p.z].map(|x| (x * size as f32).round() as i64);
                    let v = lattices[fi][j * m + i];
                    if let Some(&other) = seen.get(&key) {
                        assert_eq!(other.to_bits(), v.to_bits(), "{face:?} ({i}, {j})");
                        shared += 1;
                    } else {
                        seen.insert(key, v);
                    }
                }
            }
        }
        // 12 edges of 33 points (the 8 corners are seen three times).
        assert_eq!(shared, 12 * (m - 2) + 8 * 2);
    }

    #[test]
    fn the_field_is_continuous_across_seams_and_corners() {
        let f = diamond_square(&defaults(), 128);
        let (inner, seam) = crate::planet::pipes::neighbour_steps(&f);
        let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len() as f32;
        let max = |v: &[f32]| v.iter().copied().fold(0.0, f32::max);
        assert!(mean(&seam) < 1.5 * mean(&inner) && max(&seam) < 1.5 * max(&inner), "steps across seams: mean {} max {}; inside faces: mean {} max {}", mean(&seam), max(&seam), mean(&inner), max(&inner));
    }

    #[test]
    fn a_preview_matches_the_build_threads_do_not_matter_and_no_nan() {
        let s = defaults();
        let (coarse, fine) = (diamond_square(&s, 128), diamond_square(&s, 512).resample(128));
        let corr = crate::planet::field::correlation(coarse.data(), fine.data());
        assert!(corr >= 0.95, "{corr}");
        let go = |t| rayon::ThreadPoolBuilder::new().num_threads(t).build().expect("pool").install(|| diamond_square(&s, 64));
        assert_eq!(go(1).data(), go(2).data());
        for (range, roughness, start_level) in [(0.0, 0.05, 0), (100.0, 0.95, 6), (1.0, 0.95, 0)] {
            for n in [1, 3, 64] {
                let f = diamond_square(&DiamondSquareSettings { range, roughness, start_level, ..s }, n);
                assert!(f.data().iter().all(|v| v.is_finite()), "{range} {roughness} {start_level} at {n}");
            }
        }
    }
}
