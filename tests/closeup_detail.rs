//! Close-ups with real detail (issue 25, item 3, for `planetgraph render`): over the default
//! planet's highest range at 1.02 planet radii, the render with the close-up tile has at least
//! four times the high-frequency energy of the same view without it.
//!
//! High-frequency energy: the mean square of the discrete Laplacian (4 p - the four
//! neighbours) of the picture's grey levels, which weighs each spatial frequency by the fourth
//! power of its wave number, so a blur scores low and fine relief high.

#[path = "common/needs.rs"]
mod needs;

use planetgraph_cli::build::evaluate_planet;
use planetgraph_core::eval::Progress;
use planetgraph_core::planet::Grid;
use planetgraph_examples::default_graph;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;

fn laplacian_energy(png: &Path) -> f64 {
    let img = image::open(png).expect("the render").to_luma8();
    let (w, h) = img.dimensions();
    let p = |x: u32, y: u32| f64::from(img.get_pixel(x, y)[0]);
    let mut sum = 0.0;
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let l = 4.0 * p(x, y) - p(x - 1, y) - p(x + 1, y) - p(x, y - 1) - p(x, y + 1);
            sum += l * l;
        }
    }
    sum / f64::from((w - 2) * (h - 2))
}

#[test]
fn a_close_up_over_a_range_has_four_times_the_fine_detail() {
    if needs::skip_without_adapter("a_close_up_over_a_range_has_four_times_the_fine_detail") {
        return;
    }
    // The highest ground of the default planet, at the render's resolution.
    let g = default_graph().expect("default graph");
    let n = 128;
    let b = evaluate_planet(&g, Path::new("graphs/default.ron"), n, &AtomicBool::new(false), &Progress::default()).expect("evaluates");
    let top = b.field.data().iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(k, _)| k).expect("cells");
    let d = Grid::Whole(n).direction(top);
    let (yaw, pitch) = (d.x.atan2(d.z).to_degrees(), d.y.asin().to_degrees());
    let dir = tempfile::tempdir().expect("temp dir");
    let render = |detail: &str| {
        let out = dir.path().join(format!("{detail}.png"));
        let view = [format!("{yaw}"), format!("{pitch}")];
        let sun = [format!("{}", yaw - 35.0), format!("{}", (pitch + 25.0).min(89.0))];
        let res = n.to_string();
        let args = [
            "render",
            "graphs/default.ron",
            "--out",
            out.to_str().expect("utf-8"),
            "--resolution",
            &res,
            "--distance",
            "1.02",
            "--relief",
            "2",
            "--width",
            "320",
            "--height",
            "240",
            "--detail",
            detail,
            "--view",
            &view[0],
            &view[1],
            "--sun",
            &sun[0],
            &sun[1],
        ];
        let o = Command::new(env!("CARGO_BIN_EXE_planetgraph")).current_dir(env!("CARGO_MANIFEST_DIR")).args(args).output().expect("runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (laplacian_energy(&out), String::from_utf8_lossy(&o.stdout).to_string())
    };
    let (fine, said) = render("auto");
    assert!(said.contains("of 512 cells: ") && said.contains(" at 16384"), "{said}");
    let (coarse, _) = render("off");
    eprintln!("high-frequency energy: {fine:.3} with the close-up, {coarse:.3} without ({:.1} times)", fine / coarse);
    assert!(fine >= 4.0 * coarse, "{fine} against {coarse}");
}
