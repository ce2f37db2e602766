//! The command line: build writes 16-bit PNGs of the right sizes and a manifest; check and
//! every command give exit code 2 with a message naming file and line or node for bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_planetgraph"))
}

fn graph(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("graphs").join(name)
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("run planetgraph")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn build_writes_sized_16_bit_pngs_and_a_manifest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let o = run(&["build", graph("default.ron").to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "24", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let eq = image::open(out.join("elevation_equirect.png")).expect("equirect png");
    assert_eq!((eq.width(), eq.height()), (96, 48));
    assert!(matches!(eq, image::DynamicImage::ImageLuma16(_)), "16-bit grey");
    for (i, name) in ["front", "right", "back", "left", "top", "bottom"].iter().enumerate() {
        let f = image::open(out.join(format!("elevation_face{i}_{name}.png"))).expect("face png");
        assert_eq!((f.width(), f.height()), (24, 24));
        assert!(matches!(f, image::DynamicImage::ImageLuma16(_)));
    }
    let colour = image::open(out.join("colour_equirect.png")).expect("colour png");
    assert_eq!((colour.width(), colour.height()), (96, 48));
    let manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).expect("manifest")).expect("json");
    assert_eq!(manifest["resolution"], 24);
    let files = manifest["files"].as_array().expect("files");
    // Elevation (equirectangular and six faces), the height tint, and the default planet's albedo.
    assert_eq!(files.len(), 9);
    let albedo = image::open(out.join("albedo_equirect.png")).expect("albedo png");
    assert_eq!((albedo.width(), albedo.height()), (96, 48));
    assert!(matches!(albedo, image::DynamicImage::ImageRgb8(_)));
    assert!(files.iter().any(|f| f["export"] == "albedo" && f["path"] == "albedo_equirect.png" && f["mapping"]["type"] == "srgb"));
    assert_eq!(manifest["version"], 2);
    assert_eq!(files[0]["mapping"], serde_json::json!({"type": "linear", "low": -11000.0, "high": 9000.0, "max_sample": 65535}));
    assert_eq!(files[0]["units"], "m");
    assert!(manifest["conventions"]["face_frames"].as_str().is_some());
    assert!(!manifest["timings_ms"].as_object().expect("timings").is_empty());
}

#[test]
fn check_accepts_every_example() {
    for name in ["default.ron", "noise_continents.ron", "tectonic_r50.ron", "tectonic_r200.ron", "fault_planet.ron", "fault_planet_mirrored.ron", "terraced_highlands.ron", "eroded_tectonic.ron", "volcanic_island.ron"] {
        let o = run(&["check", graph(name).to_str().expect("path")]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }
}

#[test]
fn bad_graph_files_exit_2_with_a_located_message() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = std::fs::read_to_string(graph("noise_continents.ron")).expect("noise_continents");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated.ron", good.as_bytes()[..good.len() / 2].to_vec(), "truncated.ron:"),
        ("binary.ron", vec![0x89, b'P', b'N', b'G', 0xff, 0xfe, 0, 1, 2], "not a text file"),
        ("empty.ron", Vec::new(), "empty.ron:1:"),
        ("wrong_type.ron", good.replace("\"octaves\": Int(9)", "\"octaves\": Float(9.0)").into_bytes(), "Noise #1: parameter 'octaves' must be Int, found Float"),
        ("bad_kind.ron", good.replace("kind: Multiply", "kind: Multiplyy").into_bytes(), "bad_kind.ron:7:"),
        ("range.ron", good.replace("\"octaves\": Int(9)", "\"octaves\": Int(900)").into_bytes(), "Noise #1: parameter 'octaves' = 900 is outside 1..12"),
        ("dangling.ron", good.replace("(from: 4, output: \"out\", to: 5, input: \"b\")", "(from: 40, output: \"out\", to: 5, input: \"b\")").into_bytes(), "refers to node #40"),
        ("cycle.ron", good.replace("(from: 1, output: \"out\", to: 3, input: \"in\")", "(from: 5, output: \"out\", to: 3, input: \"in\")").into_bytes(), "cycle"),
        ("unconnected.ron", good.replace("    (from: 2, output: \"out\", to: 4, input: \"a\"),\n", "").into_bytes(), "Multiply #4: input 'a' is not connected"),
        ("version.ron", good.replace("version: 3", "version: 7").into_bytes(), "format version 7"),
        // `check` runs the node's own checks as `build` does (issue 26's reproducer).
        (
            "formula.ron",
            br#"(version: 2, nodes: [(id: 1, kind: Noise), (id: 2, kind: Expression, params: {"formula": Text("unknown(a)")}), (id: 3, kind: Planet)], links: [(from: 1, output: "out", to: 2, input: "a"), (from: 2, output: "out", to: 3, input: "elevation")])"#.to_vec(),
            "Expression #2: formula, column 1: unknown function 'unknown'",
        ),
        (
            "export_range.ron",
            br#"(version: 3, nodes: [(id: 1, kind: Noise), (id: 2, kind: Planet), (id: 3, kind: Export, params: {"mapping": Choice("fixed"), "low": Float(5.0), "high": Float(1.0)})], links: [(from: 1, output: "out", to: 2, input: "elevation"), (from: 1, output: "out", to: 3, input: "field")])"#.to_vec(),
            "Export #3: Low (5) must be below High (1)",
        ),
    ];
    let out_png = dir.path().join("o.png");
    let out_png = out_png.to_str().expect("path");
    for (name, bytes, expect) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("write");
        for cmd in ["check", "build", "render"] {
            let mut args = vec![cmd, path.to_str().expect("path")];
            if cmd != "check" {
                args.extend(["--out", out_png]);
                args.extend(["--resolution", "8"]);
            }
            let o = run(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{cmd} {name}: {err}");
            assert!(err.contains(expect), "{cmd} {name}: expected '{expect}' in: {err}");
            assert!(!err.contains("panicked"), "{cmd} {name}: {err}");
        }
    }
    // Paths that are no regular file are refused at once (a FIFO would block, /dev/zero never
    // ends), and so is a folder.
    #[cfg(unix)]
    {
        let fifo = dir.path().join("pipe.ron");
        assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
        for (path, what) in [(fifo.as_path(), "not a regular file"), (Path::new("/dev/zero"), "not a regular file"), (dir.path(), "a folder")] {
            let o = run(&["check", path.to_str().expect("path")]);
            assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
            assert!(stderr(&o).contains("not a graph file") && stderr(&o).contains(what), "{}", stderr(&o));
        }
    }
    // A picture into a folder that does not exist: exit 2 before any work, like build.
    let missing_dir = dir.path().join("no_such_folder").join("x.png");
    let o = run(&["render", graph("noise_continents.ron").to_str().expect("path"), "--out", missing_dir.to_str().expect("path"), "--resolution", "8"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no_such_folder does not exist"), "{}", stderr(&o));
    let o = run(&["check", dir.path().join("missing.ron").to_str().expect("path")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing.ron: cannot read the file"));
    // The OS's reason is said once, not once more for the error's cause.
    assert_eq!(stderr(&o).matches("No such file or directory").count(), 1, "{}", stderr(&o));
}

#[test]
fn bad_command_line_values_exit_2() {
    let g = graph("default.ron");
    let g = g.to_str().expect("path");
    for res in ["0", "-5", "abc", "99999999", "1e3"] {
        let o = run(&["build", g, "--out", "/tmp/never", "--resolution", res]);
        assert_eq!(o.status.code(), Some(2), "resolution {res}: {}", stderr(&o));
        assert!(stderr(&o).contains("--resolution"), "{}", stderr(&o));
    }
    let o = run(&["build", g, "--out", "/tmp/never", "--threads", "0"]);
    assert_eq!(o.status.code(), Some(2));
    // Too large even for a tiled build within its memory budget: refused before allocating,
    // with a clear message.
    let o = run(&["build", g, "--out", "/tmp/never", "--resolution", "16384", "--memory", "0.05"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("memory budget of 51 MiB is below"), "{}", stderr(&o));
    assert!(!Path::new("/tmp/never").exists());
    let o = run(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    // The colour modes are the viewport's, by identifier.
    let o = run(&["render", g, "--out", "/tmp/never.png", "--mode", "temperatur"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("temperature") && stderr(&o).contains("precipitation"), "{}", stderr(&o));
}

#[test]
fn editor_without_display_points_to_build() {
    let o = bin().env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY").output().expect("run");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("planetgraph build"), "{}", stderr(&o));
}

#[test]
fn bench_quick_prints_every_figure() {
    let o = run(&["bench", "--quick"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    for name in [
        "eval_cold_default_n128",
        "eval_after_output_param_n128",
        "eval_after_source_param_n128",
        "build_default_n512",
        "noise_fbm8_ns_per_cell",
        "noise_fbm8_baseline_ns_per_cell",
        "drainage_n1024_ms",
        "diamond_square_n1024_ms",
        "lsystem_rivers_n512_ms",
        "expression_mcells_per_s",
        "closeup_first_tile_ms",
        "closeup_tile_s",
        "closeup_assemble_ms",
        "check_chain_300k_s",
        "landscape_n1024_s",
        "landscape_msteps_per_s",
        "landscape_n128_ms",
        "edit_first_picture_ms",
        "edit_preview_ms",
        "reopen_default_ms",
    ] {
        let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name} missing in {text}"));
        let parts: Vec<_> = line.split_whitespace().collect();
        assert_eq!(parts.len(), 3, "{line}");
        assert!(parts[1].parse::<f64>().expect("number") > 0.0);
    }
}

/// Under a control group's memory limit (a container, a cluster job), a build that the limit
/// cannot hold whole is tiled to fit it, and one that not even a tiled build fits is refused with
/// exit 2 before any work, where the machine's own free memory would have let it start and be
/// killed. Needs the right to create a control group (root);
/// elsewhere it says so and returns.
#[cfg(target_os = "linux")]
#[test]
fn a_control_group_limit_tiles_a_build_or_refuses_what_would_not_fit() {
    let name = format!("planetgraph-test-{}", std::process::id());
    let (group, limit) = if Path::new("/sys/fs/cgroup/memory/cgroup.procs").exists() { (Path::new("/sys/fs/cgroup/memory").join(&name), "memory.limit_in_bytes") } else { (Path::new("/sys/fs/cgroup").join(&name), "memory.max") };
    if std::fs::create_dir(&group).is_err() || std::fs::write(group.join(limit), "1500000000").is_err() {
        eprintln!("not run: cannot create a control group with a memory limit here (needs root)");
        // Best effort: the folder may not exist.
        let _ = std::fs::remove_dir(&group);
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let build = |limit_bytes: &str, out: &str| {
        std::fs::write(group.join(limit), limit_bytes).expect("limit");
        let script = format!("echo $$ > '{}'; exec '{}' build '{}' --resolution 1024 --out '{}'", group.join("cgroup.procs").display(), env!("CARGO_BIN_EXE_planetgraph"), graph("default.ron").display(), dir.path().join(out).display());
        Command::new("sh").args(["-c", &script]).output().expect("sh")
    };
    // 450 MB: the whole build (about 700 MiB) does not fit, a tiled one (about 350 MiB with
    // the default graph's rivers watering their valleys) does, and is not killed.
    let tiled = build("450000000", "tiled");
    // 750 MiB: the limit under which the whole build once started (its estimate below the
    // limit, its peak above) and was killed; it must fit, whole or tiled.
    let at_750 = build("786432000", "at750");
    // 40 MB: not even a tiled build fits; refused before any work.
    let refused = build("40000000", "refused");
    // The processes have ended, so the group is empty and can go.
    let removed = std::fs::remove_dir(&group);
    assert_eq!(tiled.status.code(), Some(0), "{}", stderr(&tiled));
    let manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.path().join("tiled/manifest.json")).expect("manifest")).expect("json");
    assert!(manifest["whole_planet_level"].as_u64().is_some_and(|l| l < 1024), "{manifest}");
    assert_eq!(at_750.status.code(), Some(0), "under 750 MiB: {}", stderr(&at_750));
    assert!(dir.path().join("at750/manifest.json").exists());
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("is below what a tiled build needs"), "{}", stderr(&refused));
    assert!(!dir.path().join("refused").exists());
    removed.expect("the test's control group is removed");
}

/// What does not depend on the resolution is refused by `check` as by `build`, naming the
/// nodes: two Export nodes that would write one file, more plates than the regions they grow
/// over.
#[test]
fn check_refuses_what_build_refuses() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clash = dir.path().join("clash.ron");
    std::fs::write(
        &clash,
        r#"(version: 3, nodes: [
  (id: 1, kind: Noise), (id: 2, kind: Planet),
  (id: 10, kind: Export, params: {"name": Text("height"), "format": Choice("png16")}),
  (id: 11, kind: Export, params: {"name": Text("height"), "format": Choice("png8")}),
], links: [
  (from: 1, output: "out", to: 2, input: "elevation"),
  (from: 2, output: "out", to: 10, input: "field"),
  (from: 2, output: "out", to: 11, input: "field"),
])"#,
    )
    .expect("graph");
    let plates = dir.path().join("plates.ron");
    std::fs::write(
        &plates,
        r#"(version: 3, nodes: [
  (id: 1, kind: Regions, params: {"resolution": Int(2)}),
  (id: 2, kind: TectonicPlates, params: {"plates": Int(30)}),
  (id: 3, kind: PlateElevation),
  (id: 4, kind: Planet),
], links: [
  (from: 1, output: "regions", to: 2, input: "regions"),
  (from: 2, output: "plates", to: 3, input: "plates"),
  (from: 3, output: "elevation", to: 4, input: "elevation"),
])"#,
    )
    .expect("graph");
    for (file, words) in [(&clash, ["Export #11", "Export #10", "height_equirect.png"]), (&plates, ["Tectonic plates #2", "30 plates cannot be made from 24 regions", "plates"])] {
        let f = file.to_str().expect("path");
        for args in [vec!["check", f], vec!["build", f, "--resolution", "16", "--out", dir.path().join("out").to_str().expect("path")]] {
            let o = run(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            for w in words {
                assert!(stderr(&o).contains(w), "{args:?}: '{w}' not in {}", stderr(&o));
            }
        }
    }
    assert!(!dir.path().join("out").exists(), "nothing written");
}

/// Exit codes as the README's table gives them: 0 success, 2 bad input (a non-finite number
/// included), 1 an internal failure (here: the editor cannot open a window).
#[test]
fn exit_codes_follow_the_readme_table() {
    let g = graph("default.ron");
    let g = g.to_str().expect("path");
    assert_eq!(run(&["check", g]).status.code(), Some(0));
    for args in [["--view", "nan", "nan"], ["--view", "inf", "0"], ["--sun", "nan", "nan"], ["--sun", "0", "inf"]] {
        let mut all = vec!["render", g, "--out", "/tmp/never.png"];
        all.extend(args);
        let o = run(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("not a finite number"), "{args:?}: {}", stderr(&o));
    }
    assert!(!Path::new("/tmp/never.png").exists());
    let o = bin().env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY").output().expect("run");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

/// `render --mode` shows what it names or refuses: a graph without the node a mode reads is
/// exit 2 naming it (not a silent height tint).
#[test]
fn render_modes_without_their_data_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let g = dir.path().join("noise.ron");
    std::fs::write(&g, r#"(version: 3, nodes: [(id: 1, kind: Noise), (id: 2, kind: Planet)], links: [(from: 1, output: "out", to: 2, input: "elevation")])"#).expect("graph");
    let g = g.to_str().expect("path");
    let out = dir.path().join("x.png");
    let out = out.to_str().expect("path");
    for (mode, what) in [("slope", "a Slope node"), ("biome", "a Biomes node"), ("temperature", "a Temperature node"), ("precipitation", "a Precipitation node"), ("plates", "tectonic plates")] {
        let o = run(&["render", g, "--out", out, "--resolution", "16", "--width", "64", "--height", "64", "--mode", mode]);
        assert_eq!(o.status.code(), Some(2), "{mode}: {}", stderr(&o));
        assert!(stderr(&o).contains(what), "{mode}: {}", stderr(&o));
    }
    let o = run(&["render", g, "--out", out, "--resolution", "16", "--width", "64", "--height", "64", "--arrows"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!Path::new(out).exists());
}
