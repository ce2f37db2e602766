//! `Graph`: a graph file loaded into Python, its nodes and parameters.

use crate::params::{self, ParamInfo};
use crate::{GraphFileError, PlanetGraphError};
use planetgraph_core::graph::{Graph as Doc, NodeId};
use planetgraph_core::io::{self, Strictness};
use planetgraph_core::nodes::{NodeKind, ParamValue};
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::ffi::CString;
use std::path::{Path, PathBuf};

/// What a node is: id, kind (the saved identifier), title, category and port names.
#[pyclass(module = "planetgraph._native", frozen, get_all)]
pub struct NodeInfo {
    /// Stable id within the graph (`#id` in messages).
    pub id: u32,
    /// The kind's saved identifier (`Noise`, `PlateElevation`, ...).
    pub kind: String,
    /// The name given by the user, or the kind's label.
    pub title: String,
    /// The node's menu category (`Sources`, `Erosion`, ...).
    pub category: String,
    /// Input port names, in order.
    pub inputs: Vec<String>,
    /// Output port names, in order.
    pub outputs: Vec<String>,
    /// `Kind #id`, how messages name the node.
    pub describe: String,
}

#[pymethods]
impl NodeInfo {
    fn __repr__(&self) -> String {
        format!("<NodeInfo {}>", self.describe)
    }
}

/// A planet graph: load it, look at its nodes and parameters, change them, evaluate it into
/// numpy arrays and build its exports.
#[pyclass(module = "planetgraph._native")]
#[derive(Clone)]
pub struct Graph {
    /// The graph.
    pub doc: Doc,
    /// The file it came from (or the name given to RON text), for messages and manifests.
    pub path: PathBuf,
    /// The folder of the arrays given with `set_raster` (shared by copies until one changes).
    pub rasters: crate::raster::RasterDir,
}

/// Every node kind's saved identifier, in menu order.
#[pyfunction]
pub fn node_kinds() -> Vec<String> {
    NodeKind::ALL.iter().map(|k| format!("{k:?}")).collect()
}

/// Emits the notes of bringing an older file up to date as Python warnings.
fn warn_notes(py: Python<'_>, path: &Path, notes: Vec<String>) -> PyResult<()> {
    for n in notes {
        let text = CString::new(format!("{}: {n}", path.display())).map_err(|e| PyValueError::new_err(e.to_string()))?;
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &text, 2)?;
    }
    Ok(())
}

impl Graph {
    /// The node `id`, or a ValueError naming the graph.
    pub fn node(&self, id: i64) -> PyResult<&planetgraph_core::graph::Node> {
        let id = crate::run::int_arg("id", id, 0, u32::MAX)?;
        self.doc.node(NodeId(id)).ok_or_else(|| PyValueError::new_err(format!("{}: there is no node #{id} (nodes: {})", self.path.display(), self.doc.nodes.iter().map(|n| n.id.0.to_string()).collect::<Vec<_>>().join(", "))))
    }

    /// Which input ports of node `id` are linked, in port order.
    fn connected(&self, id: NodeId, kind: NodeKind) -> Vec<bool> {
        kind.meta().inputs.iter().map(|p| self.doc.links.iter().any(|l| l.to == id && l.input == p.name)).collect()
    }
}

#[pymethods]
impl Graph {
    /// Loads a graph file (RON). Older format versions are brought up to date, with a
    /// UserWarning per change; an unusable file raises GraphFileError with the file, line and
    /// column or the node.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Graph> {
        let (doc, notes) = io::load_graph_noting(&path, Strictness::Complete).map_err(|e| GraphFileError::new_err(e.to_string()))?;
        warn_notes(py, &path, notes)?;
        Ok(Graph { doc, path, rasters: None })
    }

    /// Reads a graph from RON text; `name` stands for the file in messages.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<string>"))]
    fn from_ron(py: Python<'_>, text: &str, name: &str) -> PyResult<Graph> {
        let path = PathBuf::from(name);
        let (doc, notes) = io::parse_graph_noting(text, &path, Strictness::Complete).map_err(|e| GraphFileError::new_err(e.to_string()))?;
        warn_notes(py, &path, notes)?;
        Ok(Graph { doc, path, rasters: None })
    }

    /// The graph as RON text, as the editor saves it.
    fn to_ron(&self) -> PyResult<String> {
        io::to_ron_string(&self.doc).map_err(|e| PlanetGraphError::new_err(format!("{}: cannot write the graph: {e}", self.path.display())))
    }

    /// Saves the graph to `path` (written beside and renamed, so a failure leaves any previous
    /// file whole); later messages name that file.
    fn save(&mut self, path: PathBuf) -> PyResult<()> {
        crate::raster::prepare_save(self, &path)?;
        io::save_graph(&path, &self.doc).map_err(|e| PlanetGraphError::new_err(e.to_string()))?;
        self.path = path;
        Ok(())
    }

    /// The file the graph came from (or the name given to `from_ron`).
    #[getter]
    fn path(&self) -> String {
        self.path.display().to_string()
    }

    /// A copy that can be changed on its own.
    fn copy(&self) -> Graph {
        self.clone()
    }

    /// Every node, in id order.
    fn nodes(&self) -> Vec<NodeInfo> {
        let mut ids: Vec<NodeId> = self.doc.nodes.iter().map(|n| n.id).collect();
        ids.sort();
        ids.into_iter().filter_map(|id| self.doc.node(id)).map(node_info).collect()
    }

    /// One node by id.
    fn node_info(&self, id: i64) -> PyResult<NodeInfo> {
        self.node(id).map(node_info)
    }

    /// The ids of the nodes of a kind (its saved identifier such as `Noise`, or its label such
    /// as `Plate elevation`) or with that title, in id order.
    fn find(&self, kind_or_title: &str) -> Vec<u32> {
        let mut ids: Vec<u32> = self.doc.nodes.iter().filter(|n| format!("{:?}", n.kind) == kind_or_title || n.kind.meta().label == kind_or_title || n.title() == kind_or_title).map(|n| n.id.0).collect();
        ids.sort();
        ids
    }

    /// The parameters of node `id` with types, units, ranges, options and values.
    fn params(&self, py: Python<'_>, id: i64) -> PyResult<Vec<ParamInfo>> {
        let node = self.node(id)?;
        node.kind.params().iter().map(|d| params::describe(py, d, node.params.get(d.name).unwrap_or(&d.default_value()))).collect()
    }

    /// The value of parameter `name` of node `id`.
    fn get(&self, py: Python<'_>, id: i64, name: &str) -> PyResult<Py<PyAny>> {
        let node = self.node(id)?;
        let def = node.kind.params().iter().find(|d| d.name == name).ok_or_else(|| unknown_param(node, name))?;
        params::to_python(py, node.params.get(name).unwrap_or(&def.default_value()))
    }

    /// Sets parameter `name` of node `id` to `value`, checked as the editor and graph files
    /// check it (type, range, options, and the node's own rules such as an Export's Low below
    /// High): a value that does not fit raises ValueError naming the node and the parameter
    /// and changes nothing.
    fn set(&mut self, id: i64, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let node = self.node(id)?;
        let def = *node.kind.params().iter().find(|d| d.name == name).ok_or_else(|| unknown_param(node, name))?;
        let what = node.describe();
        let v = params::from_python(&what, &def, value)?;
        let (kind, nid) = (node.kind, node.id);
        let mut values = node.params.clone();
        values.insert(name.to_string(), v.clone());
        kind.check(&values, &self.connected(nid, kind)).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))?;
        self.doc.set_param(nid, name, v);
        Ok(())
    }

    /// Adds `offset` to every seed parameter (modulo 2^32, so a negative offset counts back),
    /// so the graph makes another planet of the same design; `reseed(0)` changes nothing.
    /// Returns the number of seeds changed.
    fn reseed(&mut self, offset: i64) -> usize {
        let offset = offset.rem_euclid(1 << 32) as u32;
        let mut changed = 0;
        for node in &mut self.doc.nodes {
            for def in node.kind.params() {
                if let planetgraph_core::nodes::ParamSpec::Seed { default } = def.spec {
                    let old = match node.params.get(def.name) {
                        Some(ParamValue::Seed(s)) => *s,
                        _ => default,
                    };
                    node.params.insert(def.name.to_string(), ParamValue::Seed(old.wrapping_add(offset)));
                    changed += 1;
                }
            }
        }
        changed
    }

    fn __repr__(&self) -> String {
        format!("<Graph {} ({} nodes, {} links)>", self.path.display(), self.doc.nodes.len(), self.doc.links.len())
    }

    /// Pickled as its RON text and the arrays given with `set_raster` (Ray and multiprocessing
    /// send graphs this way).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let text = self.to_ron()?;
        let ctor = py.get_type::<Graph>().getattr("_restore")?;
        let args = (text, self.path.display().to_string(), crate::raster::carried(self)?).into_pyobject(py)?;
        Ok((ctor, args))
    }

    /// A pickled graph back (see `__reduce__`).
    #[staticmethod]
    fn _restore(py: Python<'_>, text: &str, name: &str, arrays: crate::raster::Carried) -> PyResult<Graph> {
        let mut g = Graph::from_ron(py, text, name)?;
        crate::raster::restore(&mut g, arrays)?;
        Ok(g)
    }

    /// Sets an Import raster node to read a numpy array instead of a file; see
    /// `planetgraph.Graph.set_raster`.
    #[pyo3(signature = (node, array, layout = "globe", bounds = None))]
    fn set_raster(&mut self, node: i64, array: numpy::PyReadonlyArrayDyn<'_, f32>, layout: &str, bounds: Option<(f64, f64, f64, f64)>) -> PyResult<()> {
        crate::raster::set_raster(self, node, array, layout, bounds)
    }

    /// Evaluates the graph at `resolution` cells per face edge; see `planetgraph.Graph.evaluate`.
    #[pyo3(signature = (resolution = 256, outputs = None, threads = None, progress = None, projection = "faces", width = None))]
    // The Python method's keyword arguments, one each.
    #[allow(clippy::too_many_arguments)]
    fn evaluate<'py>(&self, py: Python<'py>, resolution: i64, outputs: Option<Vec<Bound<'py, PyAny>>>, threads: Option<i64>, progress: Option<Bound<'py, PyAny>>, projection: &str, width: Option<i64>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let resolution = crate::run::int_arg("resolution", resolution, 1, planetgraph_core::limits::MAX_RESOLUTION)?;
        let width = width.map(|w| crate::run::int_arg("width", w, 2, 1 << 20)).transpose()?;
        crate::run::evaluate(py, self, resolution, outputs, crate::run::threads_arg(threads)?, progress, projection, width)
    }

    /// Evaluates the graph on one tile; see `planetgraph.Graph.evaluate_tile`.
    #[pyo3(signature = (face, level, column, row, size, outputs = None, whole_level = 1024, threads = None, progress = None))]
    // The Python method's keyword arguments, one each.
    #[allow(clippy::too_many_arguments)]
    fn evaluate_tile<'py>(
        &self,
        py: Python<'py>,
        face: Bound<'py, PyAny>,
        level: i64,
        column: i64,
        row: i64,
        size: i64,
        outputs: Option<Vec<Bound<'py, PyAny>>>,
        whole_level: i64,
        threads: Option<i64>,
        progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        use crate::run::int_arg;
        let level = int_arg("level", level, 1, u32::MAX)?;
        let (column, row) = (int_arg("column", column, 0, u32::MAX)? as usize, int_arg("row", row, 0, u32::MAX)? as usize);
        let size = int_arg("size", size, 1, u32::MAX)? as usize;
        let whole_level = int_arg("whole_level", whole_level, 1, planetgraph_core::limits::MAX_RESOLUTION)?;
        crate::run::evaluate_tile(py, self, &face, level, column, row, size, outputs, whole_level, crate::run::threads_arg(threads)?, progress)
    }

    /// Builds the graph's exports and manifest into `out_dir`, as `planetgraph build` does
    /// (with `tiles=(i, n)` share i of n, as `--tiles i/n`; a build above `memory_gib` is
    /// tiled, as `--memory`); returns the manifest.
    #[pyo3(signature = (out_dir, resolution = 512, threads = None, progress = None, tiles = None, memory_gib = 4.0))]
    // The keyword arguments of the Python method, one by one.
    #[allow(clippy::too_many_arguments)]
    fn build<'py>(&self, py: Python<'py>, out_dir: PathBuf, resolution: i64, threads: Option<i64>, progress: Option<Bound<'py, PyAny>>, tiles: Option<(i64, i64)>, memory_gib: f64) -> PyResult<Bound<'py, PyAny>> {
        use crate::run::int_arg;
        let resolution = int_arg("resolution", resolution, 1, planetgraph_core::limits::MAX_RESOLUTION)?;
        let tiles = tiles.map(|(i, n)| Ok::<_, PyErr>((int_arg("tiles", i, 1, u32::MAX)? as usize, int_arg("tiles", n, 1, u32::MAX)? as usize))).transpose()?;
        crate::run::build(py, self, &out_dir, resolution, crate::run::threads_arg(threads)?, progress, tiles, memory_gib)
    }
}

fn node_info(n: &planetgraph_core::graph::Node) -> NodeInfo {
    let meta = n.kind.meta();
    NodeInfo {
        id: n.id.0,
        kind: format!("{:?}", n.kind),
        title: n.title().to_string(),
        category: meta.category.name().to_string(),
        inputs: meta.inputs.iter().map(|p| p.name.to_string()).collect(),
        outputs: meta.outputs.iter().map(|p| p.name.to_string()).collect(),
        describe: n.describe(),
    }
}

fn unknown_param(node: &planetgraph_core::graph::Node, name: &str) -> PyErr {
    PyValueError::new_err(format!("{}: there is no parameter '{name}' (its parameters: {})", node.describe(), node.kind.params().iter().map(|d| d.name).collect::<Vec<_>>().join(", ")))
}
