//! Hash maps and sets keyed by cell index, with a hash that costs a multiply instead of the
//! standard library's SipHash. Cell indices come from the program, not from a file or a user,
//! so the flooding attacks SipHash guards against do not apply; lookups per cell of a close-up
//! (river courses, lake levels) are where the time went.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A map from cell index.
pub type CellMap<V> = HashMap<usize, V, BuildHasherDefault<CellHasher>>;
/// A set of cell indices.
pub type CellSet = HashSet<usize, BuildHasherDefault<CellHasher>>;

/// The hasher of [`CellMap`] and [`CellSet`]: a multiplicative hash whose high bits are
/// folded down (the map takes its buckets from the low bits, which a plain multiply would
/// leave as regular as the indices).
#[derive(Default, Clone, Copy)]
pub struct CellHasher(u64);

/// The multiplier: 2^64 over the golden ratio, odd.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        let h = (self.0 ^ v).wrapping_mul(GOLDEN);
        self.0 = h ^ (h >> 32);
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Neighbouring indices spread over the buckets: a map of a block of cells finds every
    /// one of them and no other.
    #[test]
    fn a_map_of_cells_finds_its_cells() {
        let cells: Vec<usize> = (0..64).flat_map(|j| (0..64).map(move |i| 1_000_000 + j * 4096 + i)).collect();
        let map: CellMap<usize> = cells.iter().map(|&c| (c, c * 3)).collect();
        assert_eq!(map.len(), cells.len());
        assert!(cells.iter().all(|c| map.get(c) == Some(&(c * 3))));
        assert!(!map.contains_key(&999_999) && !map.contains_key(&(1_000_000 + 64)));
        // The low bits of neighbouring cells' hashes differ (the buckets are not in runs).
        let low = |c: usize| {
            let mut h = CellHasher::default();
            h.write_usize(c);
            h.finish() & 1023
        };
        let distinct: CellSet = cells.iter().map(|&c| low(c) as usize).collect();
        assert!(distinct.len() > 600, "{} of 1024 buckets", distinct.len());
    }
}
