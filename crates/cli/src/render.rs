//! `planetgraph render FILE --out IMAGE.png`: the viewport's picture, offscreen.

use super::build::{evaluate_planet_from, interrupt_flag};
use super::{render_closeups, CliError, DetailArg, RenderArgs};
use planetgraph_core::eval::{Evaluator, Progress};
use planetgraph_core::inspect::{albedo_image, elevation_image, motion_arrows, normal_image, precipitation_image, slope_image, tectonic_values, temperature_image, texture_values, OverlayColours};
use planetgraph_renderer::{render_offscreen, ColourMode, Layers, MeshOptions, OrbitCamera, OverlayTexture, ViewSettings};

/// Runs the `render` command.
pub fn run(args: &RenderArgs) -> Result<(), CliError> {
    // Where the picture goes is checked before any work, like build's output folder.
    let folder = match args.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    if !folder.is_dir() {
        return Err(CliError::input(anyhow::anyhow!("{}: cannot write the picture: the folder {} does not exist", args.out.display(), folder.display())));
    }
    let g = super::load_for_command(&args.file)?;
    let cancel = interrupt_flag();
    let n = args.resolution as usize;
    let mode = args.mode.0;
    let mut camera = OrbitCamera { distance: args.distance, tilt: args.tilt.to_radians(), ..Default::default() };
    if let Some([yaw, pitch]) = args.view.as_deref() {
        camera.yaw = yaw.to_radians();
        camera.pitch = pitch.to_radians().clamp(-1.55, 1.55);
    }
    // Close-up tiles (not for the planet at another node, whose tiles would need that node's
    // conversion to metres).
    let tiles_for = |camera: &OrbitCamera| match (args.detail, args.from) {
        (DetailArg::Auto, None) => planetgraph_renderer::quadtree::tiles_for_view(camera, args.width, args.height, n),
        _ => Vec::new(),
    };
    let mut ev = Evaluator::new();
    // What the inspection modes, borders and arrows read stays after the run.
    use planetgraph_core::nodes::NodeKind::*;
    let inspect: Vec<planetgraph_core::graph::NodeId> = g.nodes.iter().filter(|x| matches!(x.kind, Slope | Biomes | Temperature | Precipitation | Regions | TectonicPlates | PlateElevation | EarthRelief)).map(|x| x.id).collect();
    let b = evaluate_planet_from(&g, &args.file, n, args.from.map(planetgraph_core::graph::NodeId), (!tiles_for(&camera).is_empty()).then_some(&mut ev), &inspect, &cancel, &Progress::default())?;
    let planet = b.settings;
    let mesh = MeshOptions { resolution: n.clamp(16, 512), exaggeration: args.relief, ..Default::default() };
    // The relief drawn (less near the ground with --relief-near) and the eye above it, as in
    // the viewport; the tiles are those of the view from there.
    let asked = camera.distance;
    let relief_ratio = planetgraph_renderer::settle_camera(&mut camera, Some((&b.field, planet.radius_km)), &mesh, args.relief_near);
    if camera.distance != asked {
        eprintln!("note: at {asked} radii the camera would lie inside the relief exaggerated {:.1} times; drawn from {:.4} radii (less --relief, or --relief-near, lets it come closer)", args.relief * relief_ratio, camera.distance);
    }
    let tiles = tiles_for(&camera);
    let mut close = Vec::new();
    if let Some(p) = g.first_of(planetgraph_core::nodes::NodeKind::Planet).filter(|_| !tiles.is_empty()) {
        let program = planetgraph_core::eval::compile_for(&g, &[p.id]);
        for t in tiles {
            close.push(render_closeups::evaluate(&mut ev, &program, &g, &args.file, p.id, &planet, t, n, args.relief, &cancel)?);
        }
    }
    drop(ev);
    let mut view = ViewSettings { camera, mode, borders: args.borders, arrows: args.arrows, max_depth_m: planet.max_depth_m, max_elevation_m: planet.max_elevation_m, relief_ratio, ..Default::default() };
    if let Some([az, el]) = args.sun.as_deref() {
        view.sun_azimuth_deg = *az;
        view.sun_elevation_deg = el.clamp(-90.0, 90.0);
    }
    let tectonics = tectonic_values(&g, &b.result);
    let colours = if mode == ColourMode::Plates { OverlayColours::Plates } else { OverlayColours::Regions };
    let textures = texture_values(&g, &b.result);
    // Light per pixel from the evaluation's normals (the mesh is coarser than the field); the
    // normals mode shows the same map.
    let normals = mesh.spherical.then(|| normal_image(&b.field, planet.radius_km, mesh.exaggeration, mesh.ocean_surface));
    let overlay = match (mode, &b.albedo) {
        (ColourMode::Albedo, Some(a)) => Some(albedo_image(a)),
        (ColourMode::Elevation, _) if !args.borders => Some(elevation_image(&b.field, planet.max_depth_m, planet.max_elevation_m)),
        (ColourMode::Normals, _) => normals.clone(),
        (ColourMode::Slope, _) => textures.slope.as_deref().map(slope_image),
        (ColourMode::Biome, _) => textures.biome.as_deref().map(albedo_image),
        (ColourMode::Temperature, _) => textures.temperature.as_deref().map(temperature_image),
        (ColourMode::Precipitation, _) => textures.precipitation.as_deref().map(precipitation_image),
        _ if mode.uses_overlay() || args.borders => tectonics.overlay(colours, args.borders),
        _ => None,
    };
    // A mode, borders or arrows that cannot be shown is an error, not the height tint instead.
    let missing = |what: &str| CliError::input(anyhow::anyhow!("{}: render --mode {}: the Planet node is not fed by {what}, so there is nothing to show", args.file.display(), mode.id()));
    if overlay.is_none() {
        match mode {
            ColourMode::Slope => return Err(missing("a Slope node")),
            ColourMode::Biome => return Err(missing("a Biomes node")),
            ColourMode::Temperature => return Err(missing("a Temperature node")),
            ColourMode::Precipitation => return Err(missing("a Precipitation node")),
            ColourMode::Plates | ColourMode::Regions => return Err(missing("tectonic plates and regions")),
            _ if args.borders => return Err(missing("a Regions node (for --borders)")),
            _ => {}
        }
    }
    if args.arrows && tectonics.motion.is_none() {
        return Err(CliError::input(anyhow::anyhow!("{}: render --arrows: the Planet node is not fed by a Plate elevation or Earth-like relief node, so there are no plate motions to draw", args.file.display())));
    }
    let texture = overlay.as_ref().map(|o| OverlayTexture::new(o.size, &o.rgba)).transpose().map_err(CliError::internal)?;
    let arrows = match (&tectonics.motion, args.arrows) {
        (Some(m), true) => motion_arrows(m, &b.field, planet.radius_km, mesh.exaggeration, mesh.ocean_surface, 600),
        _ => Vec::new(),
    };
    let normal_texture = normals.as_ref().map(|n| OverlayTexture::new(n.size, &n.rgba)).transpose().map_err(CliError::internal)?;
    let colours = mode == ColourMode::Albedo && b.albedo.is_some();
    let patches = planetgraph_renderer::DetailPatch::layered(close.iter().map(|c| planetgraph_renderer::DetailPatch::on_tile(c.tile, &c.elevation_m, c.albedo.as_deref().filter(|_| colours), Some(&c.normals))).collect());
    let layers = Layers { overlay: texture, normals: normal_texture, arrows: &arrows, patches: &patches };
    let (w, h, rgba) = render_offscreen(&b.field, planet.radius_km, layers, &mesh, &view, args.width, args.height).map_err(CliError::internal)?;
    let img = image::RgbaImage::from_raw(w, h, rgba).ok_or_else(|| CliError::internal(anyhow::anyhow!("wrong image size")))?;
    img.save(&args.out).map_err(|e| CliError::input(anyhow::anyhow!("{}: cannot write the picture: {e}", args.out.display())))?;
    match close.first() {
        Some(c) => {
            // Tiles per level, finest first.
            let mut levels = std::collections::BTreeMap::new();
            for t in &close {
                *levels.entry(std::cmp::Reverse(t.tile.n)).or_insert(0) += 1;
            }
            let levels: Vec<String> = levels.iter().map(|(l, k)| format!("{k} at {}", l.0)).collect();
            // Underlays: tiles under finer ones, where those meet a coarser tile.
            let under = close.iter().filter(|u| close.iter().any(|t| t.tile.n > u.tile.n && t.tile.overlaps(&u.tile))).count();
            let under = if under > 0 { format!(", {under} of them {} (under finer tiles where those meet coarser ones)", if under == 1 { "an underlay" } else { "underlays" }) } else { String::new() };
            println!("{} ({w} x {h}; close-up: {} tile{} of {} cells: {}{under})", args.out.display(), close.len(), if close.len() == 1 { "" } else { "s" }, c.tile.size, levels.join(", "));
        }
        None => println!("{} ({w} x {h})", args.out.display()),
    }
    Ok(())
}
