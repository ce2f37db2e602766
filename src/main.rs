//! `planetgraph`: argument parsing and dispatch only.

use clap::Parser;
use planetgraph_cli::{self as cli, Cli, CliError, Command};
use std::process::ExitCode;

/// Large blocks (fields, tables: 1 MiB and more) are mapped one by one, so the memory a build
/// frees after each node goes back to the system at once. glibc would otherwise raise its
/// threshold to 32 MiB as blocks are freed and keep a 1024 build's freed fields (24 MiB each) in
/// its heap, which made the peak about 11 % higher than what is alive at once and the
/// memory estimate that `build` checks less faithful.
///
/// Only the commands whose peak memory is planned and measured (`build`, `merge`, `bench
/// --memory`) map them; the others [`keep_freed_blocks`].
fn map_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt only sets an allocator parameter; it is called from main once the
        // arguments are parsed, before any other thread exists. A refusal (0) leaves glibc's
        // default, which is harmless.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        }
    }
}

/// The editor, `render` and `bench` keep freed blocks for the next evaluation: a fresh mapping
/// costs a page fault every 4 KiB when it is first written (about 20 ms for each field at 1024
/// on a 2-core machine), and the editor evaluates the same sizes over and over. Blocks up to
/// glibc's largest threshold (32 MiB, a field at 1024) come from the heap, and up to 512 MiB
/// freed at its top stay there; landscape evolution at 1024 runs about 20 % faster so.
fn keep_freed_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: as in `map_large_blocks`.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
            libc::mallopt(libc::M_TRIM_THRESHOLD, 512 << 20);
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args = Cli::parse();
    if matches!(&args.command, Some(Command::Build(_) | Command::Merge(_) | Command::Bench { memory: true, .. } | Command::Bench { memory_probe: Some(_), .. })) {
        map_large_blocks();
    } else {
        keep_freed_blocks();
    }
    let result: Result<(), CliError> = match &args.command {
        Some(Command::Build(a)) => cli::build::run(a),
        Some(Command::Render(a)) => cli::render::run(a),
        Some(Command::Merge(a)) => cli::merge::run(a),
        Some(Command::Check { file }) => cli::check::run(file),
        Some(Command::Cache { action }) => cli::cache::run(*action),
        Some(Command::Bench { earth: true, graph, resolution, .. }) => cli::bench_earth::run(graph.as_deref(), *resolution as usize),
        Some(Command::Bench { memory_probe: Some(file), probe_resolution: Some(n), .. }) => cli::bench_memory::probe_child(file, *n as usize),
        Some(Command::Bench { only, memory: true, .. }) => cli::bench_memory::run(only.as_deref()),
        Some(Command::Bench { quick, only, scale: false, .. }) => cli::bench::run(*quick, only.as_deref()),
        Some(Command::Bench { only, scale: true, .. }) => cli::bench_scale::run(only.as_deref()),
        None => planetgraph_app::app::run_editor(args.file.as_deref()).map_err(|e| match e {
            planetgraph_app::app::EditorError::File(e) => CliError::input(e),
            planetgraph_app::app::EditorError::Start(e) => CliError::internal(e),
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.message());
            ExitCode::from(e.code)
        }
    }
}
