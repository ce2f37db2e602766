//! What a run is given, shared by the command line and the Python package: the largest
//! resolution accepted, a memory budget given in GiB, and a pool of a chosen number of
//! threads.

use thiserror::Error;

/// Largest accepted resolution (cells per face edge); memory is checked separately.
pub const MAX_RESOLUTION: u32 = 16384;

/// Largest memory budget accepted, GiB.
pub const MAX_BUDGET_GIB: f64 = 1024.0;

/// A memory budget that is not one.
#[derive(Debug, Error)]
#[error("the memory budget must be more than 0 and at most {MAX_BUDGET_GIB} GiB (got {0})")]
pub struct BudgetError(pub f64);

/// A memory budget of `gib` GiB in bytes, or why it is not one (not a number, not positive,
/// above [`MAX_BUDGET_GIB`]).
pub fn budget_bytes(gib: f64) -> Result<u64, BudgetError> {
    if !gib.is_finite() || gib <= 0.0 || gib > MAX_BUDGET_GIB {
        return Err(BudgetError(gib));
    }
    Ok((gib * (1u64 << 30) as f64) as u64)
}

/// Runs `f` on a rayon pool of `threads` threads (`None`: the global pool). Fails only when
/// the operating system refuses the threads.
pub fn with_threads<T: Send>(threads: Option<u32>, f: impl FnOnce() -> T + Send) -> Result<T, rayon::ThreadPoolBuildError> {
    match threads {
        None => Ok(f()),
        Some(t) => Ok(rayon::ThreadPoolBuilder::new().num_threads(t as usize).build()?.install(f)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_positive_finite_gib() {
        assert_eq!(budget_bytes(1.0).expect("1 GiB"), 1 << 30);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 2048.0] {
            assert!(budget_bytes(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_pool_of_the_threads_asked_for() {
        assert_eq!(with_threads(Some(3), rayon::current_num_threads).expect("pool"), 3);
    }
}
