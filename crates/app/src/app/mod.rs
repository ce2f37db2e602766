//! The eframe application: orchestration of the document, editor, evaluation worker and
//! viewport. `document` holds no UI types.

pub mod clipboard;
pub mod closeup_jobs;
pub mod document;
pub mod library;
pub mod pipeline;
pub mod planet_app;
pub mod previews;
pub mod recovery;
pub mod viewer;
pub mod viewport;

pub use document::Document;
pub use planet_app::PlanetApp;

use anyhow::anyhow;
use planetgraph_examples::default_graph;
use std::path::Path;

/// Why the editor did not run: the command line turns these into its exit codes (a file that
/// cannot be opened where no window can show it is the user's input, 2; the rest, 1).
#[derive(Debug)]
pub enum EditorError {
    /// The graph file given cannot be opened, and there is no window to show why.
    File(anyhow::Error),
    /// The editor could not start (no display, no graphics adapter, a failure while starting).
    Start(anyhow::Error),
}

impl std::fmt::Display for EditorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditorError::File(e) | EditorError::Start(e) => write!(f, "{e}"),
        }
    }
}

/// Opens the editor window with `file` or the built-in default graph. A file that cannot be
/// opened still opens the editor, on an empty graph, with the error in a dialog (and on the
/// terminal); a graph with errors opens for repair.
pub fn run_editor(file: Option<&Path>) -> Result<(), EditorError> {
    let opened = match file {
        Some(p) => Document::open(p),
        None => Ok(Document::new(default_graph().map_err(|e| EditorError::Start(e.into()))?, None)),
    };
    #[cfg(target_os = "linux")]
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        // No window to show the error in: the terminal gets it, with the input-error code.
        opened.map_err(|e| EditorError::File(e.into()))?;
        return Err(EditorError::Start(anyhow!("no display found (DISPLAY and WAYLAND_DISPLAY are unset), so the editor cannot open; to build a planet without a window use `planetgraph build FILE.ron --out DIR`")));
    }
    let (doc, problem) = match opened {
        Ok(doc) => (doc, None),
        Err(e) => {
            eprintln!("error: {e}");
            (Document::new(planetgraph_core::graph::Graph::default(), None), Some(format!("Cannot open the graph.\n\n{e}")))
        }
    };
    let options = eframe::NativeOptions { viewport: egui::ViewportBuilder::default().with_inner_size([1600.0, 900.0]).with_min_inner_size([800.0, 500.0]).with_title(doc.title()), renderer: eframe::Renderer::Wgpu, ..Default::default() };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        eframe::run_native(
            "PlanetGraph",
            options,
            Box::new(move |cc| {
                let mut app = PlanetApp::new(doc, &cc.egui_ctx)?.with_state_dir(recovery::default_state_dir()).with_default_library().with_default_disk_cache();
                app.opened_with(problem);
                Ok(Box::new(app))
            }),
        )
    }));
    match result {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(EditorError::Start(anyhow!("cannot start the editor: {e}. Without a display or a GPU adapter, use `planetgraph build FILE.ron --out DIR`"))),
        Err(_) => Err(EditorError::Start(anyhow!("the editor stopped unexpectedly while starting; without a display or a GPU adapter, use `planetgraph build FILE.ron --out DIR`"))),
    }
}
