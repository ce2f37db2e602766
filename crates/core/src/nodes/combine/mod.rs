//! Combine nodes: two or more fields in, one out, value by value (the Expression node with
//! its formula language).

pub mod binary;
pub mod blend;
pub mod expression;
pub mod formula;
