//! Reading and writing graph files (RON). Errors name the file and the line/column or node;
//! saving writes a temporary file beside the target and renames it, so a crash mid-save never
//! destroys the previous file.

use super::migrate::migrate;
use crate::graph::{validate, Graph, GraphError, FORMAT_VERSION};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a graph file could not be used.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: cannot read the file: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The path is not a regular file (a folder, a FIFO, a device such as `/dev/zero`), or
    /// one too large to be a graph.
    #[error("{path}: not a graph file: {why}")]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead.
        why: String,
    },
    /// The file is not UTF-8 text.
    #[error("{path}:{line}:{column}: not a text file (invalid UTF-8 at byte {offset}); graph files are RON text")]
    NotText {
        /// The file.
        path: PathBuf,
        /// First bad byte.
        offset: usize,
        /// 1-based line of that byte.
        line: usize,
        /// 1-based column (characters) of that byte.
        column: usize,
    },
    /// The RON text does not describe a graph.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// A format version this program does not know.
    #[error("{path}:{line}:{column}: format version {found} is not supported (this PlanetGraph reads versions 1 to {FORMAT_VERSION})")]
    Version {
        /// The file.
        path: PathBuf,
        /// Version found in the file.
        found: u32,
        /// 1-based line of the `version` field.
        line: usize,
        /// 1-based column of the `version` field.
        column: usize,
    },
    /// The graph is well-formed RON but its nodes or links are wrong.
    #[error("{path}: {}", .errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Every problem, each naming its node.
        errors: Vec<GraphError>,
    },
}

/// Why saving failed (the previous file is untouched).
#[derive(Debug, Error)]
#[error("{path}: cannot save: {source}")]
pub struct SaveError {
    /// The target file.
    pub path: PathBuf,
    /// The OS error.
    pub source: std::io::Error,
}

/// How strictly to check a loaded graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strictness {
    /// Everything must be valid, including every input connected (`check`, `build`, `render`).
    Complete,
    /// Structure must be valid, but unconnected inputs are allowed (the editor opens work in
    /// progress and shows those errors on the nodes).
    Editable,
}

/// The graph in RON text, migrated to the current version, not yet validated, with what the
/// migration changed (see [`migrate`]).
fn parse_migrated(text: &str, path: &Path) -> Result<(Graph, Vec<String>), LoadError> {
    let mut g: Graph = ron::from_str(text).map_err(|e| LoadError::Syntax { path: path.to_path_buf(), line: e.position.line.max(1), column: e.position.col.max(1), message: e.code.to_string() })?;
    if g.version == 0 || g.version > FORMAT_VERSION {
        let at = version_field(text).unwrap_or(0);
        let (line, column) = line_column(text, at);
        return Err(LoadError::Version { path: path.to_path_buf(), found: g.version, line, column });
    }
    let notes = migrate(&mut g);
    Ok((g, notes))
}

/// Parses graph text; `path` is only used in messages.
pub fn parse_graph(text: &str, path: &Path, strictness: Strictness) -> Result<Graph, LoadError> {
    parse_graph_noting(text, path, strictness).map(|(g, _)| g)
}

/// Like [`parse_graph`], and also returns what bringing an older file up to date changed,
/// one sentence per node whose result differs (see [`migrate`]), for the caller to show.
pub fn parse_graph_noting(text: &str, path: &Path, strictness: Strictness) -> Result<(Graph, Vec<String>), LoadError> {
    let (mut g, notes) = parse_migrated(text, path)?;
    let errors: Vec<GraphError> = validate(&g).into_iter().filter(|e| strictness == Strictness::Complete || e.missing_input.is_none()).collect();
    if !errors.is_empty() {
        return Err(LoadError::Invalid { path: path.to_path_buf(), errors });
    }
    g.normalize();
    Ok((g, notes))
}

/// A graph opened for editing, with what had to be repaired to open it.
#[derive(Debug, Clone, PartialEq)]
pub struct Opened {
    /// The graph (it may still have errors; the editor shows them on the nodes).
    pub graph: Graph,
    /// What was taken out so the editor can hold the graph, one sentence each naming its
    /// node (see [`crate::graph::repair::repair`]); empty for a file the editor wrote.
    pub repairs: Vec<String>,
    /// The graph as the file holds it, before the repairs (the same as `graph` when there
    /// were none): an editor compares against it to know the document is unsaved.
    pub original: Graph,
    /// What bringing a file of an older format up to date changed, one sentence per node
    /// whose result differs (see [`migrate`]).
    pub updated: Vec<String>,
}

/// Parses graph text for the editor: a file with errors opens so that it can be repaired.
/// Only text that is no graph, an unknown version, duplicate node ids and broken groups are
/// refused; what the editor cannot hold is taken out and listed in [`Opened::repairs`].
pub fn parse_for_editing(text: &str, path: &Path) -> Result<Opened, LoadError> {
    let (mut g, updated) = parse_migrated(text, path)?;
    let errors = crate::graph::repair::unrepairable(&g);
    if !errors.is_empty() {
        return Err(LoadError::Invalid { path: path.to_path_buf(), errors });
    }
    g.normalize();
    let original = g.clone();
    let repairs = crate::graph::repair::repair(&mut g);
    g.normalize();
    Ok(Opened { graph: g, repairs, original, updated })
}

/// Reads a graph file for the editor (see [`parse_for_editing`]).
pub fn open_for_editing(path: &Path) -> Result<Opened, LoadError> {
    let mut opened = parse_for_editing(&read_text(path)?, path)?;
    opened.graph.folder = folder_of(path);
    opened.original.folder = folder_of(path);
    Ok(opened)
}

/// The folder of the graph file at `path`, as absolute as it can be made: what the files its
/// nodes read are relative to ([`Graph::folder`]).
pub fn folder_of(path: &Path) -> Option<std::path::PathBuf> {
    let parent = path.parent()?;
    std::path::absolute(parent).ok().or_else(|| Some(parent.to_path_buf()))
}

/// The largest graph file read, in bytes (a graph of 100 000 nodes is about 8 MB).
pub const MAX_GRAPH_BYTES: u64 = 64 << 20;

/// Reads a text file of the editor's (a graph, a recovery copy's name file, the recent-files
/// list): regular files only (a FIFO would block, `/dev/zero` never ends), at most
/// [`MAX_GRAPH_BYTES`], UTF-8; each refusal names the file.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    use std::io::Read;
    let io = |source| LoadError::Io { path: path.to_path_buf(), source };
    let not_a_file = |why: String| LoadError::NotAFile { path: path.to_path_buf(), why };
    // Only regular files: a FIFO would block and a device such as /dev/zero never ends.
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        let what = if meta.is_dir() { "a folder" } else { "a device, pipe or socket, not a regular file" };
        return Err(not_a_file(what.to_string()));
    }
    if meta.len() > MAX_GRAPH_BYTES {
        return Err(not_a_file(format!("{} bytes, more than the {} MB a graph file may have", meta.len(), MAX_GRAPH_BYTES >> 20)));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path).map_err(io)?.take(MAX_GRAPH_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > MAX_GRAPH_BYTES {
        return Err(not_a_file(format!("it grew past the {} MB a graph file may have while it was read", MAX_GRAPH_BYTES >> 20)));
    }
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let valid = String::from_utf8_lossy(&e.as_bytes()[..offset]).to_string();
        let (line, column) = line_column(&valid, offset);
        LoadError::NotText { path: path.to_path_buf(), offset, line, column }
    })
}

/// The 1-based line and column (in characters) of byte `offset` of `text` (its end where
/// `offset` lies beyond it).
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The byte offset of the graph's `version` field in its RON text (the first `version` key
/// followed by a colon), if found.
fn version_field(text: &str) -> Option<usize> {
    text.match_indices("version").map(|(i, _)| i).find(|&i| text[i + "version".len()..].trim_start().starts_with(':'))
}

/// Reads and parses a graph file.
pub fn load_graph(path: &Path, strictness: Strictness) -> Result<Graph, LoadError> {
    load_graph_noting(path, strictness).map(|(g, _)| g)
}

/// Reads a graph file, with what bringing it up to date changed (see [`parse_graph_noting`]).
pub fn load_graph_noting(path: &Path, strictness: Strictness) -> Result<(Graph, Vec<String>), LoadError> {
    let (mut g, notes) = parse_graph_noting(&read_text(path)?, path, strictness)?;
    g.folder = folder_of(path);
    Ok((g, notes))
}

/// The RON text of a graph (sorted, pretty, with a format version).
pub fn to_ron_string(g: &Graph) -> Result<String, ron::Error> {
    let mut g = g.clone();
    g.normalize();
    let cfg = ron::ser::PrettyConfig::new().depth_limit(4).indentor("  ".to_string()).struct_names(false);
    ron::ser::to_string_pretty(&g, cfg)
}

/// Writes `text` to `path` atomically: a temporary file in the same folder, flushed, then
/// renamed over the target.
pub fn write_atomic(path: &Path, text: &[u8]) -> Result<(), SaveError> {
    let err = |source| SaveError { path: path.to_path_buf(), source };
    let (tmp, mut f) = super::atomic::create_temporary_beside(path).map_err(err)?;
    let result = (|| {
        use std::io::Write;
        f.write_all(text)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        // Cleaning up after a failure: the failure itself is what gets reported.
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(err)
}

/// Saves a graph to `path` atomically. Nothing is written if the graph cannot be serialised.
pub fn save_graph(path: &Path, g: &Graph) -> Result<(), SaveError> {
    let text = to_ron_string(g).map_err(|e| SaveError { path: path.to_path_buf(), source: std::io::Error::new(std::io::ErrorKind::InvalidData, e) })?;
    write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;

    #[test]
    fn syntax_errors_have_line_and_column() {
        let text = "(\n  version: 1,\n  nodes: [\n    (id: 1, kind: Noize),\n  ],\n)";
        let e = parse_graph(text, Path::new("x.ron"), Strictness::Complete).expect_err("bad kind");
        let s = e.to_string();
        assert!(s.starts_with("x.ron:4:"), "{s}");
        assert!(s.contains("Noize"), "{s}");
    }

    #[test]
    fn round_trip_and_versions() {
        let mut g = Graph::default();
        let a = g.add_node(NodeKind::Noise, (10.0, 20.0));
        let p = g.add_node(NodeKind::Planet, (200.0, 20.0));
        g.link(a, crate::nodes::FIELD_OUT, p, crate::nodes::output::planet::ELEVATION).expect("link");
        let text = to_ron_string(&g).expect("serialise");
        let back = parse_graph(&text, Path::new("g.ron"), Strictness::Complete).expect("valid");
        assert_eq!(back, g);
        let newer = text.replace(&format!("version: {FORMAT_VERSION}"), "version: 99");
        let e = parse_graph(&newer, Path::new("g.ron"), Strictness::Complete).expect_err("newer");
        assert!(matches!(e, LoadError::Version { found: 99, line: 2, column: 3, .. }), "{e:?}");
        assert!(e.to_string().starts_with("g.ron:2:3: format version 99"), "{e}");
    }

    #[test]
    fn invalid_utf8_is_located() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("bin.ron");
        std::fs::write(&path, b"(\n  version: 3,\n  n\xffodes: [],\n)").expect("write");
        let e = read_text(&path).expect_err("not UTF-8");
        assert!(matches!(e, LoadError::NotText { offset: 19, line: 3, column: 4, .. }), "{e:?}");
        assert!(e.to_string().contains("bin.ron:3:4: not a text file"), "{e}");
    }

    #[test]
    fn incomplete_graphs_open_in_the_editor_only() {
        let mut g = Graph::default();
        g.add_node(NodeKind::Add, (0.0, 0.0));
        let text = to_ron_string(&g).expect("serialise");
        assert!(parse_graph(&text, Path::new("g.ron"), Strictness::Editable).is_ok());
        let e = parse_graph(&text, Path::new("g.ron"), Strictness::Complete).expect_err("unconnected");
        assert!(e.to_string().contains("Add #1: input 'a' is not connected"), "{e}");
    }

    #[test]
    fn atomic_save_replaces_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("p.ron");
        std::fs::write(&path, "old").expect("write");
        let mut g = Graph::default();
        g.add_node(NodeKind::Constant, (0.0, 0.0));
        save_graph(&path, &g).expect("save");
        assert_eq!(load_graph(&path, Strictness::Complete).ok(), Some(g.clone()));
        let names: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").map(|e| e.expect("entry").file_name()).collect();
        assert_eq!(names.len(), 1, "{names:?}");
        // Saving into a folder that does not exist fails and says where.
        let bad = dir.path().join("missing").join("x.ron");
        assert!(save_graph(&bad, &g).expect_err("no folder").to_string().contains("missing"));
    }
}
