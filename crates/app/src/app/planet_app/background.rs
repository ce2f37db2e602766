//! Start-up reads that can take long (the library of saved groups, the recovery copies a crash
//! left): each runs on a thread of its own and its result is applied by the first frame that
//! finds it ready, so the window opens at once whatever lies in those folders. A newer request
//! of the same kind makes an older one's result stale; stale results are dropped.

use super::PlanetApp;
use crate::app::library::{Library, LibraryError};
use crate::app::recovery::{Recovered, Recovery};
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a background read produced.
pub(super) enum Loaded {
    /// The library folder's groups and the files that could not be used.
    Library(Library, Vec<LibraryError>),
    /// The recovery copies of editors that no longer run (unreadable ones as messages).
    Recovery(Vec<Result<Recovered, String>>),
}

/// The background reads of one editor.
pub(super) struct Loads {
    tx: Sender<(u64, Loaded)>,
    rx: Receiver<(u64, Loaded)>,
    /// Requests sent and not yet applied or dropped, by ticket.
    pending: Vec<u64>,
    /// The newest ticket of the library's reads and of the recovery's.
    newest_library: u64,
    newest_recovery: u64,
    next: u64,
    /// Called when a result is ready (a repaint of the window).
    notify: Arc<dyn Fn() + Send + Sync>,
}

impl Loads {
    /// No reads yet; `notify` is called from the reading thread when a result is ready.
    pub(super) fn new(notify: Arc<dyn Fn() + Send + Sync>) -> Loads {
        let (tx, rx) = channel();
        Loads { tx, rx, pending: Vec::new(), newest_library: 0, newest_recovery: 0, next: 1, notify }
    }

    /// Runs `read` on a thread of its own (on this one should the system refuse a thread:
    /// late rather than never); returns its ticket.
    fn start(&mut self, name: &str, read: impl Fn() -> Loaded + Clone + Send + 'static) -> u64 {
        let ticket = self.next;
        self.next += 1;
        self.pending.push(ticket);
        let (tx, notify, here) = (self.tx.clone(), self.notify.clone(), read.clone());
        let spawned = std::thread::Builder::new().name(format!("planetgraph-{name}")).spawn(move || {
            // The editor may have closed meanwhile: then nobody wants the result.
            if tx.send((ticket, read())).is_ok() {
                notify();
            }
        });
        if spawned.is_err() {
            // The receiver lives in `self`: this send cannot fail.
            let sent = self.tx.send((ticket, here())).is_ok();
            debug_assert!(sent);
        }
        ticket
    }

    /// Reads the library folder `dir` in the background.
    pub(super) fn library(&mut self, dir: PathBuf) {
        self.newest_library = self.start("library", move || {
            let (lib, errors) = Library::load(&dir);
            Loaded::Library(lib, errors)
        });
    }

    /// Looks for recovery copies in the state folder `dir` in the background.
    pub(super) fn recovery(&mut self, dir: PathBuf) {
        self.newest_recovery = self.start("recovery", move || Loaded::Recovery(Recovery::new(dir.clone()).left_behind()));
    }

    /// Results that arrived and are still wanted; waits up to `wait` for the first one.
    fn take(&mut self, wait: Duration) -> Vec<Loaded> {
        let mut got = Vec::new();
        let first = if wait.is_zero() { self.rx.try_recv().ok() } else { self.rx.recv_timeout(wait).ok() };
        for (ticket, loaded) in first.into_iter().chain(std::iter::from_fn(|| self.rx.try_recv().ok())) {
            self.pending.retain(|&t| t != ticket);
            let newest = match loaded {
                Loaded::Library(..) => self.newest_library,
                Loaded::Recovery(_) => self.newest_recovery,
            };
            if ticket == newest {
                got.push(loaded);
            }
        }
        got
    }
}

impl PlanetApp {
    /// Applies the background reads that have finished (called every frame).
    pub(super) fn apply_background_loads(&mut self) {
        for loaded in self.loads.take(Duration::ZERO) {
            self.apply_loaded(loaded);
        }
    }

    /// Background reads still running.
    pub fn background_loads_pending(&self) -> usize {
        self.loads.pending.len()
    }

    /// Waits until every background read has finished (at most 30 s) and applies the results,
    /// as the frames would: for tests and scripts that need the library and the recovery
    /// offer at once.
    pub fn wait_for_background_loads(&mut self) {
        let start = Instant::now();
        while !self.loads.pending.is_empty() && start.elapsed() < Duration::from_secs(30) {
            for loaded in self.loads.take(Duration::from_millis(50)) {
                self.apply_loaded(loaded);
            }
        }
    }

    fn apply_loaded(&mut self, loaded: Loaded) {
        match loaded {
            Loaded::Library(mut lib, errors) => {
                if let Some(e) = errors.first() {
                    self.status.text = format!("A saved group cannot be used: {e}");
                }
                // Groups saved while the folder was read are kept.
                if let Some(now) = self.library.take().filter(|now| now.dir == lib.dir) {
                    lib.groups.retain(|g| now.groups.iter().all(|n| n.path != g.path));
                    lib.groups.extend(now.groups);
                    lib.groups.sort_by(|a, b| a.path.cmp(&b.path));
                }
                self.library = Some(lib);
            }
            Loaded::Recovery(found) => {
                let mut unreadable = Vec::new();
                for found in found {
                    match found {
                        Ok(r) => self.files.to_recover.push(r),
                        Err(e) => unreadable.push(e),
                    }
                }
                if !unreadable.is_empty() {
                    self.status.text = format!("{} recovery cop{} cannot be read: {}", unreadable.len(), if unreadable.len() == 1 { "y" } else { "ies" }, unreadable.join("; "));
                }
                self.offer_next_recovery();
            }
        }
    }
}
