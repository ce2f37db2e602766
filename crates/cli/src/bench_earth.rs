//! `planetgraph bench --earth`: how Earth-like a graph's planet is. Evaluates the graph (the
//! default one unless a file is given) once at a resolution (512 unless told) and prints the
//! figures of [`planetgraph_core::inspect::realism`] beside Earth's, its climate on land, and the time of
//! that cold evaluation.

use super::CliError;
use anyhow::anyhow;
use planetgraph_core::erosion::landscape::river_cover;
use planetgraph_core::eval::{compile_for, Evaluator, Progress, Request};
use planetgraph_core::graph::Graph;
use planetgraph_core::inspect::landforms::{landform_figures, Landform, LandformFigures, EARTH_SCALE, RELIEF_QUANTILES};
use planetgraph_core::inspect::realism::{biome_shares, earth_figures, land_mean_and_share, land_median, land_median_where, latitudinal_border_share, plateau_figures, EarthFigures, PlateauFigures, EARTH};
use planetgraph_core::inspect::tectonic_values;
use planetgraph_core::io::{load_graph, Strictness};
use planetgraph_core::nodes::climate::ice_sheet;
use planetgraph_core::nodes::climate::precipitation::PRECIPITATION;
use planetgraph_core::nodes::erosion::landscape::{self, RIVERS};
use planetgraph_core::nodes::output::planet::PlanetSettings;
use planetgraph_core::nodes::sources::import_raster::ImportRasterSettings;
use planetgraph_core::nodes::tectonics::earth_relief;
use planetgraph_core::nodes::texture::biomes::Biome;
use planetgraph_core::nodes::texture::biomes::BIOME;
use planetgraph_core::nodes::{NodeKind, OutPort};
use planetgraph_core::planet::coords::face_solid_angles;
use planetgraph_core::planet::Field;
use planetgraph_examples::default_graph;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Measures the planet of `file` (the default graph when `None`) at `n` cells per face edge.
pub fn run(file: Option<&Path>, n: usize) -> Result<(), CliError> {
    let (g, name): (Graph, String) = match file {
        Some(p) => (load_graph(p, Strictness::Complete).map_err(CliError::input)?, p.display().to_string()),
        None => (default_graph().map_err(CliError::internal)?, "default graph".to_string()),
    };
    let Measured { relief: e, plateau, climate, rivers, landforms, ice, seconds } = measure(&g, &name, n)?;
    let grid = EarthGrid::from_env()?;
    let earth_forms = earth_landforms(n, &grid)?;
    println!("# {name} at {n} cells per face edge; Earth's figures after the values");
    println!("earth_eval_s {seconds:.1} s");
    let earth = |k: &str| EARTH.iter().find(|x| x.0 == k).map_or(String::new(), |x| format!("  (Earth {})", x.1));
    println!("earth_land_share {:.3}{}", e.land_share, earth("land_share"));
    println!("earth_mean_land_m {:.0} m{}", e.mean_land_m, earth("mean_land_m"));
    println!("earth_ocean_mode_m {:.0} m{}", e.ocean_mode_m, earth("ocean_mode_m"));
    println!("earth_above_3km_share {:.4}{}", e.above_3km_share, earth("above_3km_share"));
    if let Some(i) = &ice {
        println!("# under the ice sheet, the bed above; the ice's surface and the ice:");
        println!("earth_ice_surface_mean_land_m {:.0} m{}", i.surface_mean_land_m, earth("ice_surface_mean_land_m"));
        println!("earth_ice_surface_above_3km_share {:.4}  (of the globe){}", i.surface_above_3km_share, earth("ice_surface_above_3km_share"));
        println!("earth_ice_sheet_land_share {:.3}{}", i.land_share, earth("ice_sheet_land_share"));
        println!("earth_ice_mean_thickness_m {:.0} m{}", i.mean_thickness_m, earth("ice_mean_thickness_m"));
        println!("earth_ice_max_thickness_m {:.0} m{}", i.max_thickness_m, earth("ice_max_thickness_m"));
    }
    println!("earth_deepest_m {:.0} m{}", e.deepest_m, earth("deepest_m"));
    println!("earth_wide_belt_share {:.3}{}", e.wide_belt_share, earth("wide_belt_share"));
    println!("earth_largest_landmass_share {:.3}{}", e.largest_landmass_share, earth("largest_landmass_share"));
    println!(
        "earth_inland_below_sea_share {:.4} in {} basins  (of the land: ground below sea level away from the ocean; Earth's Caspian Sea alone about 0.0025, with a few small depressions such as the Dead Sea and Qattara)",
        e.inland_below_sea_share, e.inland_basins
    );
    match e.region_border_ratio {
        Some(r) => println!("earth_region_border_ratio {r:.3}  (at most 1.05; Earth with random regions laid over it 0.94..1.04)"),
        None => println!("earth_region_border_ratio -  (no Tectonic plates node)"),
    }
    println!("earth_seam_max_slope {:.1} m/km  (inside the faces along their edges {:.1} m/km)", e.seam_max_slope, e.face_max_slope);
    println!("earth_seam_mean_slope_ratio {:.3}  (across cube edges over inside the faces)", e.seam_mean_ratio);
    match plateau {
        Some(p) => {
            println!("earth_plateau_area_share {:.4}  (Tibet about 0.005 of the globe)", p.area_share);
            println!("earth_plateau_mean_m {:.0} m, {:.0} m before erosion  (Tibet about 4500)", p.final_mean_m, p.relief_mean_m);
            println!("earth_plateau_kept {:.2}  (its mean height after erosion over before)", p.final_mean_m / p.relief_mean_m.max(1.0));
            println!("earth_plateau_slope_deg {:.2}  (mean slope on the plateaus)", p.final_slope_deg);
            if let Some(c) = &climate {
                if let Some(mm) = c.plateau_precipitation_median_mm {
                    println!("earth_plateau_precipitation_median_mm {mm:.0} mm/yr  (Tibet about 400, from 1000 in the south-east to under 100 in the north-west)");
                }
            }
        }
        None => println!("earth_plateau -  (no Earth-like relief node, or no plateau)"),
    }
    match climate {
        Some(c) => {
            println!("earth_land_precipitation_median_mm {:.0} mm/yr  (skewed by the deserts: below the mean)", c.precipitation_median_mm);
            println!("earth_land_precipitation_mean_mm {:.0} mm/yr  (Earth's land mean about 800)", c.precipitation_mean_mm);
            let share = |keep: &dyn Fn(Biome) -> bool| c.biomes.iter().filter(|(b, _)| keep(*b)).map(|x| x.1).sum::<f64>();
            println!("earth_land_desert_share {:.3}  (hot deserts about 0.2 of Earth's land, cold ones about 0.1 more)", share(&|b| b == Biome::Desert));
            println!("earth_land_forest_share {:.3}  (Earth about 0.3)", share(&|b| matches!(b, Biome::BorealForest | Biome::TemperateForest | Biome::TemperateRainforest | Biome::TropicalSeasonalForest | Biome::TropicalRainforest)));
            println!("earth_land_ice_share {:.3}  (Earth's ice sheets, Antarctica and Greenland, about 0.10 of the land)", share(&|b| b == Biome::Ice));
            if let Some(r) = c.latitudinal_borders {
                println!("earth_biome_border_latitudinal_share {r:.3}  (biome borders on land that run along the parallels: latitude bands 0.87, meridional slices 0.10, borders running every way about 0.5)");
            }
            for (b, x) in &c.biomes {
                println!("earth_land_biome_{} {:.3}", b.id(), x);
            }
        }
        None => println!("earth_land_biomes -  (no Biomes or Precipitation node)"),
    }
    println!("# Earth's landforms from {}", grid.describe());
    print_landforms(landforms.as_ref(), &earth_forms, n);
    match rivers {
        Some(r) => {
            println!("earth_river_cover_land_share {:.5}  (river water at true widths over the land; Earth's rivers and streams of every size about 0.006 of the ice-free land, Allen and Pavelsky 2018)", r.water);
            println!("earth_river_painted_land_share {:.5}  (the rivers mask over the land, its large rivers painted at least the River lines width)", r.painted);
            println!("earth_river_cells_land_share {:.4}  (land in river cells, which a mask of whole cells would paint as water)", r.cells);
        }
        None => println!("earth_river_cover_land_share -  (no Landscape evolution node)"),
    }
    Ok(())
}

/// Land precipitation and biomes of a graph's first Precipitation and Biomes nodes.
pub struct ClimateFigures {
    /// Area-weighted median precipitation on land, mm/yr.
    pub precipitation_median_mm: f64,
    /// Area-weighted mean precipitation on land, mm/yr.
    pub precipitation_mean_mm: f64,
    /// Area-weighted median precipitation on plateau interiors (an Earth-like relief's
    /// erodibility below `PLATEAU_ERODIBILITY_BELOW`), mm/yr; `None` without such a relief.
    pub plateau_precipitation_median_mm: Option<f64>,
    /// Share of the land per biome.
    pub biomes: Vec<(Biome, f64)>,
    /// [`latitudinal_border_share`] of the biomes (`None` without borders).
    pub latitudinal_borders: Option<f64>,
}

/// The ice of an Ice sheet node over the land (the land surface above sea level: the ice's
/// where there is ice).
pub struct IceFigures {
    /// Area-weighted mean height of the ice's surface (the bed where bare) over the land, m.
    pub surface_mean_land_m: f64,
    /// Share of the globe whose ice surface (or bare bed) is higher than 3 km.
    pub surface_above_3km_share: f64,
    /// Share of the land under ice (the node's cover, 0 to 1, averaged).
    pub land_share: f64,
    /// Area-weighted mean thickness where there is ice, m.
    pub mean_thickness_m: f64,
    /// Thickest ice, m.
    pub max_thickness_m: f64,
}

/// [`IceFigures`] of the land surface in metres (the ice's where there is ice; land where it
/// is above sea level), the ice's thickness and cover.
fn ice_figures(surface_m: &Field, thickness: &Field, cover: &Field) -> IceFigures {
    let land_share = land_mean_and_share(surface_m, cover).0;
    let n = surface_m.n();
    let area = face_solid_angles(n);
    let above_3km = surface_m.data().iter().enumerate().filter(|(_, &h)| h > 3000.0).map(|(c, _)| area[c % (n * n)]).sum::<f64>();
    IceFigures {
        surface_mean_land_m: land_mean_and_share(surface_m, surface_m).0,
        surface_above_3km_share: above_3km / (4.0 * std::f64::consts::PI),
        land_share,
        mean_thickness_m: if land_share > 0.0 { land_mean_and_share(surface_m, thickness).0 / land_share } else { 0.0 },
        max_thickness_m: f64::from(thickness.data().iter().copied().fold(0.0f32, f32::max)),
    }
}

/// The rivers of a Landscape evolution node over the land.
#[derive(Clone, Copy, Debug)]
pub struct RiverFigures {
    /// Share of the land under river water at the rivers' true widths (4 m x the square root
    /// of the discharge in m³/s).
    pub water: f64,
    /// Share of the land the rivers mask covers (with its line share for large rivers).
    pub painted: f64,
    /// Share of the land in river cells.
    pub cells: f64,
}

/// What [`measure`] finds.
pub struct Measured {
    /// The relief against Earth's figures.
    pub relief: EarthFigures,
    /// Plateaus of the first Earth-like relief node (`None` without one, or without plateaus).
    pub plateau: Option<PlateauFigures>,
    /// The climate on land (`None` without a Precipitation and a Biomes node).
    pub climate: Option<ClimateFigures>,
    /// Rivers of the first Landscape evolution node (`None` without the node).
    pub rivers: Option<RiverFigures>,
    /// Landforms and local relief over the land ([`EARTH_SCALE`]; `None` without land).
    pub landforms: Option<LandformFigures>,
    /// The ice of an Ice sheet node in front of the Planet node (`None` without one; the other
    /// figures are then the bed's).
    pub ice: Option<IceFigures>,
    /// Seconds of the cold evaluation.
    pub seconds: f64,
}

/// Prints the landform shares and local-relief quantiles of the planet beside Earth's at the
/// same cells.
fn print_landforms(planet: Option<&LandformFigures>, earth: &LandformFigures, n: usize) {
    let Some(p) = planet else {
        println!("earth_landforms -  (no land)");
        return;
    };
    println!("# landforms over land (geomorphons: lines of sight of {} km, level within {} degrees) beside Earth's at {n} cells per face edge", EARTH_SCALE.lookup_km, EARTH_SCALE.flat_deg);
    for form in Landform::ALL {
        println!("earth_landform_{} {:.3}  (Earth {:.3})", form.id(), p.share(form), earth.share(form));
    }
    for (k, q) in RELIEF_QUANTILES.iter().enumerate() {
        println!("earth_local_relief_p{:.0}_m {:.0} m  (Earth {:.0} m; highest minus lowest within {} km, over land)", q * 100.0, p.relief_m[k], earth.relief_m[k], EARTH_SCALE.relief_radius_km);
    }
}

/// The grid of Earth's relief the landform figures are measured on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EarthGrid {
    /// ETOPO1 at 0.1 degree (`scripts/earth_grid.py --fine`; `scripts/test.sh` fetches it and
    /// names it in `PLANETGRAPH_ETOPO1`).
    Fine(PathBuf),
    /// The committed 0.25-degree grid of the *Earth, amplified* template.
    Bundled,
}

impl EarthGrid {
    /// The file named by `PLANETGRAPH_ETOPO1` when it is set (an error when that file is
    /// missing, rather than a quiet fall-back), else the bundled grid.
    pub fn from_env() -> Result<Self, CliError> {
        match std::env::var_os("PLANETGRAPH_ETOPO1") {
            Some(p) if !p.is_empty() => {
                let path = PathBuf::from(p);
                if !path.is_file() {
                    return Err(CliError::input(anyhow!("PLANETGRAPH_ETOPO1 names {}, which is not a file (scripts/test.sh writes it with scripts/earth_grid.py --fine)", path.display())));
                }
                Ok(Self::Fine(path))
            }
            _ => Ok(Self::Bundled),
        }
    }

    /// Where the grid comes from, in words.
    pub fn describe(&self) -> String {
        match self {
            Self::Fine(p) => format!("ETOPO1 at 0.1 degree ({})", p.display()),
            Self::Bundled => "ETOPO1 at 0.25 degree (the Earth, amplified template's grid; set PLANETGRAPH_ETOPO1 to the 0.1-degree grid for the finer one)".to_string(),
        }
    }
}

/// How much finer than the measured cells Earth's grid is imported, before each block of
/// `EARTH_OVERSAMPLE`² cells is averaged into one: the cells hold the mean of the relief within
/// them, not one sample of it.
const EARTH_OVERSAMPLE: usize = 4;

/// Landforms and local relief of Earth's land at `n` cells per face edge: `grid` imported as
/// the *Earth, amplified* template imports it (its Import raster node and Planet settings) at
/// 4n cells per face edge, then averaged down to `n`, in metres.
pub fn earth_landforms(n: usize, grid: &EarthGrid) -> Result<LandformFigures, CliError> {
    let template = planetgraph_examples::templates::TEMPLATES.iter().find(|t| t.file == "earth_amplified.ron").ok_or_else(|| CliError::internal(anyhow!("no Earth, amplified template")))?;
    let mut g = template.graph().map_err(CliError::internal)?;
    let dir = std::env::temp_dir().join("planetgraph-bench");
    g.folder = template.materialise(&dir).map_err(|e| CliError::internal(anyhow!("writing the Earth grid into {}: {e}", dir.display())))?;
    let import = g.first_of(NodeKind::ImportRaster).ok_or_else(|| CliError::internal(anyhow!("the Earth template has no Import raster node")))?;
    let id = import.id;
    if let EarthGrid::Fine(path) = grid {
        let mut s: ImportRasterSettings = import.settings().map_err(|e| CliError::internal(anyhow!("{}: {e}", import.describe())))?;
        s.path = path.display().to_string();
        g.set_settings(id, &s);
    }
    let planet = g.first_of(NodeKind::Planet).ok_or_else(|| CliError::internal(anyhow!("the Earth template has no Planet node")))?;
    let settings: PlanetSettings = planet.settings().map_err(|e| CliError::internal(anyhow!("{}: {e}", planet.describe())))?;
    let res = Evaluator::new().run(&compile_for(&g, &[id]), &Request::whole(n * EARTH_OVERSAMPLE), &AtomicBool::new(false), &Progress::default());
    if let Some((node, e)) = res.errors.iter().next() {
        return Err(CliError::input(anyhow!("Earth's grid, {}: node {node}: {e}", grid.describe())));
    }
    let field = res.output(id, 0).and_then(|v| v.as_field()).ok_or_else(|| CliError::internal(anyhow!("the Earth grid was not imported")))?;
    let metres = settings.apply(&field.resample(n));
    landform_figures(&metres, f64::from(settings.radius_km), &EARTH_SCALE).ok_or_else(|| CliError::internal(anyhow!("the Earth grid has no land")))
}

/// Evaluates `g` (called `name` in errors) once at `n` cells per face edge: the elevation its
/// Planet node receives (in metres through the Planet's settings), its plates, and its first
/// Precipitation and Biomes nodes, and measures them.
pub fn measure(g: &Graph, name: &str, n: usize) -> Result<Measured, CliError> {
    let planet = g.first_of(NodeKind::Planet).ok_or_else(|| CliError::input(anyhow!("{name}: no Planet node to measure")))?;
    let settings: PlanetSettings = planet.settings().map_err(|e| CliError::input(anyhow!("{name}: {}: {e}", planet.describe())))?;
    let link = g.link_into(planet.id, planetgraph_core::nodes::output::planet::ELEVATION).ok_or_else(|| CliError::input(anyhow!("{name}: {}: elevation is not connected", planet.describe())))?;
    // Earth's figures are ETOPO1's bedrock: under an Ice sheet node its (lowered) bed is
    // measured, and the ice beside it.
    let (link, ice_node) = match g.node(link.from) {
        Some(ice) if ice.kind == NodeKind::IceSheet => (g.link_into(ice.id, ice_sheet::ELEVATION).ok_or_else(|| CliError::input(anyhow!("{name}: {}: elevation is not connected", ice.describe())))?, Some(ice.id)),
        _ => (link, None),
    };
    let source = g.node(link.from).ok_or_else(|| CliError::internal(anyhow!("{name}: link from a missing node")))?;
    let output = source.kind.meta().outputs.iter().position(|o| o.name == link.output).ok_or_else(|| CliError::internal(anyhow!("{name}: no output {}", link.output)))?;
    let (rain, biomes) = (g.first_of(NodeKind::Precipitation).map(|x| x.id), g.first_of(NodeKind::Biomes).map(|x| x.id));
    let mut targets = vec![link.from];
    targets.extend(g.nodes.iter().filter(|x| x.kind == NodeKind::TectonicPlates).map(|x| x.id));
    let relief_node = g.first_of(NodeKind::EarthRelief).map(|x| x.id);
    let landscape = g.first_of(NodeKind::LandscapeEvolution).map(|x| x.id);
    targets.extend(rain.iter().chain(&biomes).chain(&relief_node).chain(&landscape).chain(&ice_node));
    let program = compile_for(g, &targets);
    let cancel = AtomicBool::new(false);
    let t = Instant::now();
    let res = Evaluator::new().run(&program, &Request::whole(n), &cancel, &Progress::default());
    let seconds = t.elapsed().as_secs_f64();
    if let Some((id, e)) = res.errors.iter().next() {
        return Err(CliError::input(anyhow!("{name}: node {id}: {e}")));
    }
    let field = |id, k: usize| -> Result<&planetgraph_core::planet::Field, CliError> { res.output(id, k).and_then(|v| v.as_field()).map(|f| f.as_ref()).ok_or_else(|| CliError::internal(anyhow!("{name}: node {id} output {k} was not computed"))) };
    let port = |id, p: OutPort<planetgraph_core::planet::Field>| -> Result<&planetgraph_core::planet::Field, CliError> {
        res.port_value(id, p).map(|f| f.as_ref()).ok_or_else(|| CliError::internal(anyhow!("{name}: node {id} output {} was not computed", p.name())))
    };
    // Under an Ice sheet node, its bed as the ice's weight lowered it (ETOPO1's bedrock is the
    // lowered bed too).
    let metres = match ice_node {
        Some(id) => settings.apply(port(id, ice_sheet::BED)?),
        None => settings.apply(field(link.from, output)?),
    };
    // The land surface (the ice's where there is ice): where the climate, the cover and the
    // ice are measured, as Earth's land (Antarctica's whole area, its bed partly below sea level).
    let ice_surface_m = ice_node.map(|id| port(id, ice_sheet::SURFACE).map(|f| settings.apply(f))).transpose()?;
    let surface_m = ice_surface_m.as_ref().unwrap_or(&metres);
    let tect = tectonic_values(g, &res);
    let pair = tect.plates.as_deref().map(|p| (p.regions.as_ref(), p));
    let relief = earth_figures(&metres, settings.radius_km, pair, &cancel).map_err(|e| CliError::internal(anyhow!(e)))?;
    let erodibility = relief_node.map(|id| port(id, earth_relief::ERODIBILITY).map(|e| (id, e))).transpose()?;
    let climate = match (rain, biomes) {
        (Some(rain), Some(biomes)) => {
            let rain = port(rain, PRECIPITATION)?;
            let plateau_precipitation_median_mm = erodibility.map(|(_, e)| {
                let e = e.resample(surface_m.n());
                land_median_where(surface_m, rain, |c| e.data()[c] < planetgraph_core::inspect::realism::PLATEAU_ERODIBILITY_BELOW)
            });
            let biome = port(biomes, BIOME)?;
            Some(ClimateFigures {
                precipitation_median_mm: land_median(surface_m, rain),
                precipitation_mean_mm: land_mean_and_share(surface_m, rain).0,
                plateau_precipitation_median_mm,
                biomes: biome_shares(surface_m, biome),
                latitudinal_borders: latitudinal_border_share(surface_m, biome),
            })
        }
        _ => None,
    };
    let plateau = match erodibility {
        Some((id, e)) => plateau_figures(&settings.apply(port(id, earth_relief::ELEVATION)?), &metres, e, settings.radius_km),
        None => None,
    };
    let rivers = landscape
        .map(|id| -> Result<RiverFigures, CliError> {
            let (mask, q) = (port(id, RIVERS)?, port(id, landscape::DISCHARGE)?);
            let (painted, cells) = land_mean_and_share(surface_m, mask);
            let m = mask.n();
            let radius_m = f64::from(settings.radius_km) * 1000.0;
            let cell_m2: Vec<f32> = face_solid_angles(m).iter().map(|a| (a * radius_m * radius_m) as f32).collect();
            let true_width = Field::from_fn_cell(m, |c| if mask.data()[c] > 0.0 { river_cover(q.data()[c], cell_m2[c % (m * m)], 0.0) } else { 0.0 });
            Ok(RiverFigures { water: land_mean_and_share(surface_m, &true_width).0, painted, cells })
        })
        .transpose()?;
    let landforms = landform_figures(&metres, f64::from(settings.radius_km), &EARTH_SCALE);
    let ice = ice_node.map(|id| -> Result<IceFigures, CliError> { Ok(ice_figures(surface_m, port(id, ice_sheet::THICKNESS)?, port(id, ice_sheet::ICE)?)) }).transpose()?;
    Ok(Measured { relief, plateau, climate, rivers, landforms, ice, seconds })
}
