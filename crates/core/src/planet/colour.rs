//! Colour fields: a linear RGB colour per cell of the cube-sphere, and the sRGB conversions
//! used where colours meet people (parameters, 8-bit images).

use rayon::prelude::*;

/// A linear RGB colour per cell (same layout as [`Field`]); components in 0..1 for ordinary
/// albedo.
///
/// [`Field`]: super::Field
#[derive(Debug, Clone, PartialEq)]
pub struct ColourField {
    /// Cells per face edge (the tile's level for a tile).
    pub n: usize,
    /// The tile the values lie on (region evaluation); `None` for the whole planet.
    pub tile: Option<super::tile::Tile>,
    /// One linear RGB triple per cell.
    pub data: Vec<[f32; 3]>,
}

impl ColourField {
    /// The same colour everywhere.
    pub fn filled(n: usize, c: [f32; 3]) -> ColourField {
        ColourField { n, tile: None, data: vec![c; 6 * n * n] }
    }

    /// A colour per cell from its index, in parallel.
    pub fn from_fn(n: usize, f: impl Fn(usize) -> [f32; 3] + Sync + Send) -> ColourField {
        ColourField::from_fn_on(super::tile::Grid::Whole(n), f)
    }

    /// A colour per value of `grid` from its storage position, in parallel.
    pub fn from_fn_on(grid: super::tile::Grid, f: impl Fn(usize) -> [f32; 3] + Sync + Send) -> ColourField {
        ColourField { n: grid.n(), tile: grid.tile(), data: (0..grid.cells()).into_par_iter().map(f).collect() }
    }

    /// Where the values lie: the whole planet or one tile.
    pub fn grid(&self) -> super::tile::Grid {
        self.tile.map_or(super::tile::Grid::Whole(self.n), super::tile::Grid::Tile)
    }

    /// This whole-planet field's colours on `grid` ([`super::vector::triples_on`]: bilinear
    /// samples where the levels differ).
    pub fn sample_on(&self, grid: super::tile::Grid) -> ColourField {
        ColourField { n: grid.n(), tile: grid.tile(), data: super::vector::triples_on(&self.data, self.n, grid) }
    }

    /// The colour at a direction (nearest cell).
    pub fn at_dir(&self, d: glam::Vec3) -> [f32; 3] {
        self.data[super::dir_to_cell(d, self.n).index(self.n)]
    }
}

/// sRGB-encoded component (0..1) to linear.
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Linear component to sRGB-encoded (0..1).
pub fn linear_to_srgb(c: f32) -> f32 {
    let c = c.clamp(0.0, 1.0);
    if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// A linear colour as 8-bit sRGB.
pub fn to_srgb8(c: [f32; 3]) -> [u8; 3] {
    c.map(|v| (linear_to_srgb(v) * 255.0).round() as u8)
}

/// An sRGB colour (0..1 components, as in parameters) in linear RGB.
pub fn srgb_to_linear3(c: [f32; 3]) -> [f32; 3] {
    c.map(srgb_to_linear)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_round_trips_and_mid_grey_is_darker_in_linear() {
        for k in 0..=20 {
            let v = k as f32 / 20.0;
            assert!((linear_to_srgb(srgb_to_linear(v)) - v).abs() < 1e-5);
        }
        assert!((srgb_to_linear(0.5) - 0.214).abs() < 0.001);
        assert_eq!(to_srgb8([1.0, 0.0, 0.214]), [255, 0, 127]);
    }
}
