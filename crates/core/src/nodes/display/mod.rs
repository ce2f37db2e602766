//! Display nodes: they show a state and pass nothing on.

pub mod colour_preview;
pub mod preview;
