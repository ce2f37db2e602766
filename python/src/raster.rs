//! `Graph.set_raster`: a numpy array as the file of an Import raster node. The array is written
//! as RAW 32-bit floats into a folder that the graph object owns (removed with its last copy),
//! and the node's settings name those files; pickling carries the arrays, and `save` writes
//! them beside the graph file, so the saved graph reads them from there.

use crate::graph::Graph;
use numpy::{PyReadonlyArrayDyn, PyUntypedArrayMethods};
use planetgraph_core::graph::NodeId;
use planetgraph_core::nodes::sources::import_raster::{ImportFormat, ImportLayout, ImportRasterSettings};
use planetgraph_core::nodes::{NodeKind, ParamValue};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The folder of a graph's arrays, removed when the last graph object that uses it goes.
pub type RasterDir = Option<Arc<tempfile::TempDir>>;

/// The arrays of a graph's Import raster nodes as pickling carries them: (node id, [(file
/// name, bytes)]).
pub type Carried = Vec<(u32, Vec<(String, Vec<u8>)>)>;

fn value_err(msg: String) -> PyErr {
    PyValueError::new_err(msg)
}

/// The node's `{n}`-expanded files among `dir`'s, with their names.
fn files_of(g: &Graph, id: NodeId, dir: &Path) -> Vec<PathBuf> {
    let Some(node) = g.doc.node(id) else { return Vec::new() };
    node.kind.files(&node.params).into_iter().map(|(p, _)| PathBuf::from(p)).filter(|p| p.starts_with(dir)).collect()
}

/// Sets node `id` (an Import raster node) to read `array`: 2-D (rows from the north, columns
/// from the west) for `globe` and `patch` (with `bounds` = west, east, south, north in
/// degrees), 6 x N x N for `faces` (PlanetGraph's order) and `faces_gl` (OpenGL's). NaN is no
/// data; infinities are refused.
pub fn set_raster(g: &mut Graph, id: i64, array: PyReadonlyArrayDyn<'_, f32>, layout: &str, bounds: Option<(f64, f64, f64, f64)>) -> PyResult<()> {
    let node = g.node(id)?;
    let (nid, what) = (node.id, node.describe());
    if node.kind != NodeKind::ImportRaster {
        return Err(value_err(format!("{what}: set_raster needs an Import raster node (add one with kind ImportRaster)")));
    }
    let layout = ImportLayout::from_id(layout).ok_or_else(|| value_err(format!("{what}: layout '{layout}' is none of globe, patch, faces, faces_gl")))?;
    let shape = array.shape().to_vec();
    let faces = matches!(layout, ImportLayout::Faces | ImportLayout::FacesGl);
    let (count, height, width) = match (faces, shape.as_slice()) {
        (false, [h, w]) => (1, *h, *w),
        (true, [6, h, w]) if h == w => (6, *h, *w),
        _ => return Err(value_err(format!("{what}: array has shape {shape:?}; layout '{}' takes {}", layout.id(), if faces { "(6, N, N)" } else { "(rows, columns)" }))),
    };
    if width == 0 || height == 0 || (width * height) as u64 > planetgraph_core::raster::MAX_PIXELS {
        return Err(value_err(format!("{what}: array of {width} x {height} pixels per image; at least 1 and at most {} (2^28)", planetgraph_core::raster::MAX_PIXELS)));
    }
    let values = array.as_array();
    if values.iter().any(|v| v.is_infinite()) {
        return Err(value_err(format!("{what}: array holds infinities (NaN marks no data; infinity is refused)")));
    }
    let patch = layout == ImportLayout::Patch;
    if patch != bounds.is_some() {
        return Err(value_err(format!("{what}: bounds (west, east, south, north in degrees) go with layout 'patch' and only with it")));
    }
    // A copy of the graph shares the folder: the first change makes it a folder of its own.
    if g.rasters.as_ref().is_some_and(|d| Arc::strong_count(d) > 1) {
        let arrays = carried(g)?;
        restore(g, arrays)?;
    }
    let dir = match &g.rasters {
        Some(d) => d.clone(),
        None => Arc::new(tempfile::Builder::new().prefix("planetgraph-rasters-").tempdir().map_err(|e| value_err(format!("{what}: no folder for the array: {e}")))?),
    };
    // The node's earlier arrays go.
    for old in files_of(g, nid, dir.path()) {
        // Best effort: an absent file is what is wanted.
        let _ = std::fs::remove_file(old);
    }
    let stem = format!("node{}", nid.0);
    let flat: Vec<f32> = values.iter().copied().collect();
    for k in 0..count {
        let name = if faces { format!("{stem}_{k}.r32") } else { format!("{stem}.r32") };
        let bytes: Vec<u8> = flat[k * width * height..(k + 1) * width * height].iter().flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(dir.path().join(name), bytes).map_err(|e| value_err(format!("{what}: cannot write the array: {e}")))?;
    }
    let path = dir.path().join(if faces { format!("{stem}_{{n}}.r32") } else { format!("{stem}.r32") });
    let k = ImportRasterSettings::KEYS;
    let mut set = |key: &str, v: ParamValue| g.doc.set_param(nid, key, v);
    set(k.path, ParamValue::Text(path.to_string_lossy().to_string()));
    set(k.format, ParamValue::Choice(ImportFormat::Raw32.id().to_string()));
    set(k.raw_width, ParamValue::Int(width as i64));
    set(k.raw_height, ParamValue::Int(height as i64));
    set(k.big_endian, ParamValue::Bool(false));
    set(k.layout, ParamValue::Choice(layout.id().to_string()));
    if let Some((west, east, south, north)) = bounds {
        set(k.georeferenced, ParamValue::Bool(false));
        for (key, v) in [(k.west_deg, west), (k.east_deg, east), (k.south_deg, south), (k.north_deg, north)] {
            set(key, ParamValue::Float(v as f32));
        }
    }
    let node = g.node(id)?;
    node.kind.check(&node.params, &[]).map_err(|e| value_err(format!("{what}: {e}")))?;
    g.rasters = Some(dir);
    Ok(())
}

/// The arrays the graph's nodes read from its own folder, for pickling.
pub fn carried(g: &Graph) -> PyResult<Carried> {
    let Some(dir) = &g.rasters else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for node in g.doc.nodes.iter().filter(|n| n.kind == NodeKind::ImportRaster) {
        let mut files = Vec::new();
        for path in files_of(g, node.id, dir.path()) {
            let bytes = std::fs::read(&path).map_err(|e| value_err(format!("{}: cannot read its array {}: {e}", node.describe(), path.display())))?;
            files.push((path.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default(), bytes));
        }
        if !files.is_empty() {
            out.push((node.id.0, files));
        }
    }
    Ok(out)
}

/// Writes carried arrays into a folder of the graph's own and points their nodes there.
pub fn restore(g: &mut Graph, arrays: Carried) -> PyResult<()> {
    if arrays.is_empty() {
        return Ok(());
    }
    let dir = Arc::new(tempfile::Builder::new().prefix("planetgraph-rasters-").tempdir().map_err(|e| value_err(format!("no folder for the graph's arrays: {e}")))?);
    for (id, files) in arrays {
        let nid = NodeId(id);
        let Some(node) = g.doc.node(nid) else { continue };
        let Some(ParamValue::Text(old)) = node.params.get(ImportRasterSettings::KEYS.path).cloned() else { continue };
        for (name, bytes) in files {
            if name.contains('/') || name.contains('\\') || name.starts_with('.') {
                return Err(value_err(format!("#{id}: refused array file name '{name}'")));
            }
            std::fs::write(dir.path().join(&name), bytes).map_err(|e| value_err(format!("#{id}: cannot write its array: {e}")))?;
        }
        let file = Path::new(&old).file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default();
        g.doc.set_param(nid, ImportRasterSettings::KEYS.path, ParamValue::Text(dir.path().join(file).to_string_lossy().to_string()));
    }
    g.rasters = Some(dir);
    Ok(())
}

/// Before saving the graph as `path`: the arrays of its own folder are copied beside the file
/// (`STEM.nodeID.r32`, `STEM.nodeID_K.r32` for faces) and every relative path is rewritten for
/// the new folder, so the saved graph reads the same data wherever it is opened.
pub fn prepare_save(g: &mut Graph, path: &Path) -> PyResult<()> {
    let Some(to) = planetgraph_core::io::graph_file::folder_of(path) else { return Ok(()) };
    // Paths relative to the old folder first (the arrays' own paths are absolute and stay).
    g.doc.move_files_to(&to);
    let Some(own) = g.rasters.as_ref().map(|d| d.path().to_path_buf()) else { return Ok(()) };
    let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "graph".into());
    let ids: Vec<NodeId> = g.doc.nodes.iter().map(|n| n.id).collect();
    for id in ids {
        let files = files_of(g, id, &own);
        if files.is_empty() {
            continue;
        }
        for f in &files {
            let name = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            std::fs::copy(f, to.join(format!("{stem}.{name}"))).map_err(|e| value_err(format!("#{}: cannot copy its array beside {}: {e}", id.0, path.display())))?;
        }
        if let Some(ParamValue::Text(old)) = g.doc.node(id).and_then(|n| n.params.get(ImportRasterSettings::KEYS.path)).cloned() {
            let name = Path::new(&old).file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default();
            g.doc.set_param(id, ImportRasterSettings::KEYS.path, ParamValue::Text(format!("{stem}.{name}")));
        }
    }
    Ok(())
}
