//! The architecture's rules. The compiler enforces the main one: the domain is its own crate
//! (`crates/core`), which declares no UI or GPU crate, so no domain file can name one; this file
//! checks that the manifest stays so. The order among the domain's modules (planet <- tectonics,
//! erosion <- nodes <- ...) and the renderer's plain-data diet are checked on the source text,
//! as is the limit of 500 lines per source file.
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
    ("app", &["appearance", "editor", "erosion", "eval", "export", "graph", "inspect", "io", "nodes", "planet", "render", "tectonics"]),
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

/// The source folders of the three crates: the domain's, the renderer's (all of it the
/// `render` module, as the app crate re-exports it) and the app's.
fn source_roots() -> [(PathBuf, Option<&'static str>); 3] {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [(root.join("crates/core/src"), None), (root.join("crates/render/src"), Some("render")), (root.join("src"), None)]
}

/// Every source file with its top-level module.
fn modules() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for (src, whole) in source_roots() {
        let mut files = Vec::new();
        sources(&src, &mut files);
        out.extend(files.into_iter().filter_map(|f| Some((whole.map(str::to_string).or_else(|| module_of(&src, &f))?, f))));
    }
    out
}

fn module_imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, f) in modules() {
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
    // And the table itself has no cycle (the app returns its own error, which the binary maps
    // to exit codes, so it no longer names the command line).
    for start in allowed.keys() {
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
fn the_domain_crate_declares_no_ui_or_gpu_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("crates/core/Cargo.toml")).expect("crates/core/Cargo.toml");
    let declared: Vec<&str> = manifest.lines().filter(|l| !l.trim_start().starts_with('#')).filter_map(|l| l.split_once('=').map(|(name, _)| name.trim())).collect();
    for c in UI_AND_GPU {
        let package = c.replace('_', "-");
        assert!(!declared.iter().any(|d| *d == *c || *d == package), "crates/core/Cargo.toml declares {c}: the domain must build without UI or GPU crates");
    }
    // Every domain module lives in the domain crate, and nothing else does.
    let core: BTreeSet<String> = modules().into_iter().filter(|(_, f)| f.starts_with(root.join("crates/core/src"))).map(|(m, _)| m).filter(|m| m != "lib").collect();
    assert_eq!(core, DOMAIN.iter().map(|m| m.to_string()).collect::<BTreeSet<_>>(), "the domain crate holds exactly the domain modules");
}

#[test]
fn the_render_crate_declares_no_ui_crate() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/render/Cargo.toml")).expect("crates/render/Cargo.toml");
    for c in ["egui", "eframe", "egui-wgpu", "egui_node_graph2", "rfd"] {
        assert!(!manifest.lines().any(|l| l.split_once('=').is_some_and(|(name, _)| name.trim() == c)), "crates/render/Cargo.toml declares {c}: the renderer takes plain data and knows no UI");
    }
}

#[test]
fn only_the_editor_and_the_app_use_the_node_graph_crate() {
    for (m, f) in modules() {
        let text = code(&std::fs::read_to_string(&f).expect("read"));
        if m != "editor" && m != "app" {
            assert!(!uses_crate(&text, "egui_node_graph2"), "{}: only editor and app use egui_node_graph2", f.display());
        }
    }
}

#[test]
fn no_source_file_is_over_500_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for (src, _) in source_roots() {
        sources(&src, &mut files);
    }
    sources(&root.join("tests"), &mut files);
    for f in files {
        let lines = std::fs::read_to_string(&f).expect("read").lines().count();
        assert!(lines <= 500, "{} has {lines} lines", f.display());
    }
}
