//! Parameters between Python and the graph: the description of each parameter
//! ([`ParamInfo`]), and values converted both ways, checked by the same rules as graph files
//! (type, range, options) before they are stored.

use planetgraph_core::nodes::{ParamDef, ParamSpec, ParamValue};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};
use pyo3::IntoPyObjectExt;

/// One parameter of a node: its saved name, the editor's label, type, unit, range, options,
/// tooltip, default and current value.
#[pyclass(module = "planetgraph._native", frozen, get_all)]
pub struct ParamInfo {
    /// Saved name, as `Graph.set` takes it.
    pub name: String,
    /// Label in the editor.
    pub label: String,
    /// `float`, `int`, `bool`, `seed`, `choice`, `set`, `curve`, `matrix`, `colour`,
    /// `gradient` or `text`.
    pub r#type: String,
    /// Unit shown after a float value (`km`, `deg`, `m`, ... ; empty when unitless).
    pub unit: String,
    /// Smallest allowed value (floats and ints), else None.
    pub min: Option<f64>,
    /// Largest allowed value (floats and ints; a text's longest length), else None.
    pub max: Option<f64>,
    /// Option identifiers of a choice or set, in menu order (empty otherwise).
    pub options: Vec<String>,
    /// The editor's tooltip: what the parameter does, with its unit.
    pub tooltip: String,
    /// Default value.
    pub default: Py<PyAny>,
    /// Current value.
    pub value: Py<PyAny>,
}

#[pymethods]
impl ParamInfo {
    fn __repr__(&self, py: Python<'_>) -> String {
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        format!("<ParamInfo {} ({}) = {}{unit}>", self.name, self.r#type, self.value.bind(py).repr().map(|r| r.to_string()).unwrap_or_default())
    }
}

/// The Python name of a parameter's type.
pub fn type_name(spec: &ParamSpec) -> &'static str {
    match spec {
        ParamSpec::Float { .. } => "float",
        ParamSpec::Int { .. } => "int",
        ParamSpec::Bool { .. } => "bool",
        ParamSpec::Seed { .. } => "seed",
        ParamSpec::Choice { .. } => "choice",
        ParamSpec::Curve { .. } => "curve",
        ParamSpec::Matrix { .. } => "matrix",
        ParamSpec::Colour { .. } => "colour",
        ParamSpec::Set { .. } => "set",
        ParamSpec::Gradient { .. } => "gradient",
        ParamSpec::Text { .. } => "text",
    }
}

/// Describes `def` with its current `value`.
pub fn describe(py: Python<'_>, def: &ParamDef, value: &ParamValue) -> PyResult<ParamInfo> {
    let (unit, min, max) = match def.spec {
        ParamSpec::Float { min, max, unit, .. } => (unit.ascii(), Some(min as f64), Some(max as f64)),
        ParamSpec::Int { min, max, .. } => ("", Some(min as f64), Some(max as f64)),
        ParamSpec::Text { max_len, .. } => ("", None, Some(max_len as f64)),
        _ => ("", None, None),
    };
    Ok(ParamInfo {
        name: def.name.to_string(),
        label: def.label.to_string(),
        r#type: type_name(&def.spec).to_string(),
        unit: unit.to_string(),
        min,
        max,
        options: def.options().iter().map(|o| o.id.to_string()).collect(),
        tooltip: def.tooltip.to_string(),
        default: to_python(py, &def.default_value())?,
        value: to_python(py, value)?,
    })
}

/// A stored value as a Python object (float, int, bool, str, list or tuple).
pub fn to_python(py: Python<'_>, v: &ParamValue) -> PyResult<Py<PyAny>> {
    match v {
        ParamValue::Float(x) => (*x as f64).into_py_any(py),
        ParamValue::Int(x) => x.into_py_any(py),
        ParamValue::Bool(x) => x.into_py_any(py),
        ParamValue::Seed(x) => x.into_py_any(py),
        ParamValue::Choice(s) | ParamValue::Text(s) => s.into_py_any(py),
        ParamValue::Curve(pts) => pts.iter().map(|p| (p[0] as f64, p[1] as f64)).collect::<Vec<_>>().into_py_any(py),
        ParamValue::Matrix(m) => m.iter().map(|&x| x as f64).collect::<Vec<_>>().into_py_any(py),
        ParamValue::Colour(c) => (c[0] as f64, c[1] as f64, c[2] as f64).into_py_any(py),
        ParamValue::Set(ids) => ids.clone().into_py_any(py),
        ParamValue::Gradient(stops) => stops.iter().map(|s| (s[0] as f64, s[1] as f64, s[2] as f64, s[3] as f64)).collect::<Vec<_>>().into_py_any(py),
    }
}

/// Converts a Python value for the parameter `def` and checks it as graph files are checked;
/// the error names `node` and the parameter.
pub fn from_python(node: &str, def: &ParamDef, obj: &Bound<'_, PyAny>) -> PyResult<ParamValue> {
    let wrong = |what: &str| PyValueError::new_err(format!("{node}: parameter '{}' takes {what}, not {}", def.name, type_of(obj)));
    let is_bool = obj.is_instance_of::<PyBool>();
    let is_number = !is_bool && (obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyFloat>());
    let value = match def.spec {
        ParamSpec::Float { .. } => {
            if !is_number {
                return Err(wrong("a number"));
            }
            let x: f64 = obj.extract()?;
            ParamValue::Float(x as f32)
        }
        ParamSpec::Int { .. } => {
            if is_bool || !obj.is_instance_of::<PyInt>() {
                return Err(wrong("a whole number"));
            }
            ParamValue::Int(obj.extract().map_err(|_| wrong("a whole number of at most 64 bits"))?)
        }
        ParamSpec::Bool { .. } => {
            if !is_bool {
                return Err(wrong("True or False"));
            }
            ParamValue::Bool(obj.extract()?)
        }
        ParamSpec::Seed { .. } => {
            if is_bool || !obj.is_instance_of::<PyInt>() {
                return Err(wrong("a whole number in 0..4294967295"));
            }
            ParamValue::Seed(obj.extract().map_err(|_| wrong("a whole number in 0..4294967295"))?)
        }
        ParamSpec::Choice { options, .. } => {
            if !obj.is_instance_of::<PyString>() {
                return Err(wrong("an option's identifier (a str)"));
            }
            let s: String = obj.extract()?;
            // The editor's label is accepted too; the identifier is what is stored.
            let id = options.iter().find(|o| o.label == s).map_or(s, |o| o.id.to_string());
            ParamValue::Choice(id)
        }
        ParamSpec::Set { .. } => {
            if obj.is_instance_of::<PyString>() {
                return Err(wrong("a list of option identifiers"));
            }
            ParamValue::Set(obj.extract().map_err(|_| wrong("a list of option identifiers"))?)
        }
        ParamSpec::Text { .. } => {
            if !obj.is_instance_of::<PyString>() {
                return Err(wrong("a str"));
            }
            ParamValue::Text(obj.extract()?)
        }
        ParamSpec::Curve { .. } => ParamValue::Curve(obj.extract::<Vec<(f32, f32)>>().map_err(|_| wrong("a list of (x, y) points"))?.into_iter().map(|(x, y)| [x, y]).collect()),
        ParamSpec::Matrix { .. } => {
            // Rows or one flat list, row-major.
            let flat = obj.extract::<Vec<f32>>().or_else(|_| obj.extract::<Vec<Vec<f32>>>().map(|rows| rows.concat()));
            ParamValue::Matrix(flat.map_err(|_| wrong("a square matrix (a list of rows or a flat row-major list)"))?)
        }
        ParamSpec::Colour { .. } => {
            let (r, g, b): (f32, f32, f32) = obj.extract().map_err(|_| wrong("an sRGB colour (r, g, b) with components in 0..1"))?;
            ParamValue::Colour([r, g, b])
        }
        ParamSpec::Gradient { .. } => ParamValue::Gradient(obj.extract::<Vec<(f32, f32, f32, f32)>>().map_err(|_| wrong("a list of stops (position, r, g, b)"))?.into_iter().map(|(p, r, g, b)| [p, r, g, b]).collect()),
    };
    def.check(&value).map_err(|e| PyValueError::new_err(format!("{node}: {e}")))?;
    Ok(value)
}

/// The Python type name of `obj`, for messages.
fn type_of(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "an unknown type".to_string())
}
