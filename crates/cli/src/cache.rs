//! `planetgraph cache info|clear`: the node cache on disk that the editor and `build --cache`
//! share (see `planetgraph_core::eval::disk_cache`).

use super::{CacheAction, CliError};
use anyhow::anyhow;
use planetgraph_core::eval::disk_cache::{clear, default_cap_bytes, default_dir, usage};

/// Runs `cache ACTION`.
pub fn run(action: CacheAction) -> Result<(), CliError> {
    let dir = default_dir().ok_or_else(|| CliError::input(anyhow!("no cache folder: set PLANETGRAPH_CACHE_DIR or HOME")))?;
    let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
    match action {
        CacheAction::Info => {
            let u = usage(&dir).map_err(|e| CliError::input(anyhow!("{}: {e}", dir.display())))?;
            println!("{}: {} entries, {:.1} MiB of at most {:.0} MiB", dir.display(), u.entries, mib(u.bytes), mib(default_cap_bytes()));
        }
        CacheAction::Clear => {
            let u = clear(&dir).map_err(|e| CliError::input(anyhow!("{}: {e}", dir.display())))?;
            println!("{}: removed {} entries, {:.1} MiB", dir.display(), u.entries, mib(u.bytes));
        }
    }
    Ok(())
}
