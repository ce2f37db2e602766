//! Close-ups in the viewport: when the camera is near the ground, the leaves of the view's
//! quadtree of tiles ([`tiles_for_view`]) are evaluated in the background, nearest the
//! picture's centre first, at the level the picture needs there (the evaluation thread's region
//! evaluation, the whole-planet nodes from its cache), and drawn over the planet as detail
//! patches. A camera that moves on asks for its own tiles, which cancels a tile in flight that
//! it no longer wants; tiles already evaluated for the planet on screen are kept in a cache
//! within [`CACHE_BYTES`], so a camera that comes back finds them; until a wanted tile lands,
//! the cached tiles that overlap it stand in. No egui types: the viewport and the app drive it.

use planetgraph_core::eval::EvalResult;
use planetgraph_core::graph::NodeId;
use planetgraph_core::inspect::CloseUp;
use planetgraph_core::nodes::output::planet::PlanetSettings;
use planetgraph_core::planet::Field;
use planetgraph_core::planet::Tile;
use planetgraph_renderer::gpu_types::MAX_PATCHES;
use planetgraph_renderer::quadtree::tiles_for_view;
use planetgraph_renderer::{view_mesh, DetailPatch, MeshOptions, OrbitCamera, PlanetMesh, PlanetRenderer, ViewSettings};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::Arc;
use std::time::Instant;

/// Seconds a close-up takes to fade in over what lay there before, from when the first mesh
/// with its relief lands: its colours and normals, and the mesh's relief, which morphs from
/// where the mesh on screen had it.
pub const FADE_IN_S: f32 = 0.3;

/// Close-ups, shared with the mesh jobs and the renderer.
pub type Shown = Vec<Arc<CloseUp>>;

/// Most bytes of close-ups kept for the planet on screen (those on screen included): about
/// 170 tiles of 512 x 512 cells with colours.
pub const CACHE_BYTES: usize = 512 << 20;

/// The viewport's close-up state.
pub struct CloseUps {
    /// Whether close-ups are made (the viewport's "Close-ups" box).
    pub enabled: bool,
    /// The tiles the camera wants now, nearest the picture's centre first.
    wanted: Vec<Tile>,
    /// The tile asked of the evaluation thread and the request's generation.
    pending: Option<(Tile, u64)>,
    /// The close-ups on screen: the wanted tiles that are ready, and cached tiles standing in
    /// for wanted ones still missing.
    current: Vec<Arc<CloseUp>>,
    /// The close-ups evaluated for the planet on screen, the least recently shown first.
    cache: Vec<Arc<CloseUp>>,
    /// Whether the close-ups on screen changed since [`Self::poll`] last said.
    changed: bool,
    /// When each close-up on screen started to fade in (over [`FADE_IN_S`]): once a mesh with
    /// it landed (`None` until then: it does not show yet).
    shown_at: Vec<(Tile, Option<Instant>)>,
    /// The close-ups the mesh on screen was built with.
    meshed: Shown,
    /// The close-ups whose relief the mesh on screen morphs from, and since when.
    morph: Option<(Shown, Instant)>,
    /// Whether a close-up was fading in when the renderer was given them last.
    was_fading: bool,
    /// A close-up being assembled from a tile's result on a thread of its own, and its tile.
    job: Option<(Receiver<Result<CloseUp, String>>, Tile)>,
    /// Milliseconds the last close-up's evaluation took.
    pub last_ms: Option<f64>,
    /// Why the last close-up failed, if it did.
    pub error: Option<String>,
    /// The tiles (and whether with colours) the renderer was given last.
    uploaded: (Vec<Tile>, bool),
    /// Tiles whose close-up failed for the planet on screen: not asked for again until the
    /// planet changes (a failure would otherwise be asked for frame after frame).
    failed: Vec<Tile>,
}

impl Default for CloseUps {
    fn default() -> Self {
        CloseUps {
            enabled: true,
            wanted: Vec::new(),
            pending: None,
            current: Vec::new(),
            cache: Vec::new(),
            changed: false,
            shown_at: Vec::new(),
            meshed: Vec::new(),
            morph: None,
            was_fading: false,
            job: None,
            last_ms: None,
            error: None,
            uploaded: (Vec::new(), false),
            failed: Vec::new(),
        }
    }
}

/// The tiles of `shown`, in order.
fn tiles(shown: &[Arc<CloseUp>]) -> Vec<Tile> {
    shown.iter().map(|c| c.tile).collect()
}

/// How far a fade that started `at` has gone (0..1 over [`FADE_IN_S`]).
fn faded(at: Instant) -> f32 {
    (at.elapsed().as_secs_f32() / FADE_IN_S).clamp(0.0, 1.0)
}

/// Bytes a close-up holds.
fn bytes(c: &CloseUp) -> usize {
    4 * c.elevation_m.len() + c.albedo.as_ref().map_or(0, Vec::len) + c.normals.len()
}

impl CloseUps {
    /// Notes the tiles a picture of `width` x `height` pixels from `camera` wants over a planet
    /// at `n` ([`tiles_for_view`]; none when close-ups are off or the camera is far), puts
    /// those already evaluated on screen, and returns the first still to ask for: neither
    /// evaluated nor asked for already.
    pub fn next_wanted(&mut self, camera: &OrbitCamera, width: u32, height: u32, n: usize) -> Option<Tile> {
        let wanted = if self.enabled { tiles_for_view(camera, width, height, n) } else { Vec::new() };
        if wanted != self.wanted {
            self.wanted = wanted;
            self.refresh();
        }
        let asked: Vec<Tile> = self.pending.map(|(t, _)| t).into_iter().chain(self.job.as_ref().map(|(_, t)| *t)).chain(self.cache.iter().map(|c| c.tile)).chain(self.failed.iter().copied()).collect();
        self.wanted.iter().copied().find(|t| !asked.contains(t))
    }

    /// Chooses the close-ups on screen from the cache: every wanted tile that is ready, then,
    /// most recently shown first, cached tiles overlapping a wanted tile still missing (at
    /// most [`MAX_PATCHES`] in all). Those shown move to the cache's recent end.
    fn refresh(&mut self) {
        let ready = |t: &Tile| self.cache.iter().find(|c| c.tile == *t).cloned();
        let mut now: Vec<Arc<CloseUp>> = self.wanted.iter().filter_map(ready).collect();
        let missing: Vec<Tile> = self.wanted.iter().copied().filter(|t| !now.iter().any(|c| c.tile == *t)).collect();
        for c in self.cache.iter().rev() {
            if now.len() >= MAX_PATCHES {
                break;
            }
            if !now.iter().any(|k| k.tile == c.tile) && missing.iter().any(|m| m.overlaps(&c.tile)) {
                now.push(c.clone());
            }
        }
        self.cache.sort_by_key(|c| now.iter().any(|k| k.tile == c.tile));
        if tiles(&now) != tiles(&self.current) {
            self.changed = true;
        }
        self.shown_at.retain(|(t, _)| now.iter().any(|c| c.tile == *t));
        for c in &now {
            if !self.shown_at.iter().any(|(t, _)| *t == c.tile) {
                self.shown_at.push((c.tile, None));
            }
        }
        self.current = now;
    }

    /// Keeps a close-up that has landed, forgetting the least recently shown ones beyond
    /// [`CACHE_BYTES`] (never those on screen), and puts it on screen if it is wanted.
    fn arrived(&mut self, c: Arc<CloseUp>) {
        self.cache.retain(|k| k.tile != c.tile);
        self.cache.push(c);
        self.refresh();
        let mut total: usize = self.cache.iter().map(|c| bytes(c)).sum();
        let mut k = 0;
        while total > CACHE_BYTES && k < self.cache.len() {
            if self.current.iter().any(|c| c.tile == self.cache[k].tile) {
                k += 1;
            } else {
                total -= bytes(&self.cache.remove(k));
            }
        }
    }

    /// Whether the tile asked for last is still wanted (then a newer tile waits for it).
    pub fn pending_wanted(&self) -> bool {
        self.pending.is_some_and(|(t, _)| self.wanted.contains(&t))
    }

    /// Notes that `tile` was asked for with request `generation`.
    pub fn requested(&mut self, tile: Tile, generation: u64) {
        self.pending = Some((tile, generation));
    }

    /// Whether request `generation` is the close-up asked for last.
    pub fn is_pending(&self, generation: u64) -> bool {
        self.pending.is_some_and(|(_, g)| g == generation)
    }

    /// Takes the answer to the pending request: its close-up is assembled on a thread of its
    /// own (normals and colours of the tile's cells), then [`Self::poll`] takes it in.
    /// `repaint` is called once it is ready.
    pub fn accept(&mut self, result: EvalResult, planet: NodeId, settings: PlanetSettings, exaggeration: f32, repaint: impl Fn() + Send + 'static) {
        let Some((tile, _)) = self.pending.take() else { return };
        if result.cancelled {
            return;
        }
        self.last_ms = Some(result.total_ms);
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            // The viewport may have dropped the receiver (a new planet): the close-up is not wanted.
            let _ = tx.send(CloseUp::from_result(&result, planet, &settings, exaggeration, true));
            repaint();
        });
        self.job = Some((rx, tile));
    }

    /// Takes in a close-up that has just been assembled (first forgetting every close-up, when
    /// they were made for another relief than `exaggeration`), and says whether the close-ups
    /// on screen changed since the last call (the mesh and the patches need making again).
    pub fn poll(&mut self, exaggeration: f32) -> bool {
        if self.stale_for(exaggeration) {
            self.clear();
        }
        if let Some((rx, _)) = self.job.as_ref() {
            match rx.try_recv() {
                Ok(Ok(c)) => {
                    self.job = None;
                    self.error = None;
                    self.arrived(Arc::new(c));
                }
                Ok(Err(e)) => {
                    if let Some((_, tile)) = self.job.take() {
                        self.failed.push(tile);
                    }
                    self.error = Some(e);
                }
                Err(TryRecvError::Disconnected) => self.job = None,
                Err(TryRecvError::Empty) => {}
            }
        }
        std::mem::take(&mut self.changed)
    }

    /// The close-ups on screen.
    pub fn current(&self) -> &[Arc<CloseUp>] {
        &self.current
    }

    /// Forgets every close-up, those cached included (the planet changed, or close-ups were
    /// turned off): the next near view asks again.
    pub fn clear(&mut self) {
        self.pending = None;
        self.shown_at.clear();
        self.meshed.clear();
        self.morph = None;
        self.changed |= !self.current.is_empty();
        self.current.clear();
        self.cache.clear();
        self.wanted.clear();
        self.job = None;
        self.failed.clear();
    }

    /// The detail patches of `close` (their colours only with `colours`, each showing as
    /// much as `opacity` says), ready to draw ([`DetailPatch::layered`]).
    pub fn patches(close: &[Arc<CloseUp>], colours: bool, opacity: impl Fn(Tile) -> f32) -> Vec<DetailPatch<'_>> {
        DetailPatch::layered(close.iter().map(|c| DetailPatch { opacity: opacity(c.tile), ..DetailPatch::on_tile(c.tile, &c.elevation_m, c.albedo.as_deref().filter(|_| colours), Some(&c.normals)) }).collect())
    }

    /// How much of the close-up of `tile` shows: 0 until a mesh with it lands, then up to 1
    /// [`FADE_IN_S`] later (1 for a tile not on screen).
    pub fn opacity(&self, tile: Tile) -> f32 {
        self.shown_at.iter().find(|(t, _)| *t == tile).map_or(1.0, |(_, at)| at.map_or(0.0, faded))
    }

    /// How far the mesh on screen has morphed from the relief it morphs from (1: done; the
    /// renderer's [`PlanetRenderer::set_relief_morph`]).
    pub fn relief_morph(&self) -> f32 {
        self.morph.as_ref().map_or(1.0, |(_, at)| faded(*at))
    }

    /// Whether a close-up on screen, or the mesh's relief, is still fading in (the viewport
    /// draws again until none is).
    pub fn fading(&self) -> bool {
        self.shown_at.iter().any(|(_, at)| at.is_some_and(|at| faded(at) < 1.0)) || self.relief_morph() < 1.0
    }

    /// What the next mesh is built with: the close-ups on screen, and the close-ups whose
    /// relief its vertices morph from (`None`: no morph). That is the mesh on screen's when the
    /// close-ups changed since, or, while the mesh on screen still morphs towards the same
    /// close-ups, the relief it morphs from (a camera move does not cut the morph short).
    pub fn mesh_sets(&self) -> (Shown, Option<Shown>) {
        let same = tiles(&self.current) == tiles(&self.meshed);
        let from = match &self.morph {
            Some((from, _)) if same && self.relief_morph() < 1.0 => Some(from.clone()),
            _ => (!same).then(|| self.meshed.clone()),
        };
        (self.current.clone(), from)
    }

    /// The mesh of `elevation_m` (metres, on a planet of `radius_km`) for `view`, built with
    /// the close-ups and morphing from those of `sets` ([`Self::mesh_sets`]).
    pub fn mesh(elevation_m: &Field, radius_km: f32, opts: &MeshOptions, view: &ViewSettings, sets: &(Shown, Option<Shown>)) -> PlanetMesh {
        let previous = sets.1.as_ref().map(|shown| CloseUps::patches(shown, false, |_| 1.0));
        view_mesh(elevation_m, radius_km, opts, view, &CloseUps::patches(&sets.0, false, |_| 1.0), previous.as_deref())
    }

    /// Notes that a mesh built with `built`, morphing from `from` ([`Self::mesh_sets`]), is
    /// on screen: its new close-ups start to fade in, and its relief starts to morph (or goes
    /// on morphing, when it morphs as the mesh before it did).
    pub fn meshed(&mut self, built: Shown, from: Option<Shown>) {
        let now = Instant::now();
        for (t, at) in &mut self.shown_at {
            if at.is_none() && built.iter().any(|c| c.tile == *t) {
                *at = Some(now);
            }
        }
        let going_on = |(f, _): &(Shown, Instant)| from.as_ref().is_some_and(|from| tiles(from) == tiles(f)) && tiles(&built) == tiles(&self.meshed);
        self.morph = match self.morph.take() {
            Some(m) if going_on(&m) => Some(m),
            _ => from.map(|f| (f, now)),
        };
        self.meshed = built;
    }

    /// Gives `renderer` the close-ups on screen (or takes their patches away) when they changed
    /// since the last call, or when `colours` (whether the patches carry their albedo) did, and
    /// their opacities while one fades in. Returns whether it did (the picture needs drawing
    /// again).
    pub fn sync(&mut self, renderer: &mut PlanetRenderer, device: &wgpu::Device, queue: &wgpu::Queue, colours: bool) -> bool {
        let now = (self.current.iter().map(|c| c.tile).collect::<Vec<_>>(), colours);
        let fading = self.fading();
        let patches = || CloseUps::patches(&self.current, colours, |t| self.opacity(t));
        if now != self.uploaded {
            renderer.set_patches(device, queue, &patches());
        } else if fading || self.was_fading {
            renderer.set_patch_uniforms(&patches());
        } else {
            return false;
        }
        renderer.set_relief_morph(self.relief_morph());
        self.uploaded = now;
        self.was_fading = fading;
        true
    }

    /// For the status line while the view's close-ups are still coming: how many of its tiles
    /// are ready, and at which levels (cells per face edge); `None` when all are there or
    /// the view wants none.
    pub fn loading(&self) -> Option<String> {
        let missing: Vec<&Tile> = self.wanted.iter().filter(|t| !self.cache.iter().any(|c| c.tile == **t)).collect();
        if missing.is_empty() {
            return None;
        }
        let levels: std::collections::BTreeSet<usize> = missing.iter().map(|t| t.n).collect();
        let levels: Vec<String> = levels.iter().map(|l| l.to_string()).collect();
        Some(format!("close-up: {} of {} tiles ready, loading at {} cells per face edge", self.wanted.len() - missing.len(), self.wanted.len(), levels.join(", ")))
    }

    /// The Close-ups box's tooltip: what it does, and how the close-ups on screen stand.
    pub fn describe(&self) -> String {
        let mut text = format!(
            "Within {} planet radii, evaluate the planet again in the background on a quadtree of tiles under the picture, nearest the centre first, each at the level where a cell is about a pixel there (up to {} cells per face edge, about 0.6 km on Earth), and draw them over the planet: real detail from the cellwise nodes such as Detail. Where a finer tile meets a coarser one, the finer tile's parent at the coarser level comes last, under it, and the finer tile blends into it towards the border, so the two levels meet without a line. Tiles stay cached (up to {} MiB) until the planet changes",
            planetgraph_renderer::quadtree::AUTO_DISTANCE,
            planetgraph_renderer::quadtree::MAX_DETAIL_LEVEL,
            CACHE_BYTES >> 20
        );
        if !self.wanted.is_empty() {
            let ready = self.wanted.iter().filter(|t| self.cache.iter().any(|c| c.tile == **t)).count();
            let levels: std::collections::BTreeSet<usize> = self.wanted.iter().map(|t| t.n).collect();
            let levels: Vec<String> = levels.iter().map(|l| l.to_string()).collect();
            text.push_str(&format!(". This view: {ready} of {} tiles ready, at levels {}", self.wanted.len(), levels.join(", ")));
        }
        let cached: usize = self.cache.iter().map(|c| bytes(c)).sum();
        text.push_str(&format!("; {} tiles cached ({} MiB)", self.cache.len(), cached >> 20));
        if let Some(ms) = self.last_ms {
            text.push_str(&format!("; the last tile took {:.1} s", ms / 1000.0));
        }
        if let Some(e) = &self.error {
            text.push_str(&format!(". The last close-up failed: {e}"));
        }
        text
    }

    /// Whether a close-up made for `exaggeration` no longer fits the viewport's relief.
    fn stale_for(&self, exaggeration: f32) -> bool {
        self.cache.iter().chain(&self.current).any(|c| c.exaggeration != exaggeration)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tile whose close-up fails (here: its result holds no planet) is not asked for again
    /// for the same planet, and is again once the planet changes.
    #[test]
    fn a_failed_tile_is_not_asked_for_again_until_the_planet_changes() {
        let mut c = CloseUps::default();
        let camera = OrbitCamera { distance: 1.02, ..Default::default() };
        let tile = c.next_wanted(&camera, 800, 600, 256).expect("a tile");
        c.requested(tile, 1);
        c.accept(EvalResult::default(), NodeId(1), planetgraph_core::nodes::output::planet::EARTH, 20.0, || {});
        let start = std::time::Instant::now();
        while c.error.is_none() {
            assert!(!c.poll(20.0));
            assert!(start.elapsed().as_secs() < 30, "the failure did not arrive");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_ne!(c.next_wanted(&camera, 800, 600, 256), Some(tile), "not asked for again");
        c.clear();
        assert_eq!(c.next_wanted(&camera, 800, 600, 256), Some(tile), "a new planet asks again");
    }

    fn close_up(tile: Tile) -> Arc<CloseUp> {
        let cells = tile.size * tile.size;
        Arc::new(CloseUp { tile, elevation_m: vec![0.0; cells], albedo: None, normals: vec![0; 4 * cells], exaggeration: 20.0 })
    }

    /// Tiles evaluated once are kept: a camera that moves away and comes back shows them again
    /// without asking; while a wanted tile is missing, an overlapping cached one stands in.
    #[test]
    fn a_camera_that_comes_back_finds_its_tiles_cached() {
        let mut c = CloseUps::default();
        let here = OrbitCamera { distance: 1.02, yaw: 0.2, pitch: 0.1, ..Default::default() };
        let mut asked = Vec::new();
        while let Some(t) = c.next_wanted(&here, 800, 600, 256) {
            asked.push(t);
            c.arrived(close_up(t));
        }
        assert!(!asked.is_empty() && c.poll(20.0), "the tiles went on screen");
        // They wait for a mesh with their relief, which morphs from the bare planet's.
        assert!(c.opacity(asked[0]) == 0.0 && !c.fading());
        let (built, from) = c.mesh_sets();
        assert_eq!(tiles(&built), tiles(c.current()));
        assert!(from.as_ref().is_some_and(|f| f.is_empty()), "from the planet without close-ups");
        c.meshed(built, from);
        // Then they fade in, and the relief morphs.
        assert!(c.fading() && c.opacity(asked[0]) < 1.0 && c.relief_morph() < 1.0);
        // A camera move's mesh meanwhile goes on morphing from the same relief.
        let (built, from) = c.mesh_sets();
        assert!(from.as_ref().is_some_and(|f| f.is_empty()));
        c.meshed(built, from);
        std::thread::sleep(std::time::Duration::from_secs_f32(FADE_IN_S + 0.05));
        assert!(!c.fading() && c.opacity(asked[0]) == 1.0 && c.relief_morph() == 1.0);
        assert!(c.mesh_sets().1.is_none(), "nothing left to morph");
        assert_eq!(c.current().len(), asked.len());
        // Further out the view wants coarser tiles: until they land, the finer cached ones
        // under the picture stand in.
        let above = OrbitCamera { distance: 1.2, ..here };
        let wanted = c.next_wanted(&above, 800, 600, 256).expect("coarser tiles to ask for");
        assert!(wanted.n < asked[0].n);
        assert!(c.current().iter().all(|k| asked.contains(&k.tile)) && !c.current().is_empty(), "stand-ins");
        // Back where it was: nothing to ask, the same tiles on screen.
        assert_eq!(c.next_wanted(&here, 800, 600, 256), None);
        let mut shown: Vec<Tile> = c.current().iter().map(|k| k.tile).collect();
        shown.sort_by_key(|t| (t.face.index(), t.n, t.i0, t.j0));
        asked.sort_by_key(|t| (t.face.index(), t.n, t.i0, t.j0));
        assert_eq!(shown, asked);
    }
}
