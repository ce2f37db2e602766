//! `planetgraph`: argument parsing and dispatch only.

use clap::Parser;
use planetgraph::cli::{self, Cli, CliError, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args = Cli::parse();
    let result: Result<(), CliError> = match &args.command {
        Some(Command::Build(a)) => cli::build::run(a),
        Some(Command::Render(a)) => cli::render::run(a),
        Some(Command::Merge(a)) => cli::merge::run(a),
        Some(Command::Check { file }) => cli::check::run(file),
        Some(Command::Bench { earth: true, graph, resolution, .. }) => cli::bench_earth::run(graph.as_deref(), *resolution as usize),
        Some(Command::Bench { memory_probe: Some(file), probe_resolution: Some(n), .. }) => cli::bench_memory::probe_child(file, *n as usize),
        Some(Command::Bench { only, memory: true, .. }) => cli::bench_memory::run(only.as_deref()),
        Some(Command::Bench { quick, only, scale: false, .. }) => cli::bench::run(*quick, only.as_deref()),
        Some(Command::Bench { only, scale: true, .. }) => cli::bench_scale::run(only.as_deref()),
        None => planetgraph::app::run_editor(args.file.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.message());
            ExitCode::from(e.code)
        }
    }
}
