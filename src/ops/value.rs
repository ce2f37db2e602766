//! Values that flow along links.

use crate::planet::Field;
use std::sync::Arc;

/// A tangent 3D vector per cell (same layout as [`Field`]).
#[derive(Debug, Clone, PartialEq)]
pub struct VectorField {
    /// Cells per face edge.
    pub n: usize,
    /// One vector per cell.
    pub data: Vec<[f32; 3]>,
}

/// A value on a port: cheap to clone (shared).
#[derive(Debug, Clone)]
pub enum Value {
    /// Scalar field.
    Field(Arc<Field>),
    /// Vector field.
    Vector(Arc<VectorField>),
}

impl Value {
    /// The scalar field, if this is one.
    pub fn as_field(&self) -> Option<&Arc<Field>> {
        match self {
            Value::Field(f) => Some(f),
            Value::Vector(_) => None,
        }
    }

    /// The vector field, if this is one.
    pub fn as_vector(&self) -> Option<&Arc<VectorField>> {
        match self {
            Value::Vector(v) => Some(v),
            Value::Field(_) => None,
        }
    }
}

impl From<Field> for Value {
    fn from(f: Field) -> Self {
        Value::Field(Arc::new(f))
    }
}
