//! Tangent vector fields: one 3D vector per cell of the cube-sphere.

use rayon::prelude::*;

/// A tangent 3D vector per cell (same layout as [`Field`](super::Field)).
#[derive(Debug, Clone, PartialEq)]
pub struct VectorField {
    /// Cells per face edge (the tile's level for a tile).
    pub n: usize,
    /// The tile the values lie on (region evaluation); `None` for the whole planet.
    pub tile: Option<super::tile::Tile>,
    /// One vector per cell, in the unit of the field it came from per radian (gradients) or
    /// planet radii per time unit (plate motion).
    pub data: Vec<[f32; 3]>,
}

impl VectorField {
    /// Where the values lie: the whole planet or one tile.
    pub fn grid(&self) -> super::tile::Grid {
        self.tile.map_or(super::tile::Grid::Whole(self.n), super::tile::Grid::Tile)
    }

    /// This whole-planet field's vectors on `grid` ([`triples_on`]).
    pub fn sample_on(&self, grid: super::tile::Grid) -> VectorField {
        VectorField { n: grid.n(), tile: grid.tile(), data: triples_on(&self.data, self.n, grid) }
    }
}

/// Three values per cell of the whole planet at level `m` (vectors, colours) on `grid`: the
/// same cells' values at level `m`, otherwise bilinear samples at the grid's cell centres
/// ([`super::Field::bilinear_taps_ab`], seamless across face edges).
pub fn triples_on(data: &[[f32; 3]], m: usize, grid: super::tile::Grid) -> Vec<[f32; 3]> {
    let n = grid.n();
    (0..grid.cells())
        .into_par_iter()
        .map(|k| {
            let cell = grid.cell(k);
            if n == m {
                return data[cell.index(m)];
            }
            let (a, b) = cell.center_ab(n);
            let mut out = [0.0f32; 3];
            for (c, w) in super::Field::bilinear_taps_ab(m, cell.face, a, b) {
                if w != 0.0 {
                    for (o, v) in out.iter_mut().zip(data[c]) {
                        *o += w * v;
                    }
                }
            }
            out
        })
        .collect()
}
