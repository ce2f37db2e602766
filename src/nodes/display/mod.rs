//! Display nodes: they show a state and pass nothing on.

pub mod preview;
