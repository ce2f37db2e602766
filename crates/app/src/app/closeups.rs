//! Close-ups in the viewport: when the camera is near the ground, the tile under the picture's
//! centre is evaluated in the background at the level the picture needs (the evaluation
//! thread's region evaluation, the whole-planet nodes from its cache), and drawn over the planet
//! as a detail patch. A camera that moves on asks for the next tile, which cancels the one in
//! flight; the last close-up stays on screen until the next one lands. No egui types: the
//! viewport and the app drive it.

use crate::eval::EvalResult;
use crate::graph::NodeId;
use crate::inspect::CloseUp;
use crate::nodes::output::planet::PlanetSettings;
use crate::planet::Tile;
use crate::render::closeup::{by_level, tiles_for_view};
use crate::render::gpu_types::MAX_PATCHES;
use crate::render::{DetailPatch, OrbitCamera, PlanetRenderer};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::Arc;

/// The viewport's close-up state.
pub struct CloseUps {
    /// Whether close-ups are made (the viewport's "Close-ups" box).
    pub enabled: bool,
    /// The tiles the camera wants now, nearest the picture's centre first.
    wanted: Vec<Tile>,
    /// The tile asked of the evaluation thread and the request's generation.
    pending: Option<(Tile, u64)>,
    /// The close-ups on screen.
    current: Vec<Arc<CloseUp>>,
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
        CloseUps { enabled: true, wanted: Vec::new(), pending: None, current: Vec::new(), job: None, last_ms: None, error: None, uploaded: (Vec::new(), false), failed: Vec::new() }
    }
}

impl CloseUps {
    /// Notes the tiles a picture of `width` x `height` pixels from `camera` wants over a planet
    /// at `n` ([`tiles_for_view`]; none when close-ups are off or the camera is far), and
    /// returns the first of them still to ask for: neither on screen nor asked for already.
    pub fn next_wanted(&mut self, camera: &OrbitCamera, width: u32, height: u32, n: usize) -> Option<Tile> {
        self.wanted = if self.enabled { tiles_for_view(camera, width, height, n) } else { Vec::new() };
        let asked: Vec<Tile> = self.pending.map(|(t, _)| t).into_iter().chain(self.job.as_ref().map(|(_, t)| *t)).chain(self.current.iter().map(|c| c.tile)).chain(self.failed.iter().copied()).collect();
        self.wanted.iter().copied().find(|t| !asked.contains(t))
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
    /// own (normals and colours of a million cells), then [`Self::poll`] hands it over.
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

    /// A close-up that has just been assembled (to hand to the renderer), if any. It joins
    /// those on screen that the camera still wants (at most [`MAX_PATCHES`]).
    pub fn poll(&mut self) -> Option<Arc<CloseUp>> {
        let (rx, _) = self.job.as_ref()?;
        match rx.try_recv() {
            Ok(Ok(c)) => {
                self.job = None;
                self.error = None;
                let c = Arc::new(c);
                let wanted = &self.wanted;
                self.current.retain(|k| wanted.contains(&k.tile) && k.tile != c.tile);
                self.current.insert(0, c.clone());
                self.current.truncate(MAX_PATCHES);
                Some(c)
            }
            Ok(Err(e)) => {
                if let Some((_, tile)) = self.job.take() {
                    self.failed.push(tile);
                }
                self.error = Some(e);
                None
            }
            Err(TryRecvError::Disconnected) => {
                self.job = None;
                None
            }
            Err(TryRecvError::Empty) => None,
        }
    }

    /// The close-ups on screen, the newest first.
    pub fn current(&self) -> &[Arc<CloseUp>] {
        &self.current
    }

    /// Forgets every close-up (the planet changed, or close-ups were turned off): the next
    /// near view asks again.
    pub fn clear(&mut self) {
        self.pending = None;
        self.current.clear();
        self.job = None;
        self.failed.clear();
    }

    /// The detail patches of `close` (their colours only with `colours`), coarse first so the
    /// finer lie on top.
    pub fn patches(close: &[Arc<CloseUp>], colours: bool) -> Vec<DetailPatch<'_>> {
        let mut sorted: Vec<&Arc<CloseUp>> = close.iter().collect();
        by_level(&mut sorted, |c| c.tile.n);
        sorted.into_iter().map(|c| DetailPatch::on_tile(c.tile, &c.elevation_m, c.albedo.as_deref().filter(|_| colours), Some(&c.normals))).collect()
    }

    /// Gives `renderer` the close-ups on screen (or takes their patches away) when they changed
    /// since the last call, or when `colours` (whether the patches carry their albedo) did.
    /// Returns whether it did (the picture needs drawing again).
    pub fn sync(&mut self, renderer: &mut PlanetRenderer, device: &wgpu::Device, queue: &wgpu::Queue, colours: bool) -> bool {
        let now = (self.current.iter().map(|c| c.tile).collect::<Vec<_>>(), colours);
        if now == self.uploaded {
            return false;
        }
        renderer.set_patches(device, queue, &CloseUps::patches(&self.current, colours));
        self.uploaded = now;
        true
    }

    /// The Close-ups box's tooltip: what it does, and how the last close-up went.
    pub fn describe(&self) -> String {
        let mut text = format!(
            "Within {} planet radii, evaluate the tiles under the picture again in the background, nearest the centre first, at the level where a cell is about a pixel (up to {} cells per face edge, about 0.6 km on Earth), and draw them over the planet: real detail from the cellwise nodes such as Detail",
            crate::render::closeup::AUTO_DISTANCE,
            crate::render::closeup::MAX_DETAIL_LEVEL
        );
        if let Some(c) = self.current.first() {
            text.push_str(&format!(". Shown: {} tile{} of {} x {} cells at level {}", self.current.len(), if self.current.len() == 1 { "" } else { "s" }, c.tile.size, c.tile.size, c.tile.n));
        }
        if let Some(ms) = self.last_ms {
            text.push_str(&format!(", evaluated in {:.1} s", ms / 1000.0));
        }
        if let Some(e) = &self.error {
            text.push_str(&format!(". The last close-up failed: {e}"));
        }
        text
    }

    /// Whether a close-up made for `exaggeration` no longer fits the viewport's relief.
    pub fn stale_for(&self, exaggeration: f32) -> bool {
        self.current.iter().any(|c| c.exaggeration != exaggeration)
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
        c.accept(EvalResult::default(), NodeId(1), crate::nodes::output::planet::EARTH, 20.0, || {});
        let start = std::time::Instant::now();
        while c.error.is_none() {
            assert!(c.poll().is_none());
            assert!(start.elapsed().as_secs() < 30, "the failure did not arrive");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_ne!(c.next_wanted(&camera, 800, 600, 256), Some(tile), "not asked for again");
        c.clear();
        assert_eq!(c.next_wanted(&camera, 800, 600, 256), Some(tile), "a new planet asks again");
    }
}
