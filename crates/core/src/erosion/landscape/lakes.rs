//! Lakes finer than the landscape evolution's run that found them: each lake's water level,
//! and on a finer grid the water where the ground lies below it, so close-ups and large builds
//! show shores along the ground's contour instead of the run's cells blown up.

use crate::planet::cell_map::{CellMap, CellSet};
use crate::planet::{Field, Grid};
use rayon::prelude::*;

/// The water level of the lakes of a run that hold any of the cells `seeds`: per cell of those
/// lakes, the level of its lake (the lowest ground around the lake, where it spills: the
/// outlet's ground lies at the water's surface), in the units of `elevation`. A lake cell is
/// one with `lakes` above 0.5; lakes join across their cells' eight neighbours. Only the lakes
/// the seeds lie in are flooded, so a tile pays for its own lakes, not for the whole run's.
pub fn lake_levels(lakes: &Field, elevation: &Field, seeds: impl IntoIterator<Item = usize>) -> CellMap<f32> {
    use crate::planet::ocean::moore;
    use crate::planet::pipes::NONE;
    let m = lakes.n();
    let (wet, h) = (lakes.data(), elevation.data());
    let on_lake = |c: usize| wet[c] > 0.5;
    let mut levels = CellMap::default();
    for seed in seeds {
        if !on_lake(seed) || levels.contains_key(&seed) {
            continue;
        }
        let (mut lake, mut seen) = (vec![seed], CellSet::from_iter([seed]));
        let mut level = f32::INFINITY;
        let mut k = 0;
        while let Some(&c) = lake.get(k) {
            k += 1;
            for r in moore(c, m).into_iter().filter(|&r| r != NONE).map(|r| r as usize) {
                if !on_lake(r) {
                    level = level.min(h[r]);
                } else if seen.insert(r) {
                    lake.push(r);
                }
            }
        }
        // A lake with no dry ground around it (a planet under one lake): each cell's floor.
        for c in lake {
            levels.insert(c, if level.is_finite() { level } else { h[c] });
        }
    }
    levels
}

/// The lakes mask (0..1) on `grid`, finer than the run whose mask `lakes` and `elevation` it
/// reads: near the run's lakes (within about a run cell), water where the ground, sampled
/// smoothly as the refined elevation is ([`Field::smooth_taps_ab`]), lies below its lake's
/// level ([`lake_levels`]), so the shore follows the ground's contour instead of the run's
/// cells; the shore about one cell of `grid` wide.
pub fn refine_lakes(lakes: &Field, elevation: &Field, grid: Grid) -> Field {
    let (m, n) = (lakes.n(), grid.n());
    let (wet, h) = (lakes.data(), elevation.data());
    // Per cell of the grid: how much of the lakes its four nearest run cells hold (found once,
    // in parallel). Cells holding more than 0.2 are near a lake: their smooth taps are read.
    let shares: Vec<f32> = (0..grid.cells())
        .into_par_iter()
        .map(|k| {
            let cell = grid.cell(k);
            let (a, b) = cell.center_ab(n);
            Field::bilinear_taps_ab(m, cell.face, a, b).iter().map(|&(c, w)| w * wet[c]).sum()
        })
        .collect();
    let near = |k: usize| {
        let near = shares[k];
        (near > 0.2).then(|| {
            let cell = grid.cell(k);
            let (a, b) = cell.center_ab(n);
            (near, Field::smooth_taps_ab(m, cell.face, a, b))
        })
    };
    let seeds: CellSet = (0..grid.cells()).into_par_iter().filter_map(near).flat_map_iter(|(_, taps)| CENTRE.map(|t| taps.cells[t])).collect();
    let levels = lake_levels(lakes, elevation, seeds);
    Field::from_fn_cell_on(grid, |k| {
        let Some((near, taps)) = near(k) else { return 0.0 };
        let centre = CENTRE.map(|t| taps.cells[t]);
        let level = centre.iter().filter_map(|c| levels.get(c)).fold(f32::NEG_INFINITY, |a, &l| a.max(l));
        if !level.is_finite() {
            return 0.0;
        }
        let ground = taps.sample(h);
        // The ground's change across one cell of the grid near here: the shore's width.
        let (lo, hi) = centre.iter().map(|&c| h[c]).fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let width = (hi - lo) * m as f32 / n as f32;
        let water = if width > 0.0 {
            ((level - ground) / width + 0.5).clamp(0.0, 1.0)
        } else if ground < level {
            1.0
        } else {
            0.0
        };
        // Deep inside a lake the water stays whatever the sampled ground does.
        if near >= 0.8 {
            water.max(((near - 0.8) / 0.2).clamp(0.0, 1.0))
        } else {
            water
        }
    })
}

/// The four taps of [`Field::smooth_taps_ab`]'s 4 x 4 that are the nearest cells.
const CENTRE: [usize; 4] = [5, 6, 9, 10];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::coords::Cell;
    use crate::planet::tile::Tile;
    use crate::planet::Face;

    #[test]
    fn lakes_keep_their_outline_with_a_sharp_shore() {
        // A run at 16 with a lake of 3 x 3 cells on the front face, drawn at 128.
        let m = 16;
        let lakes = Field::from_fn_cell(m, |k| {
            let c = Cell::from_index(k, m);
            if c.face == Face::Front && (6..9).contains(&c.i) && (6..9).contains(&c.j) {
                1.0
            } else {
                0.0
            }
        });
        // The floor 100 m down in the lake; around it the ground rises away from the lake,
        // with the outlet (the lowest rim cell, at the water level) on its west side.
        let elevation = Field::from_fn_cell(m, |k| {
            let c = Cell::from_index(k, m);
            let (di, dj) = ((c.i as f32 - 7.0).abs(), (c.j as f32 - 7.0).abs());
            if lakes.data()[k] > 0.5 {
                -100.0
            } else if (c.i, c.j) == (5, 7) {
                0.0
            } else {
                20.0 * di.max(dj) + 5.0 * (c.i + 2 * c.j) as f32 % 7.0
            }
        });
        let grid = Grid::Tile(Tile::new(Face::Front, 128, 0, 0, 128).expect("tile"));
        let f = refine_lakes(&lakes, &elevation, grid);
        let centre = Cell { face: Face::Front, i: 7, j: 7 }.index(m);
        let levels = lake_levels(&lakes, &elevation, [centre]);
        assert_eq!(levels.get(&centre), Some(&0.0), "the outlet's ground");
        assert_eq!(levels.len(), 9, "the seed's lake, every cell of it");
        let at = |i: usize, j: usize| f.data()[j * 128 + i];
        // Inside water, outside dry, and the shore at most a cell wide on either side along a
        // row (the sampled mask alone would take 8 cells to fall from 1 to 0).
        assert_eq!(at(60, 60), 1.0);
        assert_eq!(at(30, 60), 0.0);
        let shore = (0..128).filter(|&i| at(i, 60) > 0.0 && at(i, 60) < 1.0).count();
        assert!(shore <= 2, "{shore}");
        // The shore follows the ground: further out towards the outlet (west, its ground at
        // the water level) than towards the higher rim (east).
        let west = (0..128).find(|&i| at(i, 60) >= 0.5).expect("water");
        let east = (0..128).rev().find(|&i| at(i, 60) >= 0.5).expect("water");
        assert!(60 - west > east - 60, "west edge {west}, east edge {east}");
        // The water covers about the lake's area (9 run cells: 576 cells at 128).
        let water: f32 = f.data().iter().sum();
        assert!((water - 576.0).abs() < 0.25 * 576.0, "{water}");
    }
}
