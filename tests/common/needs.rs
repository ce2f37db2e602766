//! Tests that need something outside the repository that only an administrator can install: a
//! graphics adapter (Mesa's lavapipe on a machine without a GPU) for the tests that draw, and
//! Blender for the test that imports the exports. Where it is missing such a test fails with
//! what to install, unless the user opts out (`PLANETGRAPH_SKIP_GPU=1`,
//! `PLANETGRAPH_SKIP_BLENDER=1`); a skipped test is then printed and appended to the file
//! `PLANETGRAPH_SKIPPED_LOG` names, which `scripts/test.sh` lists at the end of its run.

/// True when `test` must stop because no graphics adapter exists and `PLANETGRAPH_SKIP_GPU=1`;
/// panics when none exists and no skip was asked for.
#[allow(dead_code)]
pub fn skip_without_adapter(test: &str) -> bool {
    let Err(planetgraph_renderer::RenderError::NoAdapter) = planetgraph_renderer::headless_device() else { return false };
    skip_or_fail(test, "no graphics adapter", "PLANETGRAPH_SKIP_GPU", "Mesa's lavapipe (apt-get install mesa-vulkan-drivers libvulkan1)")
}

/// True when `test` must stop because Blender cannot be run and `PLANETGRAPH_SKIP_BLENDER=1`;
/// panics when it cannot be run and no skip was asked for.
#[allow(dead_code)]
pub fn skip_without_blender(test: &str) -> bool {
    let runs = std::process::Command::new("blender").arg("--version").output().is_ok_and(|o| o.status.success());
    !runs && skip_or_fail(test, "no Blender", "PLANETGRAPH_SKIP_BLENDER", "Blender (apt-get install blender python3-numpy)")
}

fn skip_or_fail(test: &str, missing: &str, var: &str, install: &str) -> bool {
    if std::env::var(var).is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED {test}: {missing} ({var}=1)");
        if let Ok(log) = std::env::var("PLANETGRAPH_SKIPPED_LOG") {
            use std::io::Write;
            // Best effort: the list is a courtesy; the skip itself was printed above.
            if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(log) {
                let _ = writeln!(f, "{test}: {missing} ({var}=1)");
            }
        }
        return true;
    }
    panic!("{test}: {missing}: install {install}, or set {var}=1 to skip the tests that need it");
}
