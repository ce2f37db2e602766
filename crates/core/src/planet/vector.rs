//! Tangent vector fields: one 3D vector per cell of the cube-sphere.

/// A tangent 3D vector per cell (same layout as [`Field`](super::Field)).
#[derive(Debug, Clone, PartialEq)]
pub struct VectorField {
    /// Cells per face edge.
    pub n: usize,
    /// One vector per cell, in the unit of the field it came from per radian (gradients) or
    /// planet radii per time unit (plate motion).
    pub data: Vec<[f32; 3]>,
}
