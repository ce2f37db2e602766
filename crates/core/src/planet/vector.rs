//! Tangent vector fields: one 3D vector per cell of the cube-sphere.

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
}
