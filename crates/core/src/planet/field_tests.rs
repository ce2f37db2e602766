//! Tests of [`super::Field`]'s construction, sampling and resampling.

use super::*;
use crate::planet::coords::face_ab_to_dir;

#[test]
fn resampling_reads_the_same_cells_as_sampling_each_cell() {
    let f = Field::from_fn_dir(24, smooth);
    for m in [7usize, 48, 50, 96] {
        let r = f.resample(m);
        for c in 0..6 * m * m {
            let cell = Cell::from_index(c, m);
            let (a, b) = cell.center_ab(m);
            assert_eq!(r.data()[c].to_bits(), f.sample_ab(cell.face, a, b).to_bits(), "m={m} cell {c}");
        }
    }
}

fn smooth(d: Vec3) -> f32 {
    (3.0 * d.x).sin() + d.y * d.z + 0.5 * (2.0 * d.z).cos()
}

#[test]
fn sampling_is_continuous_across_every_seam() {
    let f = Field::from_fn_dir(64, smooth);
    // Walk along great circles that cross every face edge and check there is no jump.
    let mut worst: f32 = 0.0;
    for axis in [Vec3::X, Vec3::Y, Vec3::Z, Vec3::new(1.0, 1.0, 0.3).normalize(), Vec3::new(-0.2, 1.0, 1.0).normalize()] {
        let (u, v) = axis.any_orthonormal_pair();
        let steps = 4000;
        let mut prev = f.sample_dir(u);
        for k in 1..=steps {
            let t = k as f32 / steps as f32 * std::f32::consts::TAU;
            let d = u * t.cos() + v * t.sin();
            let s = f.sample_dir(d);
            worst = worst.max((s - prev).abs());
            prev = s;
        }
    }
    // Step length is 0.0016 rad; the function's slope is at most ~4, cells are 0.025 rad.
    assert!(worst < 0.03, "largest jump between neighbouring samples: {worst}");
}

#[test]
fn sampling_matches_the_function_near_corners() {
    let f = Field::from_fn_dir(64, smooth);
    for face in Face::ALL {
        for (a, b) in [(0.001, 0.001), (0.999, 0.001), (0.001, 0.999), (0.999, 0.999), (0.5, 0.0), (1.0, 0.5)] {
            let d = face_ab_to_dir(face, a, b, true);
            assert!((f.sample_dir(d) - smooth(d)).abs() < 0.06, "{face:?} {a} {b}");
        }
    }
}

/// The smooth sample passes through the cells' values at their centres, like the
/// bilinear one, but has no kinks between them: along a row, the bilinear sample's slope
/// jumps at every cell centre, the smooth one's changes as gradually as the field's.
#[test]
fn smooth_samples_pass_through_the_cells_without_kinks() {
    let m = 16;
    let f = Field::from_fn_dir(m, |d| (3.0 * d.x).sin() + 2.0 * d.y * d.y);
    let smooth = |a: f32, b: f32| Field::smooth_taps_ab(m, Face::Front, a, b).sample(f.data());
    for (i, j) in [(3, 5), (8, 8), (0, 15), (15, 0)] {
        let (a, b) = ((i as f32 + 0.5) / m as f32, (j as f32 + 0.5) / m as f32);
        assert!((smooth(a, b) - f.get(Cell { face: Face::Front, i, j })).abs() < 1e-5, "cell ({i}, {j})");
    }
    // Second differences along a row through cell centres, 32 steps a cell.
    let b = 7.5 / m as f32;
    let steps = 32 * 8;
    let kink = |sample: &dyn Fn(f32) -> f32| {
        let v: Vec<f32> = (0..=steps).map(|s| sample(0.25 + 0.5 * s as f32 / steps as f32)).collect();
        v.windows(3).map(|w| (w[0] - 2.0 * w[1] + w[2]).abs()).fold(0.0, f32::max)
    };
    let (bilinear, cubic) = (kink(&|a| f.sample_ab(Face::Front, a, b)), kink(&|a| smooth(a, b)));
    assert!(cubic * 8.0 < bilinear, "the smooth sample's largest second difference {cubic} against the bilinear's {bilinear}");
}

/// The smooth sample stays continuous where it moves on to the next block of cells, also
/// where a row overshoots beside a step and is held back: a field that steps up by 1 between
/// columns 8 and 9 and rises 0.1 a row, sampled just either side of a row's centre line
/// between columns 7 and 8 (where the rows' cubics dip by up to 0.074 below their cells).
/// Held within the block's four nearest cells, it jumped there by the dip.
#[test]
fn smooth_samples_do_not_step_where_the_block_moves_on() {
    let m = 16;
    let f = Field::from_fn_cell(m, |k| {
        let c = Cell::from_index(k, m);
        f32::from(u8::from(c.i >= 9)) + 0.1 * c.j as f32
    });
    let smooth = |a: f32, b: f32| Field::smooth_taps_ab(m, Face::Front, a, b).sample(f.data());
    let centre = 6.5 / m as f32;
    let mut most = 0.0f32;
    for s in 0..=100 {
        let a = (7.5 + s as f32 / 100.0) / m as f32;
        most = most.max((smooth(a, centre + 1e-4) - smooth(a, centre - 1e-4)).abs());
    }
    assert!(most < 1e-3, "a step of {most} across the row's centre line");
    // Still within the nearest cells' values: no dip below the row's own 0.6.
    assert!((0..=100).all(|s| smooth((7.5 + s as f32 / 100.0) / m as f32, centre) >= 0.6 - 1e-6));
}

/// A tile on one face samples by columns and rows; every cell still gets, to the bit,
/// the smooth sample at its centre, also where the taps wrap over the face's edge.
#[test]
fn a_tile_s_smooth_samples_are_each_cell_s() {
    let f = Field::from_fn_dir(24, smooth);
    for tile in [Tile::new(Face::Back, 200, 40, 60, 33).map(|t| t.with_halo(1)), Tile::new(Face::Bottom, 200, 0, 167, 33)] {
        let grid = Grid::Tile(tile.expect("tile"));
        assert!(grid.straight_row(0).is_some());
        let on = f.smooth_on(grid);
        for k in 0..grid.cells() {
            let cell = grid.cell(k);
            let (a, b) = cell.center_ab(200);
            assert_eq!(on.data()[k].to_bits(), Field::smooth_taps_ab(24, cell.face, a, b).sample(f.data()).to_bits(), "{grid}: cell {k}");
        }
    }
}

/// Bilinear samples on a tile are each cell's own [`Field::sample_ab`] to the bit, inside a
/// face and along its edge (where the taps wrap onto the next face).
#[test]
fn a_tile_s_bilinear_samples_are_each_cell_s() {
    let f = Field::from_fn_dir(24, smooth);
    for tile in [Tile::new(Face::Back, 200, 40, 60, 33).map(|t| t.with_halo(1)), Tile::new(Face::Bottom, 200, 0, 167, 33), Tile::new(Face::Top, 200, 190, 0, 10).map(|t| t.with_halo(2))] {
        let grid = Grid::Tile(tile.expect("tile"));
        let on = f.bilinear_on(grid);
        for k in 0..grid.cells() {
            let cell = grid.cell(k);
            let (a, b) = cell.center_ab(200);
            assert_eq!(on.data()[k].to_bits(), f.sample_ab(cell.face, a, b).to_bits(), "{grid}: cell {k}");
        }
    }
}

#[test]
fn resample_down_and_up_keeps_the_shape() {
    let f = Field::from_fn_dir(128, smooth);
    let small = f.resample(32);
    let exact = Field::from_fn_dir(32, smooth);
    let err = small.data().iter().zip(exact.data()).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    assert!(err < 0.02, "{err}");
    let up = small.resample(48);
    let exact48 = Field::from_fn_dir(48, smooth);
    let err = up.data().iter().zip(exact48.data()).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    assert!(err < 0.05, "{err}");
}
