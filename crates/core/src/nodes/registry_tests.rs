//! Checks every registered kind: metadata, the settings mapping, outputs against the declared
//! ports, and that every node file under `src/nodes/` is registered.

use super::NodeKind;
use crate::nodes::meta::{Category, PortType, PortUnit};
use crate::nodes::params::{ParamSpec, ParamValue};
use crate::nodes::unit::Unit;
use crate::nodes::{OpContext, Value};
use crate::planet::{Field, RegionSurface};
use crate::tectonics::{PlateSettings, Plates};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[test]
fn metadata_is_consistent() {
    let mut labels = BTreeSet::new();
    for &k in NodeKind::ALL {
        let m = k.meta();
        assert!(labels.insert(m.label), "{k:?}: label used twice");
        assert!(!m.description.is_empty(), "{k:?}: no description");
        for p in k.params() {
            assert!(p.check(&p.default_value()).is_ok(), "{k:?}.{}: default out of range", p.name);
            assert!(!p.tooltip.is_empty() && !p.label.is_empty(), "{k:?}.{}: no label or tooltip", p.name);
            if let ParamSpec::Choice { default, options } = p.spec {
                assert!(default < options.len(), "{k:?}.{}: default option", p.name);
                for o in options {
                    let ok = !o.id.is_empty() && o.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
                    assert!(ok, "{k:?}.{}: identifier '{}' is not lower snake case", p.name, o.id);
                }
            }
        }
        let names: BTreeSet<_> = k.params().iter().map(|p| p.name).collect();
        assert_eq!(names.len(), k.params().len(), "{k:?}: duplicate parameter");
        assert!(names.iter().all(|n| !n.is_empty()), "{k:?}: a parameter without a key");
        if m.category == Category::Sources {
            assert!(m.inputs.is_empty());
        }
    }
}

/// Every declared parameter is read into a field and written back, and nothing else is: the
/// defaults go through the typed settings and come back unchanged, and a value of another type
/// in any one parameter is refused.
#[test]
fn every_declared_parameter_maps_to_a_field_and_back() {
    for &k in NodeKind::ALL {
        let defaults = k.default_params();
        let cancel = AtomicBool::new(false);
        let files: Vec<std::path::PathBuf> = k.meta().reads_files.then(crate::raster::test_globe).into_iter().collect();
        let ctx = OpContext { tile: None, n: 4, cancel: &cancel, steps: None, planet: k.meta().reads_planet.then_some(&crate::nodes::output::planet::EARTH), files: &files };
        let inputs = sample_inputs(k);
        assert!(k.run(&defaults, &inputs, &ctx).is_ok(), "{k:?}: runs with its defaults");
        for p in k.params() {
            let mut wrong = defaults.clone();
            let other = match p.default_value() {
                ParamValue::Float(_) => ParamValue::Bool(true),
                _ => ParamValue::Float(0.5),
            };
            wrong.insert(p.name.to_string(), other);
            let e = k.run(&wrong, &inputs, &ctx).expect_err("a wrongly typed value is refused");
            assert!(e.to_string().contains(p.name), "{k:?}.{}: {e}", p.name);
        }
    }
    // Through the settings types themselves.
    for &k in NodeKind::ALL {
        k.check_settings().unwrap_or_else(|e| panic!("{k:?}: {e}"));
        assert_eq!(k.params().len(), k.default_params().len());
    }
}

/// One value of each declared input type, small enough to run every node quickly (an Export
/// node takes a field or a colour, so it gets only the field).
fn sample_inputs(k: NodeKind) -> Vec<Option<Value>> {
    let n = 4;
    let regions = Arc::new(RegionSurface::new(3, 0.5, 1));
    k.meta()
        .inputs
        .iter()
        .filter_map(|p| (k != NodeKind::Export || p.ty != PortType::Colour).then_some(p.ty))
        .map(|ty| match ty {
            PortType::Field => Field::from_fn_dir(n, |d| 0.3 * d.x + 0.2 * d.y * d.z).into(),
            PortType::Colour => crate::planet::ColourField::filled(n, [0.2, 0.4, 0.1]).into(),
            PortType::Vector => crate::planet::gradient::gradient(&Field::from_fn_dir(n, |d| d.y)).into(),
            PortType::Regions => Value::Regions(regions.clone()),
            PortType::Plates => {
                let s = PlateSettings { count: 4, expansion_range: 0.5, random_driven: true, max_cycles: None, seed: 2 };
                Value::Plates(Arc::new(Plates::grow(regions.clone(), &s).expect("plates")))
            }
        })
        .map(Some)
        .chain((k == NodeKind::Export).then_some(None))
        .collect()
}

/// Running any kind returns exactly the declared outputs, of the declared types (the runner
/// also checks this on every run and turns a mismatch into an error on the node).
#[test]
fn every_kind_returns_its_declared_outputs() {
    let cancel = AtomicBool::new(false);
    for &k in NodeKind::ALL {
        let files: Vec<std::path::PathBuf> = k.meta().reads_files.then(crate::raster::test_globe).into_iter().collect();
        let ctx = OpContext { tile: None, n: 4, cancel: &cancel, steps: None, planet: k.meta().reads_planet.then_some(&crate::nodes::output::planet::EARTH), files: &files };
        let out = k.run(&k.default_params(), &sample_inputs(k), &ctx).unwrap_or_else(|e| panic!("{k:?}: {e}"));
        let declared: Vec<PortType> = k.meta().outputs.iter().map(|p| p.ty).collect();
        let got: Vec<PortType> = out.iter().map(Value::port_type).collect();
        assert_eq!(got, declared, "{k:?}");
    }
}

/// A path from its `src/nodes/` on (`file!()` names files from the workspace's root, the
/// listing from this crate's), with forward slashes.
fn from_src(path: &str) -> String {
    let path = path.replace('\\', "/");
    path.find("src/nodes/").map(|k| path[k..].to_string()).unwrap_or(path)
}

fn node_files(dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).expect("src/nodes") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            node_files(&p, out);
        } else if !p.to_string_lossy().ends_with("_tests.rs") && std::fs::read_to_string(&p).expect("read").lines().any(|l| l.trim_start().starts_with("impl Node for ")) {
            out.push(from_src(&p.strip_prefix(env!("CARGO_MANIFEST_DIR")).expect("inside the crate").to_string_lossy()));
        }
    }
}

/// Every file that implements a node is registered, and lies in its category's folder.
#[test]
fn every_node_file_is_registered_in_its_category_folder() {
    let mut files = Vec::new();
    node_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/nodes"), &mut files);
    files.sort();
    let registered: BTreeSet<String> = NodeKind::ALL.iter().map(|k| from_src(k.meta().source)).collect();
    for f in &files {
        assert!(registered.contains(f), "{f} defines a node that is not in src/nodes/registry.rs");
    }
    let found: BTreeSet<String> = files.iter().cloned().collect();
    assert_eq!(found, registered, "every registered node is defined in a file that was found");
    for &k in NodeKind::ALL {
        let m = k.meta();
        let folder = format!("src/nodes/{}/", m.category.folder());
        assert!(from_src(m.source).starts_with(&folder), "{k:?} is defined in {} but its category's folder is {folder}", m.source);
    }
}

#[allow(dead_code)]
mod mismatched {
    //! A node whose field type does not fit its declaration, to show the check fails.
    use crate::nodes::prelude::*;

    crate::settings! {
        /// A float field declared as a whole number.
        pub struct BadSettings, keys BadKeys {
            /// Declared Int, read as f32.
            count: f32 = int("Count", 3, 0, 10, "A count."),
        }
    }

    /// The node.
    pub struct Bad;

    impl Node for Bad {
        type Settings = BadSettings;
        const META: NodeMeta = NodeMeta::new("Bad", Category::Modify, "Test only.", IN, OUT, file!());
        fn run(_: &BadSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
            Ok(vec![Value::Field(inputs.port(FIELD_IN)?.clone())])
        }
    }
}

#[test]
fn a_field_of_the_wrong_type_fails_the_settings_check() {
    let e = crate::nodes::settings_round_trip::<mismatched::Bad>().expect_err("Int declared, f32 read");
    assert!(e.contains("count"), "{e}");
}

/// An input on the grid at another resolution than the evaluation is refused before any node
/// runs (nodes combine cells one to one).
#[test]
fn inputs_at_another_resolution_are_refused() {
    let cancel = AtomicBool::new(false);
    let ctx = OpContext { tile: None, n: 8, cancel: &cancel, steps: None, planet: None, files: &[] };
    let inputs = [Some(Field::filled(8, 1.0).into()), Some(Field::filled(4, 1.0).into())];
    let e = NodeKind::Add.run(&NodeKind::Add.default_params(), &inputs, &ctx).expect_err("4 against 8");
    assert!(e.to_string().contains("input 1 lies on the whole planet at 4 cells per face edge, the evaluation on the whole planet at 8"), "{e}");
    // Region surfaces do not depend on the resolution.
    let regions = Value::Regions(Arc::new(RegionSurface::new(3, 0.5, 1)));
    assert!(NodeKind::TectonicPlates.run(&NodeKind::TectonicPlates.default_params(), &[Some(regions)], &ctx).is_ok());
}

#[test]
fn units_are_written_in_ascii_and_outputs_use_named_physical_units() {
    for &k in NodeKind::ALL {
        for p in k.params() {
            if let ParamSpec::Float { unit, .. } = p.spec {
                assert!(unit.ascii().is_ascii(), "{:?}.{}: {:?}", k, p.name, unit);
            }
        }
        for port in k.meta().outputs {
            if let PortUnit::Of(unit) = port.unit {
                assert!(Unit::KNOWN.contains(&unit), "{:?}.{}: output in {:?}, not a named physical unit", k, port.name, unit);
            }
        }
    }
}

/// What the editor shows of a node (title, description, parameter labels and tooltips, choice
/// labels) cites no document the user does not have (the project's seed documents).
#[test]
fn user_facing_texts_cite_no_seed_document() {
    let cites = |text: &str| {
        let t = text.to_lowercase();
        ["seed 00", "seeds 00", "algorithm 3"].iter().any(|s| t.contains(s))
    };
    for &k in NodeKind::ALL {
        let meta = k.meta();
        assert!(!cites(meta.label) && !cites(meta.description), "{k:?}: {}", meta.description);
        for p in k.params() {
            assert!(!cites(p.label) && !cites(p.tooltip), "{k:?}.{}: {}", p.name, p.tooltip);
            if let ParamSpec::Choice { options, .. } = p.spec {
                assert!(options.iter().all(|o| !cites(o.label)), "{k:?}.{}: a choice cites a seed", p.name);
            }
        }
    }
}
