//! Evaluation: compile a graph to a program and run it with a per-node cache, cancellation
//! and progress; a background worker for the editor; the memory guard for large builds.

pub mod disk_cache;
pub mod executor;
pub mod memory;
pub mod program;
pub mod region;
pub mod request;
pub mod worker;

pub use disk_cache::DiskCache;
pub use executor::{EvalResult, Evaluator, Progress};
pub use program::{compile, compile_for, planet_of, Program};
pub use region::{at_level, frontier, halos, localities, sample_bilinear_on, sample_on, whole_level, whole_levels, whole_part, whole_steps};
pub use request::Request;
pub use worker::{EvalWorker, WorkerResult};
