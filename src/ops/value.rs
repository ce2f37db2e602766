//! Values that flow along links.

use crate::planet::{Field, RegionSurface};
use crate::tectonics::Plates;
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
    /// A region surface.
    Regions(Arc<RegionSurface>),
    /// Tectonic plates.
    Plates(Arc<Plates>),
}

impl Value {
    /// The scalar field, if this is one.
    pub fn as_field(&self) -> Option<&Arc<Field>> {
        match self {
            Value::Field(f) => Some(f),
            _ => None,
        }
    }

    /// The vector field, if this is one.
    pub fn as_vector(&self) -> Option<&Arc<VectorField>> {
        match self {
            Value::Vector(v) => Some(v),
            _ => None,
        }
    }

    /// The region surface, if this is one.
    pub fn as_regions(&self) -> Option<&Arc<RegionSurface>> {
        match self {
            Value::Regions(r) => Some(r),
            _ => None,
        }
    }

    /// The plates, if this is a plate value.
    pub fn as_plates(&self) -> Option<&Arc<Plates>> {
        match self {
            Value::Plates(p) => Some(p),
            _ => None,
        }
    }
}

impl From<Field> for Value {
    fn from(f: Field) -> Self {
        Value::Field(Arc::new(f))
    }
}
