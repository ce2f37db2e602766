//! The README stays true to the program (issue 52): every node kind is named in the row of its
//! category in the node table, and every flag of every command appears in the README.

use planetgraph_core::nodes::NodeKind;
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

#[test]
fn every_node_kind_is_in_its_category_s_row_of_the_node_table() {
    let text = readme();
    let table = text.split("\n## Nodes\n").nth(1).expect("a Nodes section");
    let rows: Vec<&str> = table.lines().take_while(|l| l.starts_with('|') || l.trim().is_empty()).filter(|l| l.starts_with("| ")).collect();
    let mut missing = Vec::new();
    for &k in NodeKind::ALL {
        let meta = k.meta();
        let category = meta.category.name();
        match rows.iter().find(|r| r.starts_with(&format!("| {category} |"))) {
            Some(row) if row.contains(meta.label) => {}
            Some(_) => missing.push(format!("{} (not in the {category} row)", meta.label)),
            None => missing.push(format!("{} (no {category} row)", meta.label)),
        }
    }
    assert!(missing.is_empty(), "README node table: {}", missing.join(", "));
}

#[test]
fn every_command_s_flags_are_in_the_readme() {
    let text = readme();
    let mut missing = Vec::new();
    for command in ["build", "merge", "render", "cache", "check", "bench"] {
        let out = Command::new(env!("CARGO_BIN_EXE_planetgraph")).args([command, "--help"]).output().expect("run planetgraph");
        let help = String::from_utf8_lossy(&out.stdout).to_string();
        let flags: Vec<String> = help
            .split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']' || c == '=')
            .filter(|w| w.starts_with("--") && w.len() > 2 && w[2..].chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .map(str::to_string)
            .filter(|f| f != "--help" && f != "--version")
            .collect();
        assert!(!flags.is_empty() || matches!(command, "check" | "cache"), "{command} --help lists no flags: {help}");
        for f in flags {
            if !text.contains(&f) {
                missing.push(format!("{command} {f}"));
            }
        }
    }
    missing.dedup();
    assert!(missing.is_empty(), "flags the README does not mention: {}", missing.join(", "));
}
