//! Rivers finer than the run that found them: on a grid finer than the landscape evolution's,
//! each river cell's course to the cell it drains into becomes a line of the river's own width
//! (from its discharge), so close-ups and large builds show thin, continuous rivers instead of
//! the run's cells blown up, and the elevation gathers the run's relief into a valley along
//! that line instead of a bilinear trough. (Lakes finer than the run: [`super::lakes`].)

use crate::planet::cell_map::{CellMap, CellSet};
use crate::planet::coords::Cell;
use crate::planet::fbm::{noise_radius, FastFbm};
use crate::planet::{smoothstep, Field, Grid};
use glam::Vec3;
use rayon::prelude::*;
use run_cells::{containing, footprint, neighbours, receiver, ringed, rings_within, to_segment, REACH_STEP_CELLS};

#[path = "run_cells.rs"]
mod run_cells;

/// Width of a river carrying `discharge_m3_s`, metres: about 4 Q^0.5 (the hydraulic geometry of
/// alluvial rivers, Leopold and Maddock: a river of 1 000 m³/s is about 130 m wide).
pub fn river_width_m(discharge_m3_s: f32) -> f32 {
    4.0 * discharge_m3_s.max(0.0).sqrt()
}

/// Depth a river's valley is cut below the run's height of its course, m: 2.5 Q^0.3, at most
/// 150 m (about 20 m at 1 000 m³/s, 40 m at 10 000 and 100 m at 200 000: the bluffs of large
/// lowland rivers stand tens of metres over their floors, the Mississippi's 30 to 60 m), so
/// rivers on plains, whose run cells lie level with the land around them, sit in valleys.
pub fn valley_depth_m(discharge_m3_s: f32) -> f32 {
    (2.5 * discharge_m3_s.max(0.0).powf(0.3)).min(150.0)
}

/// How far a line wanders from the straight course between two cells' centres, in the run's
/// cells (the lines bend like a river's reaches instead of running at multiples of 45 degrees).
const WANDER_CELLS: f32 = 0.3;
/// Wavelength of those bends, in the run's cells.
const BEND_CELLS: f32 = 2.0;

/// Most a place wanders ([`Courses::wandered`]), in the run's nominal cells (a quarter turn
/// over `m`): [`WANDER_CELLS`] times the length of a tangent of three noise values of at most 1.
const MOST_WANDER_CELLS: f32 = WANDER_CELLS * 1.733;

/// Straight pieces a course's curve is measured on.
const PIECES: usize = 4;

/// One river cell's course through its cell: a curve from where the river above it comes in
/// (half-way from the main river cell that drains into it; its centre at a head) to where it
/// goes on (half-way to the cell it drains into, or where it joins the river of that cell when
/// another, larger river drains there too, or that cell's centre when it is sea or lake),
/// bent towards the cell's centre. The run's courses turn at multiples of 45 degrees from
/// cell to cell; the curves round those turns off.
#[derive(Debug, Clone, Copy)]
struct Course {
    /// Points along the curve (unit vectors), [`PIECES`] straight pieces.
    points: [Vec3; PIECES + 1],
    /// Width of the river, m.
    width_m: f32,
    /// The run's elevation at both ends of the curve, in the elevation's units.
    height: (f32, f32),
    /// How far the valley's floor lies below that at both ends ([`valley_depth_m`]), in the
    /// elevation's units.
    cut: (f32, f32),
    /// Whether no river drains into it (its valley opens from nothing at its centre).
    head: bool,
    /// Where it lies in an estuary ([`ESTUARY_MIN_M3_S`]): how far its start lies upstream of
    /// the coastline and the estuary's length, both in the run's cells (one per course).
    estuary: Option<(f32, f32)>,
}

/// Discharge from which a river meets the sea in an estuary, m³/s.
pub const ESTUARY_MIN_M3_S: f32 = 1000.0;
/// How many times its own width an estuary is at the coastline (funnel-shaped estuaries widen
/// seaward roughly exponentially, to tens of times the river's width: the Thames, the Gironde,
/// the Río de la Plata).
pub const ESTUARY_FLARE: f32 = 12.0;
/// Length of an estuary upstream of the coastline, km (at least one of the run's cells).
pub const ESTUARY_KM: f32 = 60.0;
/// Largest half-width of a refined river or estuary, in the run's cells (its valley reaches
/// three times as far, [`Course::reach_cells`]).
pub const MOST_HALF_WIDTH_CELLS: f32 = 0.35;

impl Course {
    /// Width of the river at `t` along the course (0 at its start, 1 at its end), m: its own,
    /// or in an estuary widening towards the coastline to [`ESTUARY_FLARE`] times that (the
    /// exponent growing with the square of the share of the estuary's length passed).
    fn width_at(&self, t: f32) -> f32 {
        match self.estuary {
            Some((start, length)) => {
                let passed = (1.0 - (start - t) / length).clamp(0.0, 1.0);
                self.width_m * ESTUARY_FLARE.powf(passed * passed)
            }
            None => self.width_m,
        }
    }

    /// Points along the curve's straight pieces, none farther than `step` (radians) from the
    /// next, both ends included.
    fn samples(&self, step: f32) -> impl Iterator<Item = Vec3> + '_ {
        self.points.windows(2).flat_map(move |piece| {
            let (a, b) = (piece[0], piece[1]);
            let parts = ((b - a).length() / step).ceil().max(1.0) as usize;
            (0..=parts).map(move |k| (a + (b - a) * (k as f32 / parts as f32)).normalize())
        })
    }

    /// How far from its curve a course changes the ground or draws its river, in the run's
    /// nominal cells of `cell_km`: its valley's half-width (`valley_cells`, or three times its
    /// widest floor's), which is more than its line's (the line's edge is smoothed over a
    /// finer cell, and the valley is at least [`VALLEY_MIN_CELLS`] of those).
    fn reach_cells(&self, valley_cells: f32, cell_km: f32) -> f32 {
        let floor = (0.5 * self.width_at(0.0).max(self.width_at(1.0)) / 1000.0 / cell_km).min(MOST_HALF_WIDTH_CELLS);
        valley_cells.max(3.0 * floor)
    }

    /// Distance (chord, in radii) from `p` to the curve, and where along it (0 at its start, 1
    /// at its end) the nearest point lies.
    fn nearest(&self, p: Vec3) -> (f32, f32) {
        (0..PIECES).fold((f32::INFINITY, 0.0), |best, k| {
            let (d, t) = to_segment(p, self.points[k], self.points[k + 1]);
            if d < best.0 {
                (d, (k as f32 + t) / PIECES as f32)
            } else {
                best
            }
        })
    }
}

/// The point at `s` (0..1) of the quadratic Bézier curve from `a` to `b` bent towards `c`,
/// on the sphere.
fn bezier(a: Vec3, c: Vec3, b: Vec3, s: f32) -> Vec3 {
    (a * (1.0 - s) * (1.0 - s) + c * 2.0 * s * (1.0 - s) + b * s * s).normalize()
}

/// That curve at [`PIECES`] + 1 points.
fn bent(a: Vec3, c: Vec3, b: Vec3) -> [Vec3; PIECES + 1] {
    std::array::from_fn(|k| bezier(a, c, b, k as f32 / PIECES as f32))
}

/// What sizes a run's courses besides their rivers: where the sea begins, and lengths in the
/// run's nominal cells (a quarter turn over its level).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Extent {
    /// The planet (its sea level and elevation units).
    planet: RunPlanet,
    /// Length of an estuary.
    estuary_cells: f32,
    /// Least half-width of a valley ([`Course::reach_cells`]).
    valley_cells: f32,
    /// Kilometres in a nominal cell.
    cell_km: f32,
}

/// The river courses of a run at level `m` near a finer grid, and the smooth tangent noise
/// that makes the lines wander.
struct Courses {
    m: usize,
    /// Each river cell's course, by its cell.
    lines: CellMap<Course>,
    /// By run cell, the cells of the courses whose reach ([`Course::reach_cells`]) may
    /// touch a place in it.
    nearby: CellMap<Vec<usize>>,
    /// The run cells that a place may wander out of into one of `nearby`'s: a place whose
    /// run cell is not one of them has no course near it, wherever it wanders.
    busy: CellSet,
    wander: [FastFbm; 3],
    scale: f64,
    reach: f32,
}

impl Courses {
    /// The courses of every river cell of the run (mask `rivers`, drainage area in km²,
    /// discharge in m³/s, elevation) that may reach a place of `grid`, wherever it wanders.
    fn new(rivers: &Field, area_km2: &Field, discharge: &Field, elevation: &Field, grid: Grid, extent: Extent) -> Courses {
        let Extent { planet: RunPlanet { sea_level, units_per_metre, .. }, estuary_cells, valley_cells, cell_km } = extent;
        let m = rivers.n();
        let (river, area, q, h) = (rivers.data(), area_km2.data(), discharge.data(), elevation.data());
        let sorted = |mut cells: Vec<usize>| {
            cells.par_sort_unstable();
            cells.dedup();
            cells
        };
        let mut near = sorted(footprint(grid, m));
        let ring = |near: &mut Vec<usize>| *near = sorted(near.iter().flat_map(|&c| std::iter::once(c).chain(neighbours(Cell::from_index(c, m), m).map(|r| r.index(m)))).collect());
        // A course's curve lies in its cell and the one it drains into, and reaches its widest
        // valley's half-width beyond (or a wandering place reaches it from there).
        for _ in 0..1 + rings_within(valley_cells.max(3.0 * MOST_HALF_WIDTH_CELLS) + 0.5 * REACH_STEP_CELLS) {
            ring(&mut near);
        }
        let seen = near.clone();
        // Two rings more, so that the cells a course drains into have all their upstream
        // river cells here.
        ring(&mut near);
        ring(&mut near);
        let drains: CellMap<usize> = near.into_par_iter().filter(|&c| river[c] > 0.0).filter_map(|c| receiver(Cell::from_index(c, m), m, area, h).map(|r| (c, r.index(m)))).collect();
        // The main river into each cell: the one with the largest drainage area (then the
        // highest index), whatever order the map is read in.
        let mut main_in: CellMap<usize> = CellMap::default();
        for (&c, &r) in &drains {
            let main = main_in.entry(r).or_insert(c);
            if (area[c], c) > (area[*main], *main) {
                *main = c;
            }
        }
        let centre = |c: usize| Cell::from_index(c, m).direction(m);
        // A river cell's run height and its valley's cut ([`valley_depth_m`]), both in the
        // elevation's units, and the mean of two such.
        let level = |c: usize| (h[c], valley_depth_m(q[c]) * units_per_metre);
        let mean = |a: (f32, f32), b: (f32, f32)| (0.5 * (a.0 + b.0), 0.5 * (a.1 + b.1));
        let half_way = |a: usize, b: usize| ((centre(a) + centre(b)) * 0.5, mean(level(a), level(b)));
        let start = |c: usize| main_in.get(&c).map_or((centre(c), level(c)), |&u| half_way(u, c));
        let mut lines: CellMap<Course> = seen
            .into_iter()
            .filter_map(|c| {
                let r = *drains.get(&c)?;
                let ((from, from_level), (to, to_level)) = (
                    start(c),
                    match drains.get(&r) {
                        Some(_) if main_in.get(&r) == Some(&c) => half_way(c, r),
                        // Another river is the main one there: join its curve half-way along
                        // (as if that river went on half-way to the cell below it).
                        Some(&below) => {
                            let ((a, la), (b, lb)) = (start(r), half_way(r, below));
                            (bezier(a, centre(r), b, 0.5), mean(la, lb))
                        }
                        // Into the sea or a lake: the cut goes on to the end (the floor never
                        // below sea level, see `refine_courses`).
                        None => (centre(r), (h[r], level(c).1)),
                    },
                );
                let (height, cut) = ((from_level.0, to_level.0), (from_level.1, to_level.1));
                Some((c, Course { points: bent(from, centre(c), to), width_m: river_width_m(q[c]), height, cut, head: !main_in.contains_key(&c), estuary: None }))
            })
            .collect();
        // Estuaries: from each large river's mouth (a river cell draining into the sea) up
        // its main river for the estuary's length, measured from where its floor crosses sea
        // level on the last course.
        let mouths: Vec<(usize, usize)> = drains.iter().map(|(&c, &r)| (c, r)).filter(|&(c, r)| !drains.contains_key(&r) && h[r] < sea_level && q[c] >= ESTUARY_MIN_M3_S).collect();
        for (mouth, sea) in mouths {
            let (from_h, to_h) = (start(mouth).1 .0, h[sea]);
            let crossing = ((from_h - sea_level) / (from_h - to_h).max(f32::MIN_POSITIVE)).clamp(0.0, 1.0);
            let (mut cell, mut k) = (mouth, 0.0f32);
            while k < estuary_cells + 1.0 {
                if let Some(course) = lines.get_mut(&cell) {
                    course.estuary = Some((k + crossing, estuary_cells));
                }
                match main_in.get(&cell) {
                    Some(&up) => (cell, k) = (up, k + 1.0),
                    None => break,
                }
            }
        }
        let wander = [0x5249_0001, 0x5249_0002, 0x5249_0003].map(|seed| FastFbm::new(seed, 2, 0.5, 2.0));
        let (scale, reach) = (noise_radius(4.0 * m as f32 / BEND_CELLS), WANDER_CELLS * std::f32::consts::FRAC_PI_2 / m as f32);
        // Each course in the run cells around its curve that its reach may touch, and the
        // ring more that a place may wander in from.
        let step = REACH_STEP_CELLS * std::f32::consts::FRAC_PI_2 / m as f32;
        let mut nearby: CellMap<Vec<usize>> = CellMap::default();
        let mut busy = CellSet::default();
        for (&c, course) in &lines {
            let reach = course.reach_cells(valley_cells, cell_km) + 0.5 * REACH_STEP_CELLS;
            let touched = rings_within(reach);
            for (cell, ring) in ringed(course.samples(step).map(|p| containing(p, m)), rings_within(reach + MOST_WANDER_CELLS), m) {
                busy.insert(cell);
                if ring <= touched {
                    nearby.entry(cell).or_default().push(c);
                }
            }
        }
        Courses { m, lines, nearby, busy, wander, scale, reach }
    }

    /// Whether a course may pass near the place `at` (before it wanders): its run cell is one
    /// a place may wander out of towards a course. Where none may, [`Courses::near`] of the wandered
    /// place finds nothing, so the noise of the wandering need not be evaluated.
    fn may_pass(&self, at: Vec3) -> bool {
        !self.busy.is_empty() && self.busy.contains(&containing(at, self.m).index(self.m))
    }

    /// [`Courses::may_pass`] of the centre of `cell`, a cell of level `n`: where `n` is a whole
    /// multiple of the run's level, the run cell it lies in found from its column and row (a
    /// centre never lies on a run cell's border then), else from its direction.
    fn may_pass_cell(&self, cell: Cell, n: usize) -> bool {
        let m = self.m;
        if n > m && n.is_multiple_of(m) {
            let k = n / m;
            self.busy.contains(&Cell { face: cell.face, i: cell.i / k, j: cell.j / k }.index(m))
        } else {
            self.may_pass(cell.direction(n))
        }
    }

    /// Where the lines are looked up for the place `at`: moved along the smooth tangent noise
    /// field by up to [`WANDER_CELLS`] of the run's cells, so the lines bend.
    #[cfg(test)]
    fn wandered(&self, at: Vec3) -> Vec3 {
        self.wandered_many(&[at])[0]
    }

    /// [`Courses::wandered`] of each of `places`, the noise evaluated in vector lanes along
    /// them ([`FastFbm::get_many`], the same values as one by one).
    fn wandered_many(&self, places: &[Vec3]) -> Vec<Vec3> {
        let x: Vec<[f64; 3]> = places.iter().map(|at| [f64::from(at.x) * self.scale, f64::from(at.y) * self.scale, f64::from(at.z) * self.scale]).collect();
        let [vx, vy, vz] = self.wander.each_ref().map(|w| w.get_many(&x));
        places
            .iter()
            .enumerate()
            .map(|(k, &at)| {
                let v = Vec3::new(vx[k] as f32, vy[k] as f32, vz[k] as f32);
                (at + (v - at * v.dot(at)) * self.reach).normalize()
            })
            .collect()
    }

    /// The courses that can pass near the (wandered) place `p`: those whose reach may touch
    /// its run cell.
    fn near(&self, p: Vec3) -> impl Iterator<Item = &Course> {
        self.nearby.get(&containing(p, self.m).index(self.m)).into_iter().flatten().filter_map(|c| self.lines.get(c))
    }
}

/// Width of a floodplain cut into a plain ([`valley_depth_m`]), in widths of its river (the
/// floors of lowland rivers are tens of times as wide as their channels).
pub const FLOODPLAIN_WIDTHS: f32 = 30.0;

/// Half-width of the valley gathered around a refined river line, in the run's cells.
pub const VALLEY_RUN_CELLS: f32 = 0.6;
/// Least half-width of that valley, in the finer grid's cells.
pub const VALLEY_MIN_CELLS: f32 = 3.0;

/// The planet a run's rivers are refined on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunPlanet {
    /// Radius, km.
    pub radius_km: f32,
    /// Sea level, in the elevation's units.
    pub sea_level: f32,
    /// Elevation units per metre above sea level (0: valleys are not cut below the run).
    pub units_per_metre: f32,
}

/// What [`refine_courses`] makes of a run's rivers on a finer grid.
pub struct RefinedCourses {
    /// The rivers mask (0..1): each river cell joined to the cell it drains into by a line as
    /// wide as the river, or at least 1.2 cells of the grid so that it stays visible, wandering
    /// up to [`WANDER_CELLS`] off the straight course; edges smoothed over one cell.
    pub rivers: Field,
    /// The elevation: the run's, sampled smoothly as without refinement
    /// ([`Field::smooth_taps_ab`]), except within a
    /// valley's half-width ([`VALLEY_RUN_CELLS`] of the run's cells, at least
    /// [`VALLEY_MIN_CELLS`] of the grid's) of a river line, where the ground falls to the
    /// river's own height along the line (the run's heights of the river cell and the cell it
    /// drains into, interpolated, so it falls downstream): a flat floor as wide as the river,
    /// then sides that rise smoothly to the sampled ground; at a river's head (no river drains
    /// into its cell) the valley opens from nothing. That valley is the run's own relief
    /// gathered along the river. Into it a floodplain is cut: [`valley_depth_m`] below the
    /// line (at most half the line's height over the sea), [`FLOODPLAIN_WIDTHS`] river widths
    /// wide, with bluffs up to the ground; the cut grows downstream with the discharge and
    /// joins a tributary's floor to its main river's.
    pub elevation: Field,
    /// How far up a valley's side each cell lies (0 on the floor, a floodplain's included, 1
    /// at and beyond the edge; the lowest of the valleys that reach the cell).
    pub sides: Field,
}

/// The run's rivers on `grid`, finer than the run whose `elevation`, river mask (above 0 on
/// river cells: the share of the cell the river covers), drainage area (km²) and discharge (m³/s) it reads, in one pass over the grid: the
/// lines, the valleys along them and the valleys' sides ([`RefinedCourses`]). A river of at
/// least [`ESTUARY_MIN_M3_S`] whose last cell drains into the sea (a cell below `sea_level`,
/// in the elevation's units) widens over its last [`ESTUARY_KM`] into an estuary,
/// [`ESTUARY_FLARE`] times its width at the coastline (at most [`MOST_HALF_WIDTH_CELLS`] of
/// the run's cells each side), its floor falling to the sea cell's depth.
pub fn refine_courses(elevation: &Field, rivers: &Field, area_km2: &Field, discharge: &Field, grid: Grid, planet: RunPlanet) -> RefinedCourses {
    let RunPlanet { radius_km, sea_level, .. } = planet;
    let (m, n) = (elevation.n(), grid.n());
    let (cell_km, run_km) = (std::f32::consts::FRAC_PI_2 / n as f32 * radius_km, std::f32::consts::FRAC_PI_2 / m as f32 * radius_km);
    let valley_km = (VALLEY_RUN_CELLS * run_km).max(VALLEY_MIN_CELLS * cell_km);
    let extent = Extent { planet, estuary_cells: (ESTUARY_KM / run_km).max(1.0), valley_cells: valley_km / run_km, cell_km: run_km };
    let courses = Courses::new(rivers, area_km2, discharge, elevation, grid, extent);
    // The run's elevation sampled smoothly at each cell (`Field::smooth_taps_ab`), block by
    // block along the rows: the refined elevation where no valley lowers it.
    let mut height = elevation.smooth_on(grid);
    // A place's line mask, height and valley side from the courses near its wandered place `p`.
    let shape = |p: Vec3, sampled: f32| -> [f32; 3] {
        let (mut line_mask, mut height, mut side) = (0.0f32, sampled, 1.0f32);
        for course in courses.near(p) {
            let (d, t) = course.nearest(p);
            let d_km = d * radius_km;
            let floor_km = (0.5 * course.width_at(t) / 1000.0).min(MOST_HALF_WIDTH_CELLS * run_km);
            line_mask = line_mask.max(((floor_km.max(0.6 * cell_km) - d_km) / cell_km + 0.5).clamp(0.0, 1.0));
            // A valley widens from nothing at the river's head to its full width a cell on.
            let taper = if course.head { t } else { 1.0 };
            let half_km = valley_km.max(3.0 * floor_km) * taper;
            if d_km >= half_km || half_km <= floor_km {
                continue;
            }
            let rise = smoothstep((d_km - floor_km) / (half_km - floor_km));
            side = side.min(rise);
            let line = course.height.0 + (course.height.1 - course.height.0) * t;
            if sampled > line {
                height = height.min(line + (sampled - line) * rise);
            }
            // The floodplain: a floor cut below the line (by at most half its height over the
            // sea), [`FLOODPLAIN_WIDTHS`] times as wide as the river, then bluffs up to the
            // ground, all within the valley's half-width.
            let cut = (course.cut.0 + (course.cut.1 - course.cut.0) * t) * taper;
            let floor = line - cut.min(0.5 * (line - sea_level)).max(0.0);
            if floor < line {
                let bluff_km = (0.25 * FLOODPLAIN_WIDTHS * floor_km).max(2.0 * cell_km).min(half_km - floor_km);
                let plain_km = (FLOODPLAIN_WIDTHS * floor_km).min(half_km - bluff_km).max(floor_km);
                let bluff = smoothstep((d_km - plain_km) / bluff_km);
                // The floodplain is floor too (fine relief added through the hillslopes
                // leaves it smooth), its bluffs are valley side.
                side = side.min(bluff);
                if sampled > floor {
                    height = height.min(floor + (sampled - floor) * bluff);
                }
            }
        }
        [line_mask, height, side]
    };
    // Row by row: the places of a row that a course may pass near are wandered together; the
    // others keep no river, the sampled height and no valley side.
    let w = grid.row();
    let (mut rivers, mut sides) = (Field::filled_on(grid, 0.0), Field::filled_on(grid, 1.0));
    let rows = rivers.data_mut().par_chunks_mut(w).zip(height.data_mut().par_chunks_mut(w)).zip(sides.data_mut().par_chunks_mut(w));
    rows.enumerate().for_each(|(row, ((line, h), side))| {
        let busy: Vec<(usize, Vec3)> = (0..h.len())
            .filter_map(|x| {
                let cell = grid.cell(row * w + x);
                courses.may_pass_cell(cell, n).then(|| (x, cell.direction(n)))
            })
            .collect();
        let places: Vec<Vec3> = busy.iter().map(|&(_, at)| at).collect();
        for (&(x, _), p) in busy.iter().zip(courses.wandered_many(&places)) {
            [line[x], h[x], side[x]] = shape(p, h[x]);
        }
    });
    RefinedCourses { rivers, elevation: height, sides }
}

/// Where the ground is hillslope rather than river, valley or lake floor (0..1): the valleys'
/// `sides` of [`refine_courses`] times the dry share of the refined `lakes` mask
/// ([`refine_lakes`]). Fine relief added through it (the Detail node's mask) leaves the
/// floors smooth.
pub fn hillslopes(sides: &Field, lakes: &Field) -> Field {
    sides.zip(lakes, |side, lake| side * (1.0 - lake))
}

#[cfg(test)]
#[path = "refine_tests.rs"]
mod tests;
