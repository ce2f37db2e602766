//! The `planetgraph._native` extension module: PlanetGraph's library seen from Python (see
//! `python/planetgraph/__init__.py` for the package and `_native.pyi` for the API with types).
//!
//! Errors carry the CLI's located messages: a graph file that cannot be used raises
//! `GraphFileError` (`file:line:column: ...` or `file: Node #id: ...`), a parameter value that
//! does not fit raises `ValueError` naming the node and the parameter, a failed evaluation or
//! build raises `PlanetGraphError` naming the node; Ctrl+C raises `KeyboardInterrupt` after the
//! work has stopped.

mod arrays;
mod graph;
mod params;
mod raster;
mod run;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(planetgraph, PlanetGraphError, PyException, "An evaluation or build failed; the message names the graph file and the node.");
create_exception!(planetgraph, GraphFileError, PlanetGraphError, "A graph file (or RON text) could not be used; the message names the file and the line and column or the node.");

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<graph::Graph>()?;
    m.add_class::<graph::NodeInfo>()?;
    m.add_class::<params::ParamInfo>()?;
    m.add("PlanetGraphError", m.py().get_type::<PlanetGraphError>())?;
    m.add("GraphFileError", m.py().get_type::<GraphFileError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("FORMAT_VERSION", planetgraph_core::graph::FORMAT_VERSION)?;
    m.add("MAX_RESOLUTION", planetgraph_core::limits::MAX_RESOLUTION)?;
    m.add("FACES", pyo3::types::PyTuple::new(m.py(), planetgraph_core::planet::Face::ALL.map(|f| f.name()))?)?;
    m.add_function(wrap_pyfunction!(graph::node_kinds, m)?)?;
    m.add_function(wrap_pyfunction!(run::merge, m)?)?;
    Ok(())
}
