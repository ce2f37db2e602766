//! `planetgraph render FILE --out IMAGE.png`: the viewport's picture, offscreen.

use super::build::{evaluate_planet, interrupt_flag};
use super::{CliError, RenderArgs};
use crate::eval::Progress;
use crate::io::{load_graph, Strictness};
use crate::render::{render_offscreen, MeshOptions, ViewSettings};

/// Runs the `render` command.
pub fn run(args: &RenderArgs) -> Result<(), CliError> {
    let g = load_graph(&args.file, Strictness::Complete).map_err(CliError::input)?;
    let cancel = interrupt_flag();
    let (field, planet, _) = evaluate_planet(&g, &args.file, args.resolution as usize, &cancel, &Progress::default())?;
    let mesh = MeshOptions { resolution: (args.resolution as usize).clamp(16, 512), ..Default::default() };
    let view = ViewSettings { max_depth_m: planet.max_depth_m, max_elevation_m: planet.max_elevation_m, ..Default::default() };
    let (w, h, rgba) = render_offscreen(&field, planet.radius_km, &mesh, &view, args.width, args.height).map_err(CliError::internal)?;
    let img = image::RgbaImage::from_raw(w, h, rgba).ok_or_else(|| CliError::internal(anyhow::anyhow!("wrong image size")))?;
    img.save(&args.out).map_err(|e| CliError::internal(anyhow::anyhow!("{}: {e}", args.out.display())))?;
    println!("{} ({w} x {h})", args.out.display());
    Ok(())
}
