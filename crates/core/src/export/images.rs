//! Pixel grids of image exports (equirectangular, cube faces in PlanetGraph's grid, gnomonic
//! cube maps; cell-centred or edge-sharing; a border from the neighbouring faces; tiles) and
//! the pixels they hold: where each pixel samples the planet and its tangent frame.

use super::base::{Control, ExportError};
use super::source::{At, Source, Taps};
use super::tiled::TileView;
use crate::nodes::output::export::{FaceGrid, NormalGreen, NormalSpace};
use crate::planet::colour::linear_to_srgb;
use crate::planet::coords::{face_ab_to_dir, wrap_or_nearest};
use crate::planet::projection::equirect_pixel_dir;
use crate::planet::{Cell, Face};
use glam::Vec3;
use rayon::prelude::*;

/// The order and names of the faces of an OpenGL cube map, as PlanetGraph faces: our faces
/// already have the cube-map orientation of each (see `opengl_orientation_matches` below).
pub const CUBE_MAP: [(Face, &str); 6] = [(Face::Right, "posx"), (Face::Left, "negx"), (Face::Top, "posy"), (Face::Bottom, "negy"), (Face::Front, "posz"), (Face::Back, "negz")];

/// The pixel grid of one image file.
#[derive(Debug, Clone, Copy)]
pub enum Grid {
    /// Equirectangular, `width` x `height` (north up, longitude 0 at the centre column).
    Equirect {
        /// Pixels across.
        width: usize,
        /// Pixels down.
        height: usize,
    },
    /// A rectangle of one face's grid.
    Face(FaceTile),
}

/// A face image, or one tile of it.
#[derive(Debug, Clone, Copy)]
pub struct FaceTile {
    /// The face.
    pub face: Face,
    /// Pixels per face edge, without the border.
    pub m: usize,
    /// Cell-centred or edge-sharing pixels.
    pub grid: FaceGrid,
    /// Gnomonic (standard cube map) instead of PlanetGraph's tangent-warped face coordinates.
    pub gnomonic: bool,
    /// Border width, 0 or 1 pixel.
    pub border: usize,
    /// First column and row of this tile in the bordered face image.
    pub x0: usize,
    /// First row of the tile.
    pub y0: usize,
    /// Tile width.
    pub w: usize,
    /// Tile height.
    pub h: usize,
}

impl Grid {
    /// Width and height in pixels.
    pub fn size(&self) -> (usize, usize) {
        match self {
            Grid::Equirect { width, height } => (*width, *height),
            Grid::Face(t) => (t.w, t.h),
        }
    }

    /// Where pixel `(x, y)` samples, and its unit direction.
    pub fn pixel(&self, x: usize, y: usize, cells: usize) -> (At, Vec3) {
        match self {
            Grid::Equirect { width, height } => {
                let d = equirect_pixel_dir(x, y, *width, *height);
                (At::Dir(d), d)
            }
            Grid::Face(t) => {
                let p = (x + t.x0) as i64 - t.border as i64;
                let q = (y + t.y0) as i64 - t.border as i64;
                // Border pixels are the neighbouring face's edge pixels (the nearest in-face
                // pixel over a cube corner).
                let c = wrap_or_nearest(t.face, p, q, t.m);
                t.sample_at(c, cells)
            }
        }
    }

    /// The unit vector along the image's columns in the tangent plane at direction `d` (east on
    /// equirectangular images), for tangent-space normals.
    pub fn column_tangent(&self, d: Vec3) -> Vec3 {
        match self {
            Grid::Equirect { .. } => Vec3::new(d.z, 0.0, -d.x).try_normalize().unwrap_or(Vec3::X),
            Grid::Face(t) => {
                let right = t.face.right();
                (right - d * right.dot(d)).normalize_or(right)
            }
        }
    }
}

impl FaceTile {
    /// Where pixel `c` of an `m`-grid samples, and its unit direction.
    fn sample_at(&self, c: Cell, cells: usize) -> (At, Vec3) {
        let m = self.m as f32;
        let (a, b) = match self.grid {
            FaceGrid::Cells => ((c.i as f32 + 0.5) / m, (c.j as f32 + 0.5) / m),
            FaceGrid::EdgeSharing => (c.i as f32 / (m - 1.0).max(1.0), c.j as f32 / (m - 1.0).max(1.0)),
        };
        if self.gnomonic {
            let d = (c.face.normal() + (2.0 * a - 1.0) * c.face.right() + (2.0 * b - 1.0) * c.face.down()).normalize();
            (At::Dir(d), d)
        } else if self.grid == FaceGrid::Cells && self.m == cells {
            (At::Cell(c.index(cells)), c.direction(cells))
        } else {
            let d = face_ab_to_dir(c.face, a, b, true);
            (At::Dir(d), d)
        }
    }
}

/// How sampled values become the numbers written: for integer formats a value in 0..1 per
/// channel (the encoder scales it to 255 or 65535), for float formats the value itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Encoding {
    /// `(v - low) / (high - low)`, clamped (fields into integers).
    Range {
        /// Value of pixel 0.
        low: f32,
        /// Value of the largest pixel.
        high: f32,
    },
    /// Linear colour to the sRGB transfer (albedo into integers).
    Srgb,
    /// As it is, clamped to 0..1 (linear colour into integers).
    Clamp,
    /// `0.5 + 0.5 v` (normals into integers).
    Signed,
    /// As it is (float formats).
    Identity,
}

impl Encoding {
    fn apply(self, v: f32) -> f32 {
        match self {
            Encoding::Range { low, high } => ((v - low) / (high - low)).clamp(0.0, 1.0),
            Encoding::Srgb => linear_to_srgb(v.clamp(0.0, 1.0)),
            Encoding::Clamp => v.clamp(0.0, 1.0),
            Encoding::Signed => (0.5 + 0.5 * v).clamp(0.0, 1.0),
            Encoding::Identity => v,
        }
    }
}

/// Normal maps: which frame the normals are written in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Frame {
    /// The source as it is (fields, colours, object-space normals).
    Object,
    /// Tangent space with the green channel up (OpenGL) or down (DirectX) the image.
    Tangent(NormalGreen),
}

impl Frame {
    /// The frame of a normal-map setting.
    pub fn of(space: NormalSpace, green: NormalGreen) -> Frame {
        match space {
            NormalSpace::Object => Frame::Object,
            NormalSpace::Tangent => Frame::Tangent(green),
        }
    }
}

/// Everything that decides a pixel's numbers.
pub struct Pixels<'a> {
    /// The data.
    pub source: &'a Source,
    /// The image grid.
    pub grid: Grid,
    /// Value encoding.
    pub encoding: Encoding,
    /// Frame of normals.
    pub frame: Frame,
}

impl Pixels<'_> {
    /// Channels per pixel.
    pub fn channels(&self) -> usize {
        self.source.channels()
    }

    /// The encoded channels of pixel `(x, y)`; a tiled source reads `view` (see
    /// [`Pixels::rows`]).
    pub fn pixel(&self, x: usize, y: usize, view: Option<&TileView>) -> [f32; 3] {
        let (at, up) = self.grid.pixel(x, y, self.source.n());
        self.encode(self.source.sample(at, view), up)
    }

    /// The encoded channels of a sampled value `v` at the unit direction `up`.
    fn encode(&self, mut v: [f32; 3], up: Vec3) -> [f32; 3] {
        if let Frame::Tangent(green) = self.frame {
            let east = self.grid.column_tangent(up);
            let n = Vec3::from(v);
            let north = up.cross(east);
            let g = n.dot(north);
            v = [n.dot(east), if green == NormalGreen::DirectX { -g } else { g }, n.dot(up)];
        }
        v.map(|c| self.encoding.apply(c))
    }

    /// Rows `y0..y1`, row-major, channels interleaved, computed in parallel. A tiled source's
    /// pixels are placed first, [`TILED_ROWS`] rows at a time: the tiles their cells lie on are
    /// evaluated, then the pixels sampled from the cells found.
    pub fn rows(&self, y0: usize, y1: usize, control: &Control) -> Result<Vec<f32>, ExportError> {
        let (w, _) = self.grid.size();
        let ch = self.channels();
        let mut out = vec![0.0; (y1 - y0) * w * ch];
        let Source::Tiled(t) = self.source else {
            out.par_chunks_mut((w * ch).max(1)).enumerate().for_each(|(k, line)| {
                for x in 0..w {
                    let p = self.pixel(x, y0 + k, None);
                    line[x * ch..(x + 1) * ch].copy_from_slice(&p[..ch]);
                }
            });
            return Ok(out);
        };
        let n = t.store.plan().n;
        for (part, lines) in out.chunks_mut((TILED_ROWS * w * ch).max(1)).enumerate() {
            let first = y0 + part * TILED_ROWS;
            let rows = lines.len() / (w * ch).max(1);
            // Where each pixel samples, and the tiles those cells lie on.
            let places: Vec<Vec<(Taps, Vec3)>> = (first..first + rows)
                .into_par_iter()
                .map(|y| {
                    (0..w)
                        .map(|x| {
                            let (at, up) = self.grid.pixel(x, y, n);
                            (self.source.taps(at), up)
                        })
                        .collect()
                })
                .collect();
            let view = self.source.view_for(places.iter().flatten().map(|(taps, _)| taps), control.cancel)?;
            lines.par_chunks_mut((w * ch).max(1)).zip(&places).for_each(|(line, row)| {
                for (x, &(taps, up)) in row.iter().enumerate() {
                    let p = self.encode(self.source.sample_taps(taps, view.as_ref()), up);
                    line[x * ch..(x + 1) * ch].copy_from_slice(&p[..ch]);
                }
            });
        }
        Ok(out)
    }
}

/// Rows of a tiled source placed at a time (see [`Pixels::rows`]): their taps are held until
/// sampled, 84 bytes a pixel.
pub const TILED_ROWS: usize = 8;

/// The first pixel of each of `tiles` tiles along an edge of `len` pixels and the tile's
/// length; neighbouring tiles share one pixel.
pub fn tile_spans(len: usize, tiles: usize) -> Vec<(usize, usize)> {
    let tiles = tiles.clamp(1, len.max(2) - 1);
    if tiles == 1 {
        return vec![(0, len)];
    }
    (0..tiles)
        .map(|t| {
            let a = (t * (len - 1) + tiles / 2) / tiles;
            let b = ((t + 1) * (len - 1) + tiles / 2) / tiles;
            (a, b - a + 1)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::Field;
    use std::sync::Arc;

    fn tile(face: Face, m: usize, grid: FaceGrid, gnomonic: bool, border: usize) -> Grid {
        let w = m + 2 * border;
        Grid::Face(FaceTile { face, m, grid, gnomonic, border, x0: 0, y0: 0, w, h: w })
    }

    /// The OpenGL specification's cube-map selection (table 8.19): for the major axis `ma`,
    /// `s = (sc / |ma| + 1) / 2` across and `t = (tc / |ma| + 1) / 2` down the image.
    fn opengl_st(d: Vec3) -> (&'static str, f32, f32) {
        let (ax, ay, az) = (d.x.abs(), d.y.abs(), d.z.abs());
        let (name, sc, tc, ma) = if ax >= ay && ax >= az {
            if d.x > 0.0 {
                ("posx", -d.z, -d.y, ax)
            } else {
                ("negx", d.z, -d.y, ax)
            }
        } else if ay >= az {
            if d.y > 0.0 {
                ("posy", d.x, d.z, ay)
            } else {
                ("negy", d.x, -d.z, ay)
            }
        } else if d.z > 0.0 {
            ("posz", d.x, -d.y, az)
        } else {
            ("negz", -d.x, -d.y, az)
        };
        (name, (sc / ma + 1.0) / 2.0, (tc / ma + 1.0) / 2.0)
    }

    #[test]
    fn opengl_orientation_matches() {
        let m = 16;
        for (face, name) in CUBE_MAP {
            let g = tile(face, m, FaceGrid::Cells, true, 0);
            for (x, y) in [(0, 0), (15, 0), (3, 11), (15, 15)] {
                let (_, d) = g.pixel(x, y, 8);
                let (n, s, t) = opengl_st(d);
                assert_eq!(n, name);
                assert!((s - (x as f32 + 0.5) / m as f32).abs() < 1e-5 && (t - (y as f32 + 0.5) / m as f32).abs() < 1e-5, "{name} {x},{y}: {s} {t}");
            }
        }
    }

    #[test]
    fn border_pixels_are_the_neighbours_edge_pixels() {
        let n = 8;
        let src = Source::Scalar(Arc::new(Field::from_fn_cell(n, |c| c as f32)));
        for gnomonic in [false, true] {
            for face in Face::ALL {
                let p = Pixels { source: &src, grid: tile(face, n, FaceGrid::Cells, gnomonic, 1), encoding: Encoding::Identity, frame: Frame::Object };
                // Left border, row 3: the neighbour's cell across the edge.
                let across = crate::planet::coords::wrap_cell(face, -1, 2, n).expect("neighbour");
                let neighbour = Pixels { source: &src, grid: tile(across.face, n, FaceGrid::Cells, gnomonic, 1), encoding: Encoding::Identity, frame: Frame::Object };
                assert_eq!(p.pixel(0, 3, None), neighbour.pixel(across.i + 1, across.j + 1, None));
            }
        }
    }

    #[test]
    fn edge_sharing_faces_agree_on_their_edges() {
        let n = 16;
        let src = Source::Scalar(Arc::new(Field::from_fn_dir(n, |d| (3.0 * d.x).sin() + d.y * d.z)));
        let m = 17;
        let front = Pixels { source: &src, grid: tile(Face::Front, m, FaceGrid::EdgeSharing, false, 0), encoding: Encoding::Identity, frame: Frame::Object };
        let right = Pixels { source: &src, grid: tile(Face::Right, m, FaceGrid::EdgeSharing, false, 0), encoding: Encoding::Identity, frame: Frame::Object };
        // The front face's right edge is the right face's left edge.
        for k in 0..m {
            let (a, b) = (front.pixel(m - 1, k, None)[0], right.pixel(0, k, None)[0]);
            assert!((a - b).abs() < 1e-5, "row {k}: {a} {b}");
        }
    }

    #[test]
    fn tiles_share_one_pixel() {
        assert_eq!(tile_spans(1025, 1), vec![(0, 1025)]);
        assert_eq!(tile_spans(1025, 4), vec![(0, 257), (256, 257), (512, 257), (768, 257)]);
    }
}
