//! The open document: the graph, its file, unsaved state and undo/redo history. No UI types.

use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::io::{open_for_editing, save_graph, LoadError, SaveError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How an edit relates to the previous one, for merging parameter drags into one undo step.
#[derive(Debug, Clone, PartialEq)]
enum EditKind {
    Param(NodeId, String),
    Layout,
    Other,
}

/// The graph being edited with its history.
pub struct Document {
    /// The committed graph (what is evaluated and saved).
    pub graph: Graph,
    /// The file it came from or was saved to.
    pub path: Option<PathBuf>,
    saved: Graph,
    undo: Vec<Graph>,
    redo: Vec<Graph>,
    last_edit: Option<(EditKind, Instant)>,
    /// What opening the file had to take out so the editor could hold it (one sentence each,
    /// naming the node); the document is unsaved while it differs from the file.
    pub repairs: Vec<String>,
    /// What bringing a file of an older format up to date changed (one sentence per node
    /// whose result differs), shown once on opening.
    pub updated: Vec<String>,
    /// The lowest id a new node may take: ids are never reused within a document, so that a
    /// deleted node's results never show on a new one.
    id_floor: u32,
}

/// Edits closer together than this on the same parameter merge into one undo step.
const MERGE_WINDOW: Duration = Duration::from_millis(800);

fn classify(old: &Graph, new: &Graph) -> EditKind {
    // Moving or resizing frames is layout; adding, naming or colouring one is not.
    let frames_same = old.frames.len() == new.frames.len() && old.frames.iter().zip(&new.frames).all(|(a, b)| a.label == b.label && a.comment == b.comment && a.colour == b.colour);
    // Moving a reroute point is layout; adding or removing one is not.
    let reroutes_same = old.reroutes.len() == new.reroutes.len() && old.reroutes.iter().zip(&new.reroutes).all(|(a, b)| a.to == b.to && a.input == b.input && a.points.len() == b.points.len());
    // Any change to a group (making, opening, naming, its ports) is a step of its own.
    if !frames_same || !reroutes_same || old.groups != new.groups {
        return EditKind::Other;
    }
    if old.nodes == new.nodes && old.links == new.links {
        return EditKind::Layout;
    }
    if old.links != new.links || old.nodes.len() != new.nodes.len() {
        return EditKind::Other;
    }
    let mut changed = None;
    for (a, b) in old.nodes.iter().zip(&new.nodes) {
        if a.id != b.id || a.kind != b.kind {
            return EditKind::Other;
        }
        for (k, v) in &b.params {
            if a.params.get(k) != Some(v) {
                if changed.is_some() {
                    return EditKind::Other;
                }
                changed = Some((b.id, k.clone()));
            }
        }
    }
    changed.map(|(id, k)| EditKind::Param(id, k)).unwrap_or(EditKind::Other)
}

impl Document {
    /// A new, unsaved document.
    pub fn new(graph: Graph, path: Option<PathBuf>) -> Document {
        let id_floor = graph.next_id().0;
        Document { saved: graph.clone(), graph, path, undo: Vec::new(), redo: Vec::new(), last_edit: None, repairs: Vec::new(), updated: Vec::new(), id_floor }
    }

    /// The id the next new node takes: above every node and group this document has ever
    /// held.
    pub fn next_id(&self) -> u32 {
        self.id_floor.max(self.graph.next_id().0)
    }

    fn raise_floor(&mut self) {
        self.id_floor = self.next_id();
    }

    /// A document recovered after a crash: `graph` with its original file, unsaved unless the
    /// file on disk holds the same graph.
    pub fn recovered(graph: Graph, path: Option<PathBuf>) -> Document {
        let saved = path.as_deref().and_then(|p| open_for_editing(p).ok()).map(|o| o.original).unwrap_or_default();
        Document { saved, ..Document::new(graph, path) }
    }

    /// Opens a file, errors and all: what the editor cannot hold is taken out and listed in
    /// [`Document::repairs`], the rest of the errors show on the nodes. Only a file that is no
    /// graph (or has duplicate ids or broken groups) is refused.
    pub fn open(path: &Path) -> Result<Document, LoadError> {
        let opened = open_for_editing(path)?;
        Ok(Document { saved: opened.original, repairs: opened.repairs, updated: opened.updated, ..Document::new(opened.graph, Some(path.to_path_buf())) })
    }

    /// Whether the graph differs from the file.
    pub fn is_dirty(&self) -> bool {
        self.graph != self.saved
    }

    /// File name for the title ("untitled" if never saved).
    pub fn title(&self) -> String {
        let name = self.path.as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().to_string()).unwrap_or_else(|| "untitled".into());
        format!("{}{name} - PlanetGraph", if self.is_dirty() { "* " } else { "" })
    }

    /// Ends the current undo step: the next edit starts a new one even if it would merge.
    pub fn seal(&mut self) {
        self.last_edit = None;
    }

    /// Records `new` as the current graph. A parameter dragged on (`merge_allowed`) or edited
    /// again within a moment merges into the previous undo step. Returns true when the graph
    /// content (not only the layout) changed.
    pub fn commit(&mut self, new: Graph, merge_allowed: bool) -> bool {
        if new == self.graph {
            return false;
        }
        let kind = classify(&self.graph, &new);
        let content = kind != EditKind::Layout;
        let merge = match (&self.last_edit, &kind) {
            (Some((k, t)), EditKind::Param(..) | EditKind::Layout) => *k == kind && (merge_allowed || t.elapsed() < MERGE_WINDOW),
            _ => false,
        };
        if !merge {
            self.undo.push(std::mem::replace(&mut self.graph, new));
            if self.undo.len() > 500 {
                self.undo.remove(0);
            }
        } else {
            self.graph = new;
        }
        self.redo.clear();
        self.raise_floor();
        self.last_edit = Some((kind, Instant::now()));
        content
    }

    /// Makes the top of `from` current and pushes the current graph onto `to`.
    fn step(graph: &mut Graph, from: &mut Vec<Graph>, to: &mut Vec<Graph>) -> bool {
        match from.pop() {
            Some(g) => {
                to.push(std::mem::replace(graph, g));
                true
            }
            None => false,
        }
    }

    /// Takes back the last edit; true if there was one.
    pub fn undo(&mut self) -> bool {
        self.last_edit = None;
        self.raise_floor();
        Self::step(&mut self.graph, &mut self.undo, &mut self.redo)
    }

    /// Re-applies an undone edit; true if there was one.
    pub fn redo(&mut self) -> bool {
        self.last_edit = None;
        self.raise_floor();
        Self::step(&mut self.graph, &mut self.redo, &mut self.undo)
    }

    /// Whether undo / redo are possible.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether redo is possible.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Saves to `path` (atomically) and remembers it.
    /// Files that nodes read (Import raster) stay the same files: their relative paths are
    /// rewritten for the new folder (an undoable edit, made before writing).
    pub fn save_as(&mut self, path: &Path) -> Result<(), SaveError> {
        match planetgraph_core::io::graph_file::folder_of(path) {
            Some(to) => {
                let mut moved = self.graph.clone();
                if moved.move_files_to(&to) {
                    self.commit(moved, false);
                }
                self.graph.folder = Some(to);
            }
            None => self.graph.folder = None,
        }
        save_graph(path, &self.graph)?;
        self.path = Some(path.to_path_buf());
        self.saved = self.graph.clone();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use planetgraph_core::nodes::{NodeKind, ParamValue};

    #[test]
    fn undo_redo_and_parameter_drags_merge() {
        let mut d = Document::new(Graph::default(), None);
        let mut g = d.graph.clone();
        let id = g.add_node(NodeKind::Constant, (0.0, 0.0));
        assert!(d.commit(g.clone(), false));
        for k in 0..10 {
            g.set_param(id, "value", ParamValue::Float(k as f32));
            d.commit(g.clone(), true);
        }
        assert!(d.is_dirty());
        assert!(d.undo(), "one step for the whole drag");
        assert_eq!(d.graph.node(id).and_then(|n| n.params.get("value")), Some(&ParamValue::Float(0.0)));
        assert!(d.undo());
        assert!(d.graph.nodes.is_empty());
        assert!(!d.undo());
        assert!(d.redo() && d.redo());
        assert_eq!(d.graph.node(id).and_then(|n| n.params.get("value")), Some(&ParamValue::Float(9.0)));
        assert!(!d.redo());
    }
}
