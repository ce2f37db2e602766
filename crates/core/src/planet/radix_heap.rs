//! A monotone priority queue (a radix heap): pops the entry with the smallest `u64` key, and
//! every key pushed must be at least the last key popped. Floods and distance sweeps pop their
//! keys in order, and this queue does that in amortised constant time per entry instead of
//! the logarithmic time of a binary heap. Entries with equal keys pop in an order fixed by the
//! order of the pushes, so a run is deterministic.

/// The queue (see the module notes); each entry carries a value of type `T`.
#[derive(Debug, Clone)]
pub struct RadixHeap<T> {
    /// Bucket `0` holds keys equal to `last`; bucket `b` keys whose highest bit differing
    /// from `last` is bit `b - 1`.
    buckets: Vec<Vec<(u64, T)>>,
    last: u64,
    len: usize,
}

impl<T: Copy> Default for RadixHeap<T> {
    fn default() -> Self {
        RadixHeap { buckets: (0..65).map(|_| Vec::new()).collect(), last: 0, len: 0 }
    }
}

impl<T: Copy> RadixHeap<T> {
    /// An empty queue.
    pub fn new() -> RadixHeap<T> {
        RadixHeap::default()
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (64 - (key ^ self.last).leading_zeros()) as usize
    }

    /// Adds an entry. A key below the last one popped breaks the order: it is popped next
    /// (debug builds assert).
    #[inline]
    pub fn push(&mut self, key: u64, value: T) {
        debug_assert!(key >= self.last, "radix heap: {key} pushed after {} was popped", self.last);
        let b = if key < self.last { 0 } else { self.bucket(key) };
        self.buckets[b].push((key, value));
        self.len += 1;
    }

    /// Removes and returns an entry with the smallest key.
    pub fn pop(&mut self) -> Option<(u64, T)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            let b = self.buckets.iter().position(|v| !v.is_empty())?;
            let mut entries = std::mem::take(&mut self.buckets[b]);
            self.last = entries.iter().map(|e| e.0).min()?;
            // Every entry moves to a lower bucket, since they share the bits above b - 1 with
            // the new `last`.
            for &e in &entries {
                let to = self.bucket(e.0);
                self.buckets[to].push(e);
            }
            entries.clear();
            self.buckets[b] = entries;
        }
        self.len -= 1;
        self.buckets[0].pop()
    }

    /// Whether the queue is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_order_while_pushing_monotone_keys() {
        let mut rng = crate::planet::Rng::new(3, 0);
        let mut heap = RadixHeap::new();
        let mut reference = std::collections::BinaryHeap::new();
        for k in 0..1000u64 {
            let key = rng.next_u64() >> 8;
            heap.push(key, k);
            reference.push(std::cmp::Reverse(key));
        }
        let mut last = 0;
        while let Some((key, _)) = heap.pop() {
            assert_eq!(Some(std::cmp::Reverse(key)), reference.pop());
            assert!(key >= last);
            last = key;
            // Push a few keys at or above the popped one, as a flood does.
            if rng.f32() < 0.5 {
                let more = key + (rng.next_u64() >> 40);
                heap.push(more, 0);
                reference.push(std::cmp::Reverse(more));
            }
        }
        assert!(reference.is_empty() && heap.is_empty());
    }
}
