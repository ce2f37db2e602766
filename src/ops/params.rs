//! Parameter values as stored in graph files, and their declarative definitions.

use serde::{Deserialize, Serialize};

/// A parameter value, as written in RON graph files (for example `Float(2.5)`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ParamValue {
    /// A real number in the unit of its definition.
    Float(f32),
    /// A whole number.
    Int(i64),
    /// On / off.
    Bool(bool),
    /// A random seed.
    Seed(u32),
    /// One option of a fixed list, by name.
    Choice(String),
    /// Control points `(x, y)` of a curve, sorted by `x`.
    Curve(Vec<[f32; 2]>),
    /// A square matrix of odd size, row-major.
    Matrix(Vec<f32>),
}

impl Default for ParamValue {
    fn default() -> Self {
        ParamValue::Float(0.0)
    }
}

impl ParamValue {
    /// Name of the variant, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            ParamValue::Float(_) => "Float",
            ParamValue::Int(_) => "Int",
            ParamValue::Bool(_) => "Bool",
            ParamValue::Seed(_) => "Seed",
            ParamValue::Choice(_) => "Choice",
            ParamValue::Curve(_) => "Curve",
            ParamValue::Matrix(_) => "Matrix",
        }
    }

    /// Appends a stable byte encoding of the value (for cache keys).
    pub fn hash_into(&self, out: &mut Vec<u8>) {
        match self {
            ParamValue::Float(v) => {
                out.push(0);
                out.extend(v.to_bits().to_le_bytes());
            }
            ParamValue::Int(v) => {
                out.push(1);
                out.extend(v.to_le_bytes());
            }
            ParamValue::Bool(v) => out.extend([2, *v as u8]),
            ParamValue::Seed(v) => {
                out.push(3);
                out.extend(v.to_le_bytes());
            }
            ParamValue::Choice(s) => {
                out.push(4);
                out.extend((s.len() as u32).to_le_bytes());
                out.extend(s.as_bytes());
            }
            ParamValue::Curve(pts) => {
                out.push(5);
                out.extend((pts.len() as u32).to_le_bytes());
                for p in pts {
                    out.extend(p[0].to_bits().to_le_bytes());
                    out.extend(p[1].to_bits().to_le_bytes());
                }
            }
            ParamValue::Matrix(m) => {
                out.push(6);
                out.extend((m.len() as u32).to_le_bytes());
                for v in m {
                    out.extend(v.to_bits().to_le_bytes());
                }
            }
        }
    }
}

/// What kind of value a parameter takes, with its default and allowed range.
#[derive(Debug, Clone, Copy)]
pub enum ParamSpec {
    /// A real number in `[min, max]`; `unit` is shown after the value.
    Float {
        /// Default value.
        default: f32,
        /// Smallest allowed value.
        min: f32,
        /// Largest allowed value.
        max: f32,
        /// Unit shown after the value ("km", "deg", "" ...).
        unit: &'static str,
        /// Drag speed per pixel in the editor.
        speed: f32,
    },
    /// A whole number in `[min, max]`.
    Int {
        /// Default value.
        default: i64,
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
    },
    /// On / off.
    Bool {
        /// Default value.
        default: bool,
    },
    /// A random seed (any `u32`).
    Seed {
        /// Default value.
        default: u32,
    },
    /// One of `options`.
    Choice {
        /// Default option.
        default: &'static str,
        /// All options.
        options: &'static [&'static str],
    },
    /// A curve through control points with `x` and `y` in [-1, 1] ... [lo, hi].
    Curve {
        /// Default control points.
        default: &'static [[f32; 2]],
    },
    /// An odd-sized square matrix of weights.
    Matrix {
        /// Default matrix, row-major.
        default: &'static [f32],
    },
}

/// Definition of one parameter of a node kind.
#[derive(Debug, Clone, Copy)]
pub struct ParamDef {
    /// Key in the graph file.
    pub name: &'static str,
    /// Label in the editor.
    pub label: &'static str,
    /// Type, default and range.
    pub spec: ParamSpec,
    /// Tooltip explaining the parameter and its unit.
    pub tooltip: &'static str,
}

impl ParamDef {
    /// The default value.
    pub fn default_value(&self) -> ParamValue {
        match self.spec {
            ParamSpec::Float { default, .. } => ParamValue::Float(default),
            ParamSpec::Int { default, .. } => ParamValue::Int(default),
            ParamSpec::Bool { default } => ParamValue::Bool(default),
            ParamSpec::Seed { default } => ParamValue::Seed(default),
            ParamSpec::Choice { default, .. } => ParamValue::Choice(default.to_string()),
            ParamSpec::Curve { default } => ParamValue::Curve(default.to_vec()),
            ParamSpec::Matrix { default } => ParamValue::Matrix(default.to_vec()),
        }
    }

    /// Checks that `value` has the right type and lies in range; the message says what is wrong.
    pub fn check(&self, value: &ParamValue) -> Result<(), String> {
        let bad_type = || Err(format!("parameter '{}' must be {}, found {}", self.name, self.default_value().type_name(), value.type_name()));
        match (self.spec, value) {
            (ParamSpec::Float { min, max, unit, .. }, ParamValue::Float(v)) => {
                if !v.is_finite() || *v < min || *v > max {
                    return Err(format!("parameter '{}' = {v} is outside {min}..{max} {unit}", self.name));
                }
            }
            (ParamSpec::Int { min, max, .. }, ParamValue::Int(v)) => {
                if *v < min || *v > max {
                    return Err(format!("parameter '{}' = {v} is outside {min}..{max}", self.name));
                }
            }
            (ParamSpec::Bool { .. }, ParamValue::Bool(_)) | (ParamSpec::Seed { .. }, ParamValue::Seed(_)) => {}
            (ParamSpec::Choice { options, .. }, ParamValue::Choice(s)) => {
                if !options.contains(&s.as_str()) {
                    return Err(format!("parameter '{}' = \"{s}\" is not one of {}", self.name, options.join(", ")));
                }
            }
            (ParamSpec::Curve { .. }, ParamValue::Curve(pts)) => {
                if pts.len() < 2 {
                    return Err(format!("curve '{}' needs at least 2 points", self.name));
                }
                if pts.iter().any(|p| !p[0].is_finite() || !p[1].is_finite()) {
                    return Err(format!("curve '{}' has a point that is not a finite number", self.name));
                }
            }
            (ParamSpec::Matrix { .. }, ParamValue::Matrix(m)) => {
                let k = (m.len() as f64).sqrt() as usize;
                if k * k != m.len() || k.is_multiple_of(2) || k > 9 {
                    return Err(format!("matrix '{}' must be square with an odd size up to 9x9, found {} values", self.name, m.len()));
                }
                if m.iter().any(|v| !v.is_finite()) {
                    return Err(format!("matrix '{}' has a value that is not a finite number", self.name));
                }
            }
            _ => return bad_type(),
        }
        Ok(())
    }
}
