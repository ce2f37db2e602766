//! Helpers shared by the integration tests.

pub use planetgraph::planet::field::correlation;
