//! What a node declares about itself: category, ports and description. Its parameters belong
//! to its settings ([`Settings::PARAMS`](super::params::Settings::PARAMS)).

use super::unit::Unit;

/// Menu category of a node kind (also its folder under `src/nodes/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    /// Nodes without inputs that make a field.
    Sources,
    /// Nodes that combine two or more fields.
    Combine,
    /// Nodes that change one field.
    Modify,
    /// Regions, plates and what they raise.
    Tectonics,
    /// Erosion, water and reefs.
    Erosion,
    /// Selectors: masks from height, curvature, distance.
    Masks,
    /// Temperature, wind and precipitation.
    Climate,
    /// Colours: ramps, biomes, materials.
    Texture,
    /// Nodes that show a state.
    Display,
    /// The planet output.
    Output,
}

impl Category {
    /// Whether nodes of this category are what a graph is evaluated for (display and output
    /// nodes: nothing downstream depends on them, and they cannot be bypassed).
    pub fn is_sink(self) -> bool {
        matches!(self, Category::Display | Category::Output)
    }

    /// Every category, in finder order.
    pub const ALL: [Category; 10] = [Category::Sources, Category::Combine, Category::Modify, Category::Tectonics, Category::Erosion, Category::Masks, Category::Climate, Category::Texture, Category::Display, Category::Output];

    /// Name in the node finder.
    pub fn name(self) -> &'static str {
        match self {
            Category::Sources => "Sources",
            Category::Combine => "Combine",
            Category::Modify => "Modify",
            Category::Tectonics => "Tectonics",
            Category::Erosion => "Erosion",
            Category::Masks => "Masks",
            Category::Climate => "Climate",
            Category::Texture => "Texture",
            Category::Display => "Display",
            Category::Output => "Output",
        }
    }

    /// The folder under `src/nodes/` that holds this category's node files.
    pub fn folder(self) -> &'static str {
        match self {
            Category::Sources => "sources",
            Category::Combine => "combine",
            Category::Modify => "modify",
            Category::Tectonics => "tectonics",
            Category::Erosion => "erosion",
            Category::Masks => "masks",
            Category::Climate => "climate",
            Category::Texture => "texture",
            Category::Display => "display",
            Category::Output => "output",
        }
    }
}

/// Data type of a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PortType {
    /// A scalar per cell.
    Field,
    /// A tangent 3D vector per cell.
    Vector,
    /// A region surface (jittered Voronoi regions).
    Regions,
    /// Tectonic plates over a region surface.
    Plates,
    /// A linear RGB colour per cell.
    Colour,
}

impl PortType {
    /// Name shown to the user.
    pub fn name(self) -> &'static str {
        match self {
            PortType::Field => "field",
            PortType::Vector => "vector",
            PortType::Regions => "regions",
            PortType::Plates => "plates",
            PortType::Colour => "colour",
        }
    }
}

/// A named, typed port.
#[derive(Debug, Clone, Copy)]
pub struct PortDef {
    /// Port name (as used in links of graph files).
    pub name: &'static str,
    /// Port type.
    pub ty: PortType,
    /// An input the node can run without (its run function then gets `None`).
    pub optional: bool,
    /// Units of an output's values (for export manifests).
    pub unit: PortUnit,
}

/// Units of the values an output port carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortUnit {
    /// No physical unit (unitless elevation, masks, indices, colours).
    Unitless,
    /// A physical unit (manifests write its ASCII form: `m`, `km`, `deg`, `degC`, `mm/yr`, `m3/s`).
    Of(Unit),
    /// The units of the node's first input of the output's type (smoothing and other
    /// value-preserving filters).
    AsInput,
}

impl PortDef {
    /// A field port.
    pub const fn field(name: &'static str) -> PortDef {
        PortDef { name, ty: PortType::Field, optional: false, unit: PortUnit::Unitless }
    }

    /// A port of type `ty`.
    pub const fn of(name: &'static str, ty: PortType) -> PortDef {
        PortDef { name, ty, optional: false, unit: PortUnit::Unitless }
    }

    /// An optional input of type `ty`.
    pub const fn optional(name: &'static str, ty: PortType) -> PortDef {
        PortDef { name, ty, optional: true, unit: PortUnit::Unitless }
    }

    /// This port with values in `unit`.
    pub const fn with_unit(self, unit: PortUnit) -> PortDef {
        PortDef { unit, ..self }
    }
}

/// The one field output `out` most nodes have ([`super::port::FIELD_OUT`]).
pub const OUT: &[PortDef] = &[super::port::FIELD_OUT.def()];
/// The one field output `out` of filters that keep their input's units.
pub const OUT_AS_INPUT: &[PortDef] = &[super::port::FIELD_OUT.def().with_unit(PortUnit::AsInput)];
/// The one field input `in` of most modify nodes ([`super::port::FIELD_IN`]).
pub const IN: &[PortDef] = &[super::port::FIELD_IN.def()];
/// Inputs `a` and `b` of the binary combine nodes ([`super::port::FIELD_A`], [`super::port::FIELD_B`]).
pub const IN_AB: &[PortDef] = &[super::port::FIELD_A.def(), super::port::FIELD_B.def()];

/// What a node costs in memory while it runs at a level, beyond its inputs: what decides
/// whether a build fits whole or is tiled ([`crate::eval::estimate_bytes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryCost {
    /// Bytes per cell of the level the node runs at: its outputs, neighbour tables and working
    /// memory together at their peak (measured: `crates/core/tests/node_memory.rs` holds it to
    /// within 20 %).
    pub bytes_per_cell: u64,
    /// Bytes per cell added while an optional input is left open, by the input's name: a
    /// node that makes what the input would bring itself (Materials measures the slope
    /// without a slope input). Measured like `bytes_per_cell`, with that input open.
    pub when_open: &'static [(&'static str, u64)],
}

impl MemoryCost {
    /// Bytes per cell with the inputs connected as `connected` says (one flag per input, in
    /// port order): [`Self::bytes_per_cell`] plus [`Self::when_open`] of each open one.
    pub fn bytes_per_cell_with(&self, inputs: &[PortDef], connected: &[bool]) -> u64 {
        let open = |name: &str| inputs.iter().position(|p| p.name == name).is_some_and(|k| !connected.get(k).copied().unwrap_or(false));
        self.bytes_per_cell + self.when_open.iter().filter(|(name, _)| open(name)).map(|(_, b)| b).sum::<u64>()
    }
}

/// Everything the editor, the validator and the evaluator need to know about a kind besides
/// its parameters.
#[derive(Debug, Clone, Copy)]
pub struct NodeMeta {
    /// Label in the finder and the node title.
    pub label: &'static str,
    /// Finder category.
    pub category: Category,
    /// One-line description (the finder's and the title's tooltip).
    pub description: &'static str,
    /// Input ports.
    pub inputs: &'static [PortDef],
    /// Output ports.
    pub outputs: &'static [PortDef],
    /// Whether the result does not depend on the field resolution (its cached result serves
    /// every resolution).
    pub resolution_independent: bool,
    /// Whether at least one of the (optional) inputs must be connected: with none, the node
    /// waits for an input (idle, not an error).
    pub needs_one_input: bool,
    /// Whether the node reads the planet's settings (the Planet node's radius, sea level,
    /// highest peak and deepest ocean) from its [`crate::nodes::OpContext`].
    pub reads_planet: bool,
    /// Inputs that no output of the node reads: only what the node itself shows (the Planet
    /// node's albedo, which the viewport and the default exports show) needs them, so an
    /// evaluation that needs the node only for its outputs (an Export of the Planet's
    /// elevation) leaves out what feeds them. Each must be optional.
    pub shown_only_inputs: &'static [&'static str],
    /// Whether the node reads files ([`crate::nodes::Node::files`]): the compiler then
    /// resolves and probes them.
    pub reads_files: bool,
    /// The file that defines the node (`file!()`), checked against the files under
    /// `src/nodes/` so no node file goes unregistered.
    pub source: &'static str,
    /// Its memory while it runs ([`NodeMeta::costing`]); a registry test fails for a kind
    /// without one.
    pub memory: Option<MemoryCost>,
}

impl NodeMeta {
    /// Metadata with the defaults most nodes share (resolution dependent).
    pub const fn new(label: &'static str, category: Category, description: &'static str, inputs: &'static [PortDef], outputs: &'static [PortDef], source: &'static str) -> NodeMeta {
        NodeMeta { label, category, description, inputs, outputs, resolution_independent: false, needs_one_input: false, reads_planet: false, shown_only_inputs: &[], reads_files: false, source, memory: None }
    }

    /// The same metadata for a node that needs at least one of its optional inputs.
    pub const fn needing_one_input(self) -> NodeMeta {
        NodeMeta { needs_one_input: true, ..self }
    }

    /// The same metadata for a node that reads the planet's settings.
    pub const fn reading_planet(self) -> NodeMeta {
        NodeMeta { reads_planet: true, ..self }
    }

    /// The same metadata for a node that reads files.
    pub const fn reading_files(self) -> NodeMeta {
        NodeMeta { reads_files: true, ..self }
    }

    /// The same metadata for a node that uses `bytes_per_cell` bytes per cell while it runs
    /// (its outputs, any neighbour tables and its working memory).
    pub const fn costing(self, bytes_per_cell: u64) -> NodeMeta {
        NodeMeta { memory: Some(MemoryCost { bytes_per_cell, when_open: &[] }), ..self }
    }

    /// The same metadata for a node that takes `extra` more bytes per cell while the optional
    /// input `input` is left open, for each `(input, extra)` (after [`Self::costing`]).
    pub const fn costing_when_open(self, when_open: &'static [(&'static str, u64)]) -> NodeMeta {
        match self.memory {
            Some(m) => NodeMeta { memory: Some(MemoryCost { bytes_per_cell: m.bytes_per_cell, when_open }), ..self },
            // In a `const` item this is a compile error: declare the cost first.
            None => panic!("costing_when_open needs costing first"),
        }
    }
}
