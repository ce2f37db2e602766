//! Process-wide caches: tables that depend only on the resolution (neighbour and pipe
//! tables), built once per resolution on first use, then shared; and the few most recent
//! results of a pure computation that a node repeats when other settings change.

use std::collections::{HashMap, VecDeque};
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

/// The most recently used results of a pure computation, by key, newest first, holding at
/// most a number of bytes together. Declare one as a `static`.
pub struct Recent<K, V>(OnceLock<Mutex<VecDeque<Entry<K, V>>>>);

/// A cached result: its key, the value and its size in bytes.
type Entry<K, V> = (K, Arc<V>, usize);

impl<K: PartialEq, V> Recent<K, V> {
    /// An empty cache.
    pub const fn new() -> Self {
        Recent(OnceLock::new())
    }

    /// Drops every cached result (users holding one keep their copy).
    pub fn clear(&self) {
        if let Some(list) = self.0.get() {
            list.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
        }
    }

    /// [`Recent::get_or_try`] for a computation that cannot fail.
    pub fn get_or(&self, key: K, cap: usize, bytes: impl Fn(&V) -> usize, build: impl FnOnce() -> V) -> Arc<V> {
        match self.get_or_try(key, cap, bytes, || Ok::<V, std::convert::Infallible>(build())) {
            Ok(v) => v,
            Err(never) => match never {},
        }
    }

    /// The value for `key`: the cached one, else `build`'s (cached when `bytes` of it fit in
    /// `cap` bytes together with the newer entries; older entries beyond the cap are dropped).
    /// `build` runs outside the lock, and its error is returned and cached nowhere.
    pub fn get_or_try<E>(&self, key: K, cap: usize, bytes: impl Fn(&V) -> usize, build: impl FnOnce() -> Result<V, E>) -> Result<Arc<V>, E> {
        let list = self.0.get_or_init(|| Mutex::new(VecDeque::new()));
        // A panic elsewhere while the lock was held leaves a list of whole entries: keep it.
        let lock = || list.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        {
            let mut entries = lock();
            if let Some(entry) = entries.iter().position(|e| e.0 == key).and_then(|k| entries.remove(k)) {
                let found = entry.1.clone();
                entries.push_front(entry);
                return Ok(found);
            }
        }
        let made = Arc::new(build()?);
        let size = bytes(&made);
        if size <= cap {
            let mut entries = lock();
            entries.retain(|e| e.0 != key);
            entries.push_front((key, made.clone(), size));
            let mut total = 0;
            entries.retain(|e| {
                total += e.2;
                total <= cap
            });
        }
        Ok(made)
    }
}

impl<K: PartialEq, V> Default for Recent<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_results_are_reused_and_the_oldest_leave_first() {
        static CACHE: Recent<u32, Vec<u8>> = Recent::new();
        let built = std::cell::Cell::new(0);
        let get = |k: u32| {
            CACHE
                .get_or_try(k, 30, Vec::len, || {
                    built.set(built.get() + 1);
                    Ok::<_, ()>(vec![k as u8; 10])
                })
                .expect("builds")
        };
        let a = get(1);
        assert!(Arc::ptr_eq(&a, &get(1)) && built.get() == 1, "reused");
        get(2);
        get(3);
        get(1); // 1 is the newest again; 2 is now the oldest
        get(4); // 40 bytes: 2 leaves
        assert_eq!(built.get(), 4);
        get(1);
        get(3);
        assert_eq!(built.get(), 4, "1 and 3 stayed");
        get(2);
        assert_eq!(built.get(), 5, "2 was dropped");
        // An error is returned and nothing is cached; a value larger than the cap is not kept.
        assert!(CACHE.get_or_try(9, 30, Vec::len, || Err::<Vec<u8>, _>("no")).is_err());
        let big = CACHE.get_or_try(10, 30, Vec::len, || Ok::<_, ()>(vec![0; 31])).expect("builds");
        assert!(!Arc::ptr_eq(&big, &CACHE.get_or_try(10, 30, Vec::len, || Ok::<_, ()>(vec![0; 31])).expect("builds")));
    }
}
