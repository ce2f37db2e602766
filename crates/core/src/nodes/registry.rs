//! The registry: every node kind, one line each (`Kind => path::to::NodeType`). The kind's
//! name is its saved identifier in graph files (`kind: PlateElevation`), so it never changes;
//! the label shown to the user lives in the node file. A test fails if a node file under
//! `src/nodes/` is missing here.

use super::meta::NodeMeta;
use super::params::{ParamDef, ParamMap, ParamValue, Settings};
use super::{climate, combine, display, erosion, masks, modify, output, sources, tectonics, texture};
use super::{node_check, node_extra_bytes, node_files, node_locality, node_moved, node_own_level, node_refine, node_refines_from, node_shows, run_node, settings_round_trip, Node, OpContext, OpError, Value};
use serde::{Deserialize, Serialize};

macro_rules! registry {
    ($( $kind:ident => $node:ty, )*) => {
        /// Every node kind PlanetGraph knows, in menu order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum NodeKind {
            $( #[doc = concat!("See [`", stringify!($node), "`].")] $kind, )*
        }

        impl NodeKind {
            /// All kinds, in menu order.
            pub const ALL: &'static [NodeKind] = &[ $( NodeKind::$kind, )* ];

            /// Label, category, description and ports.
            pub fn meta(self) -> NodeMeta {
                match self { $( NodeKind::$kind => <$node as Node>::META, )* }
            }

            /// The declared parameters (those of the kind's settings).
            pub fn params(self) -> &'static [ParamDef] {
                match self { $( NodeKind::$kind => <<$node as Node>::Settings as Settings>::PARAMS, )* }
            }

            /// Runs a node of this kind from saved parameter values; `inputs` follow the input
            /// ports in order (`None` for an optional input that is not connected). Returns one value per
            /// declared output port.
            pub fn run(self, values: &ParamMap, inputs: &[Option<Value>], ctx: &OpContext) -> Result<Vec<Value>, OpError> {
                match self { $( NodeKind::$kind => run_node::<$node>(values, inputs, ctx), )* }
            }

            /// Whether a node of this kind with these values and these input ports connected
            /// runs on a tile alone or needs the whole planet ([`Node::locality`]).
            pub fn locality(self, values: &ParamMap, connected: &[bool]) -> super::Locality {
                match self { $( NodeKind::$kind => node_locality::<$node>(values, connected), )* }
            }

            /// The level a whole-planet node of this kind with these values, asked for its
            /// outputs at level `n`, makes them at when coarser than `n` ([`Node::own_level`]);
            /// `None`: at `n`.
            pub fn own_level(self, values: &ParamMap, n: usize) -> Option<usize> {
                match self { $( NodeKind::$kind => node_own_level::<$node>(values, n), )* }
            }

            /// The outputs of a whole-planet node of this kind on a grid finer than its run
            /// ([`Node::refine`]); `None` (or none listed) to sample them.
            pub fn refine(self, values: &ParamMap, r: &super::Refine) -> Result<Vec<Option<Value>>, OpError> {
                match self { $( NodeKind::$kind => node_refine::<$node>(values, r), )* }
            }

            /// What a node of this kind with these values refines its outputs on a finer tile
            /// from besides the run's outputs ([`Node::refines_from`]).
            pub fn refines_from(self, values: &ParamMap) -> super::RefineFrom {
                match self { $( NodeKind::$kind => node_refines_from::<$node>(values), )* }
            }

            /// Bytes a node of this kind with these values uses while it runs at `n` cells per
            /// face edge besides its declared cost per cell ([`Node::extra_bytes`]).
            pub fn extra_bytes(self, values: &ParamMap, n: usize) -> u64 {
                match self { $( NodeKind::$kind => node_extra_bytes::<$node>(values, n), )* }
            }

            /// Whether parameter `key` matters given the node's values (the editor hides the
            /// others).
            pub fn shows(self, values: &ParamMap, key: &str) -> bool {
                match self { $( NodeKind::$kind => node_shows::<$node>(values, key), )* }
            }

            /// Checks a node's settings before anything runs ([`Node::check`]), given which
            /// input ports are connected (in port order).
            pub fn check(self, values: &ParamMap, connected: &[bool]) -> Result<(), String> {
                match self { $( NodeKind::$kind => node_check::<$node>(values, connected), )* }
            }

            /// The files a node of this kind with these values reads ([`Node::files`]): paths
            /// as the settings name them, with how each is stored.
            pub fn files(self, values: &ParamMap) -> Vec<(String, crate::raster::FileFormat)> {
                match self { $( NodeKind::$kind => node_files::<$node>(values), )* }
            }

            /// The node's values with the files they name made relative to folder `to` instead
            /// of `from` ([`Node::moved`]); `None` when nothing changes.
            pub fn moved(self, values: &ParamMap, from: &std::path::Path, to: &std::path::Path) -> Option<ParamMap> {
                match self { $( NodeKind::$kind => node_moved::<$node>(values, from, to), )* }
            }

            /// Checks that the kind's typed settings read its declared defaults and write them
            /// back unchanged (every declared parameter has a field of its type, and every
            /// field a declaration); the message says what differs.
            pub fn check_settings(self) -> Result<(), String> {
                match self { $( NodeKind::$kind => settings_round_trip::<$node>(), )* }
            }
        }
    };
}

registry! {
    Constant => sources::constant::Constant,
    Noise => sources::noise::Noise,
    FaultPlanet => sources::fault_planet::FaultPlanet,
    Latitude => sources::latitude::Latitude,
    Island => sources::island::Island,
    Hillgrow => sources::hillgrow::Hillgrow,
    DiamondSquare => sources::diamond_square::DiamondSquare,
    ImportRaster => sources::import_raster::ImportRaster,
    Add => combine::binary::Add,
    Subtract => combine::binary::Subtract,
    Multiply => combine::binary::Multiply,
    Divide => combine::binary::Divide,
    Min => combine::binary::Min,
    Max => combine::binary::Max,
    Blend => combine::blend::Blend,
    Power => combine::binary::Power,
    Expression => combine::expression::Expression,
    ScaleBias => modify::scale_bias::ScaleBias,
    Abs => modify::abs::Abs,
    Invert => modify::invert::Invert,
    Clamp => modify::clamp::Clamp,
    Normalize => modify::normalize::Normalize,
    Curve => modify::curve::Curve,
    Terrace => modify::terrace::Terrace,
    Blur => modify::blur::Blur,
    BoxFilter => modify::box_filter::BoxFilter,
    Gradient => modify::gradient::Gradient,
    VectorLength => modify::vector_length::VectorLength,
    Slope => modify::slope::Slope,
    ToMetres => modify::to_metres::ToMetres,
    Warp => modify::warp::Warp,
    Detail => modify::detail::Detail,
    Regions => tectonics::regions::Regions,
    TectonicPlates => tectonics::plates::TectonicPlates,
    PlateElevation => tectonics::plate_elevation::PlateElevation,
    EarthRelief => tectonics::earth_relief::EarthRelief,
    HydraulicErosion => erosion::hydraulic::HydraulicErosion,
    ThermalErosion => erosion::thermal::ThermalErosion,
    DropletErosion => erosion::droplet::DropletErosion,
    DrainageRivers => erosion::drainage::DrainageRivers,
    LandscapeEvolution => erosion::landscape::LandscapeEvolution,
    ErosionFilter => erosion::erosion_filter::ErosionFilter,
    LSystemRivers => erosion::lsystem_rivers::LSystemRivers,
    SeaFloor => erosion::sea_floor::SeaFloor,
    CoralReef => erosion::coral_reef::CoralReef,
    HeightBand => masks::height_band::HeightBand,
    Curvature => masks::curvature::Curvature,
    CoastDistance => masks::coast_distance::CoastDistance,
    Falloff => masks::falloff::Falloff,
    Wetness => masks::wetness::Wetness,
    Temperature => climate::temperature::Temperature,
    Precipitation => climate::precipitation::Precipitation,
    IceSheet => climate::ice_sheet::IceSheet,
    ColourRamp => texture::colour_ramp::ColourRamp,
    BlendColours => texture::blend_colours::BlendColours,
    Biomes => texture::biomes::Biomes,
    Materials => texture::materials::Materials,
    Vegetation => texture::vegetation::Vegetation,
    Preview => display::preview::Preview,
    ColourPreview => display::colour_preview::ColourPreview,
    Planet => output::planet::Planet,
    Export => output::export::Export,
    SplatMap => output::splat_map::SplatMap,
}

impl NodeKind {
    /// Finds a parameter definition by saved name.
    pub fn param(self, name: &str) -> Option<ParamDef> {
        self.params().iter().find(|p| p.name == name).copied()
    }

    /// Every parameter at its default, as saved.
    pub fn default_params(self) -> ParamMap {
        self.params().iter().map(|p| (p.name.to_string(), p.default_value())).collect()
    }

    /// Whether the node's result does not depend on the field resolution.
    pub fn resolution_independent(self) -> bool {
        self.meta().resolution_independent
    }

    /// Whether a build writes files for the node: the Export and Splat map nodes (a graph
    /// with none writes the Planet node's default set).
    pub fn writes_files(self) -> bool {
        matches!(self, NodeKind::Export | NodeKind::SplatMap)
    }

    /// Whether the node is random (has a seed, shown with a randomize button).
    pub fn is_random(self) -> bool {
        self.params().iter().any(|p| matches!(p.default_value(), ParamValue::Seed(_)))
    }
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
