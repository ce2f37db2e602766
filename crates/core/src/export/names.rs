//! Export file names that clash: two Export or Splat map nodes that would write a file of the
//! same name would overwrite each other's. `check` and every build refuse such a graph, naming both
//! nodes.

use super::jobs::node_file_names;
use crate::graph::{Graph, Node, NodeId};
use std::collections::BTreeMap;

/// The resolution at which [`file_clashes`] compares file names: names do not depend on the
/// resolution but through a face's tile count, which a small face may lower, so a large one
/// gives every name any resolution gives.
const CLASH_RESOLUTION: usize = 1 << 14;

/// Pairs of Export or Splat map nodes of `g` that would write a file of the same name (the later node by id
/// first, then the earlier, then the file name): each would overwrite the other's file. Nodes
/// whose settings cannot be read are left to their own error.
pub fn file_clashes(g: &Graph) -> Vec<(NodeId, NodeId, String)> {
    let mut owner: BTreeMap<String, NodeId> = BTreeMap::new();
    let mut clashes = Vec::new();
    let mut exports: Vec<&Node> = g.nodes.iter().filter(|x| x.kind.writes_files()).collect();
    exports.sort_by_key(|x| x.id);
    for node in exports {
        let Some(mut names) = node_file_names(g, node, CLASH_RESOLUTION) else { continue };
        names.sort();
        names.dedup();
        let mut clashed = false;
        for name in names {
            match owner.get(&name) {
                Some(&first) if first != node.id => {
                    if !clashed {
                        clashes.push((node.id, first, name));
                        clashed = true;
                    }
                }
                _ => {
                    owner.insert(name, node.id);
                }
            }
        }
    }
    clashes
}

/// The clashes of `g` as messages naming both nodes and the file, one per clashing node.
pub fn clash_messages(g: &Graph) -> Vec<String> {
    file_clashes(g).into_iter().map(|(id, first, file)| format!("{}: writes {file}, which {} also writes: give one of them another file name", g.describe_node(id), g.describe_node(first))).collect()
}
