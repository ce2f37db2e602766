//! Evaluated values as numpy arrays: per face (6 x N x N, colours and vectors 6 x N x N x 3,
//! in the cube-sphere's face order and cell layout) or equirectangular (H x W, H x W x 3),
//! sampled exactly as the exports sample them.

use numpy::{PyArray1, PyArrayMethods};
use planetgraph_core::export::images::Grid;
use planetgraph_core::export::source::Source;
use planetgraph_core::nodes::Value;
use pyo3::prelude::*;
use rayon::prelude::*;

/// How arrays are laid out.
#[derive(Debug, Clone, Copy)]
pub enum Layout {
    /// Six faces of N x N cells.
    Faces,
    /// A longitude-latitude image of `width` x `width / 2` pixels.
    Equirect {
        /// Pixels across.
        width: usize,
    },
    /// The cells of one tile, S x S (`[row, column]`), of values that lie on it.
    Tile,
}

/// The numbers of one value, flat, with the array's shape; None for values that are not
/// per-cell numbers (regions, plates).
pub fn flatten(value: &Value, layout: Layout) -> Option<(Vec<f32>, Vec<usize>)> {
    let (source, channels) = match value {
        Value::Field(f) => (Source::Scalar(f.clone()), 1),
        Value::Colour(c) => (Source::Colour(c.clone()), 3),
        Value::Vector(v) => (Source::Colour(std::sync::Arc::new(planetgraph_core::planet::ColourField { n: v.n, tile: v.tile, data: v.data.clone() })), 3),
        Value::Regions(_) | Value::Plates(_) => return None,
    };
    let n = source.n();
    if let (Layout::Tile, Some(planetgraph_core::planet::Grid::Tile(t))) = (layout, value.grid()) {
        let data = match value {
            Value::Field(f) => f.data().to_vec(),
            Value::Colour(c) => c.data.iter().flatten().copied().collect(),
            Value::Vector(v) => v.data.iter().flatten().copied().collect(),
            Value::Regions(_) | Value::Plates(_) => return None,
        };
        return Some((data, if channels == 3 { vec![t.size, t.size, 3] } else { vec![t.size, t.size] }));
    }
    let with_channels = |mut shape: Vec<usize>| {
        if channels == 3 {
            shape.push(3);
        }
        shape
    };
    match layout {
        // A value on the whole planet where a tile was asked for: not an array of the tile.
        Layout::Tile => None,
        Layout::Faces => {
            let data = match value {
                Value::Field(f) => f.data().to_vec(),
                Value::Colour(c) => c.data.iter().flatten().copied().collect(),
                Value::Vector(v) => v.data.iter().flatten().copied().collect(),
                Value::Regions(_) | Value::Plates(_) => return None,
            };
            Some((data, with_channels(vec![6, n, n])))
        }
        Layout::Equirect { width } => {
            let height = (width / 2).max(1);
            let grid = Grid::Equirect { width, height };
            let rows: Vec<Vec<f32>> = (0..height)
                .into_par_iter()
                .map(|y| {
                    let mut row = Vec::with_capacity(width * channels);
                    for x in 0..width {
                        let (at, _) = grid.pixel(x, y, n);
                        row.extend_from_slice(&source.sample(at, None)[..channels]);
                    }
                    row
                })
                .collect();
            Some((rows.concat(), with_channels(vec![height, width])))
        }
    }
}

/// A flat float32 vector as a numpy array of `shape` (moved, not copied).
pub fn to_numpy<'py>(py: Python<'py>, data: Vec<f32>, shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let flat = PyArray1::from_vec(py, data);
    Ok(flat.reshape(shape.to_vec())?.into_any())
}
