//! The editor's node cache on disk (see `planetgraph_core::eval::disk_cache`): set for the
//! running editor, cleared from the View menu, and its one notice when it cannot be used.

use super::PlanetApp;
use std::sync::Arc;

impl PlanetApp {
    /// The node cache on disk of the running editor (see
    /// `planetgraph_core::eval::disk_cache`): reopening a graph, undo and redo read results
    /// from it.
    pub fn with_default_disk_cache(mut self) -> PlanetApp {
        self.pipeline.set_disk_cache(planetgraph_core::eval::DiskCache::user_default());
        self
    }

    /// The node cache on disk, if the editor has one.
    pub fn disk_cache(&self) -> Option<Arc<planetgraph_core::eval::DiskCache>> {
        self.pipeline.disk_cache()
    }

    /// Empties the node cache on disk (View > Clear node cache) and says what went.
    pub fn clear_disk_cache(&mut self) {
        self.status.text = match self.disk_cache() {
            None => "There is no node cache on disk".to_string(),
            Some(c) => match planetgraph_core::eval::disk_cache::clear(c.dir()) {
                Ok(u) => format!("Cleared the node cache: {} results, {:.1} MiB", u.entries, u.bytes as f64 / (1u64 << 20) as f64),
                Err(e) => format!("Cannot clear the node cache in {}: {e}", c.dir().display()),
            },
        };
    }

    /// The notice, once, that the node cache cannot be used (a read-only or full folder): the
    /// editor goes on without it.
    pub(super) fn disk_cache_notice(&mut self) {
        if let Some(why) = self.disk_cache().and_then(|c| c.notice()) {
            self.status.text = format!("Working without a node cache: {why}");
        }
    }
}
