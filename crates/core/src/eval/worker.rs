//! A background thread that evaluates graphs for the editor: a newer request cancels the one
//! still running, results come back over a channel, the UI never waits.

use super::disk_cache::DiskCache;
use super::executor::{EvalResult, Evaluator, Progress};
use super::request::Request;
use crate::graph::Graph;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A request: evaluate `graph` at each resolution in turn (coarse first).
struct Job {
    graph: Graph,
    resolutions: Vec<usize>,
    /// Nodes to run besides what the display and output nodes need (the viewer's node).
    extra: Vec<crate::graph::NodeId>,
    /// A close-up instead: what the Planet node (this id) needs on the tile, with the
    /// whole-planet nodes at the given level (from the cache of the last evaluation).
    tile: Option<(crate::planet::Tile, usize, crate::graph::NodeId)>,
    generation: u64,
    cancel: Arc<AtomicBool>,
}

/// One finished evaluation.
#[derive(Debug)]
pub struct WorkerResult {
    /// Which request it answers (increasing).
    pub generation: u64,
    /// The tile a close-up request asked for (its result's values lie on it); `None` for a
    /// whole-planet evaluation.
    pub tile: Option<crate::planet::Tile>,
    /// The result.
    pub result: EvalResult,
}

/// The evaluation thread and its channels.
pub struct EvalWorker {
    jobs: Option<Sender<Job>>,
    results: Receiver<WorkerResult>,
    current_cancel: Arc<AtomicBool>,
    generation: u64,
    /// Progress of the evaluation in flight.
    pub progress: Arc<Progress>,
    /// The generation of the last request the thread finished (answered in full or
    /// cancelled), raised after its last result is sent.
    done: Arc<AtomicU64>,
    /// `done` as [`Self::poll`] last read it, before taking the results: every result of that
    /// request and the earlier ones had been taken then. The worker is busy while it is below
    /// [`Self::generation`], from the moment a request is sent until its last result is taken,
    /// so no caller sees it idle between a request and its start, or with results unread.
    polled_done: u64,
    handle: Option<JoinHandle<()>>,
    notify: Arc<dyn Fn() + Send + Sync>,
    /// Times the thread had ended and was started again.
    pub restarts: usize,
    /// The node cache on disk the thread's evaluator uses (read before each request).
    disk: Arc<Mutex<Option<Arc<DiskCache>>>>,
}

impl EvalWorker {
    /// Starts the thread; `notify` is called after each result (for example to repaint).
    /// Fails only if the operating system cannot start a thread.
    pub fn start(notify: Arc<dyn Fn() + Send + Sync>) -> std::io::Result<EvalWorker> {
        let progress = Arc::new(Progress::default());
        let done = Arc::new(AtomicU64::new(0));
        let disk = Arc::new(Mutex::new(None));
        let (job_tx, res_rx, handle) = spawn(progress.clone(), done.clone(), notify.clone(), disk.clone())?;
        Ok(EvalWorker { jobs: Some(job_tx), results: res_rx, current_cancel: Arc::new(AtomicBool::new(false)), generation: 0, progress, done, polled_done: 0, handle: Some(handle), notify, restarts: 0, disk })
    }

    /// Uses `disk` as the node cache on disk from the next request on (`None`: none).
    pub fn set_disk_cache(&mut self, disk: Option<Arc<DiskCache>>) {
        if let Ok(mut d) = self.disk.lock() {
            *d = disk;
        }
    }

    /// The node cache on disk, if any.
    pub fn disk_cache(&self) -> Option<Arc<DiskCache>> {
        self.disk.lock().ok().and_then(|d| d.clone())
    }

    /// Requests an evaluation, cancelling the one in flight; `extra` nodes run even when no
    /// display or output node needs them. Returns its generation. Should the thread have
    /// ended (its channel is closed), a new one is started and takes the request.
    pub fn request(&mut self, graph: Graph, resolutions: Vec<usize>, extra: Vec<crate::graph::NodeId>) -> u64 {
        self.send(Job { graph, resolutions, extra, tile: None, generation: 0, cancel: Arc::new(AtomicBool::new(false)) })
    }

    /// Requests a close-up: what `planet` (the graph's Planet node) needs on `tile`, the
    /// whole-planet nodes at level `cap` (cached when the last evaluation ran at `cap`). It
    /// cancels the evaluation in flight like any request, so ask when [`Self::is_busy`] is
    /// false. Returns its generation.
    pub fn request_tile(&mut self, graph: Graph, tile: crate::planet::Tile, cap: usize, planet: crate::graph::NodeId) -> u64 {
        self.send(Job { graph, resolutions: Vec::new(), extra: Vec::new(), tile: Some((tile, cap, planet)), generation: 0, cancel: Arc::new(AtomicBool::new(false)) })
    }

    fn send(&mut self, mut job: Job) -> u64 {
        self.current_cancel.store(true, Ordering::Relaxed);
        self.current_cancel = job.cancel.clone();
        self.generation += 1;
        job.generation = self.generation;
        let Some(tx) = &self.jobs else { return self.generation };
        if let Err(std::sync::mpsc::SendError(job)) = tx.send(job) {
            match spawn(self.progress.clone(), self.done.clone(), self.notify.clone(), self.disk.clone()) {
                Ok((tx, rx, handle)) => {
                    self.restarts += 1;
                    // The new thread is alive: this send cannot fail.
                    let resent = tx.send(job).is_ok();
                    debug_assert!(resent);
                    (self.jobs, self.results, self.handle) = (Some(tx), rx, Some(handle));
                }
                Err(e) => log::error!("cannot restart the evaluation thread: {e}"),
            }
        }
        self.generation
    }
}

/// Starts the evaluation thread: its job sender, its result receiver and its handle.
#[allow(clippy::type_complexity)]
fn spawn(progress: Arc<Progress>, done: Arc<AtomicU64>, notify: Arc<dyn Fn() + Send + Sync>, disk: Arc<Mutex<Option<Arc<DiskCache>>>>) -> std::io::Result<(Sender<Job>, Receiver<WorkerResult>, JoinHandle<()>)> {
    {
        let (job_tx, job_rx) = channel::<Job>();
        let (res_tx, res_rx) = channel::<WorkerResult>();
        let (p, b) = (progress, done);
        let handle = std::thread::Builder::new().name("planetgraph-eval".into()).spawn(move || {
            let mut evaluator = Evaluator::new();
            while let Ok(mut job) = job_rx.recv() {
                // Only the newest request matters.
                while let Ok(newer) = job_rx.try_recv() {
                    job = newer;
                }
                if let Ok(d) = disk.lock() {
                    evaluator.set_disk_cache(d.clone());
                }
                if let Some((tile, cap, planet)) = job.tile {
                    let program = super::program::compile_for(&job.graph, &[planet]);
                    let result = evaluator.run(&program, &Request::region(crate::planet::Grid::Tile(tile), cap), &job.cancel, &p);
                    if res_tx.send(WorkerResult { generation: job.generation, tile: Some(tile), result }).is_err() {
                        return;
                    }
                    b.fetch_max(job.generation, Ordering::AcqRel);
                    notify();
                    continue;
                }
                let program = super::program::compile_with(&job.graph, &job.extra);
                for &n in &job.resolutions {
                    // A job cancelled before a resolution starts still answers, so the
                    // editor learns of the cancel whenever it came.
                    let result = if job.cancel.load(Ordering::Relaxed) { EvalResult { n, cancelled: true, ..EvalResult::default() } } else { evaluator.run(&program, &Request::whole(n), &job.cancel, &p) };
                    let cancelled = result.cancelled;
                    if res_tx.send(WorkerResult { generation: job.generation, tile: None, result }).is_err() {
                        return;
                    }
                    notify();
                    if cancelled {
                        break;
                    }
                }
                b.fetch_max(job.generation, Ordering::AcqRel);
                notify();
            }
        })?;
        Ok((job_tx, res_rx, handle))
    }
}

impl EvalWorker {
    /// Cancels the evaluation in flight.
    pub fn cancel(&self) {
        self.current_cancel.store(true, Ordering::Relaxed);
    }

    /// Results that arrived since the last call.
    pub fn poll(&mut self) -> Vec<WorkerResult> {
        self.polled_done = self.done.load(Ordering::Acquire);
        self.results.try_iter().collect()
    }

    /// Whether an evaluation is running.
    pub fn is_busy(&self) -> bool {
        self.polled_done < self.generation
    }

    /// The generation of the newest request.
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

impl Drop for EvalWorker {
    fn drop(&mut self) {
        self.current_cancel.store(true, Ordering::Relaxed);
        self.jobs = None;
        if let Some(h) = self.handle.take() {
            // Shutting down: a thread that panicked has nothing more to say.
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Waits up to 30 s for the newest generation's results to end (a cancelled or final one).
    fn answers(w: &mut EvalWorker, generation: u64) -> Vec<EvalResult> {
        let start = Instant::now();
        let mut got = Vec::new();
        while start.elapsed() < Duration::from_secs(30) {
            got.extend(w.poll().into_iter().filter(|r| r.generation == generation).map(|r| r.result));
            if got.iter().any(|r| r.cancelled) || (!got.is_empty() && !w.is_busy()) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        got
    }

    /// Noise through an erosion into the Planet (tens of milliseconds at 256, more at 512), and
    /// the Planet node.
    fn eroded_noise() -> (Graph, crate::graph::NodeId) {
        let mut graph = Graph::default();
        let noise = graph.add_node(crate::nodes::NodeKind::Noise, (0.0, 0.0));
        let erosion = graph.add_node(crate::nodes::NodeKind::ThermalErosion, (200.0, 0.0));
        let planet = graph.add_node(crate::nodes::NodeKind::Planet, (400.0, 0.0));
        graph.link(noise, crate::nodes::FIELD_OUT, erosion, crate::nodes::FIELD_IN).expect("link");
        graph.link(erosion, crate::nodes::FIELD_OUT, planet, crate::nodes::output::planet::ELEVATION).expect("link");
        (graph, planet)
    }

    #[test]
    fn a_cancel_right_after_a_request_is_always_answered() {
        let (graph, _) = eroded_noise();
        let mut w = EvalWorker::start(Arc::new(|| {})).expect("thread");
        // Many times, so both orders (cancel before the thread picks the job up, and during
        // the run) happen.
        for _ in 0..20 {
            let g = w.request(graph.clone(), vec![256, 512], Vec::new());
            w.cancel();
            let got = answers(&mut w, g);
            assert!(got.last().is_some_and(|r| r.cancelled), "no cancelled answer: {:?}", got.iter().map(|r| (r.n, r.cancelled)).collect::<Vec<_>>());
        }
    }

    /// The worker is busy from the moment of a request (before its thread takes it up) until
    /// the request's last result has been taken: idle means every answer is in hand.
    #[test]
    fn busy_lasts_from_the_request_until_the_last_result_is_taken() {
        let (graph, _) = eroded_noise();
        let mut w = EvalWorker::start(Arc::new(|| {})).expect("thread");
        for _ in 0..10 {
            let g = w.request(graph.clone(), vec![32, 64], Vec::new());
            assert!(w.is_busy(), "idle right after a request");
            let start = Instant::now();
            let mut got = Vec::new();
            while w.is_busy() {
                got.extend(w.poll().into_iter().filter(|r| r.generation == g).map(|r| r.result.n));
                assert!(start.elapsed() < Duration::from_secs(30), "never idle");
                std::thread::sleep(Duration::from_millis(1));
            }
            assert_eq!(got, vec![32, 64], "idle before every result was taken");
        }
    }

    /// A close-up request after an evaluation answers with the Planet node's values on the
    /// tile: at the evaluation's own level, exactly its cells.
    #[test]
    fn a_tile_request_answers_on_the_tile() {
        let (graph, planet) = eroded_noise();
        let mut w = EvalWorker::start(Arc::new(|| {})).expect("thread");
        let g = w.request(graph.clone(), vec![32], Vec::new());
        let whole = answers(&mut w, g).pop().expect("answered");
        let tile = crate::planet::Tile::new(crate::planet::Face::Bottom, 32, 8, 16, 16).expect("tile");
        let g = w.request_tile(graph, tile, 32, planet);
        let start = Instant::now();
        let answer = loop {
            if let Some(r) = w.poll().into_iter().find(|r| r.generation == g) {
                break r;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "no answer");
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(answer.tile, Some(tile));
        let (on_tile, all) = (answer.result.field(planet).expect("the planet on the tile"), whole.field(planet).expect("the planet"));
        assert_eq!(on_tile.grid(), crate::planet::Grid::Tile(tile));
        assert!((0..tile.cells()).all(|k| on_tile.data()[k] == all.data()[tile.cell(k).index(32)]));
        assert!(answer.result.cached > 0, "the erosion came from the cache");
    }

    /// Should the thread end (here: its results have nowhere to go), the next request starts
    /// a new one and is answered.
    #[test]
    fn a_thread_that_ended_is_started_again_by_the_next_request() {
        let mut graph = Graph::default();
        let noise = graph.add_node(crate::nodes::NodeKind::Noise, (0.0, 0.0));
        let planet = graph.add_node(crate::nodes::NodeKind::Planet, (200.0, 0.0));
        graph.link(noise, crate::nodes::FIELD_OUT, planet, crate::nodes::output::planet::ELEVATION).expect("link");
        let mut w = EvalWorker::start(Arc::new(|| {})).expect("thread");
        let (_tx, nowhere) = channel();
        w.results = nowhere;
        w.request(graph.clone(), vec![8], Vec::new());
        let start = Instant::now();
        while !w.handle.as_ref().is_some_and(|h| h.is_finished()) {
            assert!(start.elapsed() < Duration::from_secs(30), "the thread did not end");
            std::thread::sleep(Duration::from_millis(5));
        }
        let g = w.request(graph, vec![8], Vec::new());
        assert_eq!(w.restarts, 1);
        let got = answers(&mut w, g);
        assert!(got.iter().any(|r| !r.cancelled && r.errors.is_empty()), "answered by the new thread");
    }
}
