//! Parameters: the values stored in graph files ([`ParamValue`]), their declarative
//! definitions ([`ParamDef`]), and the typed settings of a node ([`Settings`], written once per
//! node with the [`settings!`](crate::settings) macro; choices are enums made with
//! [`choices!`](crate::choices), saved by stable identifiers).

use super::unit::Unit;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use thiserror::Error;

pub use super::param_types::{Choice, ChoiceSet, ParamType, Srgb};

/// Parameter values of one node by saved name, as in graph files.
pub type ParamMap = BTreeMap<String, ParamValue>;

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
    /// One option of a fixed list, by its stable identifier (`random_inner_point`; format
    /// version 1 saved the display label instead, see `io::migrate`).
    Choice(String),
    /// Control points `(x, y)` of a curve, sorted by `x`.
    Curve(Vec<[f32; 2]>),
    /// A square matrix of odd size, row-major.
    Matrix(Vec<f32>),
    /// A colour as sRGB components in 0..1 (as colour pickers show it).
    Colour([f32; 3]),
    /// Several options of a fixed list, by their stable identifiers (in menu order).
    Set(Vec<String>),
    /// Colour stops `[position, r, g, b]`: position in 0..1, sRGB components in 0..1 (in any
    /// order; they are sorted by position where used).
    Gradient(Vec<[f32; 4]>),
    /// A line of text (file names of Export nodes).
    Text(String),
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
            ParamValue::Colour(_) => "Colour",
            ParamValue::Gradient(_) => "Gradient",
            ParamValue::Set(_) => "Set",
            ParamValue::Text(_) => "Text",
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
            ParamValue::Colour(c) => {
                out.push(7);
                for v in c {
                    out.extend(v.to_bits().to_le_bytes());
                }
            }
            ParamValue::Set(ids) => {
                out.push(9);
                out.extend((ids.len() as u32).to_le_bytes());
                for id in ids {
                    out.extend((id.len() as u32).to_le_bytes());
                    out.extend(id.as_bytes());
                }
            }
            ParamValue::Text(t) => {
                out.push(10);
                out.extend((t.len() as u32).to_le_bytes());
                out.extend(t.as_bytes());
            }
            ParamValue::Gradient(stops) => {
                out.push(8);
                out.extend((stops.len() as u32).to_le_bytes());
                for v in stops.iter().flatten() {
                    out.extend(v.to_bits().to_le_bytes());
                }
            }
        }
    }
}

/// One option of a choice parameter: a stable identifier saved in files and a label shown to
/// the user (labels may change; identifiers never do).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChoiceOption {
    /// Saved identifier, lower snake case.
    pub id: &'static str,
    /// Display label.
    pub label: &'static str,
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
        /// Unit of the value: its symbol is shown after the value in the editor.
        unit: Unit,
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
        /// Index of the default option in `options`.
        default: usize,
        /// All options, in menu order.
        options: &'static [ChoiceOption],
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
    /// A colour (sRGB components 0..1).
    Colour {
        /// Default colour.
        default: [f32; 3],
    },
    /// Any subset of `options`.
    Set {
        /// Identifiers chosen by default.
        default: &'static [&'static str],
        /// All options, in menu order.
        options: &'static [ChoiceOption],
    },
    /// A colour gradient (stops `[position, r, g, b]`).
    Gradient {
        /// Default stops.
        default: &'static [[f32; 4]],
    },
    /// A line of text of at most `max_len` characters.
    Text {
        /// Default text.
        default: &'static str,
        /// Longest allowed text, in characters.
        max_len: usize,
        /// Whether the text is a file's path (the editor offers a file dialog beside it).
        file: bool,
    },
}

/// Definition of one parameter of a node kind.
#[derive(Debug, Clone, Copy)]
pub struct ParamDef {
    /// Key in the graph file (filled in by [`settings!`](crate::settings) from the field).
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
            ParamSpec::Choice { default, options } => ParamValue::Choice(options.get(default).map(|o| o.id).unwrap_or_default().to_string()),
            ParamSpec::Curve { default } => ParamValue::Curve(default.to_vec()),
            ParamSpec::Matrix { default } => ParamValue::Matrix(default.to_vec()),
            ParamSpec::Colour { default } => ParamValue::Colour(default),
            ParamSpec::Gradient { default } => ParamValue::Gradient(default.to_vec()),
            ParamSpec::Set { default, .. } => ParamValue::Set(default.iter().map(|s| s.to_string()).collect()),
            ParamSpec::Text { default, .. } => ParamValue::Text(default.to_string()),
        }
    }

    /// The options of a choice parameter (empty for other types).
    pub fn options(&self) -> &'static [ChoiceOption] {
        match self.spec {
            ParamSpec::Choice { options, .. } | ParamSpec::Set { options, .. } => options,
            _ => &[],
        }
    }

    /// Checks that `value` has the right type and lies in range; the message says what is wrong.
    pub fn check(&self, value: &ParamValue) -> Result<(), String> {
        let bad_type = || Err(format!("parameter '{}' must be {}, found {}", self.name, self.default_value().type_name(), value.type_name()));
        match (self.spec, value) {
            (ParamSpec::Float { min, max, unit, .. }, ParamValue::Float(v)) => {
                if !v.is_finite() || *v < min || *v > max {
                    return Err(format!("parameter '{}' = {v} is outside {min}..{max}{}", self.name, unit.suffix()));
                }
            }
            (ParamSpec::Int { min, max, .. }, ParamValue::Int(v)) => {
                if *v < min || *v > max {
                    return Err(format!("parameter '{}' = {v} is outside {min}..{max}", self.name));
                }
            }
            (ParamSpec::Bool { .. }, ParamValue::Bool(_)) | (ParamSpec::Seed { .. }, ParamValue::Seed(_)) => {}
            (ParamSpec::Choice { options, .. }, ParamValue::Choice(s)) => {
                if !options.iter().any(|o| o.id == s) {
                    return Err(format!("parameter '{}' = \"{s}\" is not one of {}", self.name, options.iter().map(|o| o.id).collect::<Vec<_>>().join(", ")));
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
            (ParamSpec::Colour { .. }, ParamValue::Colour(c)) => {
                if c.iter().any(|v| !v.is_finite() || !(0.0..=1.0).contains(v)) {
                    return Err(format!("colour '{}' needs components in 0..1, found {c:?}", self.name));
                }
            }
            (ParamSpec::Set { options, .. }, ParamValue::Set(ids)) => {
                if let Some(bad) = ids.iter().find(|id| !options.iter().any(|o| o.id == id.as_str())) {
                    return Err(format!("parameter '{}' has \"{bad}\", which is not one of {}", self.name, options.iter().map(|o| o.id).collect::<Vec<_>>().join(", ")));
                }
            }
            (ParamSpec::Gradient { .. }, ParamValue::Gradient(stops)) => {
                if stops.len() < 2 {
                    return Err(format!("gradient '{}' needs at least 2 stops", self.name));
                }
                if stops.iter().flatten().any(|v| !v.is_finite() || !(0.0..=1.0).contains(v)) {
                    return Err(format!("gradient '{}' needs positions and components in 0..1", self.name));
                }
            }
            (ParamSpec::Text { max_len, .. }, ParamValue::Text(t)) => {
                if t.chars().count() > max_len || t.chars().any(char::is_control) {
                    return Err(format!("text '{}' must be one line of at most {max_len} characters", self.name));
                }
            }
            _ => return bad_type(),
        }
        Ok(())
    }
}

// Constructors of parameter definitions, used inside `settings!` (which fills in the key).

/// A real parameter: default, range, unit shown after the value, drag speed per pixel.
// One argument per column of a parameter row.
#[allow(clippy::too_many_arguments)]
pub const fn float(label: &'static str, default: f32, min: f32, max: f32, unit: Unit, speed: f32, tooltip: &'static str) -> ParamDef {
    ParamDef { name: "", label, spec: ParamSpec::Float { default, min, max, unit, speed }, tooltip }
}

/// A whole-number parameter with its range.
pub const fn int(label: &'static str, default: i64, min: i64, max: i64, tooltip: &'static str) -> ParamDef {
    ParamDef { name: "", label, spec: ParamSpec::Int { default, min, max }, tooltip }
}

/// An on/off parameter.
pub const fn boolean(label: &'static str, default: bool, tooltip: &'static str) -> ParamDef {
    ParamDef { name: "", label, spec: ParamSpec::Bool { default }, tooltip }
}

/// The random seed of a random node (the editor shows a randomize button).
pub const fn seed(default: u32) -> ParamDef {
    ParamDef { name: "", label: "Seed", spec: ParamSpec::Seed { default }, tooltip: "Random seed: the same seed always gives the same result." }
}

/// A curve parameter with its default control points.
pub const fn curve(label: &'static str, default: &'static [[f32; 2]], tooltip: &'static str) -> ParamDef {
    ParamDef { name: "", label, spec: ParamSpec::Curve { default }, tooltip }
}

/// A square matrix parameter with its default weights (row-major).
pub const fn matrix(label: &'static str, default: &'static [f32], tooltip: &'static str) -> ParamDef {
    ParamDef { name: "", label, spec: ParamSpec::Matrix { default }, tooltip }
}

/// A colour parameter (sRGB components 0..1).
pub const fn colour(label: &'static str, default: [f32; 3], tooltip: &'static str) -> ParamDef {
    ParamDef { name: "", label, spec: ParamSpec::Colour { default }, tooltip }
}

/// A colour gradient parameter (stops `[position, r, g, b]`, sRGB).
pub const fn gradient(label: &'static str, default: &'static [[f32; 4]], tooltip: &'static str) -> ParamDef {
    ParamDef { name: "", label, spec: ParamSpec::Gradient { default }, tooltip }
}

/// A one-line text parameter of at most `max_len` characters.
pub const fn text(label: &'static str, default: &'static str, max_len: usize, tooltip: &'static str) -> ParamDef {
    ParamDef { name: "", label, spec: ParamSpec::Text { default, max_len, file: false }, tooltip }
}

/// A file's path (a text of at most `max_len` characters; the editor offers a file dialog whose
/// answer it writes relative to the graph file's folder).
pub const fn file(label: &'static str, default: &'static str, max_len: usize, tooltip: &'static str) -> ParamDef {
    ParamDef { name: "", label, spec: ParamSpec::Text { default, max_len, file: true }, tooltip }
}

/// A set parameter: any subset of `options` (identifiers), `default` chosen at first.
pub const fn set(label: &'static str, default: &'static [&'static str], options: &'static [ChoiceOption], tooltip: &'static str) -> ParamDef {
    ParamDef { name: "", label, spec: ParamSpec::Set { default, options }, tooltip }
}

/// A choice parameter over `options` with the option at `default` preselected (use the enum's
/// `param` function made by [`choices!`](crate::choices)).
pub const fn choice(label: &'static str, default: usize, options: &'static [ChoiceOption], tooltip: &'static str) -> ParamDef {
    ParamDef { name: "", label, spec: ParamSpec::Choice { default, options }, tooltip }
}

/// Why stored parameter values do not fit a node's settings.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ParamError {
    /// The value has another type than the field, or names no option of a choice.
    #[error("parameter '{name}' has a value of the wrong type or an unknown option: {found}")]
    Mismatch {
        /// Saved name.
        name: &'static str,
        /// The value found, as RON-like text.
        found: String,
    },
    /// The value lies outside its declared range (or is not a number).
    #[error("{label}: {why}")]
    OutOfRange {
        /// The editor's label of the parameter.
        label: &'static str,
        /// What is wrong, with the saved name, the value and the range.
        why: String,
    },
}

/// The typed settings of a node: named fields, one per declared parameter. Implemented by
/// [`settings!`](crate::settings), which writes the fields, the definitions and the mapping
/// from one list.
pub trait Settings: Sized + Clone + std::fmt::Debug {
    /// Declared parameters, in field order.
    const PARAMS: &'static [ParamDef];
    /// Reads the settings from saved values; a missing value takes its declared default.
    fn from_params(values: &ParamMap) -> Result<Self, ParamError>;
    /// The saved values of these settings (every declared parameter, nothing else).
    fn to_params(&self) -> ParamMap;
}

/// Reads one field for [`Settings::from_params`].
pub fn read_param<T: ParamType>(def: &ParamDef, values: &ParamMap) -> Result<T, ParamError> {
    let found = match values.get(def.name) {
        Some(v) => {
            let found = T::from_value(v).ok_or_else(|| ParamError::Mismatch { name: def.name, found: format!("{v:?}") })?;
            // The declared range is the one check of a value's range: no node repeats it.
            def.check(v).map_err(|why| ParamError::OutOfRange { label: def.label, why })?;
            found
        }
        None => {
            let d = def.default_value();
            T::from_value(&d).ok_or_else(|| ParamError::Mismatch { name: def.name, found: format!("default {d:?}") })?
        }
    };
    Ok(found)
}

/// Settings of a node without parameters.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct NoSettings;

impl Settings for NoSettings {
    const PARAMS: &'static [ParamDef] = &[];
    fn from_params(_: &ParamMap) -> Result<Self, ParamError> {
        Ok(NoSettings)
    }
    fn to_params(&self) -> ParamMap {
        ParamMap::new()
    }
}
