//! Tests of the refined river courses.

use super::*;
use crate::planet::tile::Tile;
use crate::planet::Face;

/// A run at level 16 with one river along row 8 of the front face (cells 2 to 13), flowing
/// to +i down a valley: its elevation, river mask, drainage area and discharge, and the
/// whole front face at level 128.
fn front_run() -> ([Field; 4], Grid) {
    let m = 16;
    let on_river = |c: Cell| c.face == Face::Front && c.j == 8 && (2..14).contains(&c.i);
    let cell = |k: usize| Cell::from_index(k, m);
    let elevation = Field::from_fn_cell(m, |k| {
        let c = cell(k);
        0.5 - 0.01 * c.i as f32 + 0.02 * (c.j as f32 - 8.0).abs()
    });
    let rivers = Field::from_fn_cell(m, |k| if on_river(cell(k)) { 1.0 } else { 0.0 });
    let area = Field::from_fn_cell(m, |k| if on_river(cell(k)) { 1e4 * cell(k).i as f32 } else { 10.0 });
    let discharge = Field::from_fn_cell(m, |k| if on_river(cell(k)) { 100.0 * cell(k).i as f32 } else { 0.1 });
    ([elevation, rivers, area, discharge], Grid::Tile(Tile::new(Face::Front, 128, 0, 0, 128).expect("tile")))
}

/// Sea level 0, estuaries a cell long, valleys 0.6 cells wide each side, cells of 600 km.
const EXTENT: Extent = Extent { planet: FLAT_PLANET, estuary_cells: 1.0, valley_cells: 0.6, cell_km: 600.0 };

/// Sea level 0, no valley cut below the run (the courses read no radius).
const FLAT_PLANET: RunPlanet = RunPlanet { radius_km: 6371.0, sea_level: 0.0, units_per_metre: 0.0 };

/// A planet of `radius_km` with the sea at `sea_level` whose valleys are not cut below the run.
fn plain(radius_km: f32, sea_level: f32) -> RunPlanet {
    RunPlanet { radius_km, sea_level, units_per_metre: 0.0 }
}

/// [`front_run`]'s river refined on its grid.
fn refined_front() -> RefinedCourses {
    let ([elevation, rivers, area, discharge], grid) = front_run();
    refine_courses(&elevation, &rivers, &area, &discharge, grid, plain(6371.0, 0.0))
}

/// [`front_run`]'s river drawn on its grid.
fn river_on_front() -> (Field, usize) {
    (refined_front().rivers, 128)
}

#[test]
fn a_river_becomes_a_thin_continuous_line_along_its_course() {
    let (f, n) = river_on_front();
    let at = |i: usize, j: usize| f.data()[j * n + i];
    // The course runs from the centre of cell 2 (fine column 20) to that of cell 13
    // (column 108), along the centre of row 8 (fine row 67.5).
    // It wanders up to 0.3 run cells (2.4 fine rows) off that line.
    for i in 24..105 {
        let column: Vec<f32> = (0..n).map(|j| at(i, j)).collect();
        assert!(column[62..74].iter().any(|&v| v > 0.5), "column {i}: {:?}", &column[60..76]);
        // A couple of cells wide (the river is tens of metres; the line keeps 1.2 cells).
        let sum: f32 = column.iter().sum();
        assert!(sum < 4.0, "column {i}: {sum}");
        assert!(column[..60].iter().chain(&column[76..]).all(|&v| v == 0.0), "column {i}");
    }
    // And it does wander: its middle row is not the same in every column.
    let middle = |i: usize| (0..n).max_by(|&a, &b| at(i, a).total_cmp(&at(i, b))).unwrap_or(0);
    assert!((24..105).any(|i| middle(i) != middle(24)));
    // Nothing upstream of the first river cell.
    assert!((0..n).all(|j| at(10, j) == 0.0));
}

/// The same run's elevation on the same grid: a valley along the drawn line, falling
/// downstream, as deep as the river cells and no deeper, and the sampled ground elsewhere.
#[test]
fn the_ground_gathers_into_a_valley_along_the_river_line() {
    let ([elevation, rivers, area, discharge], grid) = front_run();
    let (m, n) = (16, 128);
    let cell = |k: usize| Cell::from_index(k, m);
    let refined = refine_courses(&elevation, &rivers, &area, &discharge, grid, plain(6371.0, 0.0));
    let (valleys, line) = (&refined.elevation, &refined.rivers);
    // The run's elevation sampled as region evaluation samples it: smooth taps.
    let sampled = Field::from_fn_cell_on(grid, |k| {
        let (a, b) = grid.cell(k).center_ab(n);
        Field::smooth_taps_ab(m, Face::Front, a, b).sample(elevation.data())
    });
    let (v, s, l) = (valleys.data(), sampled.data(), line.data());
    // Never above the sampled ground; the same far from the river.
    assert!(v.iter().zip(s).all(|(a, b)| a <= b));
    for j in (0..40).chain(96..n) {
        assert!((0..n).all(|i| v[j * n + i] == s[j * n + i]), "row {j}");
    }
    // Along the drawn line the ground is the river's height: lower than sampled between the
    // cells, never below the lower river cell, and falling downstream.
    let (mut previous, mut gathered) = (f32::MAX, 0);
    for i in 24..105 {
        let j = (0..n).max_by(|&a, &b| l[a * n + i].total_cmp(&l[b * n + i])).unwrap_or(0);
        let floor = v[j * n + i];
        assert!(floor <= previous + 1e-6, "column {i}: {floor} after {previous}");
        assert!(floor >= 0.5 - 0.01 * 14.0, "column {i}: {floor}");
        previous = floor;
        // A run cell (8 rows) and more away, beyond the valley and the wander, it is the
        // sampled ground.
        let away = (j + 8).min(n - 1);
        assert_eq!(v[away * n + i], s[away * n + i], "column {i}");
        if v[(j + 2) * n + i] < s[(j + 2) * n + i] {
            gathered += 1;
        }
    }
    // Two rows (a quarter of a run cell) beside the line, the ground lies below the
    // sampled trough nearly everywhere.
    assert!(gathered >= 75, "{gathered} of 81 columns");
    // The hillslopes are 0 on the line, 1 beyond the valley, and 0 on a lake.
    let on_lake = |k: usize| cell(k).face == Face::Front && cell(k).i == 14 && cell(k).j == 3;
    let lake = Field::from_fn_cell(m, |k| if on_lake(k) { 1.0 } else { 0.0 });
    // A lake lies in a hollow: its floor below the ground around it.
    let hollow = Field::from_fn_cell(m, |k| if on_lake(k) { 0.0 } else { elevation.data()[k] });
    let slopes = hillslopes(&refined.sides, &super::super::lakes::refine_lakes(&lake, &hollow, grid));
    let h = slopes.data();
    for i in 24..105 {
        let j = (0..n).max_by(|&a, &b| l[a * n + i].total_cmp(&l[b * n + i])).unwrap_or(0);
        assert!(h[j * n + i] < 0.1, "column {i}: {}", h[j * n + i]);
        assert_eq!(h[(j + 8).min(n - 1) * n + i], 1.0, "column {i}");
    }
    assert_eq!(h[(3 * 8 + 4) * n + 14 * 8 + 4], 0.0, "the lake");
    assert!(h.iter().all(|v| (0.0..=1.0).contains(v)));
}

/// A large river on a plain (the run's river cells level with the land beside them) sits in a
/// valley cut below the plain by [`valley_depth_m`] of its discharge, whose floor falls
/// downstream as the discharge grows, and never reaches down to the sea.
#[test]
fn a_river_on_a_plain_is_cut_into_a_valley_by_its_discharge() {
    let ([_, rivers, area, _], grid) = front_run();
    let (m, n) = (16, 128);
    let cell = |k: usize| Cell::from_index(k, m);
    // A plain falling 1 m a cell downstream, 300 m (0.03 units of 10 km) over the sea, beside
    // a river of 1 000 to 13 000 m³/s.
    let elevation = Field::from_fn_cell(m, |k| 0.03 - 1e-4 * cell(k).i as f32);
    let discharge = Field::from_fn_cell(m, |k| if rivers.data()[k] > 0.0 { 1000.0 * cell(k).i as f32 } else { 0.1 });
    let planet = RunPlanet { radius_km: 6371.0, sea_level: 0.0, units_per_metre: 1e-4 };
    let refined = refine_courses(&elevation, &rivers, &area, &discharge, grid, planet);
    let flat = refine_courses(&elevation, &rivers, &area, &discharge, grid, plain(6371.0, 0.0));
    let (v, l, s) = (refined.elevation.data(), refined.rivers.data(), flat.elevation.data());
    let (sides, uncut_sides) = (refined.sides.data(), flat.sides.data());
    let mut previous = f32::MAX;
    for i in 24..105 {
        let j = (0..n).max_by(|&a, &b| l[a * n + i].total_cmp(&l[b * n + i])).unwrap_or(0);
        let (floor, uncut) = (v[j * n + i], s[j * n + i]);
        // The discharge at this column lies between those of the run cells around it.
        let q = 1000.0 * (i as f32 / 8.0 - 1.0).max(1.0);
        let depth_m = (uncut - floor) / 1e-4;
        assert!(depth_m > 0.8 * valley_depth_m(q) && depth_m < 1.2 * valley_depth_m(q + 1000.0), "column {i}: {depth_m} m at {q} m³/s");
        // Falling downstream (within a twentieth of the cut: a cell's centre lies up to half a
        // cell off the line, a little way up the valley's side).
        assert!(floor <= previous + 0.05 * 1e-4 * valley_depth_m(q) && floor > 0.0, "column {i}: {floor} after {previous}");
        previous = floor;
        // The floodplain is valley floor in the sides (so gullies leave it smooth), no less
        // than without the cut.
        assert!(sides[j * n + i] <= uncut_sides[j * n + i] && sides[j * n + i] < 0.1, "column {i}: side {}", sides[j * n + i]);
        // Beyond the valley the plain is untouched.
        assert_eq!(v[(j + 8).min(n - 1) * n + i], s[(j + 8).min(n - 1) * n + i], "column {i}");
    }
    // On a planet of 204 km radius (run cells of 20 km, fine cells of 2.5 km) the floodplain
    // spans a few fine cells each side: there the sides stay floor, where without the cut the
    // valley's side had begun to rise.
    let small = RunPlanet { radius_km: 204.0, ..planet };
    let (cut, uncut) = (refine_courses(&elevation, &rivers, &area, &discharge, grid, small).sides, refine_courses(&elevation, &rivers, &area, &discharge, grid, plain(204.0, 0.0)).sides);
    let (mut on_cut, mut on_uncut) = (0.0, 0.0);
    for i in 60..100 {
        let j = (0..n).max_by(|&a, &b| l[a * n + i].total_cmp(&l[b * n + i])).unwrap_or(0);
        for row in j - 3..=j + 3 {
            on_cut += cut.data()[row * n + i];
            on_uncut += uncut.data()[row * n + i];
        }
    }
    assert!(on_cut < 0.5 * on_uncut, "sides near the river: {on_cut} with the cut, {on_uncut} without");
    // Where the plain is barely over the sea, the floor stays at half its height.
    let low = Field::from_fn_cell(m, |k| 0.001 - 5e-5 * cell(k).i as f32);
    let near_sea = refine_courses(&low, &rivers, &area, &discharge, grid, planet).elevation;
    assert!(near_sea.data().iter().all(|&h| h > 0.0), "below the sea");
}

/// A run at 16 whose river flows +i along row 8 to cell (8, 8), turns there to flow +j
/// down column 8, and takes in a small tributary from (7, 10) at (8, 10).
#[test]
fn courses_round_their_turns_and_tributaries_join_the_main_river() {
    let m = 16;
    let mut path: Vec<(usize, usize)> = (2..=8).map(|i| (i, 8)).collect();
    path.extend((9..14).map(|j| (8, j)));
    let at = |c: Cell| (c.face == Face::Front).then(|| path.iter().position(|&p| p == (c.i, c.j))).flatten();
    let tributary = |c: Cell| c.face == Face::Front && (c.i, c.j) == (7, 10);
    // Along the path the ground falls 0.01 a cell, but only 0.001 round the corner, so the
    // diagonal short cut from (7, 8) to (8, 9) is less steep than the turn.
    let height = |k: usize| 0.5 - 0.01 * k as f32 + if k > 6 { 0.009 } else { 0.0 };
    let cell = |k: usize| Cell::from_index(k, m);
    let elevation = Field::from_fn_cell(m, |k| if tributary(cell(k)) { 0.6 } else { at(cell(k)).map_or(1.0, height) });
    let rivers = Field::from_fn_cell(m, |k| if at(cell(k)).is_some() || tributary(cell(k)) { 0.01 } else { 0.0 });
    let area = Field::from_fn_cell(m, |k| at(cell(k)).map_or(if tributary(cell(k)) { 50.0 } else { 10.0 }, |k| 1e4 * (k + 1) as f32));
    let discharge = area.map(|a| 0.01 * a);
    let grid = Grid::Tile(Tile::new(Face::Front, 128, 0, 0, 128).expect("tile"));
    let courses = Courses::new(&rivers, &area, &discharge, &elevation, grid, EXTENT);
    let course = |i: usize, j: usize| courses.lines.get(&Cell { face: Face::Front, i, j }.index(m)).copied().unwrap_or_else(|| panic!("a course at ({i}, {j})"));
    let (before, corner, after) = (course(7, 8), course(8, 8), course(8, 9));
    // The curves meet, and turn there without a kink.
    for (a, b) in [(before, corner), (corner, after)] {
        assert!((a.points[PIECES] - b.points[0]).length() < 1e-6, "the curves meet");
        let (out, into) = ((a.points[PIECES] - a.points[PIECES - 1]).normalize(), (b.points[1] - b.points[0]).normalize());
        assert!(out.dot(into) > 25f32.to_radians().cos(), "a kink of {} degrees", out.dot(into).acos().to_degrees());
    }
    // The corner's curve cuts inside the turn instead of passing its cell's centre.
    let centre = Cell { face: Face::Front, i: 8, j: 8 }.direction(m);
    let cell_rad = std::f32::consts::FRAC_PI_2 / m as f32;
    let off = corner.nearest(centre).0 / cell_rad;
    assert!(off > 0.1 && off < 0.25, "the corner passes {off} cells from the centre");
    // The tributary ends on the main river's curve, where the main river goes on.
    let joined = course(7, 10);
    assert!(course(8, 10).nearest(joined.points[PIECES]).0 < 1e-4, "the tributary joins the main river");
    assert!(course(2, 8).head && joined.head && !corner.head && !course(8, 10).head);
}

#[test]
fn wide_rivers_are_drawn_as_wide_as_they_are() {
    assert!((river_width_m(1000.0) - 126.5).abs() < 0.5);
    assert!(river_width_m(1e5) > 1000.0 && river_width_m(-1.0) == 0.0);
}

/// [`front_run`]'s river meets the sea beyond cell 13 when the sea stands at 0.365 (cell 14 of
/// its row lies at 0.36). With a thousand times its discharge (a great river, 1.3 million m³/s
/// at the mouth) it widens into an estuary over its last cells, on a planet of 204 km radius
/// whose run cells are 20 km (the estuary three of them) and fine cells 2.5 km.
#[test]
fn a_large_river_widens_into_an_estuary_where_it_meets_the_sea() {
    let ([elevation, rivers, area, discharge], grid) = front_run();
    let great = discharge.map(|q| q * 1000.0);
    let width = |sea: f32, discharge: &Field, i: usize| {
        let f = refine_courses(&elevation, &rivers, &area, discharge, grid, plain(204.0, sea)).rivers;
        (0..128).map(|j| f.data()[j * 128 + i]).sum::<f32>()
    };
    let middle = width(0.365, &great, 60);
    let mouth = width(0.365, &great, 108);
    assert!(middle > 0.5 && middle < 3.0, "the river upstream: {middle} cells");
    assert!(mouth > 3.0 * middle, "the estuary near the coast: {mouth} cells, the river {middle}");
    // No wider than the run's cells allow (0.35 of 8 fine cells each side, edges smoothed
    // over a cell).
    assert!(mouth < 8.0, "{mouth}");
    // Without the sea there, or with a small river, no estuary.
    assert!(width(0.0, &great, 108) < 2.0 * middle, "no sea: {}", width(0.0, &great, 108));
    let small = discharge.map(|q| q * 0.5);
    assert!(width(0.365, &small, 108) < 2.0, "650 m³/s: {}", width(0.365, &small, 108));
}

/// Places whose run cell no course may be wandered to from skip the wandering: at
/// none of them would the wandered place have found a course, so skipping changes nothing.
#[test]
fn a_place_far_from_every_course_finds_none_however_it_wanders() {
    let ([elevation, rivers, area, discharge], _) = front_run();
    let grid = Grid::Whole(96);
    let courses = Courses::new(&rivers, &area, &discharge, &elevation, grid, EXTENT);
    assert!(!courses.lines.is_empty());
    let (mut quiet, mut busy) = (0, 0);
    for k in 0..grid.cells() {
        let at = grid.direction(k);
        if courses.may_pass(at) {
            busy += 1;
        } else {
            quiet += 1;
            assert!(courses.near(courses.wandered(at)).next().is_none(), "cell {k} skipped beside a course");
        }
    }
    assert!(quiet > 10 * busy && busy > 1000, "{quiet} quiet, {busy} busy");
    // Without a course no place looks.
    let dry = Field::filled(16, 0.0);
    assert!(!Courses::new(&dry, &area, &discharge, &elevation, grid, EXTENT).may_pass(grid.direction(0)));
}

/// A tile's footprint on the run holds the run cell of every one of its cells, inside a face
/// (found from the tile's border) and with a halo over a face's edge (found cell by cell).
#[test]
fn a_tile_s_footprint_holds_the_run_cell_of_each_of_its_cells() {
    let m = 16;
    for tile in [Tile::new(Face::Top, 256, 70, 130, 40).expect("tile").with_halo(1), Tile::new(Face::Left, 256, 0, 200, 56).expect("tile").with_halo(2)] {
        let grid = Grid::Tile(tile);
        let mut footprint = footprint(grid, m);
        footprint.sort_unstable();
        footprint.dedup();
        for k in 0..grid.cells() {
            let own = containing(grid.direction(k), m).index(m);
            assert!(footprint.binary_search(&own).is_ok(), "{tile:?}: cell {k}");
        }
        // Tight: the tiles span 3 to 4 run cells each way, and the margin is one run cell.
        assert!(footprint.len() <= 36, "{}", footprint.len());
    }
}

/// A run at 16 whose every cell of the Front face is a river cell, draining down a bumpy
/// slope every way (so tributaries join their rivers all over, many near the centre of the
/// cell they drain into), with rivers from a trickle to ones whose floors are as wide as the
/// run allows.
fn braided_run() -> [Field; 4] {
    let m = 16;
    let cell = |k: usize| Cell::from_index(k, m);
    let bump = |k: usize| crate::planet::fbm::FastFbm::new(5, 3, 0.5, 2.0).get([cell(k).i as f64 * 0.7, cell(k).j as f64 * 0.7, 0.3]) as f32;
    let elevation = Field::from_fn_cell(m, |k| 1.0 + 0.02 * cell(k).i as f32 + 0.2 * bump(k));
    let front = |k: usize| cell(k).face == Face::Front;
    let rivers = Field::from_fn_cell(m, |k| if front(k) { 1.0 } else { 0.0 });
    let area = Field::from_fn_cell(m, |k| 1e3 * (1.0 + bump(k)));
    let discharge = Field::from_fn_cell(m, |k| 1e7 * (0.5 + 0.5 * bump(k)).clamp(0.0, 1.0));
    [elevation, rivers, area, discharge]
}

/// Every course whose valley or line may reach a place is among those the place looks at,
/// whichever cells the course's curve crosses (a tributary ends near the middle of the cell it
/// drains into, a cell beyond its own) and however wide its valley: a course left out would
/// cut its valley off along a straight border of the run's cells (a straight step that a
/// close-up's gullies drew as a dark streak). On a grid eight times as fine as the run, whose
/// valleys are 0.6 of the run's cells wide each side, and on one twice as fine, whose valleys
/// (three of its cells) are 1.5.
#[test]
fn every_course_that_reaches_a_place_is_looked_at_there() {
    let [elevation, rivers, area, discharge] = braided_run();
    let m = 16;
    let nominal = std::f32::consts::FRAC_PI_2 / m as f32;
    for (n, valley_cells) in [(128, 0.6), (32, 1.5)] {
        let grid = Grid::Tile(Tile::new(Face::Front, n, 0, 0, n).expect("tile"));
        let extent = Extent { planet: FLAT_PLANET, estuary_cells: 1.0, valley_cells, cell_km: 10.0 };
        let courses = Courses::new(&rivers, &area, &discharge, &elevation, grid, extent);
        assert!(courses.lines.len() > 200, "{} courses", courses.lines.len());
        let (mut reached, mut wide) = (0, 0);
        for k in 0..grid.cells() {
            let at = grid.direction(k);
            let p = courses.wandered(at);
            let looked: Vec<Vec3> = courses.near(p).map(|c| c.points[0]).collect();
            for course in courses.lines.values() {
                let reach = course.reach_cells(valley_cells, extent.cell_km);
                if course.nearest(p).0 < reach * nominal {
                    reached += 1;
                    wide += usize::from(reach > 1.0);
                    assert!(courses.may_pass(at), "place {k} at {n} skipped");
                    assert!(looked.contains(&course.points[0]), "place {k} at {n} does not look at a course {} cells away", course.nearest(p).0 / nominal);
                }
            }
        }
        assert!(reached > grid.cells() && wide > 100, "{reached} reaches, {wide} of wide valleys");
    }
}
