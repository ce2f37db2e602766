//! PlanetGraph's command line: argument definitions and the headless commands (`build`,
//! `render`, `merge`, `check`, `bench`).
//!
//! A crate of its own that declares no UI crate, so the commands and the Python package
//! (`python/`, which calls `build` and `check`) compile without the editor. It names the domain's
//! modules by their own paths (`planetgraph_core::graph`, ...) and re-exports nothing; the
//! renderer is `planetgraph_renderer`, as `render` here is the command. See the README's
//! architecture section.

#![warn(missing_docs)]

pub mod bench;
pub mod bench_closeup;
pub mod bench_earth;
pub mod bench_export;
pub mod bench_memory;
pub mod bench_scale;
pub mod bench_toolbox;
pub mod build;
pub mod cache;
pub mod check;
pub mod merge;
pub mod render;
pub mod render_closeups;

use clap::{Args, Parser, Subcommand};
use planetgraph_renderer::ColourMode;
use std::path::PathBuf;

use planetgraph_core::limits::MAX_RESOLUTION;

/// PlanetGraph: design procedural planets with a node graph.
#[derive(Debug, Parser)]
#[command(name = "planetgraph", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// Graph file to open in the editor (the built-in default graph if omitted).
    pub file: Option<PathBuf>,
    /// Headless command.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What `planetgraph cache` does.
#[derive(Debug, Clone, Copy, Subcommand)]
pub enum CacheAction {
    /// Print the cache's folder, its entries and size.
    Info,
    /// Remove every entry.
    Clear,
}

/// Headless commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Evaluate a graph and write its exports and manifest.json into a folder.
    Build(BuildArgs),
    /// Join the shares of a build (`build --tiles I/N`) into its exports and manifest.
    Merge(MergeArgs),
    /// Render the planet as the viewport shows it into a PNG, offscreen.
    Render(RenderArgs),
    /// The node cache on disk that the editor and `build --cache` share.
    Cache {
        /// What to do.
        #[command(subcommand)]
        action: CacheAction,
    },
    /// Validate a graph: exit 0 if it loads and compiles, else 2 with the problem.
    Check {
        /// Graph file.
        file: PathBuf,
    },
    /// Run the built-in benchmarks and print `NAME VALUE UNIT` lines.
    Bench {
        /// Fewer repetitions (for a smoke test).
        #[arg(long)]
        quick: bool,
        /// Run only the figures whose names contain this text (e.g. `droplet`).
        #[arg(long)]
        only: Option<String>,
        /// Instead, build the default graph at 1024, 2048, 4096 and 8192 per face edge with the
        /// default memory budget (the larger two tiled): time, peak resident memory and the
        /// memory estimate of each (about an hour in all; not part of the default run).
        #[arg(long)]
        scale: bool,
        /// Instead, build every example in `graphs/` at 512 and 1024 per face edge, each in a
        /// process of its own, and print the memory estimate beside the measured peak.
        #[arg(long, conflicts_with_all = ["scale", "earth"])]
        memory: bool,
        /// `bench --memory`'s probing child: builds this graph at `--probe-resolution` and
        /// prints each node's peak memory.
        #[arg(long, hide = true, requires = "probe_resolution")]
        memory_probe: Option<PathBuf>,
        /// Resolution of the probing child's build.
        #[arg(long, hide = true)]
        probe_resolution: Option<u32>,
        /// Instead, measure how Earth-like a planet is (hypsometry, belts, landmasses,
        /// artifacts) and print the figures beside Earth's.
        #[arg(long)]
        earth: bool,
        /// With `--earth`: the graph to measure (default: the default graph).
        #[arg(long, requires = "earth")]
        graph: Option<PathBuf>,
        /// With `--earth`: cells per cube-face edge.
        #[arg(long, requires = "earth", default_value_t = 512, value_parser = clap::value_parser!(u32).range(8..=4096))]
        resolution: u32,
    },
}

/// Arguments of `build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// Graph file.
    pub file: PathBuf,
    /// Output folder (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Cells per cube-face edge (6 N^2 cells).
    #[arg(long, allow_negative_numbers = true, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=MAX_RESOLUTION as i64))]
    pub resolution: u32,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Write only share I of N of the files (image files and meshes dealt out in turn) and
    /// `share_I_of_N.json` instead of the manifest; `planetgraph merge` joins the shares. Every
    /// share evaluates the whole-planet nodes; a tiled build's share evaluates the tiles its
    /// files read.
    #[arg(long, value_name = "I/N", allow_hyphen_values = true, value_parser = planetgraph_core::export::Share::parse)]
    pub tiles: Option<planetgraph_core::export::Share>,
    /// Memory budget in GiB. A build whose estimate exceeds it (or 90 % of the available
    /// memory) is tiled: the nodes that need the whole planet run at the finest level that
    /// fits, and the files are written from tiles evaluated as they are read.
    #[arg(long, value_name = "GIB", default_value_t = 4.0, allow_negative_numbers = true)]
    pub memory: f64,
    /// Read and write node results in the node cache on disk (the editor's: `PLANETGRAPH_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/planetgraph/nodes`, else `~/.cache/planetgraph/nodes`). The files are
    /// the same with and without it.
    #[arg(long)]
    pub cache: bool,
}

/// Arguments of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Folders holding the shares (`share_I_of_N.json` and their files); one folder may hold
    /// several.
    #[arg(required = true)]
    pub shares: Vec<PathBuf>,
    /// Output folder (created if missing; may be one of the share folders).
    #[arg(long)]
    pub out: PathBuf,
}

/// Arguments of `render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Graph file.
    pub file: PathBuf,
    /// Output PNG.
    #[arg(long)]
    pub out: PathBuf,
    /// Image width in pixels.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(16..=8192))]
    pub width: u32,
    /// Image height in pixels.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(16..=8192))]
    pub height: u32,
    /// Cells per cube-face edge of the evaluation.
    #[arg(long, allow_negative_numbers = true, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=MAX_RESOLUTION as i64))]
    pub resolution: u32,
    /// Colouring: the viewport's colour modes (albedo by default: the Planet node's albedo, the
    /// height tint where it has none).
    #[arg(long, value_enum, default_value_t = ModeArg(ColourMode::Albedo))]
    pub mode: ModeArg,
    /// Sun azimuth and elevation in degrees (azimuth 0 towards +Z, 90 towards +X; elevation
    /// above the equatorial plane).
    #[arg(long, num_args = 2, value_names = ["AZIMUTH", "ELEVATION"], allow_negative_numbers = true, value_parser = parse_finite)]
    pub sun: Option<Vec<f32>>,
    /// Darken region borders and mark centroids (needs a Regions node).
    #[arg(long)]
    pub borders: bool,
    /// Draw plate-motion arrows (needs a Plate elevation or Earth-like relief node).
    #[arg(long)]
    pub arrows: bool,
    /// Camera yaw and pitch in degrees (default: the viewport's start view).
    #[arg(long, num_args = 2, value_names = ["YAW", "PITCH"], allow_negative_numbers = true, value_parser = parse_finite)]
    pub view: Option<Vec<f32>>,
    /// Camera distance from the planet's centre in planet radii (1.004 to 20; the viewport
    /// starts at 3.9).
    #[arg(long, default_value_t = 3.9, value_parser = parse_distance)]
    pub distance: f32,
    /// Tilt of the view towards the horizon (north) in degrees (0 looks at the centre, up to
    /// 84).
    #[arg(long, default_value_t = 0.0, value_parser = parse_tilt)]
    pub tilt: f32,
    /// Vertical exaggeration of the relief (1 = true scale; the viewport's default is 20).
    #[arg(long, default_value_t = 20.0, value_parser = parse_relief)]
    pub relief: f32,
    /// Draw less of `--relief` near the ground, as the viewport's *Near* box does: all of it
    /// from 0.5 planet radii of altitude up, less below with the altitude's 0.6th power, down to
    /// true scale at the ground (20: 5.6 at 1.06 radii, 2.9 at 1.02).
    #[arg(long)]
    pub relief_near: bool,
    /// Render the elevation at this node (its first output, through the Planet node's
    /// settings) instead of the Planet node's input: the planet at that point of the graph,
    /// for example before an erosion node. Node ids are those of the graph file.
    #[arg(long, value_name = "NODE_ID")]
    pub from: Option<u32>,
    /// Close-up detail: `auto` evaluates the graph again on a quadtree of tiles of 512 x 512
    /// cells under the picture, each at the level where a cell is about a pixel there (up to
    /// 65536 cells per face edge, at most 32 tiles), when the camera is 1.6 planet radii or
    /// nearer, where that level is finer than `--resolution`; where a finer tile meets a
    /// coarser one, also the finer one's parent at the coarser level, which it blends into
    /// towards that border (an underlay); `off` shows the planet at `--resolution` only.
    #[arg(long, value_enum, default_value_t = DetailArg::Auto)]
    pub detail: DetailArg,
}

/// `render --detail`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DetailArg {
    /// Close-up tiles when the camera is near.
    Auto,
    /// No close-up tiles.
    Off,
}

/// A finite number (`nan` and `inf`, which Rust's parser takes, are refused).
fn parse_finite(s: &str) -> Result<f32, String> {
    let v: f32 = s.trim().parse().map_err(|e| format!("{e}"))?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(format!("'{s}' is not a finite number"))
    }
}

fn parse_range(s: &str, lo: f32, hi: f32) -> Result<f32, String> {
    let v: f32 = s.parse().map_err(|e| format!("{e}"))?;
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is not in {lo}..={hi}"))
    }
}

fn parse_distance(s: &str) -> Result<f32, String> {
    parse_range(s, 1.0 + planetgraph_renderer::camera::MIN_ALTITUDE, planetgraph_renderer::camera::MAX_DISTANCE)
}

fn parse_tilt(s: &str) -> Result<f32, String> {
    parse_range(s, 0.0, planetgraph_renderer::camera::MAX_TILT.to_degrees().floor())
}

fn parse_relief(s: &str) -> Result<f32, String> {
    parse_range(s, 0.0, 200.0)
}

/// A viewport colour mode as `--mode` takes it: by its identifier, with its label as help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModeArg(pub ColourMode);

/// Every mode, in the renderer's order.
const MODE_ARGS: [ModeArg; ColourMode::ALL.len()] = {
    let mut all = [ModeArg(ColourMode::ALL[0]); ColourMode::ALL.len()];
    let mut k = 1;
    while k < all.len() {
        all[k] = ModeArg(ColourMode::ALL[k]);
        k += 1;
    }
    all
};

impl clap::ValueEnum for ModeArg {
    fn value_variants<'a>() -> &'a [Self] {
        &MODE_ARGS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.id()).help(self.0.label()))
    }
}

/// An error with the exit code it should produce (2: bad input, 1: internal failure).
#[derive(Debug)]
pub struct CliError {
    /// Process exit code.
    pub code: u8,
    /// What happened.
    pub error: anyhow::Error,
}

impl From<planetgraph_core::export::BuildError> for CliError {
    /// A build that was cancelled or could not be made is the user's input (exit 2); a bug (a
    /// node's caught panic) is an internal failure (exit 1).
    fn from(e: planetgraph_core::export::BuildError) -> CliError {
        CliError { code: e.exit_code(), error: e.into() }
    }
}

impl CliError {
    /// The message as printed: the error and each cause not already part of its text (an
    /// error whose message includes its OS error, such as "x.ron: cannot read the file: No such
    /// file or directory", then does not repeat it).
    pub fn message(&self) -> String {
        let mut text = self.error.to_string();
        for cause in self.error.chain().skip(1) {
            let c = cause.to_string();
            if !text.contains(&c) {
                text.push_str(": ");
                text.push_str(&c);
            }
        }
        text
    }

    /// Bad input (exit 2).
    pub fn input(e: impl Into<anyhow::Error>) -> CliError {
        CliError { code: 2, error: e.into() }
    }

    /// Internal failure (exit 1).
    pub fn internal(e: impl Into<anyhow::Error>) -> CliError {
        CliError { code: 1, error: e.into() }
    }
}

/// Runs `f` on a pool of `threads` threads ([`planetgraph_core::limits::with_threads`]); the
/// operating system refusing the threads is an internal failure.
pub fn with_threads<T: Send>(threads: Option<u32>, f: impl FnOnce() -> T + Send) -> Result<T, CliError> {
    planetgraph_core::limits::with_threads(threads, f).map_err(CliError::internal)
}

/// Loads a graph file for a command (every input connected), printing on stderr what
/// bringing a file of an older format up to date changed, one warning per node.
pub fn load_for_command(file: &std::path::Path) -> Result<planetgraph_core::graph::Graph, CliError> {
    let (g, notes) = planetgraph_core::io::load_graph_noting(file, planetgraph_core::io::Strictness::Complete).map_err(CliError::input)?;
    for n in notes {
        eprintln!("warning: {}: {n}", file.display());
    }
    Ok(g)
}
