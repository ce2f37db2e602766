//! Helpers shared by the integration tests.

pub use planetgraph_core::planet::field::correlation;
