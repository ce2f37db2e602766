//! Sea-floor smoothing (seed 002 section 2.3): Jacobi steps `h = mean of the 4 neighbours`,
//! only below sea level, across seams.

use crate::planet::diffusion::diffusion_passes;
use crate::planet::pipes::pipes4;
use crate::planet::Field;
use crate::planet::SimError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Smooths the cells below `sea_level` with `passes` (at 128 cells per face edge) Jacobi steps.
pub fn smooth_sea_floor(input: &Field, sea_level: f32, passes: usize, cancel: &AtomicBool) -> Result<Field, SimError> {
    let n = input.n();
    let table = pipes4(n);
    let mut cur = input.data().to_vec();
    let mut next = cur.clone();
    for _ in 0..diffusion_passes(passes, n) {
        if cancel.load(Ordering::Relaxed) {
            return Err(SimError::Cancelled);
        }
        next.par_iter_mut().enumerate().for_each(|(c, v)| {
            *v = if cur[c] < sea_level { table.to[c].iter().map(|&k| cur[k as usize]).sum::<f32>() * 0.25 } else { cur[c] };
        });
        std::mem::swap(&mut cur, &mut next);
    }
    Ok(Field::from_vec(n, cur)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_sea_floor_is_smoothed() {
        let f = Field::from_fn_dir(64, |d| if d.x > 0.0 { 0.5 + 0.1 * (d.y * 40.0).sin() } else { -0.5 + 0.2 * (d.y * 40.0).sin() });
        // 80 passes at 128 are 20 at 64.
        let r = smooth_sea_floor(&f, 0.0, 80, &AtomicBool::new(false)).expect("run");
        for (a, b) in f.data().iter().zip(r.data()) {
            if *a >= 0.0 {
                assert_eq!(a, b, "land is untouched");
            }
        }
        let rough = |x: &Field| x.data().iter().zip(x.data().iter().skip(1)).filter(|(a, _)| **a < 0.0).map(|(a, b)| (a - b).abs()).sum::<f32>();
        assert!(rough(&r) < 0.5 * rough(&f));
    }
}
