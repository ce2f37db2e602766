//! The Rust types a node's settings fields may have, and which saved [`ParamValue`] variant
//! each reads and writes.

use super::params::{ChoiceOption, ParamValue};

/// A Rust type a parameter is read into: which [`ParamValue`] variant it takes.
pub trait ParamType: Sized {
    /// The typed value, or `None` if `v` is of another variant (or an unknown option).
    fn from_value(v: &ParamValue) -> Option<Self>;
    /// The value as saved.
    fn to_value(&self) -> ParamValue;
}

/// `ParamType` for a type saved as one `ParamValue` variant holding it as it is.
macro_rules! saved_as {
    ($($ty:ty => $variant:ident),* $(,)?) => {
        $(
            impl ParamType for $ty {
                fn from_value(v: &ParamValue) -> Option<Self> {
                    match v {
                        ParamValue::$variant(x) => Some(x.clone()),
                        _ => None,
                    }
                }
                fn to_value(&self) -> ParamValue {
                    ParamValue::$variant(self.clone())
                }
            }
        )*
    };
}

// Seeds are `u32`, curves `(x, y)` points, matrices row-major weights, gradients
// `[position, r, g, b]` stops (sRGB).
saved_as!(f32 => Float, i64 => Int, bool => Bool, u32 => Seed, Vec<[f32; 2]> => Curve, Vec<f32> => Matrix, Vec<[f32; 4]> => Gradient, String => Text);

/// Counts (iterations, passes): saved as `Int`, never negative.
impl ParamType for usize {
    fn from_value(v: &ParamValue) -> Option<Self> {
        match v {
            ParamValue::Int(x) => usize::try_from(*x).ok(),
            _ => None,
        }
    }
    fn to_value(&self) -> ParamValue {
        ParamValue::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

/// A colour parameter's value: sRGB components in 0..1, as the user picked it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Srgb(pub [f32; 3]);

impl Srgb {
    /// The colour in linear RGB (how colours are computed with).
    pub fn linear(self) -> [f32; 3] {
        crate::planet::colour::srgb_to_linear3(self.0)
    }
}

impl ParamType for Srgb {
    fn from_value(v: &ParamValue) -> Option<Self> {
        match v {
            ParamValue::Colour(c) => Some(Srgb(*c)),
            _ => None,
        }
    }
    fn to_value(&self) -> ParamValue {
        ParamValue::Colour(self.0)
    }
}

/// A choice enum (made by [`choices!`](crate::choices)): its options and identifiers.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every option in menu order.
    const OPTIONS: &'static [ChoiceOption];
    /// The option saved as `id`.
    fn from_id(id: &str) -> Option<Self>;
    /// The saved identifier.
    fn id(self) -> &'static str;
}

/// Several options of a choice enum, saved as `Set([...])` of identifiers in menu order.
#[derive(Debug, Clone, PartialEq)]
pub struct ChoiceSet<T: Choice>(pub Vec<T>);

impl<T: Choice> ChoiceSet<T> {
    /// Whether `t` is in the set.
    pub fn contains(&self, t: T) -> bool {
        self.0.contains(&t)
    }
}

impl<T: Choice + std::fmt::Debug> ParamType for ChoiceSet<T> {
    fn from_value(v: &ParamValue) -> Option<Self> {
        match v {
            ParamValue::Set(ids) => ids.iter().map(|id| T::from_id(id)).collect::<Option<Vec<T>>>().map(ChoiceSet),
            _ => None,
        }
    }
    fn to_value(&self) -> ParamValue {
        // In menu order, whatever order the set was built in.
        ParamValue::Set(T::OPTIONS.iter().filter(|o| self.0.iter().any(|t| t.id() == o.id)).map(|o| o.id.to_string()).collect())
    }
}
