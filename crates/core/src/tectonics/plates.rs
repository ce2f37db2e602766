//! Tectonic plates by flood fill over the region surface (seed 000, Algorithm 3).

use crate::planet::rng::Rng;
use crate::planet::RegionSurface;
use std::sync::Arc;

/// Marks a region no plate has claimed yet (only while stepping through the growth).
pub const UNCLAIMED: u32 = u32::MAX;

/// How the plates grow.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlateSettings {
    /// Number of plates (at least 1, at most the number of regions).
    pub count: usize,
    /// Expansion-rate range `e`: rates uniform in `[1 - e, 1 + e]` for `e < 1`, in `[0, e]` for
    /// `e >= 1` (seed 000's two regimes).
    pub expansion_range: f32,
    /// Random-driven growth: each expansion claims one random frontier region instead of the
    /// whole ring around the plate (more organic shapes).
    pub random_driven: bool,
    /// Stop after this many growth cycles (`None`: until every region has a plate). Cycle 0 is
    /// the seed regions alone.
    pub max_cycles: Option<usize>,
    /// Random seed.
    pub seed: u32,
}

/// The plates: every region's plate, and per plate its members and border regions.
#[derive(Debug, Clone)]
pub struct Plates {
    /// The regions the plates are made of.
    pub regions: Arc<RegionSurface>,
    /// Plate of each region ([`UNCLAIMED`] only when the growth was stopped early).
    pub plate_of: Vec<u32>,
    /// The region each plate grew from.
    pub seeds: Vec<u32>,
    /// Expansion rate of each plate.
    pub rates: Vec<f32>,
    /// Whether a region has a Moore neighbour in another plate (or an unclaimed one).
    pub is_border: Vec<bool>,
    /// Growth cycles run.
    pub cycles: usize,
    /// Whether every region has a plate.
    pub complete: bool,
}

/// Why plates cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlateError {
    /// More plates than regions, or none.
    #[error("{plates} plates cannot be made from {regions} regions (use 1 to {regions} plates, or more regions)")]
    BadCount {
        /// Plates asked for.
        plates: usize,
        /// Regions available.
        regions: usize,
    },
}

impl Plates {
    /// Grows `settings.count` plates over `regions`.
    pub fn grow(regions: Arc<RegionSurface>, settings: &PlateSettings) -> Result<Plates, PlateError> {
        let n = regions.len();
        if settings.count == 0 || settings.count > n {
            return Err(PlateError::BadCount { plates: settings.count, regions: n });
        }
        let mut rng = Rng::new(settings.seed, 0x91A7_E500);
        let mut plate_of = vec![UNCLAIMED; n];
        // Distinct random seed regions (partial Fisher-Yates over a lazily shuffled index map).
        let mut seeds = Vec::with_capacity(settings.count);
        let mut swapped: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
        for k in 0..settings.count {
            let j = k + (rng.next_u64() % (n - k) as u64) as usize;
            let vj = *swapped.get(&j).unwrap_or(&j);
            let vk = *swapped.get(&k).unwrap_or(&k);
            swapped.insert(j, vk);
            seeds.push(vj as u32);
        }
        let e = settings.expansion_range.max(0.0);
        // A floor keeps a plate with a rate near 0 from stalling the growth for ever.
        let rates: Vec<f32> = (0..settings.count).map(|_| (if e < 1.0 { rng.range(1.0 - e, 1.0 + e) } else { rng.range(0.0, e) }).max(0.05)).collect();
        // Frontier per plate: regions claimed in the last ring (whole-ring mode) or unclaimed
        // candidates next to the plate (random-driven mode).
        let mut frontier: Vec<Vec<u32>> = Vec::with_capacity(settings.count);
        for (p, &s) in seeds.iter().enumerate() {
            plate_of[s as usize] = p as u32;
            frontier.push(if settings.random_driven { regions.neighbours(s as usize).to_vec() } else { vec![s] });
        }
        // Unfinished plates, in plate order (finished ones drop out, so a slow last plate does
        // not cost a pass over all plates per cycle).
        let mut active: Vec<usize> = (0..settings.count).collect();
        let mut cycles = 0;
        let mut grow_rng = Rng::new(settings.seed, 0x91A7_E501);
        while !active.is_empty() && settings.max_cycles.is_none_or(|m| cycles < m) {
            cycles += 1;
            active.retain(|&p| {
                let rate = rates[p];
                let times = rate.floor() as usize + usize::from(grow_rng.f32() < rate.fract());
                for _ in 0..times {
                    let claimed = if settings.random_driven { expand_random(&regions, &mut plate_of, &mut frontier[p], p as u32, &mut grow_rng) } else { expand_ring(&regions, &mut plate_of, &mut frontier[p], p as u32) };
                    if !claimed {
                        return false;
                    }
                }
                // A plate that did not expand this cycle is done once nothing around it is free.
                times > 0 || has_free_neighbour(&regions, &plate_of, &frontier[p], settings.random_driven)
            });
        }
        let complete = plate_of.iter().all(|&p| p != UNCLAIMED);
        let is_border = (0..n).map(|i| regions.neighbours(i).iter().any(|&k| plate_of[k as usize] != plate_of[i])).collect();
        Ok(Plates { regions, plate_of, seeds, rates, is_border, cycles, complete })
    }

    /// Number of plates.
    pub fn count(&self) -> usize {
        self.seeds.len()
    }

    /// Member regions of each plate, in region order.
    pub fn members(&self) -> Vec<Vec<u32>> {
        let mut m = vec![Vec::new(); self.count()];
        for (i, &p) in self.plate_of.iter().enumerate() {
            if p != UNCLAIMED {
                m[p as usize].push(i as u32);
            }
        }
        m
    }

    /// Border regions of each plate: its members with a Moore neighbour outside the plate.
    pub fn borders(&self) -> Vec<Vec<u32>> {
        let mut m = vec![Vec::new(); self.count()];
        for (i, &p) in self.plate_of.iter().enumerate() {
            if p != UNCLAIMED && self.is_border[i] {
                m[p as usize].push(i as u32);
            }
        }
        m
    }
}

fn has_free_neighbour(regions: &RegionSurface, plate_of: &[u32], frontier: &[u32], random_driven: bool) -> bool {
    if random_driven {
        frontier.iter().any(|&k| plate_of[k as usize] == UNCLAIMED)
    } else {
        frontier.iter().any(|&k| regions.neighbours(k as usize).iter().any(|&x| plate_of[x as usize] == UNCLAIMED))
    }
}

/// Seed 000's `expand`: claims every unclaimed neighbour of the plate's last ring. Returns
/// whether anything was claimed.
fn expand_ring(regions: &RegionSurface, plate_of: &mut [u32], frontier: &mut Vec<u32>, plate: u32) -> bool {
    let mut next = Vec::new();
    for &r in frontier.iter() {
        for &k in regions.neighbours(r as usize) {
            if plate_of[k as usize] == UNCLAIMED {
                plate_of[k as usize] = plate;
                next.push(k);
            }
        }
    }
    *frontier = next;
    !frontier.is_empty()
}

/// Random-driven expansion: claims one random unclaimed region next to the plate.
fn expand_random(regions: &RegionSurface, plate_of: &mut [u32], frontier: &mut Vec<u32>, plate: u32, rng: &mut Rng) -> bool {
    while !frontier.is_empty() {
        let j = (rng.next_u64() % frontier.len() as u64) as usize;
        let k = frontier.swap_remove(j);
        if plate_of[k as usize] != UNCLAIMED {
            continue;
        }
        plate_of[k as usize] = plate;
        frontier.extend(regions.neighbours(k as usize).iter().copied().filter(|&x| plate_of[x as usize] == UNCLAIMED));
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_invariants(p: &Plates, count: usize) {
        let s = &p.regions;
        assert_eq!(p.count(), count);
        assert!(p.complete);
        // Every region in exactly one plate.
        assert!(p.plate_of.iter().all(|&x| (x as usize) < count));
        let members = p.members();
        assert_eq!(members.iter().map(Vec::len).sum::<usize>(), s.len());
        for (k, m) in members.iter().enumerate() {
            assert!(!m.is_empty(), "plate {k} is empty");
            // Contiguous: a flood fill from the seed inside the plate reaches every member.
            let mut seen = vec![false; s.len()];
            let mut stack = vec![p.seeds[k]];
            seen[p.seeds[k] as usize] = true;
            let mut reached = 0;
            while let Some(r) = stack.pop() {
                reached += 1;
                for &x in s.neighbours(r as usize) {
                    if !seen[x as usize] && p.plate_of[x as usize] == k as u32 {
                        seen[x as usize] = true;
                        stack.push(x);
                    }
                }
            }
            assert_eq!(reached, m.len(), "plate {k} is not contiguous");
        }
        // Borders: exactly the members with a foreign neighbour.
        let borders = p.borders();
        for (k, b) in borders.iter().enumerate() {
            for &r in &members[k] {
                let foreign = s.neighbours(r as usize).iter().any(|&x| p.plate_of[x as usize] != k as u32);
                assert_eq!(b.contains(&r), foreign);
            }
        }
    }

    #[test]
    fn flood_fill_invariants_for_both_modes_and_rate_regimes() {
        let s = Arc::new(RegionSurface::new(12, 1.0, 3));
        for (random_driven, e) in [(false, 0.5), (false, 3.0), (true, 0.5), (true, 2.0)] {
            for count in [1usize, 7, 40] {
                let p = Plates::grow(s.clone(), &PlateSettings { count, expansion_range: e, random_driven, max_cycles: None, seed: 11 }).expect("plates");
                check_invariants(&p, count);
            }
        }
    }

    #[test]
    fn bad_counts_are_refused() {
        let s = Arc::new(RegionSurface::new(2, 0.5, 1));
        let st = |count| PlateSettings { count, expansion_range: 0.5, random_driven: false, max_cycles: None, seed: 1 };
        assert!(Plates::grow(s.clone(), &st(0)).is_err());
        assert!(Plates::grow(s.clone(), &st(25)).is_err());
        assert!(Plates::grow(s, &st(24)).is_ok());
    }

    #[test]
    fn stepping_grows_monotonically_to_the_full_result() {
        let s = Arc::new(RegionSurface::new(10, 1.0, 3));
        let full = Plates::grow(s.clone(), &PlateSettings { count: 9, expansion_range: 0.5, random_driven: true, max_cycles: None, seed: 5 }).expect("plates");
        let mut last = 0;
        for c in 0..=full.cycles {
            let p = Plates::grow(s.clone(), &PlateSettings { count: 9, expansion_range: 0.5, random_driven: true, max_cycles: Some(c), seed: 5 }).expect("plates");
            let claimed = p.plate_of.iter().filter(|&&x| x != UNCLAIMED).count();
            assert!(claimed >= last);
            last = claimed;
            if c == 0 {
                assert_eq!(claimed, 9);
            }
            // Every claimed region already has its final plate.
            for (a, b) in p.plate_of.iter().zip(&full.plate_of) {
                assert!(*a == UNCLAIMED || a == b);
            }
        }
        assert_eq!(last, s.len());
    }
}
