//! Why a build wrote nothing, or not everything: typed errors that name the graph's file and
//! the node at fault, each with its exit code in one place.

use super::base::ExportError;
use crate::graph::{Graph, NodeId};
use thiserror::Error;

/// Why a build wrote nothing, or not everything. Every message names the graph's file and,
/// where one is at fault, the node; [`BuildError::exit_code`] is the command line's code.
#[derive(Debug, Error)]
pub enum BuildError {
    /// The user cancelled during the evaluation; nothing was written.
    #[error("{file}: cancelled during the evaluation; nothing was written")]
    Cancelled {
        /// The graph's file.
        file: String,
    },
    /// The graph as a whole cannot be built (no Export or Planet node, two exports writing one
    /// file, too large for the memory even by tiles, a tile plan that does not fit).
    #[error("{file}: {message}")]
    Graph {
        /// The graph's file.
        file: String,
        /// What is wrong and what to change.
        message: String,
    },
    /// Nodes that failed or wait for an input, each named with its message; `internal` when
    /// one of them is a bug (a panic caught), not something the input explains.
    #[error("{file}: {}", failed.iter().map(|f| format!("{}: {}", f.label, f.message)).collect::<Vec<_>>().join("; "))]
    Nodes {
        /// The graph's file.
        file: String,
        /// The nodes, in the order found.
        failed: Vec<NodeFailure>,
        /// Whether one of them is a bug.
        internal: bool,
    },
    /// Writing the files failed (a folder, a disk, an export's settings: the error names the
    /// path or the node) or was cancelled.
    #[error(transparent)]
    Export(#[from] ExportError),
}

/// One node's failure in a build.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeFailure {
    /// The node.
    pub node: NodeId,
    /// How messages name it (`Export #12`, `rivers (Drainage rivers #4)`).
    pub label: String,
    /// What went wrong.
    pub message: String,
}

impl BuildError {
    /// The error of the nodes of `g` that `failed` (each with its message), naming each node;
    /// internal if any of them is a bug (in `internal`).
    pub(super) fn of_nodes<'a>(g: &Graph, failed: impl IntoIterator<Item = (&'a NodeId, &'a String)>, internal: &std::collections::BTreeSet<NodeId>, file: &str) -> BuildError {
        let failed: Vec<NodeFailure> = failed.into_iter().map(|(id, m)| NodeFailure { node: *id, label: g.describe_node(*id), message: m.clone() }).collect();
        let internal = failed.iter().any(|f| internal.contains(&f.node));
        BuildError::Nodes { file: file.to_string(), failed, internal }
    }

    /// The graph-wide error `message` of the build of `file`.
    pub(super) fn graph(file: impl std::fmt::Display, message: impl std::fmt::Display) -> BuildError {
        BuildError::Graph { file: file.to_string(), message: message.to_string() }
    }

    /// Whether the user cancelled (during the evaluation or the writing).
    pub fn is_cancelled(&self) -> bool {
        matches!(self, BuildError::Cancelled { .. } | BuildError::Export(ExportError::Cancelled))
    }

    /// The command line's exit code: 1 for a bug (a node's caught panic), 2 for everything the
    /// input or the user explains (bad graphs and settings, unwritable folders, a cancel).
    pub fn exit_code(&self) -> u8 {
        match self {
            BuildError::Nodes { internal: true, .. } => 1,
            _ => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_and_cancels_are_decided_by_the_error_s_kind() {
        let failure = |internal| BuildError::Nodes { file: "g.ron".into(), failed: vec![NodeFailure { node: NodeId(3), label: "Blur #3".into(), message: "no input".into() }], internal };
        assert_eq!(failure(true).exit_code(), 1);
        assert_eq!(failure(false).exit_code(), 2);
        assert_eq!(failure(false).to_string(), "g.ron: Blur #3: no input");
        let cancelled = BuildError::Cancelled { file: "g.ron".into() };
        assert!(cancelled.is_cancelled() && cancelled.exit_code() == 2);
        assert!(BuildError::from(ExportError::Cancelled).is_cancelled());
        let io = BuildError::from(ExportError::Io { path: "/out".into(), source: std::io::Error::other("read-only") });
        assert!(!io.is_cancelled() && io.exit_code() == 2 && io.to_string().contains("/out"));
        assert_eq!(BuildError::graph("g.ron", "no Planet").to_string(), "g.ron: no Planet");
    }
}
