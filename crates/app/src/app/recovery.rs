//! Files that never get lost: the recovery copy of the open document (written every minute
//! and when the window loses focus, removed on a clean exit), finding the copies left by a
//! crashed editor, and the recent-files list. No UI types.

use planetgraph_core::graph::Graph;
use planetgraph_core::io::graph_file::{open_for_editing, read_text, to_ron_string, write_atomic, SaveError};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How many recent files are remembered.
pub const RECENT_MAX: usize = 10;

/// The editor's state folder: `$PLANETGRAPH_STATE_DIR`, else `$XDG_STATE_HOME/planetgraph`,
/// else `~/.local/state/planetgraph`; `None` without a home folder.
pub fn default_state_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("PLANETGRAPH_STATE_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_STATE_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d).join("planetgraph"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state/planetgraph"))
}

/// A recovery copy found at start-up, left by an editor that did not exit cleanly.
#[derive(Debug, Clone, PartialEq)]
pub struct Recovered {
    /// The recovery file itself (removed once recovered or discarded).
    pub file: PathBuf,
    /// The graph as it was.
    pub graph: Graph,
    /// The document's own file, if it had one.
    pub original: Option<PathBuf>,
    /// When the copy was written.
    pub written: Option<SystemTime>,
    /// What had to be taken out so the editor can hold the copy (see
    /// [`planetgraph_core::graph::repair::repair`]); its other errors show on the nodes once recovered.
    pub repairs: Vec<String>,
}

/// The recovery copy of one running editor (named after its process id, so that several
/// editors never share one).
pub struct Recovery {
    dir: PathBuf,
    pid: u32,
}

fn pid_alive(pid: u32) -> bool {
    // Linux and other systems with /proc; elsewhere every copy counts as left behind only when
    // it is not our own.
    let proc = Path::new("/proc");
    proc.is_dir() && proc.join(pid.to_string()).exists()
}

impl Recovery {
    /// The recovery copy of this process in `dir`.
    pub fn new(dir: PathBuf) -> Recovery {
        Recovery { dir, pid: std::process::id() }
    }

    fn graph_file(&self, pid: u32) -> PathBuf {
        self.dir.join(format!("recovery-{pid}.ron"))
    }

    fn path_file(&self, pid: u32) -> PathBuf {
        self.dir.join(format!("recovery-{pid}.path"))
    }

    /// Writes the copy of `g` (atomically), with the document's file name beside it.
    pub fn write(&self, g: &Graph, original: Option<&Path>) -> Result<(), SaveError> {
        self.write_named(g, original, &format!("recovery-{}", self.pid))
    }

    fn write_named(&self, g: &Graph, original: Option<&Path>, stem: &str) -> Result<(), SaveError> {
        std::fs::create_dir_all(&self.dir).map_err(|source| SaveError { path: self.dir.clone(), source })?;
        let target = self.dir.join(format!("{stem}.ron"));
        let text = to_ron_string(g).map_err(|e| SaveError { path: target.clone(), source: std::io::Error::new(std::io::ErrorKind::InvalidData, e) })?;
        // Absolute, so that a recovery started from another folder still finds the file.
        let original = original.map(|p| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()).display().to_string()).unwrap_or_default();
        write_atomic(&target.with_extension("path"), original.as_bytes())?;
        write_atomic(&target, text.as_bytes())
    }

    /// Writes `g` to a spare copy of its own, kept after this editor exits and offered at the
    /// next start (work that another recovered copy is about to replace on screen).
    pub fn write_spare(&self, g: &Graph, original: Option<&Path>) -> Result<(), SaveError> {
        let k = (1..).find(|k| !self.dir.join(format!("recovery-{}-{k}.ron", self.pid)).exists()).unwrap_or(0);
        self.write_named(g, original, &format!("recovery-{}-{k}", self.pid))
    }

    /// Removes this process's copy (the document was saved, or the editor closes cleanly).
    pub fn clear(&self) {
        // Gone already is fine: the copy only has to be absent.
        let _ = std::fs::remove_file(self.graph_file(self.pid));
        let _ = std::fs::remove_file(self.path_file(self.pid));
    }

    /// The state folder the copies are written into.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Copies left by editors that are no longer running, newest first. A copy that cannot be
    /// read is reported as an error string naming the file.
    pub fn left_behind(&self) -> Vec<Result<Recovered, String>> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        let mut found = Vec::new();
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            // `recovery-PID.ron`, or `recovery-PID-K.ron` for a spare copy.
            let Some(stem) = name.strip_prefix("recovery-").and_then(|r| r.strip_suffix(".ron")) else { continue };
            let Some(pid) = stem.split('-').next().and_then(|p| p.parse::<u32>().ok()) else { continue };
            if pid == self.pid || pid_alive(pid) {
                continue;
            }
            let file = e.path();
            let written = e.metadata().and_then(|m| m.modified()).ok();
            // No name file (or an unreadable one): the copy is offered as an unsaved document.
            let original = read_text(&file.with_extension("path")).ok().filter(|s| !s.trim().is_empty()).map(|s| PathBuf::from(s.trim()));
            // A copy with errors (a cycle, say) is offered like any other: the editor shows them.
            // Only regular files of at most the graph file's size cap are read.
            let opened = open_for_editing(&file).map_err(|err| err.to_string());
            found.push((
                written,
                opened.map(|mut o| {
                    // Files its nodes read are relative to the original's folder, not to the copy's.
                    o.graph.folder = original.as_deref().and_then(planetgraph_core::io::graph_file::folder_of);
                    Recovered { file, graph: o.graph, original, written, repairs: o.repairs }
                }),
            ));
        }
        found.sort_by_key(|f| std::cmp::Reverse(f.0));
        found.into_iter().map(|(_, r)| r).collect()
    }

    /// Removes a recovered (or discarded) copy and its name file.
    pub fn discard(file: &Path) {
        // Gone already is fine: the copy only has to be absent.
        let _ = std::fs::remove_file(file);
        let _ = std::fs::remove_file(file.with_extension("path"));
    }
}

/// The recent-files list, newest first, kept in `recent.txt` in the state folder.
pub struct RecentFiles {
    file: PathBuf,
    /// The files, newest first.
    pub paths: Vec<PathBuf>,
}

impl RecentFiles {
    /// Reads the list from `dir` (empty when there is none).
    pub fn load(dir: &Path) -> RecentFiles {
        let file = dir.join("recent.txt");
        // No list yet (or an unreadable one): no recent files.
        let paths = read_text(&file).map(|t| t.lines().filter(|l| !l.trim().is_empty()).map(PathBuf::from).take(RECENT_MAX).collect()).unwrap_or_default();
        RecentFiles { file, paths }
    }

    /// Puts `path` first and writes the list.
    pub fn add(&mut self, path: &Path) -> Result<(), SaveError> {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.paths.retain(|p| *p != path);
        self.paths.insert(0, path);
        self.paths.truncate(RECENT_MAX);
        if let Some(dir) = self.file.parent() {
            std::fs::create_dir_all(dir).map_err(|source| SaveError { path: dir.to_path_buf(), source })?;
        }
        let text: String = self.paths.iter().map(|p| format!("{}\n", p.display())).collect();
        write_atomic(&self.file, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use planetgraph_core::nodes::NodeKind;

    #[test]
    fn a_copy_left_by_a_dead_process_is_found_and_ours_is_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut g = Graph::default();
        g.add_node(NodeKind::Noise, (0.0, 0.0));
        let ours = Recovery::new(dir.path().to_path_buf());
        ours.write(&g, Some(Path::new("/tmp/x.ron"))).expect("write");
        assert!(ours.left_behind().is_empty(), "our own copy is not a crash");
        // A process id that cannot be running (above the kernel's pid_max).
        let dead = Recovery { dir: dir.path().to_path_buf(), pid: 4_000_000_000 };
        dead.write(&g, Some(Path::new("some/graph.ron"))).expect("write");
        let found = ours.left_behind();
        assert_eq!(found.len(), 1);
        let r = found[0].as_ref().expect("readable");
        assert_eq!(r.graph, g);
        let original = r.original.clone().expect("the file name is kept");
        assert!(original.is_absolute() && original.ends_with("some/graph.ron"), "a relative name is made absolute: {}", original.display());
        Recovery::discard(&r.file);
        assert!(ours.left_behind().is_empty());
        ours.clear();
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0, "clear removes both files");
    }

    #[test]
    fn recent_files_are_newest_first_without_repeats() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut r = RecentFiles::load(dir.path());
        for name in ["a.ron", "b.ron", "a.ron"] {
            r.add(&dir.path().join(name)).expect("add");
        }
        let again = RecentFiles::load(dir.path());
        let names: Vec<String> = again.paths.iter().map(|p| p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()).collect();
        assert_eq!(names, ["a.ron", "b.ron"]);
    }
}
