//! The geometry one level of the landscape evolution needs: the eight neighbours of a cell
//! across face seams, their great-circle distances in metres, and cell areas in m².
//!
//! Every face has the same shape, so the distances inside a face and the areas are tabled
//! once per face position (`n²` entries each, shared by the six faces). Cells on a face's
//! border read their neighbours and distances from the cube-sphere directly; they are `4 / n`
//! of the cells.

use crate::planet::cache::Recent;
use crate::planet::coords::{face_solid_angles, neighbour, Cell, NEIGHBOURS_8};
use crate::planet::warp::warp;
use glam::DVec3;
use rayon::prelude::*;
use std::sync::Arc;

/// Marks a missing neighbour (the diagonal over a cube corner) or a missing receiver.
pub const NONE: u32 = u32::MAX;

/// Neighbours and metric of a cube-sphere of `n` cells per face edge.
pub struct Grid {
    /// Cells per face edge.
    pub n: usize,
    /// Distance from face position `(i, j)` (index `j n + i`) to `(i + 1, j)`, m.
    right: Vec<f32>,
    /// To `(i, j + 1)`, m.
    down: Vec<f32>,
    /// To `(i + 1, j + 1)`, m.
    down_right: Vec<f32>,
    /// To `(i - 1, j + 1)`, m.
    down_left: Vec<f32>,
    /// `1 / right²` and `1 / down²`, 1/m² (the diffusion weighs its neighbours by
    /// multiplying, not dividing).
    inverse_squares: [Vec<f32>; 2],
    /// Area of the cell at face position `(i, j)`, m².
    area: Vec<f32>,
    /// `log2 n` where `n` is a power of two (face positions by shifts instead of divisions).
    shift: Option<u32>,
    /// Neighbours of the border cells, `4 (n - 1)` slots per face (one for `n = 1`) in row
    /// order (see [`border_slot`]), faces in order.
    border: Vec<[(u32, f32); 8]>,
}

/// Grids kept between runs ([`Grid::shared`]), by cells per face edge and the radius's bits.
static SHARED: Recent<(usize, u64), Grid> = Recent::new();

/// Bytes of grids [`Grid::shared`] keeps: the levels of one run up to 1024 (128, 256, 512 and
/// 1024: 40 MiB in all), not a 2048 grid (115 MiB), which is made afresh.
pub const SHARED_BYTES: usize = 48 << 20;

impl Grid {
    /// The geometry at `n` cells per face edge on a planet of `radius_km`, kept for the next
    /// run that asks for the same (the most recent up to [`SHARED_BYTES`]): the editor runs the
    /// same levels after every edit, and a 1024 grid takes about 40 ms to make on 2 cores. A
    /// kept grid is the one [`Grid::new`] makes.
    pub fn shared(n: usize, radius_km: f64) -> Arc<Grid> {
        SHARED.get_or((n, radius_km.to_bits()), SHARED_BYTES, Grid::bytes, || Grid::new(n, radius_km))
    }

    /// Bytes the grid's tables hold.
    pub fn bytes(&self) -> usize {
        let tables = [&self.right, &self.down, &self.down_right, &self.down_left, &self.inverse_squares[0], &self.inverse_squares[1], &self.area];
        tables.iter().map(|t| t.len()).sum::<usize>() * std::mem::size_of::<f32>() + self.border.len() * std::mem::size_of::<[(u32, f32); 8]>()
    }

    /// The geometry at `n` cells per face edge on a planet of `radius_km`.
    pub fn new(n: usize, radius_km: f64) -> Grid {
        let radius_m = radius_km * 1000.0;
        let centre = |i: usize| f64::from(warp((2.0 * (i as f32 + 0.5) / n as f32) - 1.0));
        let w: Vec<f64> = (0..n).map(centre).collect();
        // The warped coordinate of a cell centre one step outside the face, for positions on
        // the border (their table entries are never read across the seam, but stay finite).
        let at = |i: isize| if i >= 0 && (i as usize) < n { w[i as usize] } else { f64::from(warp((2.0 * (i as f32 + 0.5) / n as f32) - 1.0)) };
        let local = |i: isize, j: isize| DVec3::new(at(i), at(j), 1.0).normalize();
        // The distance from face position (i, j) to (i + di, j + dj), m.
        let direct = |i: usize, j: usize, di: isize, dj: isize| -> f32 {
            let (i, j) = (i as isize, j as isize);
            (local(i, j).angle_between(local(i + di, j + dj)) * radius_m) as f32
        };
        let r2 = radius_m * radius_m;
        let area = face_solid_angles(n).into_iter().map(|sr| (sr * r2) as f32).collect();
        let shift = n.is_power_of_two().then(|| n.trailing_zeros());
        let on_border = |p: usize| {
            let (i, j) = (p % n, p / n);
            i == 0 || j == 0 || i + 1 == n || j + 1 == n
        };
        let positions: Vec<usize> = (0..n * n).filter(|&p| on_border(p)).collect();
        let border = (0..6 * positions.len()).into_par_iter().map(|k| seam_neighbours(k / positions.len() * n * n + positions[k % positions.len()], n, radius_m)).collect();
        // The warp is odd, so the face is symmetric under mirroring each axis. Where `n` is a
        // power of two, to the bit: a cell centre's linear coordinate is exact, so a mirrored
        // position negates a coordinate, and the same products are summed in the same order.
        // Then the distance right from (i, j) is the one from (i, n - 1 - j): the upper half
        // of the rows is computed, the lower half mirrored (other `n`: all computed).
        let exact = n.is_power_of_two();
        let half = if exact { n.div_ceil(2) } else { n };
        let right_top: Vec<f32> = (0..half * n).into_par_iter().map(|p| direct(p % n, p / n, 1, 0)).collect();
        let source_row = |j: usize| if exact { j.min(n - 1 - j) } else { j };
        let right: Vec<f32> = (0..n * n).into_par_iter().map(|p| right_top[source_row(p / n) * n + p % n]).collect();
        // Swapping the axes, the distance down from (i, j) is the distance right from (j, i).
        let down: Vec<f32> = (0..n * n).into_par_iter().map(|p| right[(p % n) * n + p / n]).collect();
        // Turned half round, the step down and right from (i, j) is the step up and left from
        // (n - 1 - i, n - 1 - j), the step down and right from (n - 2 - i, n - 2 - j): rows from
        // n / 2 on, but the last row and column, are the first rows turned round. The entries on
        // the last row and column (never read across the seam) are computed.
        let top = if exact { n / 2 } else { n };
        let down_right_top: Vec<f32> = (0..top * n).into_par_iter().map(|p| direct(p % n, p / n, 1, 1)).collect();
        let down_right: Vec<f32> = (0..n * n)
            .into_par_iter()
            .map(|p| {
                let (i, j) = (p % n, p / n);
                if j < top {
                    down_right_top[p]
                } else if i + 2 <= n && j + 2 <= n {
                    down_right_top[(n - 2 - j) * n + (n - 2 - i)]
                } else {
                    direct(i, j, 1, 1)
                }
            })
            .collect();
        // Mirrored left to right, the step down and left from (i, j) is the step down and
        // right from (n - 1 - i, j); the entries on the border columns, never read, take their
        // mirror's value too (for `n` not a power of two, to within a unit in the last place).
        let down_left: Vec<f32> = (0..n * n).into_par_iter().map(|p| down_right[(p / n) * n + (n - 1 - p % n)]).collect();
        let invert = |t: &[f32]| -> Vec<f32> { t.par_iter().map(|&d| 1.0 / (d * d)).collect() };
        let inverse_squares = [invert(&right), invert(&down)];
        Grid { n, right, down, down_right, down_left, inverse_squares, area, shift, border }
    }

    /// Cells in all.
    pub fn cells(&self) -> usize {
        6 * self.n * self.n
    }

    /// Face position `(p, i, j)` of cell `c`: index within the face, column and row.
    #[inline(always)]
    pub fn position(&self, c: usize) -> (usize, usize, usize) {
        match self.shift {
            Some(s) => {
                let p = c & ((1 << (2 * s)) - 1);
                (p, p & ((1 << s) - 1), p >> s)
            }
            None => {
                let p = c % (self.n * self.n);
                (p, p % self.n, p / self.n)
            }
        }
    }

    /// Area of cell `c`, m².
    #[inline]
    pub fn area(&self, c: usize) -> f32 {
        self.area[self.position(c).0]
    }

    /// The eight neighbours of cell `c` in [`NEIGHBOURS_8`] order with their distances in
    /// metres; [`NONE`] (distance 1) over a cube corner.
    #[inline]
    pub fn neighbours(&self, c: usize) -> [(u32, f32); 8] {
        let n = self.n;
        let (p, i, j) = self.position(c);
        if i == 0 || j == 0 || i + 1 == n || j + 1 == n {
            return self.border_neighbours(c);
        }
        self.interior_tables().map(|(table, at, step)| ((c as isize + step) as u32, table[(p as isize + at) as usize]))
    }

    /// For cells inside a face (not on its border): the distance table of each of the eight
    /// neighbours of [`Self::neighbours`], with the offset from the cell's face position to
    /// its entry, and the offset from the cell's index to the neighbour's. Consecutive cells of
    /// a row read consecutive entries, so a row runs in vector lanes.
    #[inline]
    pub fn interior_tables(&self) -> [(&[f32], isize, isize); 8] {
        let ni = self.n as isize;
        [(&self.down_right, -ni - 1, -ni - 1), (&self.down, -ni, -ni), (&self.down_left, -ni + 1, -ni + 1), (&self.right, -1, -1), (&self.right, 0, 1), (&self.down_left, 0, ni - 1), (&self.down, 0, ni), (&self.down_right, 0, ni + 1)]
    }

    /// The four edge neighbours of [`Self::neighbours4`] with `1 / distance²`, 1/m² (the
    /// weights of a Laplacian).
    #[inline]
    pub fn neighbours4_weights(&self, c: usize) -> [(u32, f32); 4] {
        let n = self.n;
        let (p, i, j) = self.position(c);
        if i == 0 || j == 0 || i + 1 == n || j + 1 == n {
            return self.neighbours4(c).map(|(x, l)| (x, 1.0 / (l * l)));
        }
        let (c, nu) = (c as u32, n as u32);
        let [right, down] = &self.inverse_squares;
        [(c - 1, right[p - 1]), (c + 1, right[p]), (c - nu, down[p - n]), (c + nu, down[p])]
    }

    /// The cells of [`Self::neighbours`] alone, without their distances (the routing's donor
    /// and basin searches need no metric).
    #[inline]
    pub fn neighbour_cells(&self, c: usize) -> [u32; 8] {
        let n = self.n;
        let (_, i, j) = self.position(c);
        if i == 0 || j == 0 || i + 1 == n || j + 1 == n {
            return self.border_neighbours(c).map(|(x, _)| x);
        }
        self.interior_tables().map(|(_, _, step)| (c as isize + step) as u32)
    }

    /// The four edge neighbours of cell `c` (left, right, up, down) with distances in metres.
    /// Every cell has all four.
    #[inline]
    pub fn neighbours4(&self, c: usize) -> [(u32, f32); 4] {
        let n = self.n;
        let (p, i, j) = self.position(c);
        if i == 0 || j == 0 || i + 1 == n || j + 1 == n {
            let all = self.border_neighbours(c);
            return [all[3], all[4], all[1], all[6]];
        }
        let c = c as u32;
        let nu = n as u32;
        [(c - 1, self.right[p - 1]), (c + 1, self.right[p]), (c - nu, self.down[p - n]), (c + nu, self.down[p])]
    }

    /// The shortest edge between neighbours, m.
    pub fn shortest_edge(&self) -> f32 {
        let n = self.n;
        (0..n * n).map(|c| self.neighbours4(c).iter().map(|x| x.1).fold(f32::INFINITY, f32::min)).fold(f32::INFINITY, f32::min)
    }

    /// Neighbours of a cell on a face's border (tabled when the grid is made).
    #[inline]
    fn border_neighbours(&self, c: usize) -> [(u32, f32); 8] {
        let (_, i, j) = self.position(c);
        let face = c / (self.n * self.n);
        self.border[face * (self.border.len() / 6) + border_slot(i, j, self.n)]
    }
}

/// The slot of face position `(i, j)` on a face's border, counting the border's positions in
/// row order: the first row, then the first and last cell of each middle row, then the last
/// row.
#[inline]
fn border_slot(i: usize, j: usize, n: usize) -> usize {
    if j == 0 {
        i
    } else if j + 1 < n {
        n + 2 * (j - 1) + usize::from(i != 0)
    } else {
        n + 2 * (n - 2) + i
    }
}

/// Neighbours of cell `c` on a face's border at `n` cells per face edge on a sphere of
/// `radius_m`, from the cube-sphere's seam rules.
fn seam_neighbours(c: usize, n: usize, radius_m: f64) -> [(u32, f32); 8] {
    let cell = Cell::from_index(c, n);
    let from = cell.direction(n).as_dvec3().normalize();
    NEIGHBOURS_8.map(|(di, dj)| match neighbour(cell, di, dj, n) {
        Some(x) => (x.index(n) as u32, (from.angle_between(x.direction(n).as_dvec3().normalize()) * radius_m) as f32),
        None => (NONE, 1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid asked for again is the kept one; another radius or level is another grid, and
    /// a grid larger than [`SHARED_BYTES`] is never kept.
    #[test]
    fn shared_grids_are_kept_per_level_and_radius() {
        // Other tests' runs may push it out between two asks, so a few tries.
        assert!((0..5).any(|_| Arc::ptr_eq(&Grid::shared(24, 1234.5), &Grid::shared(24, 1234.5))), "a grid asked for twice is kept");
        let a = Grid::shared(24, 1234.5);
        let other = Grid::shared(24, 1234.75);
        assert!(!Arc::ptr_eq(&a, &other));
        assert_eq!(other.right.iter().zip(&a.right).filter(|(x, y)| x == y).count(), 0, "another radius has other distances");
        assert_eq!((a.n, Grid::shared(25, 1234.5).n), (24, 25));
        let run: usize = [128, 256, 512, 1024].map(|n| Grid::shared(n, 1.0).bytes()).iter().sum();
        assert!(run <= SHARED_BYTES && Grid::new(1400, 1.0).bytes() > SHARED_BYTES, "a run's grids up to 1024 ({run} bytes) are kept, a 1400 one is not");
        assert!(!Arc::ptr_eq(&Grid::shared(1400, 1.0), &Grid::shared(1400, 1.0)));
        let fresh = Grid::new(24, 1234.5);
        assert_eq!((fresh.right.clone(), fresh.area.clone(), fresh.border.clone()), (a.right.clone(), a.area.clone(), a.border.clone()));
    }

    #[test]
    fn border_slots_count_the_border_in_row_order() {
        for n in [1usize, 2, 3, 8] {
            let border: Vec<(usize, usize)> = (0..n * n).map(|p| (p % n, p / n)).filter(|&(i, j)| i == 0 || j == 0 || i + 1 == n || j + 1 == n).collect();
            for (k, &(i, j)) in border.iter().enumerate() {
                assert_eq!(border_slot(i, j, n), k, "n={n} ({i}, {j})");
            }
        }
    }

    /// The tables filled by symmetry hold, to the bit, the distances computed position by
    /// position where `n` is a power of two; otherwise the steps right and down-right are
    /// computed (the same bits) and the mirrored ones agree to 1e-4 (the rounding of a cell centre's
    /// coordinate, magnified by the short step between neighbours).
    #[test]
    fn mirrored_tables_are_the_computed_ones() {
        for n in [2usize, 3, 4, 7, 16, 33, 64, 100, 128] {
            let radius_m = 6.371e6;
            let g = Grid::new(n, radius_m / 1000.0);
            let centre = |i: isize| f64::from(warp((2.0 * (i as f32 + 0.5) / n as f32) - 1.0));
            let local = |i: isize, j: isize| DVec3::new(centre(i), centre(j), 1.0).normalize();
            let direct = |i: isize, j: isize, di: isize, dj: isize| (local(i, j).angle_between(local(i + di, j + dj)) * radius_m) as f32;
            let near = |a: f32, b: f32| if n.is_power_of_two() { a.to_bits() == b.to_bits() } else { (a - b).abs() <= 1e-4 * b };
            for p in 0..n * n {
                let (i, j) = ((p % n) as isize, (p / n) as isize);
                assert_eq!(g.right[p].to_bits(), direct(i, j, 1, 0).to_bits(), "n={n} right ({i}, {j})");
                assert_eq!(g.down_right[p].to_bits(), direct(i, j, 1, 1).to_bits(), "n={n} down right ({i}, {j})");
                assert!(near(g.down[p], direct(i, j, 0, 1)), "n={n} down ({i}, {j})");
                if i >= 1 {
                    assert!(near(g.down_left[p], direct(i, j, -1, 1)), "n={n} down left ({i}, {j})");
                }
            }
        }
    }

    #[test]
    fn areas_sum_to_the_sphere_and_distances_match_the_directions() {
        for n in [4usize, 16, 33] {
            let g = Grid::new(n, 1.0);
            let total: f64 = (0..g.cells()).map(|c| f64::from(g.area(c))).sum();
            let sphere = 4.0 * std::f64::consts::PI * 1e6;
            assert!((total / sphere - 1.0).abs() < 0.01, "n={n}: {total} vs {sphere}");
            for c in 0..g.cells() {
                let from = Cell::from_index(c, n).direction(n).as_dvec3().normalize();
                for (x, d) in g.neighbours(c) {
                    if x == NONE {
                        continue;
                    }
                    let to = Cell::from_index(x as usize, n).direction(n).as_dvec3().normalize();
                    let want = from.angle_between(to) * 1000.0;
                    assert!((f64::from(d) - want).abs() < 1e-3 * want, "n={n} c={c}: {d} vs {want}");
                    // Neighbourhood is symmetric.
                    assert!(g.neighbours(x as usize).iter().any(|&(y, _)| y == c as u32));
                }
            }
        }
    }
}
