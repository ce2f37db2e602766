//! Erosion, water and reefs on the whole cube-sphere (seeds 002 and 004): every flux,
//! neighbour and trace crosses the face seams, so no cube edge shows.

pub mod grid;
pub mod hydraulic;
pub mod coral;
pub mod seafloor;
pub mod thermal;
pub mod droplet;
