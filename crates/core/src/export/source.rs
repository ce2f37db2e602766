//! What an export samples: a field (one channel), a colour (linear RGB) or object-space
//! normals computed from an elevation field, read at a cell or bilinearly in a direction.

use super::base::ExportError;
use super::tiled::{TileStore, TileView};
use crate::planet::gradient::gradient;
use crate::planet::{Cell, ColourField, Field};
use glam::Vec3;
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Where a pixel reads its value.
#[derive(Debug, Clone, Copy)]
pub enum At {
    /// Exactly one cell of the evaluation (its index).
    Cell(usize),
    /// A bilinear sample in a direction (need not be normalised).
    Dir(Vec3),
}

/// The cells and weights a sample reads.
#[derive(Debug, Clone, Copy)]
pub enum Taps {
    /// Exactly one cell (its index).
    Cell(usize),
    /// A bilinear mix of four cells (index, weight).
    Mix([(usize, f32); 4]),
}

impl Taps {
    /// The cells read (indices of the whole planet).
    pub fn cells(&self) -> impl Iterator<Item = usize> {
        let (one, four) = match self {
            Taps::Cell(c) => (Some(*c), None),
            Taps::Mix(t) => (None, Some(*t)),
        };
        one.into_iter().chain(four.into_iter().flatten().map(|(c, _)| c))
    }
}

/// The data of one export.
#[derive(Debug, Clone)]
pub enum Source {
    /// One value per cell.
    Scalar(Arc<Field>),
    /// Linear RGB per cell.
    Colour(Arc<ColourField>),
    /// Unit object-space normals per cell.
    Normals {
        /// Cells per face edge.
        n: usize,
        /// One normal per cell.
        data: Arc<Vec<[f32; 3]>>,
    },
    /// Values evaluated tile by tile as the pixels ask for them (a tiled build); sampled
    /// through a [`TileView`] of the tiles a strip of pixels reads.
    Tiled(TiledSource),
}

/// One value of a tiled build's [`TileStore`].
#[derive(Clone)]
pub struct TiledSource {
    /// The store that evaluates and keeps the tiles.
    pub store: Arc<TileStore>,
    /// Which of its values.
    pub value: usize,
}

impl TiledSource {
    /// Whether the value reads a field: a field itself, or the normals computed from one (an
    /// Export node's field input); otherwise colours (its colour input).
    pub fn is_field(&self) -> bool {
        self.store.channels(self.value) == 1 || self.store.is_normals(self.value)
    }
}

impl std::fmt::Debug for TiledSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TiledSource {{ value: {}, plan: {:?} }}", self.value, self.store.plan())
    }
}

impl Source {
    /// Object-space normals of `elevation_m` (metres) on a planet of `radius_km`, relief
    /// exaggerated `relief` times: `normalize(up - grad h * relief / R)` with the gradient in
    /// metres per radian on the true cell spacing.
    pub fn normals(elevation_m: &Field, radius_km: f32, relief: f32) -> Source {
        let n = elevation_m.n();
        let g = gradient(elevation_m);
        let scale = relief / (radius_km.max(1.0) * 1000.0);
        let data = (0..6 * n * n)
            .into_par_iter()
            .map(|c| {
                let up = Cell::from_index(c, n).direction(n);
                (up - Vec3::from(g.data[c]) * scale).normalize_or(up).to_array()
            })
            .collect();
        Source::Normals { n, data: Arc::new(data) }
    }

    /// Whether the values are unit normals (object space).
    pub fn is_normals(&self) -> bool {
        match self {
            Source::Normals { .. } => true,
            Source::Tiled(t) => t.store.is_normals(t.value),
            _ => false,
        }
    }

    /// Channels per pixel: 1 or 3.
    pub fn channels(&self) -> usize {
        match self {
            Source::Scalar(_) => 1,
            Source::Tiled(t) => t.store.channels(t.value),
            _ => 3,
        }
    }

    /// Cells per face edge.
    pub fn n(&self) -> usize {
        match self {
            Source::Scalar(f) => f.n(),
            Source::Colour(c) => c.n,
            Source::Normals { n, .. } => *n,
            Source::Tiled(t) => t.store.plan().n,
        }
    }

    /// The cells and weights a sample at `at` reads.
    pub fn taps(&self, at: At) -> Taps {
        match at {
            At::Cell(c) => Taps::Cell(c),
            At::Dir(d) => Taps::Mix(Field::bilinear_taps(self.n(), d)),
        }
    }

    /// The value at `at`; only the first [`Source::channels`] components are meaningful.
    /// Sampled normals are renormalised. A tiled source reads `view`, which must hold the tiles
    /// of the cells `at` reads (see [`Source::taps`]); without one its values are NaN.
    pub fn sample(&self, at: At, view: Option<&TileView>) -> [f32; 3] {
        self.sample_taps(self.taps(at), view)
    }

    /// The value the cells `taps` give (see [`Source::sample`]).
    pub fn sample_taps(&self, taps: Taps, view: Option<&TileView>) -> [f32; 3] {
        let taps = match taps {
            Taps::Cell(c) => {
                return match self {
                    Source::Scalar(f) => [f.data()[c], 0.0, 0.0],
                    Source::Colour(col) => col.data[c],
                    Source::Normals { data, .. } => data[c],
                    Source::Tiled(_) => view.map_or([f32::NAN; 3], |v| v.get(c)),
                }
            }
            Taps::Mix(taps) => taps,
        };
        match self {
            Source::Tiled(t) => {
                let Some(v) = view else { return [f32::NAN; 3] };
                let out = mix(|c| v.get(c), &taps);
                if t.store.is_normals(t.value) {
                    renormalised(out, v.get(taps[0].0))
                } else {
                    out
                }
            }
            Source::Scalar(f) => {
                let v: f32 = taps.iter().map(|&(c, w)| f.data()[c] * w).sum();
                [v, 0.0, 0.0]
            }
            Source::Colour(col) => mix(|c| col.data[c], &taps),
            Source::Normals { data, .. } => renormalised(mix(|c| data[c], &taps), data[taps[0].0]),
        }
    }

    /// The tiles of a tiled source that `taps` read, evaluated and held for sampling; `None`
    /// for a source held whole, which samples without a view.
    pub fn view_for<'a>(&self, taps: impl IntoIterator<Item = &'a Taps>, cancel: &AtomicBool) -> Result<Option<TileView>, ExportError> {
        let Source::Tiled(t) = self else { return Ok(None) };
        let plan = t.store.plan();
        let mut read = vec![false; plan.count()];
        for tap in taps {
            for c in tap.cells() {
                read[plan.locate(c).0] = true;
            }
        }
        let tiles: Vec<usize> = read.iter().enumerate().filter(|(_, r)| **r).map(|(k, _)| k).collect();
        t.store.view(t.value, &tiles, cancel).map(Some)
    }

    /// Smallest and largest value of a scalar source (`None` for colours and normals); for a
    /// tiled source, over the tiles evaluated so far.
    pub fn range(&self) -> Option<(f32, f32)> {
        match self {
            Source::Scalar(f) => Some(f.min_max()),
            Source::Tiled(t) if t.store.channels(t.value) == 1 => t.store.range(t.value),
            _ => None,
        }
    }
}

/// The weighted sum of the values `get` gives at the taps' cells.
fn mix(get: impl Fn(usize) -> [f32; 3], taps: &[(usize, f32); 4]) -> [f32; 3] {
    let mut out = [0.0; 3];
    for &(c, w) in taps {
        for (o, v) in out.iter_mut().zip(get(c)) {
            *o += v * w;
        }
    }
    out
}

/// A sampled normal made unit length again (`fallback`, the first tap's normal, where the
/// taps cancel out).
fn renormalised(v: [f32; 3], fallback: [f32; 3]) -> [f32; 3] {
    Vec3::from(v).normalize_or(Vec3::from(fallback)).to_array()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_exactly_and_directions_interpolate() {
        let f = Field::from_fn_dir(8, |d| d.x + 2.0 * d.y);
        let s = Source::Scalar(Arc::new(f.clone()));
        for c in [0, 17, 200, 383] {
            assert_eq!(s.sample(At::Cell(c), None)[0], f.data()[c]);
        }
        let d = Vec3::new(0.3, 0.2, 0.9).normalize();
        assert!((s.sample(At::Dir(d), None)[0] - (d.x + 2.0 * d.y)).abs() < 0.05);
    }

    #[test]
    fn flat_ground_has_radial_normals() {
        let s = Source::normals(&Field::filled(8, 500.0), 6371.0, 1.0);
        let d = Vec3::new(0.1, 0.7, 0.3).normalize();
        let v = Vec3::from(s.sample(At::Dir(d), None));
        assert!(v.dot(d) > 0.999 && (v.length() - 1.0).abs() < 1e-5);
    }
}
