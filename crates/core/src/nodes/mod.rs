//! The node vocabulary: one file per node kind, in folders by category. A node file holds the
//! node's metadata ([`NodeMeta`]), its typed settings (made with [`settings!`](crate::settings),
//! choices with [`choices!`](crate::choices)) and its run function; `registry.rs` lists every
//! node kind in one line each. See the README's "Adding a node".

pub mod context;
pub mod macros;
pub mod meta;
pub mod param_types;
pub mod params;
pub mod port;
pub mod registry;
pub mod unit;
pub mod value;

pub mod climate;
pub mod combine;
pub mod display;
pub mod erosion;
pub mod masks;
pub mod modify;
pub mod output;
pub mod sources;
pub mod tectonics;
pub mod texture;

pub use context::{Locality, OpContext, OpError, Refine, RefineFrom, StepProgress};
pub use meta::{Category, MemoryCost, NodeMeta, PortDef, PortType, PortUnit};
pub use params::{ChoiceOption, ParamDef, ParamError, ParamMap, ParamSpec, ParamValue, Settings};
pub use port::{InPort, OutPort, PortValue, FIELD_A, FIELD_B, FIELD_IN, FIELD_OUT};
pub use registry::NodeKind;
pub use unit::Unit;
pub use value::Value;

use crate::planet::Grid;
use std::sync::Arc;

/// What a node file implements: metadata, typed settings and the run function.
pub trait Node {
    /// The node's typed settings (its parameters).
    type Settings: Settings;
    /// Label, category, description and ports.
    const META: NodeMeta;
    /// Runs the node: one value per declared output port, in order and of the declared types
    /// (checked by the caller; a mismatch is an error on the node, never silently accepted).
    fn run(s: &Self::Settings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError>;

    /// Whether the node, with these settings and these input ports connected (in port order),
    /// can run on a tile alone ([`Locality::Cellwise`]: it then makes its outputs on
    /// [`OpContext::grid`], the grid of its inputs), on a tile given its inputs with a halo
    /// ([`Locality::Halo`]: the outputs on [`OpContext::grid`], the inputs on that tile with
    /// more halo), or needs the whole planet (the default). A test runs every cellwise and halo
    /// node on tiles and checks that they give the whole planet's values.
    fn locality(_s: &Self::Settings, _connected: &[bool]) -> Locality {
        Locality::Whole
    }
    /// The level (cells per face edge, at most `n`) at which a whole-planet node with these
    /// settings, asked for its outputs at level `n`, makes them: it runs there and samples
    /// them up bilinearly ([`crate::planet::Field::resample`]), so its outputs have no detail
    /// finer than that level (a Blur of a large radius, the climate). A region evaluation runs
    /// such a node at this level instead of at `n` where it feeds only the tiles, and the
    /// tiles sample it the same way. `None` (the default): the outputs have detail at every
    /// level. Only read for [`Locality::Whole`] nodes.
    fn own_level(_s: &Self::Settings, _n: usize) -> Option<usize> {
        None
    }
    /// A whole-planet node's outputs on a grid finer than the run that made its outputs
    /// (`r.grid`: a tile of a close-up or of a tiled build above the cap): per output, the
    /// node's own finer version of it where `r.wanted` asks for it, or `None` to sample the
    /// run's (bilinearly for a node with a level of its own, smoothly otherwise). Landscape
    /// evolution draws its rivers as lines as wide as the rivers; a node that says it
    /// refines from its inputs ([`Node::refines_from`]) may read them on any tile at the
    /// grid's level ([`Refine::input_on`]): Curvature compares the tile's own relief with the
    /// run's surroundings, Warp reads its input where its points move to. All at once, so
    /// outputs made from the same work share it. The default refines none (an empty list
    /// reads as `None` for every output).
    fn refine(_s: &Self::Settings, _r: &Refine) -> Result<Vec<Option<Value>>, OpError> {
        Ok(Vec::new())
    }
    /// What [`Node::refine`] reads besides the run's outputs: its inputs on tiles
    /// ([`Refine::input_on`]; the tile's steps then get the halo the node runs with), and
    /// perhaps its inputs in the whole-planet run ([`Refine::whole_inputs`], which a tiled
    /// build then keeps). Default: nothing more.
    fn refines_from(_s: &Self::Settings) -> RefineFrom {
        RefineFrom::Outputs
    }

    /// Bytes the node uses while it runs at `n` cells per face edge besides its declared cost
    /// per cell ([`NodeMeta::costing`]): a structure at a level of its own, or work that only
    /// some settings do. Default: none.
    fn extra_bytes(_s: &Self::Settings, _n: usize) -> u64 {
        0
    }

    /// Whether parameter `key` matters given the other settings (the editor hides those that
    /// do not; they keep their values). Compare `key` with `Self::Settings::KEYS`.
    fn shows(_s: &Self::Settings, _key: &str) -> bool {
        true
    }

    /// The files the node reads, as its settings name them (relative to the graph file's
    /// folder, or absolute), each with how it is stored. The compiler resolves them, checks
    /// each one's header (an error on the node names the file and why) and makes their content
    /// part of the node's identity, so an edited file is read again; the run finds the resolved
    /// paths in [`OpContext::files`], in this order. Default: none.
    fn files(_s: &Self::Settings) -> Vec<(String, crate::raster::FileFormat)> {
        Vec::new()
    }

    /// The settings with the files they name made relative to `to` instead of `from` (a graph
    /// saved into another folder keeps reading the same files); `None` when nothing changes.
    fn moved(_s: &Self::Settings, _from: &std::path::Path, _to: &std::path::Path) -> Option<Self::Settings> {
        None
    }

    /// Checks the settings before anything runs (a formula that does not parse, an export
    /// that cannot be written), given which input ports are connected; the message is shown
    /// on the node, and `check` and `build` refuse the graph with it.
    fn check(_s: &Self::Settings, _connected: &[bool]) -> Result<(), String> {
        Ok(())
    }
}

/// The input values of one run, in the order of the node's input ports (already type-checked
/// by the compiler of the graph); `None` for an optional input that is not connected.
pub struct Inputs<'a>(pub &'a [Option<Value>]);

impl Inputs<'_> {
    /// The input `port` (a typed handle on one of the node's inputs).
    pub fn port<T: PortValue>(&self, port: InPort<T>) -> Result<&Arc<T>, OpError> {
        self.port_opt(port)?.ok_or_else(|| OpError::Invalid(format!("input '{}' is not connected", port.name())))
    }

    /// The optional input `port` (`None` when not connected).
    pub fn port_opt<T: PortValue>(&self, port: InPort<T>) -> Result<Option<&Arc<T>>, OpError> {
        port.value_in(self.0).map_err(OpError::Invalid)
    }
}

/// The number of non-finite numbers in a value on the grid, the first one's cell and the
/// grid's resolution; `None` when all are finite (or the value is not on the grid).
fn non_finite(v: &Value) -> Option<(usize, usize, crate::planet::Grid)> {
    let grid = v.grid()?;
    let (per_cell, data): (usize, &[f32]) = match v {
        Value::Field(f) => (1, f.data()),
        Value::Vector(f) => (3, f.data.as_flattened()),
        Value::Colour(f) => (3, f.data.as_flattened()),
        Value::Regions(_) | Value::Plates(_) => return None,
    };
    let first = data.iter().position(|x| !x.is_finite())?;
    Some((data.iter().filter(|x| !x.is_finite()).count(), first / per_cell, grid))
}

/// Runs node `N` from saved parameter values: checks that every input on the grid has the
/// evaluation's resolution (so nodes combine cells one to one), reads the typed settings, runs,
/// and checks that the outputs are those `N::META` declares.
pub fn run_node<N: Node>(values: &ParamMap, inputs: &[Option<Value>], ctx: &OpContext) -> Result<Vec<Value>, OpError> {
    ctx.check()?;
    let settings = N::Settings::from_params(values).map_err(|e| OpError::Invalid(e.to_string()))?;
    // A node that reads its neighbours gets its inputs on its tile with that much more halo.
    let connected: Vec<bool> = inputs.iter().map(Option::is_some).collect();
    let grid = match (N::locality(&settings, &connected), ctx.grid()) {
        (Locality::Halo(h), Grid::Tile(t)) => Grid::Tile(t.with_halo(t.halo + h)),
        (_, grid) => grid,
    };
    if let Some((k, g)) = inputs.iter().enumerate().find_map(|(k, v)| v.as_ref()?.grid().filter(|&g| g != grid).map(|g| (k, g))) {
        return Err(OpError::Invalid(format!("internal error: input {k} lies on {g}, the evaluation on {grid}")));
    }
    let out = N::run(&settings, &Inputs(inputs), ctx)?;
    let declared = N::META.outputs;
    let types_match = out.len() == declared.len() && out.iter().zip(declared).all(|(v, p)| v.port_type() == p.ty);
    if !types_match {
        let got: Vec<&str> = out.iter().map(|v| v.port_type().name()).collect();
        let want: Vec<&str> = declared.iter().map(|p| p.ty.name()).collect();
        return Err(OpError::Invalid(format!("internal error: {} returned [{}] but declares [{}]", N::META.label, got.join(", "), want.join(", "))));
    }
    // No NaN or infinity leaves a node unnoticed: it would turn into the deepest ocean on the
    // planet or into garbage in an export.
    for (v, port) in out.iter().zip(declared) {
        if let Some((count, cell, grid)) = non_finite(v) {
            let d = grid.direction(cell);
            let (lat, lon) = (d.y.clamp(-1.0, 1.0).asin().to_degrees(), d.x.atan2(d.z).to_degrees());
            return Err(OpError::Invalid(format!(
                "output '{}' has {count} non-finite value{} (NaN or infinity), the first at latitude {lat:.1}°, longitude {lon:.1}°: for example a power of a negative number, an exponential that overflows, or such a value in an input",
                port.name,
                if count == 1 { "" } else { "s" }
            )));
        }
    }
    Ok(out)
}

/// Node `N`'s [`Node::refine`] from saved values (none refined when they do not make
/// its settings: its run reports them).
pub fn node_refine<N: Node>(values: &ParamMap, r: &Refine) -> Result<Vec<Option<Value>>, OpError> {
    N::Settings::from_params(values).map_or_else(|_| Ok(Vec::new()), |s| N::refine(&s, r))
}

/// Node `N`'s [`Node::refines_from`] from saved values (the outputs only when they do not
/// make its settings).
pub fn node_refines_from<N: Node>(values: &ParamMap) -> RefineFrom {
    N::Settings::from_params(values).map_or(RefineFrom::Outputs, |s| N::refines_from(&s))
}

/// Node `N`'s [`Node::own_level`] from saved values when it is coarser than `n` (`None` when
/// the node makes its outputs at `n`, or when the values do not read as its settings: its run
/// reports them).
pub fn node_own_level<N: Node>(values: &ParamMap, n: usize) -> Option<usize> {
    N::Settings::from_params(values).ok().and_then(|s| N::own_level(&s, n)).filter(|&m| m < n)
}

/// Node `N`'s [`Node::extra_bytes`] from saved values (none while they do not read as its
/// settings: its run reports them).
pub fn node_extra_bytes<N: Node>(values: &ParamMap, n: usize) -> u64 {
    N::Settings::from_params(values).map_or(0, |s| N::extra_bytes(&s, n))
}

/// Node `N`'s [`Node::locality`] from saved values, given which input ports are connected
/// (values that do not read as its settings make it need the whole planet, where its run
/// reports them).
pub fn node_locality<N: Node>(values: &ParamMap, connected: &[bool]) -> Locality {
    N::Settings::from_params(values).map_or(Locality::Whole, |s| N::locality(&s, connected))
}

/// [`Node::shows`] from saved values (everything is shown while the values do not parse; the
/// validator reports them).
/// Node `N`'s [`Node::check`] of saved values (values that do not read as its settings are
/// reported by the parameter checks instead).
pub fn node_check<N: Node>(values: &ParamMap, connected: &[bool]) -> Result<(), String> {
    match N::Settings::from_params(values) {
        Ok(s) => N::check(&s, connected),
        Err(_) => Ok(()),
    }
}

/// Node `N`'s [`Node::files`] from saved values (none when they do not read as its settings:
/// the parameter checks report them).
pub fn node_files<N: Node>(values: &ParamMap) -> Vec<(String, crate::raster::FileFormat)> {
    N::Settings::from_params(values).map_or_else(|_| Vec::new(), |s| N::files(&s))
}

/// Node `N`'s saved values with the files they name made relative to `to` instead of `from`
/// ([`Node::moved`]); `None` when nothing changes.
pub fn node_moved<N: Node>(values: &ParamMap, from: &std::path::Path, to: &std::path::Path) -> Option<ParamMap> {
    N::Settings::from_params(values).ok().and_then(|s| N::moved(&s, from, to)).map(|s| s.to_params())
}

/// Whether node `N` shows parameter `key` given its saved values.
pub fn node_shows<N: Node>(values: &ParamMap, key: &str) -> bool {
    match N::Settings::from_params(values) {
        Ok(s) => N::shows(&s, key),
        Err(_) => true,
    }
}

/// Defaults -> typed settings -> saved values for node `N`: `Ok` when they come back
/// unchanged and the metadata's label is `N`'s.
pub fn settings_round_trip<N: Node>() -> Result<(), String> {
    let defaults: ParamMap = <N::Settings as Settings>::PARAMS.iter().map(|p| (p.name.to_string(), p.default_value())).collect();
    let s = N::Settings::from_params(&defaults).map_err(|e| format!("{}: {e}", N::META.label))?;
    let back = s.to_params();
    if back != defaults {
        return Err(format!("{}: fields and declared parameters differ: {back:?} against {defaults:?}", N::META.label));
    }
    Ok(())
}

/// What node files use.
pub mod prelude {
    pub use super::context::{with_steps, Locality, OpContext, OpError, Refine, RefineFrom};
    pub use super::meta::{Category, NodeMeta, PortDef, PortType, PortUnit, IN, IN_AB, OUT, OUT_AS_INPUT};
    pub use super::params::{boolean, colour, curve, file, float, gradient, int, matrix, seed, set, text, ChoiceSet, NoSettings, Settings, Srgb};
    pub use super::port::{InPort, OutPort, FIELD_A, FIELD_B, FIELD_IN, FIELD_OUT};
    pub use super::unit::Unit;
    pub use super::value::Value;
    pub use super::{Inputs, Node};
    pub use crate::planet::{ColourField, Field, Grid, RegionSurface, VectorField};
    pub use crate::tectonics::Plates;
    pub use std::sync::Arc;
}
