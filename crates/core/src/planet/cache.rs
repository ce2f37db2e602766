//! A process-wide cache of tables that depend only on the resolution (neighbour and pipe
//! tables): built once per resolution on first use, then shared.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Tables of type `T` by resolution. Declare one as a `static`.
pub struct PerResolution<T>(OnceLock<Mutex<HashMap<usize, Arc<T>>>>);

impl<T> PerResolution<T> {
    /// An empty cache.
    pub const fn new() -> Self {
        PerResolution(OnceLock::new())
    }

    /// The table for resolution `n`, built by `build` if it is not cached yet.
    pub fn get(&self, n: usize, build: impl FnOnce() -> T) -> Arc<T> {
        let tables = self.0.get_or_init(|| Mutex::new(HashMap::new()));
        // A panic while building leaves the map as it was: keep using it.
        let mut guard = tables.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        guard.entry(n).or_insert_with(|| Arc::new(build())).clone()
    }

    /// Drops the cached table of resolution `n` (users holding it keep their copy; the next
    /// request builds it again).
    pub fn forget(&self, n: usize) {
        if let Some(tables) = self.0.get() {
            let mut guard = tables.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            guard.remove(&n);
        }
    }
}

impl<T> Default for PerResolution<T> {
    fn default() -> Self {
        Self::new()
    }
}
