//! Why a simulation or other long computation on the sphere (erosion, tectonics, blurs,
//! distance transforms) did not produce a result: it was cancelled, or it met data it cannot
//! use. The two are kept apart so that a bug or a bad input is never reported as a cancel.

use std::sync::atomic::{AtomicBool, Ordering};
use thiserror::Error;

/// Why a computation stopped without a result.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SimError {
    /// The caller asked it to stop (a newer evaluation, Ctrl+C, the Cancel button).
    #[error("cancelled")]
    Cancelled,
    /// Data the computation cannot use; the message names it (shown on the node that ran it).
    #[error("{0}")]
    Invalid(String),
}

/// `Ok(())` until `cancel` is set, then `Err(SimError::Cancelled)`: for `?` between the
/// phases of a computation.
pub fn check_cancel(cancel: &AtomicBool) -> Result<(), SimError> {
    if cancel.load(Ordering::Relaxed) {
        Err(SimError::Cancelled)
    } else {
        Ok(())
    }
}

/// A buffer whose length does not fit the grid (the whole planet or a tile) it was meant for.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("internal error: a field on {grid} needs {expected} values, but {len} were given")]
pub struct FieldSizeError {
    /// Where the values were meant to lie.
    pub grid: super::Grid,
    /// Values needed: `6 n²` for the whole planet, `size²` for a tile.
    pub expected: usize,
    /// Values given.
    pub len: usize,
}

impl From<FieldSizeError> for SimError {
    fn from(e: FieldSizeError) -> Self {
        SimError::Invalid(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancel_and_a_size_error_stay_apart() {
        let flag = AtomicBool::new(false);
        assert_eq!(check_cancel(&flag), Ok(()));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(check_cancel(&flag), Err(SimError::Cancelled));
        let e: SimError = FieldSizeError { grid: super::super::Grid::Whole(2), expected: 24, len: 23 }.into();
        assert_eq!(e, SimError::Invalid("internal error: a field on the whole planet at 2 cells per face edge needs 24 values, but 23 were given".into()));
    }
}
