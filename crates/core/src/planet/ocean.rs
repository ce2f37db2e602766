//! The ocean: ground below sea level that belongs to a body of water large enough to be a sea.
//! Smaller hollows below sea level are inland basins (the Dead Sea, the Caspian): land whose
//! water fills them as lakes. Landscape evolution routes water by it, Distance to coast
//! measures to its shores, and `bench --earth` counts the basins left over.

use super::coords::{face_solid_angles, neighbour, Cell, NEIGHBOURS_8};
use super::pipes::NONE;
use super::Field;
use rayon::prelude::*;

/// Share of the planet's area from which a body of water below sea level is a sea (part of
/// the ocean), not an inland basin: 0.1 %, about 510 000 km² on an Earth-sized planet (more
/// than the Caspian Sea's 371 000 km²). The largest body is a sea whatever its size.
pub const SEA_MIN_SHARE: f64 = 0.001;

/// Cells per piece of the parallel sum of the planet's area in [`ocean_cells`] (fixed, so the
/// sum does not depend on the number of threads).
const BODY_PIECE: usize = 1 << 15;

/// The cells of piece `k` of `cells` cells in [`BODY_PIECE`]s.
fn piece(k: usize, cells: usize) -> std::ops::Range<usize> {
    k * BODY_PIECE..((k + 1) * BODY_PIECE).min(cells)
}

/// Which cells of a planet of `n` cells per face edge are ocean: those `below` sea level that
/// are connected, through the neighbours `neighbours` gives ([`NONE`] for none, in
/// [`NEIGHBOURS_8`]'s order), to a body below sea level of at least [`SEA_MIN_SHARE`] of the
/// total `area`, or to the largest body.
///
/// Inside a face the neighbours must be the raster's eight (as every cube-sphere grid's are);
/// `neighbours` is asked only on a face's border, for the cells across the seams. The bodies
/// are found run by run: the runs of consecutive cells below sea level along each face row
/// ([`Runs`]) are joined where they touch the runs of the row above (faces on the threads),
/// then across the seams. A run stands for hundreds of open-sea cells, so this reads each cell
/// once and writes each ocean cell once; it finds the same bodies as [`bodies`].
pub fn ocean_cells<const K: usize>(n: usize, below: impl Fn(usize) -> bool + Sync, area: impl Fn(usize) -> f64 + Sync, neighbours: impl Fn(usize) -> [u32; K] + Sync) -> Vec<bool> {
    let runs = Runs::of(n, &below, &area);
    let (group, count) = runs.groups(&below, neighbours);
    let areas = runs.group_areas(&group, count);
    // The total of all cells piece by piece (the same sum whatever the threads).
    let partial: Vec<f64> = (0..(6 * n * n).div_ceil(BODY_PIECE)).into_par_iter().map(|k| piece(k, 6 * n * n).map(&area).sum()).collect();
    let total: f64 = partial.iter().sum();
    let largest = areas.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(k, _)| k);
    let sea: Vec<bool> = areas.iter().enumerate().map(|(k, &a)| a >= SEA_MIN_SHARE * total || Some(k) == largest).collect();
    let mut out = vec![false; 6 * n * n];
    runs.fill(&mut out, |k| sea[group[k] as usize].then_some(true));
    out
}

/// A run of consecutive cells of one face row that are kept: cells `start..end`, and their
/// summed area.
#[derive(Debug, Clone, Copy)]
struct Run {
    start: u32,
    end: u32,
    area: f64,
}

/// The runs of kept cells of every face row of a planet, rows in order (faces in order, each
/// in rows), so runs are in cell order.
struct Runs {
    n: usize,
    runs: Vec<Run>,
    /// Index of the first run of each row, and the run count at the end (`6 n + 1` entries).
    row_first: Vec<usize>,
}

impl Runs {
    /// The runs where `keep` holds, rows on the threads.
    fn of(n: usize, keep: &(impl Fn(usize) -> bool + Sync), area: &(impl Fn(usize) -> f64 + Sync)) -> Runs {
        let per_row: Vec<Vec<Run>> = (0..6 * n)
            .into_par_iter()
            .map(|row| {
                let mut out: Vec<Run> = Vec::new();
                let mut open: Option<Run> = None;
                for c in row * n..(row + 1) * n {
                    match (keep(c), open.as_mut()) {
                        (true, Some(r)) => {
                            r.end += 1;
                            r.area += area(c);
                        }
                        (true, None) => open = Some(Run { start: c as u32, end: c as u32 + 1, area: area(c) }),
                        (false, Some(_)) => out.extend(open.take()),
                        (false, None) => {}
                    }
                }
                out.extend(open);
                out
            })
            .collect();
        let mut row_first = Vec::with_capacity(6 * n + 1);
        let mut total = 0;
        for r in &per_row {
            row_first.push(total);
            total += r.len();
        }
        row_first.push(total);
        Runs { n, runs: per_row.concat(), row_first }
    }

    /// Each group's area (its runs' areas summed in cell order), from the runs' `group`s of
    /// [`Runs::groups`].
    fn group_areas(&self, group: &[u32], count: usize) -> Vec<f64> {
        let mut areas = vec![0.0f64; count];
        for (g, r) in group.iter().zip(&self.runs) {
            areas[*g as usize] += r.area;
        }
        areas
    }

    /// Writes `value(k)` over the cells of every run `k` it gives one for (rows on the
    /// threads); `out` holds a value per cell.
    fn fill<T: Copy + Send + Sync>(&self, out: &mut [T], value: impl Fn(usize) -> Option<T> + Sync) {
        let n = self.n;
        out.par_chunks_mut(n.max(1)).enumerate().for_each(|(row, cells)| {
            for k in self.row_first[row]..self.row_first[row + 1] {
                if let Some(v) = value(k) {
                    let (r, first) = (&self.runs[k], row * n);
                    cells[r.start as usize - first..r.end as usize - first].fill(v);
                }
            }
        });
    }

    /// The run of row `row` that holds cell `c`, if any.
    fn run_of(&self, row: usize, c: u32) -> Option<usize> {
        let range = self.row_first[row]..self.row_first[row + 1];
        let runs = &self.runs[range.clone()];
        let k = runs.partition_point(|r| r.end <= c);
        (k < runs.len() && runs[k].start <= c).then_some(range.start + k)
    }

    /// Each run's group, groups numbered in the order of their first run (so of their first
    /// cell), and the number of groups. Runs of neighbouring rows of a face touch where their
    /// cells overlap, with eight neighbours (`K` = 8) once widened by one each way (the
    /// diagonals), with four (`K` = 4) as they are; across the seams the border cells'
    /// `neighbours` join them.
    fn groups<const K: usize>(&self, keep: &(impl Fn(usize) -> bool + Sync), neighbours: impl Fn(usize) -> [u32; K] + Sync) -> (Vec<u32>, usize) {
        debug_assert!(K == 4 || K == 8, "a cube-sphere cell has 4 or 8 neighbours, not {K}");
        let n = self.n;
        let diagonal = usize::from(K == 8);
        let mut parent: Vec<u32> = (0..self.runs.len() as u32).collect();
        // Inside each face on the threads: a face's runs are one slice of the parents.
        let face_starts: Vec<usize> = (0..=6).map(|f| self.row_first[f * n]).collect();
        let mut slices: Vec<(usize, &mut [u32])> = Vec::with_capacity(6);
        let mut rest: &mut [u32] = &mut parent;
        for f in 0..6 {
            let (mine, after) = rest.split_at_mut(face_starts[f + 1] - face_starts[f]);
            slices.push((f, mine));
            rest = after;
        }
        let (runs, row_first) = (&self.runs, &self.row_first);
        slices.into_par_iter().for_each(|(f, local)| {
            let base = face_starts[f];
            for row in f * n + 1..(f + 1) * n {
                let (above, here) = (row_first[row - 1]..row_first[row], row_first[row]..row_first[row + 1]);
                let mut a = above.start;
                for h in here {
                    let (start, end) = (runs[h].start as usize - n, runs[h].end as usize - n);
                    // Runs above that end before this one's (widened) start cannot touch it or
                    // any later run of this row.
                    while a < above.end && runs[a].end as usize + diagonal <= start {
                        a += 1;
                    }
                    let mut k = a;
                    while k < above.end && runs[k].start as usize + 1 - diagonal <= end {
                        join(local, base, h as u32, k as u32);
                        k += 1;
                    }
                }
            }
        });
        // Across the seams: the border cells of every face.
        for face in 0..6 {
            let edges = (0..n).flat_map(|i| [i, (n - 1) * n + i]).chain((1..n.saturating_sub(1)).flat_map(|j| [j * n, j * n + n - 1]));
            for p in edges {
                let c = face * n * n + p;
                if !keep(c) {
                    continue;
                }
                let Some(mine) = self.run_of(c / n, c as u32) else { continue };
                for x in neighbours(c) {
                    if x == NONE || x as usize / (n * n) == face {
                        continue;
                    }
                    if let Some(theirs) = self.run_of(x as usize / n, x) {
                        join(&mut parent, 0, mine as u32, theirs as u32);
                    }
                }
            }
        }
        let mut number = vec![u32::MAX; parent.len()];
        let mut count = 0u32;
        for k in 0..parent.len() {
            let root = find(&mut parent, 0, k as u32) as usize;
            // A group's root is its first run, numbered before the others.
            number[k] = if root == k {
                count += 1;
                count - 1
            } else {
                number[root]
            };
        }
        (number, count as usize)
    }
}

/// The root of `x` in `parent`, the parents of members `base..` (a group's members all lie
/// there), halving the path on the way.
fn find(parent: &mut [u32], base: usize, mut x: u32) -> u32 {
    let at = |x: u32| x as usize - base;
    while parent[at(x)] != x {
        let grand = parent[at(parent[at(x)])];
        parent[at(x)] = grand;
        x = grand;
    }
    x
}

/// Joins the groups of `a` and `b` in `parent` (as in [`find`]), the later root under the
/// earlier (so every group's root is its first member, whatever the order of the joins).
fn join(parent: &mut [u32], base: usize, a: u32, b: u32) {
    let (a, b) = (find(parent, base, a), find(parent, base, b));
    if a != b {
        parent[a.max(b) as usize - base] = a.min(b);
    }
}

/// The connected groups of the cells of a planet of `n` cells per face edge (faces in order,
/// each in rows) where `keep` holds, through the neighbours `neighbours` gives ([`NONE`] for
/// none; eight in [`NEIGHBOURS_8`]'s order or the four edge neighbours, the raster's inside a
/// face; see [`ocean_cells`]): each
/// cell's group (`u32::MAX` where `keep` fails) and each group's area, its cells weighing
/// `area`. Groups are numbered in the order of their first cell; found run by run as
/// [`ocean_cells`] finds the bodies, so the result does not depend on the number of threads.
pub fn bodies<const K: usize>(n: usize, keep: impl Fn(usize) -> bool + Sync, area: impl Fn(usize) -> f64 + Sync, neighbours: impl Fn(usize) -> [u32; K] + Sync) -> (Vec<u32>, Vec<f64>) {
    let runs = Runs::of(n, &keep, &area);
    let (group, count) = runs.groups(&keep, neighbours);
    let mut body = vec![u32::MAX; 6 * n * n];
    runs.fill(&mut body, |k| Some(group[k]));
    (body, runs.group_areas(&group, count))
}

/// The ocean of the whole field `f`, with `sea_level` its value of sea level (8 neighbours
/// across seams, as landscape evolution routes water; cells weighed by their solid angle).
/// Neighbours are found as it goes, without a table: a build at 2048 would otherwise hold
/// 1.8 GB of table for one node.
pub fn ocean_of(f: &Field, sea_level: f32) -> Vec<bool> {
    let n = f.n();
    let h = f.data();
    let face_area = face_solid_angles(n);
    ocean_cells(n, |c| h[c] < sea_level, |c| face_area[c % (n * n)], |c| moore(c, n))
}

/// The 8 neighbours of cell `c` at level `n` across seams, in [`NEIGHBOURS_8`]'s order
/// ([`NONE`] for the diagonal over a cube corner).
pub fn moore(c: usize, n: usize) -> [u32; 8] {
    let cell = Cell::from_index(c, n);
    if cell.i > 0 && cell.j > 0 && cell.i + 1 < n && cell.j + 1 < n {
        return NEIGHBOURS_8.map(|(di, dj)| (c as i64 + di + dj * n as i64) as u32);
    }
    NEIGHBOURS_8.map(|(di, dj)| neighbour(cell, di, dj, n).map_or(NONE, |x| x.index(n) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// The neighbours found as it goes are the shared table's.
    #[test]
    fn moore_neighbours_are_the_table_s() {
        let n = 12;
        let table = crate::planet::pipes::pipes8(n);
        for c in 0..6 * n * n {
            assert_eq!(moore(c, n), table.to[c], "cell {c}");
        }
    }

    /// The groups of the cells where `keep` holds and their areas by a plain flood fill over
    /// the `neighbours` of each cell, groups numbered by their first cell.
    fn flood_bodies<const K: usize>(n: usize, keep: impl Fn(usize) -> bool, area: impl Fn(usize) -> f64, neighbours: impl Fn(usize) -> [u32; K]) -> (Vec<u32>, Vec<f64>) {
        let mut body = vec![u32::MAX; 6 * n * n];
        let mut areas: Vec<f64> = Vec::new();
        for start in 0..body.len() {
            if !keep(start) || body[start] != u32::MAX {
                continue;
            }
            let id = areas.len() as u32;
            areas.push(0.0);
            let mut stack = vec![start];
            body[start] = id;
            while let Some(c) = stack.pop() {
                areas[id as usize] += area(c);
                for x in neighbours(c) {
                    if x != NONE && keep(x as usize) && body[x as usize] == u32::MAX {
                        body[x as usize] = id;
                        stack.push(x as usize);
                    }
                }
            }
        }
        (body, areas)
    }

    /// The groups and their areas are the same to the bit on one thread and on several, and
    /// match a plain flood fill's (groups numbered by their first cell), with eight neighbours
    /// and with four (which do not join cells that touch only at a corner).
    #[test]
    fn bodies_are_the_same_for_any_thread_count_and_match_a_flood_fill() {
        fn check<const K: usize>(n: usize, neighbours: impl Fn(usize) -> [u32; K] + Sync + Copy) -> usize {
            let f = Field::from_fn_dir(n, |d| (d.x * 7.0).sin() * (d.y * 5.0).cos() + (d.z * 11.0).sin() * 0.5);
            let h = f.data();
            let face_area = face_solid_angles(n);
            // Blobs, and diagonal lines whose cells touch only at their corners.
            let keep = |c: usize| h[c] > 0.8 || (c % n + c / n % n).is_multiple_of(7);
            let run = |threads: usize| rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool").install(|| bodies(n, keep, |c| face_area[c % (n * n)], neighbours));
            let (one, many) = (run(1), run(3));
            assert_eq!(one.0, many.0);
            assert_eq!(one.1.iter().map(|a| a.to_bits()).collect::<Vec<_>>(), many.1.iter().map(|a| a.to_bits()).collect::<Vec<_>>());
            let (body, areas) = flood_bodies(n, keep, |c| face_area[c % (n * n)], neighbours);
            assert_eq!(one.0, body, "n={n} with {K} neighbours");
            for (a, b) in one.1.iter().zip(&areas) {
                assert!((a - b).abs() <= 1e-9 * b, "{a} against {b}");
            }
            areas.len()
        }
        for n in [1usize, 3, 128] {
            let table = crate::planet::pipes::pipes4(n);
            let four_of = &table.to;
            let (eight, four) = (check(n, |c| moore(c, n)), check(n, |c| four_of[c]));
            if n == 128 {
                assert!(four > eight && eight > 3, "{four} groups with four neighbours, {eight} with eight");
            }
        }
    }

    /// The ocean found run by run is the one a flood fill's bodies give (the same bodies and
    /// the same choice of seas), on one thread and on several, for odd and even levels, single
    /// cells, bodies that cross seams and cube corners, and seas of every size.
    #[test]
    fn runs_find_the_ocean_of_the_flood_filled_bodies() {
        let by_bodies = |n: usize, h: &[f32], sea_level: f32| -> Vec<bool> {
            let face_area = face_solid_angles(n);
            let area = |c: usize| face_area[c % (n * n)];
            let (body, areas) = flood_bodies(n, |c| h[c] < sea_level, area, |c| moore(c, n));
            let total: f64 = (0..h.len()).map(area).sum();
            let largest = areas.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(k, _)| k);
            body.iter().map(|&b| b != u32::MAX && (areas[b as usize] >= SEA_MIN_SHARE * total || Some(b as usize) == largest)).collect()
        };
        let mut checked = 0;
        for n in [1usize, 2, 3, 5, 16, 33, 64] {
            let f = Field::from_fn_dir(n, |d| (d.x * 9.0).sin() * (d.y * 7.0).cos() + (d.z * 13.0 + d.x * 3.0).sin() * 0.6 + (d.y * 29.0).cos() * 0.2);
            for sea_level in [-1.5f32, -0.6, 0.0, 0.4, 0.9, 2.0] {
                let want = by_bodies(n, f.data(), sea_level);
                let run = |threads: usize| rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool").install(|| ocean_of(&f, sea_level));
                assert_eq!(run(1), want, "n={n} sea level {sea_level}, one thread");
                assert_eq!(run(3), want, "n={n} sea level {sea_level}, three threads");
                checked += want.iter().filter(|&&x| x).count();
            }
        }
        assert!(checked > 1000, "{checked} ocean cells checked");
    }

    /// A sea around a continent, and two hollows below sea level in the continent: a small one
    /// is an inland basin, one larger than the threshold a sea of its own.
    #[test]
    fn small_hollows_are_inland_and_large_bodies_are_sea() {
        let n = 48;
        let axis = Vec3::new(0.3, 0.5, 0.8).normalize();
        let small = Vec3::new(0.4, 0.5, 0.75).normalize();
        let large = Vec3::new(0.1, 0.6, 0.8).normalize();
        let f = Field::from_fn_dir(n, |d| if d.dot(axis) < 0.5 || d.dot(small) > 0.9985 || d.dot(large) > 0.995 { -100.0 } else { 100.0 });
        let ocean = ocean_of(&f, 0.0);
        let cells: Vec<Vec3> = (0..6 * n * n).map(|c| crate::planet::Cell::from_index(c, n).direction(n)).collect();
        let share = |keep: &dyn Fn(usize) -> bool| (0..cells.len()).filter(|&c| keep(c)).count();
        assert!(share(&|c| cells[c].dot(small) > 0.9985 && f.data()[c] < 0.0) > 0, "the small hollow has cells");
        assert_eq!(share(&|c| cells[c].dot(small) > 0.9985 && ocean[c]), 0, "the small hollow is inland");
        assert!(share(&|c| cells[c].dot(large) > 0.995 && ocean[c]) > 10, "the large body is a sea");
        assert!((0..cells.len()).filter(|&c| cells[c].dot(axis) < 0.4).all(|c| ocean[c]), "the open sea is ocean");
        assert!((0..cells.len()).all(|c| !ocean[c] || f.data()[c] < 0.0), "land is never ocean");
    }
}
