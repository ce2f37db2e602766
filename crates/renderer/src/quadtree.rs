//! Which tiles a close-up evaluates for a camera: a quadtree of tiles over the cube's faces,
//! refined where the picture's pixels need finer cells (camera geometry and the cube-sphere's
//! tiles only; the evaluation itself is the domain's region evaluation).

use super::camera::OrbitCamera;
use super::gpu_types::MAX_PATCHES;
use super::layers::DetailPatch;
use crate::planet::{dir_to_face_ab, face_ab_to_dir, Face, Tile};
use glam::{Mat4, Vec2, Vec3, Vec4};

/// The finest level a close-up evaluates (cells per face edge): about 150 m cells on an
/// Earth-sized planet, so a camera at the lowest altitude (25 km) still sees cells of a few
/// pixels.
pub const MAX_DETAIL_LEVEL: usize = 65536;

/// Cells per edge of a close-up's tile: a quadtree node at level `L` (cells per face edge)
/// covers `TILE_CELLS / L` of its face's edge.
pub const TILE_CELLS: usize = 512;

/// Most tiles a view holds at once (the leaves of its quadtree finer than the planet's own
/// cells, and their underlays): the renderer's patch layers.
pub const MAX_TILES: usize = MAX_PATCHES;

/// Camera distances (planet radii) up to which close-ups are made.
pub const AUTO_DISTANCE: f32 = 1.6;

/// Points per edge of the grid at which a node's need is measured (its corners included).
const NODE_SAMPLES: usize = 5;

/// Points per edge of the grid over the picture whose ground counts for the nodes it lands in
/// (so a node larger than the picture is measured where the picture sees it).
const PICTURE_SAMPLES: usize = 9;

/// What the picture sees: the camera's geometry and where a grid of its points meet the ground.
struct Sight {
    eye: Vec3,
    view_proj: Mat4,
    /// The view frustum's six planes (`xyz` the inward unit normal, `w` the offset).
    planes: [Vec4; 6],
    /// Vertical field of view per pixel (radians).
    fov_pixel: f32,
    /// Ground points of the picture grid: the face and face coordinates, the point.
    ground: Vec<(Face, f32, f32, Vec3)>,
}

/// How a node looks from the camera: the cells per face edge its finest-seen pixels want, and
/// how near the picture's centre it shows (normalised device coordinates).
#[derive(Debug, Clone, Copy)]
struct Seen {
    need: f32,
    from_centre: f32,
}

impl Seen {
    fn most(self, other: Seen) -> Seen {
        Seen { need: self.need.max(other.need), from_centre: self.from_centre.min(other.from_centre) }
    }
}

/// How far beyond the picture's frustum and horizon a node still counts as seen, in planet
/// radii (about 13 km on Earth): room for the relief and for rounding.
const RELIEF_REACH: f32 = 0.002;

/// A node of a face's quadtree: its level (cells per face edge, a power of two at least
/// [`TILE_CELLS`]) and its column and row among the level's nodes.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Node {
    face: Face,
    level: usize,
    x: usize,
    y: usize,
}

impl Sight {
    fn new(camera: &OrbitCamera, width: u32, height: u32) -> Sight {
        let aspect = width as f32 / height.max(1) as f32;
        let last = (PICTURE_SAMPLES - 1) as f32;
        let ground = (0..PICTURE_SAMPLES * PICTURE_SAMPLES)
            .filter_map(|k| {
                let ndc = Vec2::new((k % PICTURE_SAMPLES) as f32 / last * 2.0 - 1.0, (k / PICTURE_SAMPLES) as f32 / last * 2.0 - 1.0);
                let p = camera.pick(ndc, aspect)?;
                let (face, a, b) = dir_to_face_ab(p);
                Some((face, a, b, p))
            })
            .collect();
        let view_proj = camera.view_proj(aspect);
        // The frustum's planes from the rows of the matrix (depth 0..1): left, right, bottom,
        // top, near, far.
        let [r0, r1, r2, r3] = [view_proj.row(0), view_proj.row(1), view_proj.row(2), view_proj.row(3)];
        let planes = [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2].map(|p| p / p.truncate().length().max(1e-12));
        Sight { eye: camera.eye(), view_proj, planes, fov_pixel: camera.fov_y / height.max(1) as f32, ground }
    }

    /// What a pixel showing the ground point `p` (unit length) wants: the cells per face edge
    /// at which a cell is as wide as the pixel's footprint (its range and the ground's slant
    /// to the view), how far from the picture's centre it shows, and whether it lies in the
    /// picture. `None` when the point is beyond the horizon.
    fn at(&self, p: Vec3) -> Option<(Seen, bool)> {
        if p.dot(self.eye) <= 1.0 {
            return None;
        }
        let clip = self.view_proj * p.extend(1.0);
        let ndc = Vec2::new(clip.x, clip.y) / clip.w.max(1e-9);
        let in_picture = clip.w > 0.0 && ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0;
        let to_eye = self.eye - p;
        let range = to_eye.length().max(1e-6);
        let slant = (to_eye / range).dot(p).max(0.25);
        let pixel = range * self.fov_pixel / slant;
        Some((Seen { need: std::f32::consts::FRAC_PI_2 / pixel, from_centre: if clip.w > 0.0 { ndc.length() } else { f32::INFINITY } }, in_picture))
    }

    /// Whether any of `node` may show: the bounding cap on the sphere of one of its 4 x 4
    /// sub-squares reaches above the horizon and into the frustum (within [`RELIEF_REACH`]).
    fn may_see(&self, node: Node) -> bool {
        const SPLIT: usize = 4;
        let (corner, span) = node.area();
        let part = span / SPLIT as f32;
        (0..SPLIT * SPLIT).any(|k| self.cap_seen(cap(node.face, [corner[0] + part * (k % SPLIT) as f32, corner[1] + part * (k / SPLIT) as f32], part)))
    }

    /// Whether the cap of the unit sphere around `centre` of angular `radius` reaches above
    /// the horizon and into the frustum (within [`RELIEF_REACH`]).
    fn cap_seen(&self, (centre, radius): (Vec3, f32)) -> bool {
        let eye = self.eye.length();
        let horizon = (1.0 / eye.max(1.0 + 1e-6)).acos() + (RELIEF_REACH * 2.0).sqrt();
        if centre.angle_between(self.eye) - radius > horizon {
            return false;
        }
        // The cap's furthest point along each plane's normal.
        self.planes.iter().all(|p| {
            let off = p.truncate().angle_between(centre);
            let most = if off <= radius { 1.0 } else { (off - radius).cos() };
            most + p.w >= -RELIEF_REACH
        })
    }

    /// How `node` looks: the most any of its sample points (a grid over it, and the picture's
    /// ground points inside it) in the picture wants; where none of them is in the picture
    /// (a sliver of the node shows between them), the most its points before the horizon
    /// want. `None` when the picture cannot show it.
    fn node(&self, node: Node) -> Option<Seen> {
        if !self.may_see(node) {
            return None;
        }
        let (corner, span) = node.area();
        let last = (NODE_SAMPLES - 1) as f32;
        let grid = (0..NODE_SAMPLES * NODE_SAMPLES).map(|k| face_ab_to_dir(node.face, corner[0] + span * (k % NODE_SAMPLES) as f32 / last, corner[1] + span * (k / NODE_SAMPLES) as f32 / last, true));
        let inside = |a: f32, b: f32| (corner[0]..=corner[0] + span).contains(&a) && (corner[1]..=corner[1] + span).contains(&b);
        let picked = self.ground.iter().filter(|g| g.0 == node.face && inside(g.1, g.2)).map(|g| g.3);
        let seen: Vec<(Seen, bool)> = grid.chain(picked).filter_map(|p| self.at(p)).collect();
        let in_picture = seen.iter().filter(|s| s.1).map(|s| s.0).reduce(Seen::most);
        Some(in_picture.or_else(|| seen.iter().map(|s| s.0).reduce(Seen::most)).unwrap_or(Seen { need: 0.0, from_centre: f32::INFINITY }))
    }
}

impl Node {
    /// Face coordinates of its top-left corner, and its edge.
    fn area(&self) -> ([f32; 2], f32) {
        let span = TILE_CELLS as f32 / self.level as f32;
        ([self.x as f32 * span, self.y as f32 * span], span)
    }

    fn children(&self) -> [Node; 4] {
        let child = |k: usize| Node { face: self.face, level: 2 * self.level, x: 2 * self.x + k % 2, y: 2 * self.y + k / 2 };
        [child(0), child(1), child(2), child(3)]
    }

    fn tile(&self) -> Option<Tile> {
        Tile::new(self.face, self.level, self.x * TILE_CELLS, self.y * TILE_CELLS, TILE_CELLS).ok()
    }
}

/// The cap of the unit sphere around the square of `face` from face coordinates `corner`
/// with edge `span`: its centre's direction and the largest angle from there to its border
/// (radians, a little more for safety).
fn cap(face: Face, corner: [f32; 2], span: f32) -> (Vec3, f32) {
    let at = |u: f32, v: f32| face_ab_to_dir(face, corner[0] + span * u, corner[1] + span * v, true);
    let centre = at(0.5, 0.5);
    let border = [(0.0, 0.0), (0.5, 0.0), (1.0, 0.0), (1.0, 0.5), (1.0, 1.0), (0.5, 1.0), (0.0, 1.0), (0.0, 0.5)];
    let radius = border.iter().map(|&(u, v)| centre.angle_between(at(u, v))).fold(0.0, f32::max);
    (centre, radius * 1.02)
}

/// The tiles a close-up evaluates for `camera` looking at a picture of `width` x `height`
/// pixels over a planet evaluated at `n` cells per face edge: the leaves of a quadtree over
/// the faces the picture sees, then their underlays ([`underlays`]), each of [`TILE_CELLS`]
/// cells. A node splits into its four children (those the picture sees) while some pixel
/// showing it wants cells at least twice as fine (its range and slant to the view), up to
/// [`MAX_DETAIL_LEVEL`], the nodes most short of detail first, while the leaves finer than `n`
/// and their underlays stay within [`MAX_TILES`]. Leaves no finer than `n` are left out (the
/// planet's own cells are fine enough there). The leaves come nearest the picture's centre
/// first (the order to evaluate them in), the underlays after them; empty when the camera is
/// further than [`AUTO_DISTANCE`]. The leaves do not overlap, each underlay lies under leaves;
/// draw them with [`DetailPatch::layered`].
pub fn tiles_for_view(camera: &OrbitCamera, width: u32, height: u32, n: usize) -> Vec<Tile> {
    let (mut leaves, under) = view_quadtree(camera, width, height, n);
    leaves.extend(under);
    leaves
}

/// [`tiles_for_view`]'s leaves and underlays, apart.
fn view_quadtree(camera: &OrbitCamera, width: u32, height: u32, n: usize) -> (Vec<Tile>, Vec<Tile>) {
    if camera.distance > AUTO_DISTANCE {
        return (Vec::new(), Vec::new());
    }
    let sight = Sight::new(camera, width, height);
    let drawn = |node: &Node| node.level > n;
    // The leaves so far: the node, how it looks, whether it may still split.
    let mut leaves: Vec<(Node, Seen, bool)> = Face::ALL
        .iter()
        .filter_map(|&face| {
            let root = Node { face, level: TILE_CELLS, x: 0, y: 0 };
            sight.node(root).map(|s| (root, s, true))
        })
        .collect();
    loop {
        let wants_finer = |(node, seen, open): &(Node, Seen, bool)| *open && 2 * node.level <= MAX_DETAIL_LEVEL && seen.need >= 2.0 * node.level as f32;
        let Some(k) = (0..leaves.len()).filter(|&k| wants_finer(&leaves[k])).max_by(|&i, &j| {
            let short = |k: usize| leaves[k].1.need / leaves[k].0.level as f32;
            short(i).total_cmp(&short(j))
        }) else {
            break;
        };
        let node = leaves[k].0;
        let children: Vec<(Node, Seen, bool)> = node.children().into_iter().filter_map(|c| sight.node(c).map(|s| (c, s, true))).collect();
        let after: Vec<Node> = leaves.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, l)| l.0).chain(children.iter().map(|c| c.0)).filter(drawn).collect();
        if after.len() + underlays(&after).len() > MAX_TILES {
            leaves[k].2 = false;
            continue;
        }
        leaves.swap_remove(k);
        leaves.extend(children);
    }
    leaves.retain(|l| drawn(&l.0));
    leaves.sort_by(|a, b| a.1.from_centre.total_cmp(&b.1.from_centre).then(b.0.level.cmp(&a.0.level)));
    let nodes: Vec<Node> = leaves.iter().map(|l| l.0).collect();
    (nodes.iter().filter_map(Node::tile).collect(), underlays(&nodes).iter().filter_map(Node::tile).collect())
}

/// The underlays of drawn leaves (which do not overlap): where a leaf meets a coarser leaf
/// along a side (on its face), its ancestor at that coarser level, in the order of the leaves
/// that need them. Drawn under the leaf, an underlay has the coarser neighbour's level, so it
/// meets that neighbour without a seam, and the leaf blends into it towards that side
/// ([`DetailPatch::underlay`]) rather than ending its finer relief along a straight line.
fn underlays(leaves: &[Node]) -> Vec<Node> {
    let held: std::collections::HashSet<(usize, usize, usize, usize)> = leaves.iter().map(|l| (l.face.index(), l.level, l.x, l.y)).collect();
    let mut out: Vec<Node> = Vec::new();
    for leaf in leaves {
        let last = leaf.level / TILE_CELLS - 1;
        let sides = [(leaf.x > 0).then(|| (leaf.x - 1, leaf.y)), (leaf.x < last).then(|| (leaf.x + 1, leaf.y)), (leaf.y > 0).then(|| (leaf.x, leaf.y - 1)), (leaf.y < last).then(|| (leaf.x, leaf.y + 1))];
        for (ax, ay) in sides.into_iter().flatten() {
            // The coarser leaf holding the node beside this side, if one does.
            let coarser = (1..).take_while(|&k| leaf.level >> k >= TILE_CELLS).find(|&k| held.contains(&(leaf.face.index(), leaf.level >> k, ax >> k, ay >> k)));
            if let Some(k) = coarser {
                let under = Node { face: leaf.face, level: leaf.level >> k, x: leaf.x >> k, y: leaf.y >> k };
                if !out.contains(&under) {
                    out.push(under);
                }
            }
        }
    }
    out
}

impl<'a> DetailPatch<'a> {
    /// The patch of a tile's values (row-major over the tile): its elevation in metres, and
    /// its colours and normals as RGBA8 where given. It fades on every side but those on the
    /// face's edge; [`DetailPatch::joined`] keeps the sides that meet other patches sharp.
    pub fn on_tile(tile: Tile, elevation_m: &'a [f32], overlay: Option<&'a [u8]>, normals: Option<&'a [u8]>) -> DetailPatch<'a> {
        let (corner, span) = tile.area_ab();
        let fades = [tile.i0 > 0, tile.i0 + tile.size < tile.n, tile.j0 > 0, tile.j0 + tile.size < tile.n];
        DetailPatch { face: tile.face, corner, span, size: tile.size as u32, elevation_m, overlay, normals, fades, softens: [false; 4], underlay: 0.0, opacity: 1.0 }
    }

    /// `patches` ready to draw: coarse first, so that where they overlap the finer lie on
    /// top, with the sides that meet another patch kept sharp ([`DetailPatch::joined`]).
    pub fn layered(mut patches: Vec<DetailPatch<'a>>) -> Vec<DetailPatch<'a>> {
        patches.sort_by(|p, q| q.span.total_cmp(&p.span));
        DetailPatch::joined(&mut patches);
        patches
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Face coordinates of picture points on a `k` x `k` grid that see the planet.
    fn seen(camera: &OrbitCamera, width: u32, height: u32, k: usize) -> Vec<(Face, f32, f32)> {
        let aspect = width as f32 / height as f32;
        (0..k * k).filter_map(|i| camera.pick(Vec2::new((i % k) as f32 / (k - 1) as f32 * 1.98 - 0.99, (i / k) as f32 / (k - 1) as f32 * 1.98 - 0.99), aspect)).map(dir_to_face_ab).collect()
    }

    /// The tile under the picture's centre among [`tiles_for_view`]'s.
    fn tile_for_view(camera: &OrbitCamera, width: u32, height: u32, n: usize) -> Option<Tile> {
        let (face, a, b) = dir_to_face_ab(camera.pick(Vec2::ZERO, width as f32 / height as f32)?);
        tiles_for_view(camera, width, height, n).into_iter().find(|t| t.contains_ab(face, a, b))
    }

    #[test]
    fn a_close_camera_gets_a_fine_tile_under_the_picture_s_centre_and_a_far_one_none() {
        assert!(tiles_for_view(&OrbitCamera { distance: 3.9, ..Default::default() }, 1024, 1024, 256).is_empty());
        let near = OrbitCamera { distance: 1.02, ..Default::default() };
        let t = tile_for_view(&near, 1024, 768, 256).expect("a close-up");
        assert_eq!((t.n, t.size), (MAX_DETAIL_LEVEL, TILE_CELLS));
        assert_eq!(tiles_for_view(&near, 1024, 768, 256)[0], t, "the picture's centre first");
        // Further out the tile under the centre is coarser: a cell is about a pixel there.
        let mid = tile_for_view(&OrbitCamera { distance: 1.2, ..Default::default() }, 1024, 768, 256).expect("a close-up");
        assert!(mid.n < MAX_DETAIL_LEVEL && mid.n > 256, "{mid:?}");
        assert!(tiles_for_view(&near, 1024, 768, MAX_DETAIL_LEVEL).is_empty(), "the planet's own cells are fine enough");
        let patch = DetailPatch::on_tile(t, &[], None, None);
        let ground = near.pick(Vec2::ZERO, 1024.0 / 768.0).expect("looks at the planet");
        let (face, a, b) = dir_to_face_ab(ground);
        assert_eq!(patch.place(face, a, b).1, 1.0, "the patch covers the picture's centre");
    }

    /// The leaves tile what the picture sees: no two overlap, every ground point of the
    /// picture lies on one, and there are at most [`MAX_TILES`].
    #[test]
    fn the_leaves_cover_the_picture_once() {
        let views = [
            OrbitCamera { distance: 1.02, yaw: 0.3, pitch: 0.2, ..Default::default() },
            OrbitCamera { distance: 1.05, yaw: std::f32::consts::FRAC_PI_4, pitch: 0.0, ..Default::default() },
            OrbitCamera { distance: 1.3, yaw: 0.7, pitch: 0.6, ..Default::default() },
        ];
        for camera in views {
            let (tiles, under) = view_quadtree(&camera, 800, 600, 256);
            assert!(!tiles.is_empty() && tiles.len() + under.len() <= MAX_TILES, "{camera:?}: {} tiles", tiles.len());
            for (i, s) in tiles.iter().enumerate() {
                assert_eq!(s.size, TILE_CELLS);
                assert!(s.n.is_power_of_two() && s.n > 256 && s.n <= MAX_DETAIL_LEVEL && s.i0 % TILE_CELLS == 0 && s.j0 % TILE_CELLS == 0);
                assert!(tiles[i + 1..].iter().all(|t| !s.overlaps(t)), "{s:?} overlaps another");
            }
            for (face, a, b) in seen(&camera, 800, 600, 17) {
                assert!(tiles.iter().any(|t| t.contains_ab(face, a, b)), "{camera:?}: ({face:?}, {a}, {b}) uncovered");
            }
        }
    }

    /// Joined, the leaves' patches meet without fading into the planet between them: every
    /// ground point of the picture's inner part lies at full weight on a patch, where leaves of
    /// different levels meet too.
    #[test]
    fn joined_leaves_leave_no_gap_between_levels() {
        let mut tilted = OrbitCamera { distance: 1.05, yaw: 0.3, pitch: 0.2, ..Default::default() };
        tilted.tilt = 1.0;
        let views = [tilted, OrbitCamera { distance: 1.05, yaw: std::f32::consts::FRAC_PI_4, pitch: 0.0, ..Default::default() }, OrbitCamera { distance: 1.3, yaw: 0.7, pitch: 0.6, ..Default::default() }];
        for camera in views {
            let tiles = tiles_for_view(&camera, 800, 600, 256);
            let levels: std::collections::BTreeSet<usize> = tiles.iter().map(|t| t.n).collect();
            let mut patches: Vec<DetailPatch> = tiles.iter().map(|&t| DetailPatch::on_tile(t, &[], None, None)).collect();
            DetailPatch::joined(&mut patches);
            let aspect = 800.0 / 600.0;
            let k = 41;
            let mut points = 0;
            for i in 0..k * k {
                let ndc = Vec2::new((i % k) as f32 / (k - 1) as f32 * 1.8 - 0.9, (i / k) as f32 / (k - 1) as f32 * 1.8 - 0.9);
                let Some(p) = camera.pick(ndc, aspect) else { continue };
                let (face, a, b) = dir_to_face_ab(p);
                let weight = patches.iter().map(|q| q.place(face, a, b).1).fold(0.0, f32::max);
                assert_eq!(weight, 1.0, "{camera:?} at {ndc}: levels {levels:?}");
                points += 1;
            }
            assert!(points > 100);
        }
        // A lone patch away from the face's edges fades on every side and softens on none.
        let lone = Tile::new(Face::Front, 4096, 1024, 1024, TILE_CELLS).expect("a tile");
        let mut patches = [DetailPatch::on_tile(lone, &[], None, None)];
        DetailPatch::joined(&mut patches);
        assert_eq!(patches[0].fades, [true; 4]);
        assert_eq!(patches[0].softens, [false; 4]);
    }

    /// Where a finer patch meets a coarser one, the finer softens towards it (its detail
    /// blurs to the coarser one's resolution near that side) and stays sharp; the coarser
    /// one, and patches of one level side by side, stay sharp without softening.
    #[test]
    fn a_finer_patch_softens_towards_a_coarser_neighbour() {
        let tile = |n: usize, i: usize, j: usize| Tile::new(Face::Front, n, i, j, TILE_CELLS).expect("a tile");
        // A coarse tile at 2048 and, to its right, two finer ones at 4096 side by side.
        let coarse = tile(2048, 512, 512);
        let (upper, lower) = (tile(4096, 2048, 1024), tile(4096, 2048, 1536));
        let patches = DetailPatch::layered([coarse, upper, lower].iter().map(|&t| DetailPatch::on_tile(t, &[], None, None)).collect());
        let find = |t: Tile| patches.iter().find(|p| p.span == t.area_ab().1 && p.corner == t.area_ab().0).expect("the patch");
        let (c, u) = (find(coarse), find(upper));
        assert_eq!(c.softens, [false; 4], "the coarse patch");
        // The finer patch's low-a side meets the coarse patch; its high-b side meets the other fine patch.
        assert_eq!(u.softens, [true, false, false, false], "the fine patch");
        assert!(!u.fades[0] && !u.fades[3], "{:?}", u.fades);
        // Soft at that side, sharp from a quarter of the way in.
        assert_eq!(u.softness(0.0, 0.5), 1.0);
        assert!((u.softness(0.125, 0.5) - 0.5).abs() < 1e-6);
        assert_eq!(u.softness(0.3, 0.5), 0.0);
        assert_eq!(u.softness(1.0, 0.0), 0.0);
    }

    /// Where a leaf meets a coarser leaf, the view also evaluates the leaf's ancestor at the
    /// coarser level, after the leaves: it lies under leaves only, and drawn, the leaf blends
    /// into it towards the coarser leaf, where sibling leaves of one level stay sharp.
    #[test]
    fn a_leaf_beside_a_coarser_one_gets_an_underlay_of_that_level() {
        let mut camera = OrbitCamera { distance: 1.05, yaw: 0.3, pitch: 0.2, ..Default::default() };
        camera.tilt = 1.0;
        let (leaves, under) = view_quadtree(&camera, 800, 600, 256);
        let levels: std::collections::BTreeSet<usize> = leaves.iter().map(|t| t.n).collect();
        assert!(levels.len() >= 2 && !under.is_empty(), "levels {levels:?}, underlays {under:?}");
        assert_eq!(tiles_for_view(&camera, 800, 600, 256), [leaves.clone(), under.clone()].concat(), "the leaves first");
        for u in &under {
            let inside: Vec<&Tile> = leaves.iter().filter(|l| l.overlaps(u)).collect();
            assert!(inside.iter().all(|l| l.n > u.n), "{u:?} lies under leaves only");
            assert!(leaves.iter().any(|l| l.n == u.n && !l.overlaps(u)), "{u:?} has a leaf of its level");
        }
        let patches = DetailPatch::layered(leaves.iter().chain(&under).map(|&t| DetailPatch::on_tile(t, &[], None, None)).collect());
        assert!(patches.iter().any(|p| p.softens.contains(&true)), "some leaf meets a coarser one");
        assert!(patches.iter().all(|p| !p.softens.contains(&true) || p.underlay == 1.0), "with underlays every leaf that meets a coarser one blends");
    }

    /// A finer patch with an underlay blends into it towards the coarser neighbour: weight 0
    /// at that side, full from a quarter of the way in, and sharp towards its sibling.
    #[test]
    fn a_finer_patch_blends_into_its_underlay() {
        let tile = |n: usize, i: usize, j: usize| Tile::new(Face::Front, n, i, j, TILE_CELLS).expect("a tile");
        // A coarse tile at 2048, its right-hand neighbour at 2048 under its four children.
        let (coarse, under) = (tile(2048, 512, 512), tile(2048, 1024, 512));
        let (upper, lower) = (tile(4096, 2048, 1024), tile(4096, 2048, 1536));
        let right = [tile(4096, 2560, 1024), tile(4096, 2560, 1536)];
        let patches = DetailPatch::layered([upper, coarse, lower, under, right[0], right[1]].iter().map(|&t| DetailPatch::on_tile(t, &[], None, None)).collect());
        let find = |t: Tile| patches.iter().find(|p| p.span == t.area_ab().1 && p.corner == t.area_ab().0).expect("the patch");
        let u = find(upper);
        assert_eq!((u.underlay, u.softens), (1.0, [true, false, false, false]));
        assert_eq!((find(under).underlay, find(coarse).underlay), (0.0, 0.0));
        assert_eq!(u.softness(0.0, 0.5), 0.0, "blended, not blurred");
        let (corner, span) = upper.area_ab();
        let weight = |x: f32| u.place(Face::Front, corner[0] + x * span, corner[1] + 0.5 * span).1;
        assert_eq!(weight(0.0), 0.0);
        assert!((weight(0.125) - 0.5).abs() < 1e-4, "{}", weight(0.125));
        assert_eq!(weight(0.3), 1.0);
        // Towards its sibling (high b) it stays at full weight.
        assert_eq!(u.place(Face::Front, corner[0] + 0.5 * span, corner[1] + span).1, 1.0);
        // An underlay still fading in (half shown): the leaf blends half way into it and
        // blurs the other half, so nothing pops when the underlay lands.
        let mut fading: Vec<DetailPatch> = [upper, coarse, lower, under, right[0], right[1]].iter().map(|&t| DetailPatch { opacity: if t == under { 0.5 } else { 1.0 }, ..DetailPatch::on_tile(t, &[], None, None) }).collect();
        DetailPatch::joined(&mut fading);
        let half = fading.iter().find(|p| p.span == span && p.corner == corner).expect("the patch");
        assert_eq!(half.underlay, 0.5);
        assert_eq!(half.place(Face::Front, corner[0], corner[1] + 0.5 * span).1, 0.5);
        assert_eq!(half.softness(0.0, 0.5), 0.5);
        assert_eq!(half.place(Face::Front, corner[0] + 0.3 * span, corner[1] + 0.5 * span).1, 1.0);
    }

    /// Over a cube edge the picture's other side gets tiles of its own face; straight down
    /// over a face's middle from close by, tiles of the finest level cover the picture.
    #[test]
    fn a_view_over_a_cube_edge_gets_tiles_on_each_side() {
        // Yaw 45 degrees looks at the edge between the front (+Z) and right (+X) faces.
        let edge = OrbitCamera { distance: 1.05, yaw: std::f32::consts::FRAC_PI_4, pitch: 0.0, ..Default::default() };
        let faces: std::collections::BTreeSet<usize> = tiles_for_view(&edge, 800, 600, 256).iter().map(|t| t.face.index()).collect();
        assert!(faces.len() >= 2, "{faces:?}");
        let middle = OrbitCamera { distance: 1.01, yaw: 0.1, pitch: 0.1, ..Default::default() };
        let tiles = tiles_for_view(&middle, 800, 600, 256);
        assert!(tiles.len() <= 4 && tiles.iter().all(|t| t.n == MAX_DETAIL_LEVEL), "{tiles:?}");
    }

    /// A view tilted towards the horizon gets coarser tiles further out, and a finer one where
    /// it looks down nearby.
    #[test]
    fn a_tilted_view_gets_coarser_tiles_further_out() {
        let mut tilted = OrbitCamera { distance: 1.05, yaw: 0.0, pitch: 0.0, ..Default::default() };
        tilted.tilt = 1.2;
        let tiles = tiles_for_view(&tilted, 800, 600, 256);
        let aspect = 800.0 / 600.0;
        let level_at = |y: f32| {
            let (face, a, b) = dir_to_face_ab(tilted.pick(Vec2::new(0.0, y), aspect).expect("the ground"));
            tiles.iter().find(|t| t.contains_ab(face, a, b)).map(|t| t.n)
        };
        // The furthest ground the picture's middle column sees, short of the horizon.
        let top = (0..40).map(|k| -0.95 + 0.05 * k as f32).take_while(|&y| tilted.pick(Vec2::new(0.0, y), aspect).is_some()).last().expect("ground");
        let (near, far) = (level_at(-0.95).expect("a tile near by"), level_at(top - 0.05).expect("a tile further out"));
        assert!(near > far, "near {near}, far {far}: {tiles:?}");
    }
}
