//! The editor's evaluation pipeline: the evaluation thread, the resolutions of an edit's
//! stages (coarse, previews, viewport), which of them have landed, and the newest result. No
//! UI types: the app hands results to the canvas and the viewport.

use planetgraph_core::eval::{EvalResult, EvalWorker, Progress, WorkerResult};
use planetgraph_core::graph::{Graph, NodeId};
use std::sync::Arc;

/// Cells per face edge of the first, coarse stage after an edit: the same graph, so it looks
/// like a smaller version of the planet, in a fraction of the preview's time.
pub const COARSE_N: usize = 32;

/// Evaluation resolutions (cells per face edge).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resolutions {
    /// Previews and the first, quick viewport update.
    pub preview: usize,
    /// The viewport's refined planet.
    pub viewport: usize,
}

impl Resolutions {
    /// The stages of an evaluation, coarsest first: [`COARSE_N`], the previews, the viewport
    /// (each once). Each replaces the last on screen, and a newer request cancels the stages
    /// still to come.
    pub fn stages(&self) -> Vec<usize> {
        let mut list: Vec<usize> = [COARSE_N, self.preview, self.viewport].into_iter().filter(|&n| n <= self.preview.max(self.viewport)).collect();
        list.sort_unstable();
        list.dedup();
        list
    }

    /// The stage after the one at `n`, if `n` is not the last.
    pub fn after(&self, n: usize) -> Option<usize> {
        self.stages().into_iter().find(|&m| m > n)
    }
}

/// The evaluation pipeline the editor owns: one request at a time (a newer one cancels the
/// stages still to come), its stages as they land, and close-up tiles between requests.
pub struct Pipeline {
    worker: EvalWorker,
    /// Evaluation resolutions (View menu).
    pub res: Resolutions,
    last_result: Option<EvalResult>,
    /// Cells per face edge of the evaluation the viewport and previews show.
    shown_n: Option<usize>,
    /// Cells per face edge of each stage shown since the last request, in order.
    stages_shown: Vec<usize>,
}

impl Pipeline {
    /// Starts the evaluation thread; `notify` is called after each result (to repaint). Fails
    /// only if the operating system cannot start a thread.
    pub fn start(notify: Arc<dyn Fn() + Send + Sync>) -> std::io::Result<Pipeline> {
        Ok(Pipeline { worker: EvalWorker::start(notify)?, res: Resolutions { preview: 128, viewport: 256 }, last_result: None, shown_n: None, stages_shown: Vec::new() })
    }

    /// Asks for every stage of `graph` (cancels the evaluation running), with the values of
    /// `extra` nodes kept for the viewer.
    pub fn request(&mut self, graph: Graph, extra: Vec<NodeId>) {
        self.worker.request(graph, self.res.stages(), extra);
        self.stages_shown.clear();
    }

    /// Asks for one close-up tile of `graph`'s `planet` over whole-planet nodes at `cap` cells
    /// per face edge; returns the request's generation.
    pub fn request_tile(&mut self, graph: Graph, tile: planetgraph_core::planet::Tile, cap: usize, planet: NodeId) -> u64 {
        self.worker.request_tile(graph, tile, cap, planet)
    }

    /// The results that arrived for the newest request (older ones are dropped).
    pub fn poll(&mut self) -> Vec<WorkerResult> {
        let newest = self.worker.generation();
        self.worker.poll().into_iter().filter(|r| r.generation == newest).collect()
    }

    /// Records that the stage at `n` cells per face edge reached the screen; returns the stage
    /// still to come after it, if any.
    pub fn stage_landed(&mut self, n: usize) -> Option<usize> {
        self.stages_shown.push(n);
        self.shown_n = Some(n);
        self.res.after(n)
    }

    /// Keeps `res` as the newest result (the viewer and the exports read it).
    pub fn keep(&mut self, res: EvalResult) {
        self.last_result = Some(res);
    }

    /// Forgets what is on screen (a new document).
    pub fn forget_shown(&mut self) {
        self.shown_n = None;
    }

    /// The newest result, if any.
    pub fn last_result(&self) -> Option<&EvalResult> {
        self.last_result.as_ref()
    }

    /// Cells per face edge of the evaluation on screen.
    pub fn shown_n(&self) -> Option<usize> {
        self.shown_n
    }

    /// Cells per face edge of each stage of the last request that has reached the screen so
    /// far, coarsest first.
    pub fn stages_shown(&self) -> &[usize] {
        &self.stages_shown
    }

    /// Cancels the running evaluation.
    pub fn cancel(&self) {
        self.worker.cancel();
    }

    /// Whether a request is still running or its results are unread.
    pub fn is_busy(&self) -> bool {
        self.worker.is_busy()
    }

    /// The newest request's generation.
    pub fn generation(&self) -> u64 {
        self.worker.generation()
    }

    /// Progress of the evaluation in flight.
    pub fn progress(&self) -> &Progress {
        &self.worker.progress
    }

    /// Sets the node cache on disk the evaluations use.
    pub fn set_disk_cache(&mut self, disk: Option<Arc<planetgraph_core::eval::DiskCache>>) {
        self.worker.set_disk_cache(disk);
    }

    /// The node cache on disk, if there is one.
    pub fn disk_cache(&self) -> Option<Arc<planetgraph_core::eval::DiskCache>> {
        self.worker.disk_cache()
    }
}
