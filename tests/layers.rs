//! The architecture's rules. The compiler enforces the layers between crates: the domain
//! (`crates/core`) declares no UI or GPU crate, the renderer (`crates/renderer`) and the command
//! line (`crates/cli`) no UI crate, and only the editor (`crates/app`) declares egui, eframe,
//! rfd and egui_node_graph2; no crate depends on one above it. This file checks that the
//! manifests stay so. Only the order among the domain's modules (planet <- tectonics, erosion <-
//! nodes <- ...), which share one crate, and the renderer's plain-data diet are checked on the
//! source text, as is the limit of 500 lines per source file.
//!
//! `cargo test --release --test layers` is the check named in the README.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What each top-level module may import from the crate. Together these are a one-way order:
/// planet <- tectonics, erosion <- nodes <- graph <- io, eval <- inspect; the renderer sees only the
/// planet's plain data; the UI and the command line sit on top.
const ALLOWED: &[(&str, &[&str])] = &[
    ("planet", &[]),
    ("appearance", &["planet"]),
    ("limits", &[]),
    ("tectonics", &["planet"]),
    ("erosion", &["planet"]),
    ("raster", &["planet"]),
    ("nodes", &["planet", "tectonics", "erosion", "raster"]),
    ("graph", &["nodes"]),
    ("io", &["graph", "nodes", "planet", "appearance", "raster"]),
    ("eval", &["graph", "io", "nodes", "planet", "raster"]),
    ("export", &["appearance", "eval", "graph", "io", "nodes", "planet", "raster"]),
    ("inspect", &["appearance", "eval", "graph", "nodes", "planet", "tectonics"]),
    ("examples", &["graph", "io", "nodes", "raster"]),
    ("renderer", &["planet", "appearance"]),
    ("editor", &["export", "graph", "nodes", "planet", "raster"]),
    ("cli", &["appearance", "erosion", "eval", "examples", "export", "graph", "inspect", "io", "limits", "nodes", "planet", "renderer", "tectonics"]),
    ("app", &["appearance", "editor", "erosion", "eval", "examples", "export", "graph", "inspect", "io", "nodes", "planet", "renderer", "tectonics"]),
];

/// Modules that must not name these crates.
const DOMAIN: &[&str] = &["planet", "appearance", "limits", "tectonics", "erosion", "raster", "nodes", "graph", "io", "eval", "export", "inspect"];
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

/// Which modules a text names: `crate::name` in its own crate, `planetgraph_core::name` and
/// `planetgraph_app::name` from the crates above the domain, `planetgraph_examples` (the module
/// `examples`), `planetgraph_renderer` (`renderer`) and `planetgraph_cli` (`cli`).
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (prefix, whole) in [("crate::", None), ("planetgraph_core::", None), ("planetgraph_app::", None), ("planetgraph_examples", Some("examples")), ("planetgraph_renderer", Some("renderer")), ("planetgraph_cli", Some("cli"))] {
        let mut rest = text;
        while let Some(k) = rest.find(prefix) {
            let before = rest[..k].chars().next_back();
            let after = &rest[k + prefix.len()..];
            rest = after;
            // `$crate::nodes` inside the macros is the same crate; `planetgraph_core::` is not
            // `crate::` either.
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            if let Some(module) = whole {
                found.insert(module.to_string());
                continue;
            }
            let name: String = after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            // `crate::settings!` is a macro at the crate root, not a module.
            let is_macro = after[name.len()..].starts_with('!');
            if !name.is_empty() && !is_macro {
                found.insert(name);
            }
        }
    }
    found
}

/// The source folders of the crates: the domain's, the renderer's (all of it the `renderer`
/// module, as the crates above re-export it), the command line's (all of it `cli`), the
/// editor's (`app` and `editor`) and the binary's.
fn source_roots() -> [(PathBuf, Option<&'static str>); 6] {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        (root.join("crates/core/src"), None),
        (root.join("crates/examples/src"), Some("examples")),
        (root.join("crates/renderer/src"), Some("renderer")),
        (root.join("crates/cli/src"), Some("cli")),
        (root.join("crates/app/src"), None),
        (root.join("src"), None),
    ]
}

/// The names a manifest declares as normal dependencies (its `[dependencies]` tables, not
/// `[dev-dependencies]`).
fn declared(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut normal = false;
    for line in manifest.lines().map(str::trim).filter(|l| !l.starts_with('#')) {
        if line.starts_with('[') {
            normal = line == "[dependencies]";
        } else if let (true, Some((name, _))) = (normal, line.split_once('=')) {
            out.push(name.trim().replace('_', "-"));
        }
    }
    out
}

fn manifest(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
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
        let mut text = code(&std::fs::read_to_string(&f).expect("read"));
        // In a crate that is one module as a whole, `crate::` names that module itself.
        if source_roots().iter().any(|(_, whole)| *whole == Some(m.as_str())) {
            text = text.replace("crate::", "");
        }
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
    let declared = declared(&manifest("crates/core/Cargo.toml"));
    for c in UI_AND_GPU {
        assert!(!declared.contains(&c.replace('_', "-")), "crates/core/Cargo.toml declares {c}: the domain must build without UI or GPU crates");
    }
    // Every domain module lives in the domain crate, and nothing else does.
    let core: BTreeSet<String> = modules().into_iter().filter(|(_, f)| f.starts_with(root.join("crates/core/src"))).map(|(m, _)| m).filter(|m| m != "lib").collect();
    assert_eq!(core, DOMAIN.iter().map(|m| m.to_string()).collect::<BTreeSet<_>>(), "the domain crate holds exactly the domain modules");
}

#[test]
fn only_the_editor_crate_declares_ui_crates_and_no_crate_depends_on_one_above_it() {
    let ui = ["egui", "eframe", "egui-wgpu", "egui-node-graph2", "rfd"];
    // Each crate with the crates of the workspace it may depend on.
    let layers: &[(&str, &[&str])] = &[
        ("crates/core/Cargo.toml", &[]),
        ("crates/examples/Cargo.toml", &["planetgraph-core"]),
        ("crates/renderer/Cargo.toml", &["planetgraph-core"]),
        ("crates/cli/Cargo.toml", &["planetgraph-core", "planetgraph-examples", "planetgraph-renderer"]),
        ("crates/app/Cargo.toml", &["planetgraph-core", "planetgraph-examples", "planetgraph-renderer"]),
        // The Python package links the domain alone: no renderer, so no wgpu in the wheel.
        ("python/Cargo.toml", &["planetgraph-core"]),
        ("Cargo.toml", &["planetgraph-core", "planetgraph-examples", "planetgraph-renderer", "planetgraph-cli", "planetgraph-app"]),
    ];
    for (path, may) in layers {
        let declared = declared(&manifest(path));
        for d in declared.iter().filter(|d| d.starts_with("planetgraph")) {
            assert!(may.contains(&d.as_str()), "{path} declares {d}, a crate it may not depend on");
        }
        for c in ui {
            let ok = *path == "crates/app/Cargo.toml";
            assert!(ok || !declared.iter().any(|d| d == c), "{path} declares {c}: only the editor crate (crates/app) uses UI crates");
        }
    }
    assert!(declared(&manifest("crates/app/Cargo.toml")).iter().any(|d| d == "egui-node-graph2"), "the editor crate declares its node editor");
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

/// The domain crate packages alone: no source file of it builds in a file from outside its
/// folder (`include_str!`, `include_bytes!` or a `#[path]` that leaves `crates/core`); the
/// example graphs and their thumbnails are `planetgraph-examples`'.
#[test]
fn the_domain_crate_reads_nothing_outside_its_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let core = root.join("crates/core");
    let mut files = Vec::new();
    sources(&core.join("src"), &mut files);
    for f in files {
        let text = code(&std::fs::read_to_string(&f).expect("read"));
        for (k, _) in text.match_indices("include_") {
            let call = &text[k..];
            let Some(open) = call.find('"') else { continue };
            let Some(len) = call[open + 1..].find('"') else { continue };
            let rel = &call[open + 1..open + 1 + len];
            // The included file's path, `..` resolved against the including file's folder.
            let mut target = f.parent().expect("folder").to_path_buf();
            for c in Path::new(rel).components() {
                match c {
                    std::path::Component::ParentDir => {
                        target.pop();
                    }
                    std::path::Component::Normal(p) => target.push(p),
                    _ => {}
                }
            }
            assert!(target.starts_with(&core) && !rel.starts_with('/'), "{} includes {rel}, outside crates/core: it would not package alone", f.display());
        }
    }
}

/// One public path per item: no crate re-exports a module or crate of another workspace crate
/// (the tests and the binary name `planetgraph_core::nodes`, not `planetgraph::nodes`).
#[test]
fn no_crate_re_exports_another() {
    let mut files = Vec::new();
    for (src, _) in source_roots() {
        sources(&src, &mut files);
    }
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("python/src"), &mut files);
    for f in files {
        let text = code(&std::fs::read_to_string(&f).expect("read"));
        for line in text.lines().map(str::trim) {
            assert!(!(line.starts_with("pub use planetgraph_") || line.starts_with("pub extern crate planetgraph")), "{} re-exports another crate: {line}", f.display());
        }
    }
}

/// The editor reaches the system clipboard and opens links: eframe's `clipboard` and `links`
/// features are on (without them egui keeps a clipboard of its own: Ctrl+C never reached other
/// programs, and Ctrl+V pasted the editor's own last copy whatever the system clipboard held).
#[test]
fn the_editor_uses_the_system_clipboard() {
    let app = manifest("crates/app/Cargo.toml");
    let eframe = app.lines().find(|l| l.starts_with("eframe")).expect("crates/app declares eframe");
    for feature in ["\"clipboard\"", "\"links\""] {
        assert!(eframe.contains(feature), "eframe needs the {feature} feature: {eframe}");
    }
}

/// The editor's parts that are not drawing hold no UI types: the document and its history, the
/// evaluation pipeline, the clipboard text, the recovery copies and the group library can be
/// read and tested without a window (`PlanetApp` wires them to egui).
#[test]
fn the_editor_s_model_parts_hold_no_ui_types() {
    for file in ["document.rs", "pipeline.rs", "clipboard.rs", "recovery.rs", "library.rs"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/app/src/app").join(file);
        let text = code(&std::fs::read_to_string(&path).expect("read"));
        for ui in ["egui", "eframe", "wgpu", "winit"] {
            assert!(!text.contains(ui), "{} names {ui}", path.display());
        }
    }
}

/// The export module is a one-way pipeline: `crates/core/src/export/mod.rs` declares its
/// modules in order, and each file imports only modules declared before its own (through
/// `super::module`), never an item through `super::` alone (that is the module root, which
/// re-exports from every file). Test modules are left out.
#[test]
fn the_export_modules_run_one_way() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src/export");
    let root = std::fs::read_to_string(dir.join("mod.rs")).expect("mod.rs");
    let order: Vec<String> = code(&root).lines().filter_map(|l| l.trim().strip_prefix("pub mod ").or_else(|| l.trim().strip_prefix("mod "))).map(|m| m.trim_end_matches(';').to_string()).collect();
    assert!(order.len() > 10, "the export modules: {order:?}");
    for (k, module) in order.iter().enumerate() {
        let text = std::fs::read_to_string(dir.join(format!("{module}.rs"))).expect("a module's file");
        let text = code(text.split("#[cfg(test)]").next().unwrap_or(""));
        // Every `super::` path, with the names inside a `use super::{...}` group.
        let mut names = Vec::new();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("super::") {
            rest = &rest[i + "super::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                names.extend(group[..end].split(',').map(|p| p.trim().split("::").next().unwrap_or("").to_string()).filter(|n| !n.is_empty()));
            } else {
                names.push(rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect());
            }
        }
        for name in names {
            let Some(at) = order.iter().position(|m| *m == name) else {
                panic!("export/{module}.rs imports super::{name}, an item of the module root: import it from the module that defines it");
            };
            assert!(at < k, "export/{module}.rs imports super::{name}, which comes after it in the pipeline (mod.rs's order)");
        }
    }
}

/// No crate declares a dependency it does not use (what `cargo machete` checks): each name in
/// a manifest's `[dependencies]` appears in that crate's sources as a path (`serde_json::`,
/// `use rayon`, `planetgraph_core::`).
#[test]
fn no_crate_declares_a_dependency_it_does_not_use() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (manifest_path, src) in [
        ("Cargo.toml", "src"),
        ("crates/core/Cargo.toml", "crates/core/src"),
        ("crates/examples/Cargo.toml", "crates/examples/src"),
        ("crates/renderer/Cargo.toml", "crates/renderer/src"),
        ("crates/cli/Cargo.toml", "crates/cli/src"),
        ("crates/app/Cargo.toml", "crates/app/src"),
        ("python/Cargo.toml", "python/src"),
    ] {
        let mut files = Vec::new();
        sources(&root.join(src), &mut files);
        // The root package's tests use its dependencies too.
        if src == "src" {
            sources(&root.join("tests"), &mut files);
        }
        let text: String = files.iter().map(|f| code(&std::fs::read_to_string(f).expect("read"))).collect::<Vec<_>>().join("\n");
        for dep in declared(&manifest(manifest_path)) {
            let name = dep.split('.').next().unwrap_or(&dep).replace('-', "_");
            let used = [format!("{name}::"), format!("use {name}"), format!("{name}!")].iter().any(|p| text.contains(p.as_str()));
            assert!(used, "{manifest_path} declares {dep}, which {src} never names");
        }
    }
}
