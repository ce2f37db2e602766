//! The user's library of groups: one graph file per group in a folder, each holding the
//! group and its nodes. Saved groups appear in the node finder under "My groups". No UI types.

use planetgraph_core::graph::part::subgraph;
use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::io::{load_graph, save_graph, LoadError, SaveError, Strictness};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use thiserror::Error;

/// The library folder: `$PLANETGRAPH_LIBRARY_DIR`, else `$XDG_DATA_HOME/planetgraph/groups`,
/// else `~/.local/share/planetgraph/groups`; `None` without a home folder.
pub fn default_library_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("PLANETGRAPH_LIBRARY_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d).join("planetgraph/groups"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/planetgraph/groups"))
}

/// Why a library file cannot be used or written.
#[derive(Debug, Error)]
pub enum LibraryError {
    /// The file is not a valid graph.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The file is a graph but not one group holding all its nodes.
    #[error("{0}: a library file holds exactly one group with all of its nodes")]
    NotAGroup(PathBuf),
    /// The folder could not be read or made.
    #[error("{path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// Writing failed.
    #[error(transparent)]
    Save(#[from] SaveError),
    /// No such group in the graph.
    #[error("{0} is not a group")]
    NoGroup(NodeId),
}

/// One saved group.
#[derive(Debug, Clone)]
pub struct LibraryGroup {
    /// Its file.
    pub path: PathBuf,
    /// The group and its nodes (closed).
    pub body: Arc<Graph>,
}

/// The groups of a library folder.
#[derive(Debug, Clone, Default)]
pub struct Library {
    /// The folder.
    pub dir: PathBuf,
    /// The groups, by file name.
    pub groups: Vec<LibraryGroup>,
}

/// Reads one library file.
fn read_group(path: &Path) -> Result<Graph, LibraryError> {
    let mut g = load_graph(path, Strictness::Editable)?;
    match g.groups.as_mut_slice() {
        [grp] if grp.members.len() == g.nodes.len() => {
            grp.open = false;
            Ok(g)
        }
        _ => Err(LibraryError::NotAGroup(path.to_path_buf())),
    }
}

impl Library {
    /// Reads every `.ron` file of `dir` (a missing folder is an empty library). Returns the
    /// library and the files that could not be used, each with its reason.
    pub fn load(dir: &Path) -> (Library, Vec<LibraryError>) {
        let mut lib = Library { dir: dir.to_path_buf(), groups: Vec::new() };
        let mut errors = Vec::new();
        let Ok(entries) = std::fs::read_dir(dir) else { return (lib, errors) };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect();
        paths.sort();
        for path in paths {
            match read_group(&path) {
                Ok(body) => lib.groups.push(LibraryGroup { path, body: Arc::new(body) }),
                Err(e) => errors.push(e),
            }
        }
        (lib, errors)
    }

    /// Saves group `id` of `g` (closed, with its nodes) as `<name>.ron` in the folder, made
    /// if needed, replacing a file of that name; the library then lists it. Returns the file.
    pub fn save(&mut self, g: &Graph, id: NodeId) -> Result<PathBuf, LibraryError> {
        let grp = g.group(id).ok_or(LibraryError::NoGroup(id))?;
        let mut body = subgraph(g, &[id]);
        body.groups.iter_mut().for_each(|grp| grp.open = false);
        std::fs::create_dir_all(&self.dir).map_err(|source| LibraryError::Folder { path: self.dir.clone(), source })?;
        let path = self.dir.join(format!("{}.ron", file_stem(&grp.label)));
        save_graph(&path, &body)?;
        self.groups.retain(|e| e.path != path);
        self.groups.push(LibraryGroup { path: path.clone(), body: Arc::new(body) });
        self.groups.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(path)
    }
}

/// A file name for a group title: letters, digits, spaces, `-` and `_` kept, the rest `_`.
fn file_stem(label: &str) -> String {
    let s: String = label.trim().chars().map(|c| if c.is_alphanumeric() || matches!(c, ' ' | '-' | '_') { c } else { '_' }).collect();
    if s.is_empty() {
        "group".into()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use planetgraph_core::nodes::NodeKind;

    #[test]
    fn a_saved_group_is_listed_and_bad_files_say_why() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut g = Graph::default();
        let a = g.add_node(NodeKind::Noise, (0.0, 0.0));
        let b = g.add_node(NodeKind::Terrace, (260.0, 0.0));
        let p = g.add_node(NodeKind::Planet, (520.0, 0.0));
        g.link(a, planetgraph_core::nodes::FIELD_OUT, b, planetgraph_core::nodes::FIELD_IN).expect("link");
        g.link(b, planetgraph_core::nodes::FIELD_OUT, p, planetgraph_core::nodes::output::planet::ELEVATION).expect("link");
        let id = g.make_group(&[a, b], "Steps/ridges").expect("group");
        let lib_dir = dir.path().join("groups");
        let (mut lib, errors) = Library::load(&lib_dir);
        assert!(lib.groups.is_empty() && errors.is_empty(), "a missing folder is an empty library");
        let path = lib.save(&g, id).expect("saved");
        assert_eq!(path.file_name().and_then(|n| n.to_str()), Some("Steps_ridges.ron"));
        std::fs::write(lib_dir.join("plain.ron"), "(version: 2, nodes: [(id: 1, kind: Noise)])").expect("write");
        let (again, errors) = Library::load(&lib_dir);
        assert_eq!(again.groups.len(), 1);
        let body = &again.groups[0].body;
        assert_eq!((body.nodes.len(), body.groups[0].label.as_str()), (2, "Steps/ridges"));
        assert!(body.links.len() == 1 && body.groups[0].outputs.len() == 1, "the link to Planet is left out, its port stays");
        assert_eq!(errors.len(), 1);
        assert!(errors[0].to_string().contains("plain.ron") && errors[0].to_string().contains("exactly one group"), "{}", errors[0]);
    }
}
