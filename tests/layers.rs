//! The architecture's rules, checked on the source text: the domain's imports run one way
//! (no module cycles), the domain never imports the UI or GPU crates, the renderer takes plain
//! data, and no source file is over 500 lines.
//!
//! `cargo test --release --test layers` is the check named in the README.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What each top-level module may import from the crate. Together these are a one-way order:
/// planet <- tectonics, erosion <- nodes <- graph <- io, eval <- inspect; render sees only the
/// planet's plain data; the UI and the command line sit on top.
const ALLOWED: &[(&str, &[&str])] = &[
    ("planet", &[]),
    ("appearance", &[]),
    ("tectonics", &["planet"]),
    ("erosion", &["planet"]),
    ("nodes", &["planet", "tectonics", "erosion"]),
    ("graph", &["nodes"]),
    ("io", &["graph", "nodes", "planet", "appearance"]),
    ("eval", &["graph", "nodes", "planet"]),
    ("export", &["appearance", "eval", "graph", "io", "nodes", "planet"]),
    ("inspect", &["appearance", "eval", "graph", "nodes", "planet", "tectonics"]),
    ("render", &["planet", "appearance"]),
    ("editor", &["export", "graph", "nodes", "planet"]),
    ("cli", &["app", "appearance", "erosion", "eval", "export", "graph", "inspect", "io", "nodes", "planet", "render", "tectonics"]),
    ("app", &["appearance", "cli", "editor", "erosion", "eval", "export", "graph", "inspect", "io", "nodes", "planet", "render", "tectonics"]),
];

/// Modules that must not name these crates.
const DOMAIN: &[&str] = &["planet", "appearance", "tectonics", "erosion", "nodes", "graph", "io", "eval", "export", "inspect"];
const UI_AND_GPU: &[&str] = &["egui", "eframe", "egui_wgpu", "wgpu", "egui_node_graph2", "rfd"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file belongs to (`src/nodes/sources/noise.rs` -> `nodes`;
/// `src/appearance.rs` -> `appearance`).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy().to_string();
    Some(first.trim_end_matches(".rs").to_string())
}

/// Code lines (comments and doc comments removed).
fn code(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Which crate modules a text names as `crate::name`.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = text;
    while let Some(k) = rest.find("crate::") {
        let after = &rest[k + 7..];
        let name: String = after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        // `$crate::nodes` inside the macros is the same crate; `crate::settings!` is a macro at
        // the crate root, not a module.
        let is_macro = after[name.len()..].starts_with('!');
        if !name.is_empty() && !is_macro {
            found.insert(name);
        }
        rest = after;
    }
    found
}

fn uses_crate(text: &str, name: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with(&format!("use {name}::")) || l.starts_with(&format!("use {name};")) || l.contains(&format!(" {name}::")) || l.contains(&format!("({name}::")) || l.contains(&format!("<{name}::")) || l.contains(&format!("&{name}::"))
    })
}

fn module_imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let Some(m) = module_of(&src, &f) else { continue };
        if m == "lib" || m == "main" {
            continue;
        }
        let text = code(&std::fs::read_to_string(&f).expect("read"));
        let entry = deps.entry(m.clone()).or_default();
        entry.extend(crate_paths(&text).into_iter().filter(|d| *d != m));
    }
    deps
}

#[test]
fn the_domain_imports_run_one_way() {
    let deps = module_imports();
    let allowed: BTreeMap<&str, BTreeSet<&str>> = ALLOWED.iter().map(|(m, a)| (*m, a.iter().copied().collect())).collect();
    for (m, uses) in &deps {
        let ok = allowed.get(m.as_str()).unwrap_or_else(|| panic!("module {m} is not in the layer table of tests/layers.rs"));
        for u in uses {
            assert!(ok.contains(u.as_str()), "{m} imports crate::{u}, which its layer may not (allowed: {ok:?})");
        }
    }
    // And the table itself has no cycle outside the UI pair (app starts the editor, cli parses
    // the arguments the app takes).
    let domain: BTreeSet<&str> = DOMAIN.iter().copied().chain(["render", "editor"]).collect();
    for start in &domain {
        let mut stack = vec![*start];
        let mut seen = BTreeSet::new();
        while let Some(m) = stack.pop() {
            for d in allowed.get(m).into_iter().flatten() {
                assert!(d != start, "the layer table has a cycle through {start}");
                if seen.insert(*d) {
                    stack.push(d);
                }
            }
        }
    }
    eprintln!("module imports: {deps:?}");
}

#[test]
fn the_domain_never_names_ui_or_gpu_crates() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    for f in files {
        let Some(m) = module_of(&src, &f) else { continue };
        let text = code(&std::fs::read_to_string(&f).expect("read"));
        if DOMAIN.contains(&m.as_str()) {
            for c in UI_AND_GPU {
                assert!(!uses_crate(&text, c), "{} (domain module {m}) names {c}", f.display());
            }
        }
        if m != "editor" && m != "app" {
            assert!(!uses_crate(&text, "egui_node_graph2"), "{}: only editor and app use egui_node_graph2", f.display());
        }
    }
}

#[test]
fn no_source_file_is_over_500_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    sources(&root.join("tests"), &mut files);
    for f in files {
        let lines = std::fs::read_to_string(&f).expect("read").lines().count();
        assert!(lines <= 500, "{} has {lines} lines", f.display());
    }
}
