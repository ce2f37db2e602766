//! Values that flow along links.

use super::meta::PortType;
use crate::planet::{ColourField, Field, RegionSurface, VectorField};
use crate::tectonics::Plates;
use std::sync::Arc;

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
    /// Linear RGB colours.
    Colour(Arc<ColourField>),
}

impl Value {
    /// The port type that carries this value.
    pub fn port_type(&self) -> PortType {
        match self {
            Value::Field(_) => PortType::Field,
            Value::Vector(_) => PortType::Vector,
            Value::Regions(_) => PortType::Regions,
            Value::Plates(_) => PortType::Plates,
            Value::Colour(_) => PortType::Colour,
        }
    }

    /// Where a value laid out on the grid lies (the whole planet or a tile); `None` for region
    /// surfaces and plates.
    pub fn grid(&self) -> Option<crate::planet::Grid> {
        match self {
            Value::Field(f) => Some(f.grid()),
            Value::Vector(v) => Some(v.grid()),
            Value::Colour(c) => Some(c.grid()),
            Value::Regions(_) | Value::Plates(_) => None,
        }
    }

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

    /// The colours, if this is a colour value.
    pub fn as_colour(&self) -> Option<&Arc<ColourField>> {
        match self {
            Value::Colour(c) => Some(c),
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

impl From<VectorField> for Value {
    fn from(v: VectorField) -> Self {
        Value::Vector(Arc::new(v))
    }
}

impl From<ColourField> for Value {
    fn from(c: ColourField) -> Self {
        Value::Colour(Arc::new(c))
    }
}
