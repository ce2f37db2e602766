//! The closed set of node kinds and their declarative metadata (category, ports, parameters).

use super::params::{ParamDef, ParamSpec, ParamValue};
use serde::{Deserialize, Serialize};

/// Every node kind PlanetGraph knows. Adding one fails to compile until it is handled in
/// [`NodeKind::meta`] and in the evaluator's dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum NodeKind {
    /// Same value everywhere.
    Constant,
    /// Coherent noise sampled on the unit sphere.
    Noise,
    /// Repeated random plane cuts (seed 001).
    FaultPlanet,
    /// Latitude of each cell.
    Latitude,
    /// A volcanic island cone with noise and crater (seed 002).
    Island,
    /// a + b.
    Add,
    /// a - b.
    Subtract,
    /// a * b.
    Multiply,
    /// a / b, safe at zero.
    Divide,
    /// min(a, b).
    Min,
    /// max(a, b).
    Max,
    /// Mix of a and b by a mask.
    Blend,
    /// Signed power a^b.
    Power,
    /// x * scale + bias.
    ScaleBias,
    /// |x|.
    Abs,
    /// Mirror around a pivot.
    Invert,
    /// Clamp to [min, max].
    Clamp,
    /// Stretch to a target range.
    Normalize,
    /// Through a user curve.
    Curve,
    /// Terraces.
    Terrace,
    /// Seam-aware Gaussian-like blur with a radius in degrees of arc.
    Blur,
    /// Box filter with a user matrix (seed 003).
    BoxFilter,
    /// Surface gradient as a tangent vector field.
    Gradient,
    /// Length of a vector field.
    VectorLength,
    /// Jittered Voronoi regions on the cube-sphere (seed 000).
    Regions,
    /// Plates grown over regions by flood fill (seed 000, Algorithm 3).
    TectonicPlates,
    /// Elevation, boundaries and motion from plates (seed 000's elevation modifier, reworked).
    PlateElevation,
    /// Virtual-pipe hydraulic erosion (seed 002).
    HydraulicErosion,
    /// Thermal erosion to a talus angle (seed 002).
    ThermalErosion,
    /// Droplet erosion (seed 004).
    DropletErosion,
    /// Smoothing below sea level (seed 002).
    SeaFloor,
    /// Coral reef growth (seed 002).
    CoralReef,
    /// Thumbnail of the state at this point.
    Preview,
    /// The planet: elevation in metres, radius, sea level.
    Planet,
}

/// Menu category of a node kind.
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
    /// Nodes that show a state.
    Display,
    /// The planet output.
    Output,
}

impl Category {
    /// Name in the node finder.
    pub fn name(self) -> &'static str {
        match self {
            Category::Sources => "Sources",
            Category::Combine => "Combine",
            Category::Modify => "Modify",
            Category::Tectonics => "Tectonics",
            Category::Erosion => "Erosion",
            Category::Display => "Display",
            Category::Output => "Output",
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
}

impl PortType {
    /// Name shown to the user.
    pub fn name(self) -> &'static str {
        match self {
            PortType::Field => "field",
            PortType::Vector => "vector",
            PortType::Regions => "regions",
            PortType::Plates => "plates",
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
}

/// Everything the editor, the validator and the evaluator need to know about a kind.
#[derive(Debug, Clone, Copy)]
pub struct NodeMeta {
    /// Label in the finder and the node title.
    pub label: &'static str,
    /// Finder category.
    pub category: Category,
    /// One-line description.
    pub description: &'static str,
    /// Input ports.
    pub inputs: &'static [PortDef],
    /// Output ports.
    pub outputs: &'static [PortDef],
    /// Parameters.
    pub params: &'static [ParamDef],
}

const F: PortType = PortType::Field;
const OUT: &[PortDef] = &[PortDef { name: "out", ty: F }];
const IN_X: &[PortDef] = &[PortDef { name: "in", ty: F }];
const IN_AB: &[PortDef] = &[PortDef { name: "a", ty: F }, PortDef { name: "b", ty: F }];

// One argument per column of the parameter tables below, which read best as rows.
#[allow(clippy::too_many_arguments)]
const fn float(name: &'static str, label: &'static str, default: f32, min: f32, max: f32, unit: &'static str, speed: f32, tooltip: &'static str) -> ParamDef {
    ParamDef { name, label, spec: ParamSpec::Float { default, min, max, unit, speed }, tooltip }
}
const fn int(name: &'static str, label: &'static str, default: i64, min: i64, max: i64, tooltip: &'static str) -> ParamDef {
    ParamDef { name, label, spec: ParamSpec::Int { default, min, max }, tooltip }
}
const fn boolean(name: &'static str, label: &'static str, default: bool, tooltip: &'static str) -> ParamDef {
    ParamDef { name, label, spec: ParamSpec::Bool { default }, tooltip }
}
const fn seed(default: u32) -> ParamDef {
    ParamDef { name: "seed", label: "Seed", spec: ParamSpec::Seed { default }, tooltip: "Random seed: the same seed always gives the same result." }
}
const fn choice(name: &'static str, label: &'static str, default: &'static str, options: &'static [&'static str], tooltip: &'static str) -> ParamDef {
    ParamDef { name, label, spec: ParamSpec::Choice { default, options }, tooltip }
}

/// Noise types of the Noise node.
pub const NOISE_TYPES: &[&str] = &["fBm", "Perlin", "OpenSimplex", "SuperSimplex", "Billow", "Ridged", "Worley"];
/// Worley distance functions.
pub const WORLEY_DISTANCES: &[&str] = &["Euclidean", "EuclideanSquared", "Manhattan", "Chebyshev"];
/// Worley return types.
pub const WORLEY_RETURNS: &[&str] = &["Value", "Distance"];
/// How Plate elevation sets plate base levels.
pub const BASE_MODES: &[&str] = &["Land fraction", "Random range"];

const PLATE_ELEVATION_PARAMS: &[ParamDef] = &[
    choice("base_mode", "Base levels", "Land fraction", BASE_MODES, "Land fraction: continental plates cover about the asked share of the planet, the rest is ocean floor. Random range: seed 000's uniform random level per plate in -range..range."),
    float("land_fraction", "Land fraction", 0.35, 0.0, 1.0, "", 0.005, "Share of the planet on continental plates (Earth: about 0.35 with shelves). Coasts then move with noise and boundary relief."),
    float("elevation_range", "Random range", 0.5, 0.0, 1.0, "", 0.005, "Seed 000's elevationRandomRange: plate base levels uniform in -range..range (about half land)."),
    boolean("collisions", "Plate collisions", true, "Seed 000's usePlateCollisions: raise mountains and trenches where plates converge, rifts and ridges where they part."),
    float("collision_strength", "Collision strength", 1.0, 0.0, 5.0, "", 0.01, "Seed 000's collisionStrength: multiplies the boundary pressure (which lies in about -2..2)."),
    float("mountain_height", "Mountain height", 1.1, 0.0, 2.0, "", 0.005, "Height of mountain belts and island arcs at full pressure (1 = the Planet node's highest peak)."),
    float("mountain_width_km", "Mountain width", 450.0, 10.0, 5000.0, "km", 5.0, "How far from a converging boundary mountains reach, in km on the planet (Andes about 300, Himalaya and Tibet about 800)."),
    float("trench_depth", "Trench depth", 0.35, 0.0, 2.0, "", 0.005, "Depth of ocean trenches where a lower plate dives under a higher one, at full pressure."),
    float("trench_width_km", "Trench width", 120.0, 5.0, 2000.0, "km", 2.0, "Width of trenches from the boundary, km."),
    float("rift_depth", "Rift depth", 0.12, 0.0, 2.0, "", 0.005, "Depth of rift valleys where continental plates part, at full opening speed."),
    float("ridge_height", "Ridge height", 0.2, 0.0, 2.0, "", 0.005, "Height of mid-ocean ridges where oceanic plates part, at full opening speed."),
    float("rift_width_km", "Rift width", 150.0, 5.0, 3000.0, "km", 2.0, "Width of rifts from the boundary, km (mid-ocean ridges are twice as wide)."),
    boolean("noise", "Noise", true, "Seed 000's usePerlin: add 3D fBm noise for varied interiors, coasts, bays and islands."),
    float("noise_frequency", "Noise frequency", 8.0, 0.5, 128.0, "/planet", 0.05, "Noise features around the equator (also sets the scale of the mountain texture)."),
    float("noise_strength", "Noise strength", 0.2, 0.0, 1.0, "", 0.002, "Noise amplitude (seed 000's perlinStrength, on this project's -1..1 scale)."),
    int("smoothing", "Smoothing passes", 2, 0, 20, "Seed 000's low-pass filter of the plate levels over the regions, counted at R = 50 and scaled with (R / 50)^2 so coastal slopes keep their width at any R."),
    float("radius_km", "Planet radius", 6371.0, 100.0, 100000.0, "km", 10.0, "Radius used to turn the widths above into angles; keep it equal to the Planet node's radius."),
    seed(5),
];

const RELIEF: ParamDef = float("relief", "Relief", 20.0, 0.01, 1000.0, "", 0.1, "How steep the terrain is for water and rock: the height of 1.0 of elevation measured in cells at 128 cells per face edge. Higher: steeper slopes, faster water, more erosion.");
const SEA: ParamDef = float("sea_level", "Sea level", 0.0, -1.0, 1.0, "", 0.005, "Elevation below which water is ocean (match the Planet node's sea level).");

const HYDRAULIC_PARAMS: &[ParamDef] = &[
    int("iterations", "Iterations", 100, 0, 5000, "Simulation steps at 128 cells per face edge; scaled with the resolution (so previews run fewer), the same simulated time at any resolution. Simulated time = iterations x time step."),
    float("dt", "Time step", 0.15, 0.001, 0.5, "", 0.001, "Time per step at 128 cells per face edge (scaled with the resolution). Larger is faster but coarser."),
    RELIEF,
    float("rain", "Rain", 0.1, 0.0, 1.0, "/time", 0.001, "Water added to every land cell per unit time (seed 002's r), in height units."),
    float("gravity", "Gravity", 10.0, 0.1, 50.0, "", 0.1, "Gravity times pipe cross-section over pipe length (seed 002's g A / l): how hard height differences push water."),
    float("capacity", "Capacity", 1.0, 0.0, 20.0, "", 0.01, "Sediment capacity constant (seed 002's k_S): capacity = k_S |v| sin(slope)."),
    float("min_slope", "Minimum slope", 0.05, 0.0, 1.0, "", 0.001, "Smallest slope sine used for the capacity, so flat ground still erodes a little."),
    float("full_depth", "Full-capacity depth", 0.5, 0.0, 10.0, "", 0.01, "Water depth, in height units, from which the capacity is full; shallower water carries proportionally less, so erosion follows where water gathers and carves channels instead of roughening every slope. 0: no ramp (seed 002's capacity)."),
    float("dissolve", "Dissolving", 0.5, 0.0, 10.0, "/time", 0.01, "Rate at which water picks up ground below its capacity (seed 002's k_E)."),
    float("deposit", "Deposition", 0.5, 0.0, 10.0, "/time", 0.01, "Rate at which water drops sediment above its capacity (seed 002's k_D)."),
    float("evaporation", "Evaporation", 0.3, 0.0, 10.0, "/time", 0.01, "Share of the water lost per unit time (seed 002's k_T)."),
    choice("transport", "Sediment transport", "Donor cell", SEDIMENT_TRANSPORTS, "How suspended sediment moves with the water. Donor cell: with the water the pipes carry between neighbours (conservative, little smearing). Semi-Lagrangian: seed 002's back-trace, each cell takes the sediment from where its water came from (up to 2 cells, across seams), with the total restored after each step."),
    float("sediment_diffusion", "Sediment diffusion", 0.2, 0.0, 10.0, "/time", 0.01, "Exchange of suspended sediment between wet neighbours (seed 002's fix for streaks)."),
    float("creep", "Hillslope creep", 0.02, 0.0, 1.0, "cells²/time", 0.001, "Land heights diffuse with this coefficient, in cells of a 128 face edge squared per unit time (material is conserved). Sets how wide valleys and ridges are on the planet, independent of resolution; 0 turns it off."),
    SEA,
];

/// Sediment transport schemes of the Hydraulic erosion node.
pub const SEDIMENT_TRANSPORTS: &[&str] = &["Donor cell", "Semi-Lagrangian"];

/// Fault planet variants (seed 001).
pub const FAULT_VARIANTS: &[&str] = &["Random inner point", "Through centre"];

const NOISE_PARAMS: &[ParamDef] = &[
    choice("type", "Type", "fBm", NOISE_TYPES, "Noise function. fBm, Billow and Ridged sum octaves of Perlin noise; Worley is cellular noise."),
    float("frequency", "Frequency", 4.0, 0.1, 512.0, "/planet", 0.05, "Features per planet: about how many bumps fit around the equator. Independent of resolution."),
    int("octaves", "Octaves", 6, 1, 12, "Number of summed octaves (fBm, Billow, Ridged). Each octave adds finer detail."),
    float("persistence", "Persistence", 0.5, 0.0, 1.0, "", 0.005, "Amplitude factor from one octave to the next (fBm, Billow, Ridged)."),
    float("lacunarity", "Lacunarity", 2.0, 1.0, 4.0, "", 0.01, "Frequency factor from one octave to the next (fBm, Billow, Ridged)."),
    float("amplitude", "Amplitude", 1.0, 0.0, 10.0, "", 0.01, "Output is multiplied by this; the noise itself lies in about -1..1."),
    choice("worley_distance", "Worley distance", "Euclidean", WORLEY_DISTANCES, "Distance function of Worley noise."),
    choice("worley_return", "Worley returns", "Value", WORLEY_RETURNS, "Value: a random value per cell (flat patches); Distance: distance to the nearest feature point."),
    seed(1),
];

impl NodeKind {
    /// All kinds, in menu order.
    pub const ALL: [NodeKind; 34] = [
        NodeKind::Constant,
        NodeKind::Noise,
        NodeKind::FaultPlanet,
        NodeKind::Latitude,
        NodeKind::Island,
        NodeKind::Add,
        NodeKind::Subtract,
        NodeKind::Multiply,
        NodeKind::Divide,
        NodeKind::Min,
        NodeKind::Max,
        NodeKind::Blend,
        NodeKind::Power,
        NodeKind::ScaleBias,
        NodeKind::Abs,
        NodeKind::Invert,
        NodeKind::Clamp,
        NodeKind::Normalize,
        NodeKind::Curve,
        NodeKind::Terrace,
        NodeKind::Blur,
        NodeKind::BoxFilter,
        NodeKind::Gradient,
        NodeKind::VectorLength,
        NodeKind::Regions,
        NodeKind::TectonicPlates,
        NodeKind::PlateElevation,
        NodeKind::HydraulicErosion,
        NodeKind::ThermalErosion,
        NodeKind::DropletErosion,
        NodeKind::SeaFloor,
        NodeKind::CoralReef,
        NodeKind::Preview,
        NodeKind::Planet,
    ];

    /// Declarative metadata of the kind.
    pub fn meta(self) -> NodeMeta {
        use Category::*;
        let m = |label, category, description, inputs, outputs, params| NodeMeta { label, category, description, inputs, outputs, params };
        match self {
            NodeKind::Constant => m("Constant", Sources, "The same value on the whole planet.", &[], OUT, const { &[float("value", "Value", 0.0, -100.0, 100.0, "", 0.01, "The value of every cell.")] }),
            NodeKind::Noise => m("Noise", Sources, "Coherent noise sampled at each cell's point on the unit sphere, hence seamless.", &[], OUT, NOISE_PARAMS),
            NodeKind::FaultPlanet => m(
                "Fault planet",
                Sources,
                "Seed 001: repeated random plane cuts raise one side of the planet and lower the other.",
                &[],
                OUT,
                const { &[
                    choice("variant", "Variant", "Random inner point", FAULT_VARIANTS, "Through centre: the original method (the far side mirrors the near side with land and sea swapped). Random inner point: the fix, planes through a random point inside the planet with a random sign."),
                    int("cuts", "Cuts", 1000, 1, 20000, "Number of plane cuts: about 100 give continents, 1000 mountains and islands, 10000 complex coasts."),
                    float("step", "Step height", 0.01, 0.0001, 1.0, "", 0.0005, "Height added on one side of each cut and removed on the other (unitless)."),
                    seed(7),
                ] },
            ),
            NodeKind::Island => m(
                "Volcanic island",
                Sources,
                "Seed 002: a cone h = H (1 - (r/R)^P) around a point, roughened by noise through the exponent 1 + N noise, with the top above the crater rim folded down.",
                &[],
                OUT,
                const { &[
                    float("latitude", "Latitude", 0.0, -90.0, 90.0, "deg", 0.1, "Latitude of the island's centre (north positive)."),
                    float("longitude", "Longitude", 0.0, -180.0, 180.0, "deg", 0.1, "Longitude of the island's centre (0 faces +Z, east positive)."),
                    float("radius_deg", "Radius", 20.0, 0.1, 180.0, "deg", 0.1, "Radius of the cone's base as an arc on the planet (seed 002's k_R)."),
                    float("height", "Height", 1.2, 0.0, 10.0, "", 0.005, "Height of the cone above the base level (k_H), in elevation units (1 = the Planet node's highest peak)."),
                    float("exponent", "Flank exponent", 1.6, 0.05, 10.0, "", 0.01, "Shape of the flank (k_P): 1 a straight cone, above 1 a broad dome, below 1 a steep peak."),
                    float("noise", "Noise influence", 0.8, 0.0, 5.0, "", 0.01, "How much the noise roughens the flanks through the exponent (k_N); 0 for a smooth cone."),
                    int("octaves", "Octaves", 6, 1, 12, "Noise octaves, each of twice the frequency and half the amplitude."),
                    float("frequency", "Noise frequency", 24.0, 0.1, 500.0, "cycles", 0.1, "Frequency of the first noise octave, in cycles around the planet."),
                    float("crater", "Crater rim", 0.85, 0.0, 1.0, "", 0.005, "Height of the crater rim as a share of the cone's height (k_C / k_H); above it the cone is folded down. 1 for no crater."),
                    float("base", "Base level", -0.4, -10.0, 10.0, "", 0.005, "Level around the island (the sea floor; 0 is sea level)."),
                    seed(2),
                ] },
            ),
            NodeKind::Latitude => m(
                "Latitude",
                Sources,
                "Latitude of each cell: -1 at the south pole, 0 at the equator, 1 at the north pole (or absolute).",
                &[],
                OUT,
                const { &[choice("mode", "Mode", "Absolute", &["Signed", "Absolute"], "Signed: latitude / 90 deg in -1..1. Absolute: |latitude| / 90 deg in 0..1, for polar caps.")] },
            ),
            NodeKind::Add => m("Add", Combine, "a + b", IN_AB, OUT, &[]),
            NodeKind::Subtract => m("Subtract", Combine, "a - b", IN_AB, OUT, &[]),
            NodeKind::Multiply => m("Multiply", Combine, "a * b", IN_AB, OUT, &[]),
            NodeKind::Divide => m("Divide", Combine, "a / b; where |b| is below epsilon the result is 0.", IN_AB, OUT, const { &[float("epsilon", "Epsilon", 1e-6, 0.0, 1.0, "", 1e-5, "Divisors closer to zero than this give 0 instead of a huge value.")] }),
            NodeKind::Min => m("Min", Combine, "The smaller of a and b.", IN_AB, OUT, &[]),
            NodeKind::Max => m("Max", Combine, "The larger of a and b.", IN_AB, OUT, &[]),
            NodeKind::Blend => m(
                "Blend",
                Combine,
                "a where the mask is 0, b where it is 1, mixed in between (mask clamped to 0..1).",
                &[PortDef { name: "a", ty: F }, PortDef { name: "b", ty: F }, PortDef { name: "mask", ty: F }],
                OUT,
                &[],
            ),
            NodeKind::Power => m("Power", Combine, "sign(a) |a|^b: a to the power b, keeping a's sign.", IN_AB, OUT, &[]),
            NodeKind::ScaleBias => m(
                "Scale and bias",
                Modify,
                "x * scale + bias",
                IN_X,
                OUT,
                const { &[float("scale", "Scale", 1.0, -100.0, 100.0, "", 0.01, "Multiplier."), float("bias", "Bias", 0.0, -100.0, 100.0, "", 0.01, "Added after scaling.")] },
            ),
            NodeKind::Abs => m("Abs", Modify, "|x|", IN_X, OUT, &[]),
            NodeKind::Invert => m("Invert", Modify, "Mirrors values around a pivot: 2 pivot - x.", IN_X, OUT, const { &[float("pivot", "Pivot", 0.0, -100.0, 100.0, "", 0.01, "Value that stays where it is.")] }),
            NodeKind::Clamp => m(
                "Clamp",
                Modify,
                "Limits values to [min, max].",
                IN_X,
                OUT,
                const { &[float("min", "Min", -1.0, -100.0, 100.0, "", 0.01, "Lower limit."), float("max", "Max", 1.0, -100.0, 100.0, "", 0.01, "Upper limit (if below min, min wins).")] },
            ),
            NodeKind::Normalize => m(
                "Normalize",
                Modify,
                "Stretches the field linearly so its smallest value becomes min and its largest max.",
                IN_X,
                OUT,
                const { &[float("min", "Min", -1.0, -100.0, 100.0, "", 0.01, "Target of the smallest value."), float("max", "Max", 1.0, -100.0, 100.0, "", 0.01, "Target of the largest value.")] },
            ),
            NodeKind::Curve => m(
                "Curve",
                Modify,
                "Maps values through a smooth monotone curve through editable control points (x in, y out).",
                IN_X,
                OUT,
                const { &[ParamDef {
                    name: "curve",
                    label: "Curve",
                    spec: ParamSpec::Curve { default: &[[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0]] },
                    tooltip: "Drag points to move them, double-click to add one, right-click a point to remove it. Values outside the first and last x continue flat.",
                }] },
            ),
            NodeKind::Terrace => m(
                "Terrace",
                Modify,
                "Flattens values into steps between the field's minimum and maximum.",
                IN_X,
                OUT,
                const { &[
                    int("steps", "Steps", 8, 1, 100, "Number of terraces between the lowest and highest value."),
                    float("smoothness", "Smoothness", 0.3, 0.0, 1.0, "", 0.005, "0: hard steps; 1: no terracing."),
                ] },
            ),
            NodeKind::Blur => m(
                "Blur",
                Modify,
                "Seam-aware smoothing (repeated diffusion, close to a Gaussian) with a radius in degrees of arc.",
                IN_X,
                OUT,
                const { &[float("radius", "Radius", 1.0, 0.0, 30.0, "deg", 0.02, "Standard deviation of the blur in degrees of arc on the planet (1 deg is about 111 km on Earth). Independent of resolution.")] },
            ),
            NodeKind::BoxFilter => m(
                "Box filter",
                Modify,
                "Seed 003: each value becomes the weighted sum of its neighbourhood divided by the sum of the weights.",
                IN_X,
                OUT,
                const { &[
                    ParamDef {
                        name: "matrix",
                        label: "Matrix",
                        spec: ParamSpec::Matrix { default: &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0] },
                        tooltip: "Weights of an odd-sized square neighbourhood (3x3 to 9x9). All ones: mean blur. If the weights sum to zero (edge detection) the sum is not divided.",
                    },
                    int("iterations", "Iterations", 2, 0, 200, "Passes at the reference resolution of 128 cells per face edge; scaled with the square of the resolution so the planet looks the same at any resolution."),
                ] },
            ),
            NodeKind::Gradient => m(
                "Gradient",
                Modify,
                "The direction and steepness of the surface: a tangent vector per cell, in field units per radian.",
                IN_X,
                &[PortDef { name: "out", ty: PortType::Vector }],
                &[],
            ),
            NodeKind::VectorLength => m("Vector length", Modify, "Length of each vector (for example slope steepness from a Gradient).", &[PortDef { name: "in", ty: PortType::Vector }], OUT, &[]),
            NodeKind::Regions => m(
                "Regions",
                Tectonics,
                "Seed 000's region surface: R x R regions per cube face with jittered centroids, a Voronoi diagram on the sphere.",
                &[],
                &[PortDef { name: "regions", ty: PortType::Regions }],
                const { &[
                    int("resolution", "Regions per face edge", 50, 2, 400, "R: the surface has 6 R^2 regions (R = 50: 15 000 regions, each about 200 km across on Earth)."),
                    float("jitter", "Jitter", 0.9, 0.0, 1.0, "", 0.005, "How far centroids move from their cell centres: 0 gives a square grid, 1 anywhere in the cell (irregular, natural borders)."),
                    seed(3),
                ] },
            ),
            NodeKind::TectonicPlates => m(
                "Tectonic plates",
                Tectonics,
                "Seed 000, Algorithm 3: plates grow from random regions by flood fill until every region belongs to one.",
                &[PortDef { name: "regions", ty: PortType::Regions }],
                &[PortDef { name: "plates", ty: PortType::Plates }],
                const { &[
                    int("plates", "Plates", 50, 1, 5000, "Number of plates (Earth has 7 large and about 50 smaller ones)."),
                    float("expansion_range", "Expansion range", 0.5, 0.0, 10.0, "", 0.01, "Spread of growth rates: below 1, rates lie in 1-e..1+e (similar plate sizes); from 1 up, in 0..e (a few large plates and many small)."),
                    boolean("random_driven", "Random growth", true, "On: each expansion claims one random region at the plate's edge (organic shapes). Off: the whole ring around the plate (seed 000's default, blocky shapes)."),
                    boolean("step_mode", "Step mode", false, "Stop the growth after a number of cycles to watch it; use Step, Play and Reset below. Off: grow until every region has a plate."),
                    int("cycles", "Cycles", 0, 0, 1_000_000, "Growth cycles run in step mode (0: only the seed regions)."),
                    seed(11),
                ] },
            ),
            NodeKind::PlateElevation => m(
                "Plate elevation",
                Tectonics,
                "Seed 000's elevation modifier: plate levels, plate motion, collision pressure, noise and smoothing; boundary features (mountains, trenches, rifts, ridges) have widths in km.",
                &[PortDef { name: "plates", ty: PortType::Plates }],
                &[
                    PortDef { name: "elevation", ty: F },
                    PortDef { name: "plate_id", ty: F },
                    PortDef { name: "pressure", ty: F },
                    PortDef { name: "boundary_km", ty: F },
                    PortDef { name: "motion", ty: PortType::Vector },
                ],
                PLATE_ELEVATION_PARAMS,
            ),
            NodeKind::HydraulicErosion => m(
                "Hydraulic erosion",
                Erosion,
                "Seed 002's virtual-pipe model: rain, flow across the whole planet, dissolving and deposition, sediment carried with the water, evaporation. Water reaching the sea leaves and drops its sediment.",
                IN_X,
                &[
                    PortDef { name: "elevation", ty: F },
                    PortDef { name: "water", ty: F },
                    PortDef { name: "sediment", ty: F },
                    PortDef { name: "deposited", ty: F },
                    PortDef { name: "flow", ty: F },
                    PortDef { name: "presence", ty: F },
                ],
                HYDRAULIC_PARAMS,
            ),
            NodeKind::ThermalErosion => m(
                "Thermal erosion",
                Erosion,
                "Seed 002: rock slides to lower Moore neighbours where the slope is steeper than the talus angle (material is conserved).",
                IN_X,
                OUT,
                const { &[
                    int("iterations", "Iterations", 40, 0, 5000, "Steps at 128 cells per face edge, scaled with the resolution."),
                    float("talus_deg", "Talus angle", 35.0, 0.0, 89.0, "deg", 0.1, "Slopes steeper than this shed material (loose rock: 30 to 40 degrees)."),
                    float("amount", "Amount", 0.5, 0.0, 1.0, "", 0.005, "Share of the movable material moved per step; 1 is the stability limit (half the height difference)."),
                    RELIEF,
                ] },
            ),
            NodeKind::DropletErosion => m(
                "Droplet erosion",
                Erosion,
                "Seed 004: many droplets run downhill with inertia, pick up ground by speed and slope and drop it where they slow; they roll over face seams.",
                IN_X,
                OUT,
                const { &[
                    float("density", "Droplets per cell", 0.5, 0.0, 20.0, "", 0.01, "Droplets per cell, the same density at any resolution (a build at 512 runs 16 times the droplets of a preview at 128)."),
                    int("lifetime", "Lifetime", 30, 1, 1000, "Most steps of a droplet at 128 cells per face edge (scaled with the resolution)."),
                    float("inertia", "Inertia", 0.05, 0.0, 0.99, "", 0.005, "0: droplets follow the slope; near 1: they keep their direction."),
                    float("capacity", "Capacity", 0.1, 0.0, 50.0, "", 0.005, "Sediment a droplet can carry per unit of speed, water and slope (slope in height units per cell at 128). Large values with a large relief pile the sediment into spikes."),
                    float("min_slope", "Minimum slope", 0.01, 0.0, 1.0, "", 0.001, "Smallest slope used for the capacity."),
                    float("erode", "Erosion", 0.3, 0.0, 1.0, "", 0.005, "Share of the free capacity taken from the ground per step."),
                    float("deposit", "Deposition", 0.3, 0.0, 1.0, "", 0.005, "Share of the excess sediment dropped per step."),
                    float("evaporation", "Evaporation", 0.02, 0.0, 1.0, "", 0.001, "Water lost per step."),
                    float("gravity", "Gravity", 4.0, 0.0, 50.0, "", 0.05, "Acceleration downhill."),
                    float("radius", "Brush radius", 2.0, 0.5, 8.0, "cells@128", 0.05, "Radius of the area a droplet erodes, in cells at 128 per face edge."),
                    RELIEF,
                    SEA,
                    seed(4),
                ] },
            ),
            NodeKind::SeaFloor => m(
                "Sea floor",
                Erosion,
                "Seed 002: smooths the ground below sea level (Jacobi steps of the 4-neighbour mean); land stays as it is.",
                IN_X,
                OUT,
                const { &[
                    SEA,
                    int("passes", "Passes", 20, 0, 2000, "Smoothing passes at 128 cells per face edge, scaled with the square of the resolution (the same smoothing distance on the planet)."),
                ] },
            ),
            NodeKind::CoralReef => m(
                "Coral reef",
                Erosion,
                "Seed 002 after Nakamura and Nakamori: reefs grow in shallow sunlit water, limited by carbon that diffuses in from the open sea, while the sea slowly rises.",
                IN_X,
                &[PortDef { name: "elevation", ty: F }, PortDef { name: "growth", ty: F }],
                const { &[
                    int("iterations", "Iterations", 200, 0, 10000, "Growth steps."),
                    float("dt", "Time step", 10.0, 0.1, 1000.0, "years", 0.1, "Years per step."),
                    float("metres_per_unit", "Metres per unit", 6000.0, 1.0, 50000.0, "m", 10.0, "Metres of 1.0 of elevation (the Planet node's highest peak)."),
                    SEA,
                    float("sea_rise", "Sea-level rise", 0.002, 0.0, 0.1, "m/yr", 0.0001, "Sea-level rise per year (seed 002's k_W)."),
                    float("growth_rate", "Growth rate", 0.01, 0.0, 1.0, "m/yr", 0.0005, "Reef growth at the surface with full carbon (seed 002's k_B)."),
                    float("absorption", "Light absorption", 0.06, 0.0, 1.0, "/m", 0.001, "How fast growth fades with depth (seed 002's k_A)."),
                    float("max_depth", "Deepest growth", 60.0, 1.0, 500.0, "m", 0.5, "No growth deeper than this (seed 002's k_G)."),
                    float("carbon_use", "Carbon use", 0.02, 0.0, 1.0, "", 0.0005, "Carbon used per metre of growth and metre of depth (1 / seed 002's k_U)."),
                    float("open_sea_depth", "Open sea depth", 200.0, 1.0, 10000.0, "m", 1.0, "Water deeper than this is open sea with full carbon."),
                    int("diffusion", "Carbon diffusion", 4, 0, 100, "Jacobi diffusion passes of carbon per step."),
                ] },
            ),
            NodeKind::Preview => m(
                "Preview",
                Display,
                "Shows a thumbnail of the field at this point, at preview resolution.",
                IN_X,
                &[],
                const { &[
                    choice("view", "View", "Map", &["Map", "Globe"], "Map: equirectangular (longitude across, north up). Globe: the planet seen from the front (+Z)."),
                    choice("ramp", "Colours", "Hypsometric", &["Hypsometric", "Grey"], "Hypsometric: blue below 0, green to brown to white above. Grey: black at the minimum, white at the maximum."),
                ] },
            ),
            NodeKind::Planet => m(
                "Planet",
                Output,
                "The planet the viewport shows and build exports. Input values of -1..1 map to the deepest ocean..highest peak; `out` is the elevation in metres.",
                &[PortDef { name: "elevation", ty: F }],
                &[PortDef { name: "out", ty: F }],
                const { &[
                    float("radius_km", "Radius", 6371.0, 100.0, 100000.0, "km", 10.0, "Planet radius in kilometres (Earth: 6371)."),
                    float("sea_level", "Sea level", 0.0, -1.0, 1.0, "", 0.005, "Input value that becomes 0 m. Lower it for more land."),
                    float("max_elevation_m", "Highest peak", 6000.0, 1.0, 50000.0, "m", 10.0, "Elevation in metres of input value 1 (values above are clamped)."),
                    float("max_depth_m", "Deepest ocean", 7000.0, 1.0, 50000.0, "m", 10.0, "Depth in metres below sea level of input value -1 (values below are clamped)."),
                ] },
            ),
        }
    }

    /// Finds a parameter definition by name.
    pub fn param(self, name: &str) -> Option<ParamDef> {
        self.meta().params.iter().find(|p| p.name == name).copied()
    }

    /// Whether parameter `name` matters given the node's other values (for example the Worley
    /// options only for Worley noise); the editor hides those that do not.
    pub fn param_applies(self, name: &str, value: impl Fn(&str) -> Option<ParamValue>) -> bool {
        let choice = |n: &str| match value(n) {
            Some(ParamValue::Choice(c)) => Some(c),
            _ => None,
        };
        let flag = |n: &str| matches!(value(n), Some(ParamValue::Bool(true)));
        match (self, name) {
            (NodeKind::Noise, "worley_distance" | "worley_return") => choice("type").as_deref() == Some("Worley"),
            (NodeKind::Noise, "octaves" | "persistence" | "lacunarity") => matches!(choice("type").as_deref(), Some("fBm" | "Billow" | "Ridged")),
            (NodeKind::TectonicPlates, "cycles") => flag("step_mode"),
            (NodeKind::PlateElevation, "land_fraction") => choice("base_mode").as_deref() != Some("Random range"),
            (NodeKind::PlateElevation, "elevation_range") => choice("base_mode").as_deref() == Some("Random range"),
            _ => true,
        }
    }

    /// Whether the node's result does not depend on the field resolution (its cached result
    /// serves every resolution).
    pub fn resolution_independent(self) -> bool {
        matches!(self, NodeKind::Regions | NodeKind::TectonicPlates)
    }

    /// Whether the node is random (shows a seed field).
    pub fn is_random(self) -> bool {
        self.param("seed").is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_applicable_parameters_are_shown() {
        let of = |t: &'static str| move |n: &str| (n == "type").then(|| ParamValue::Choice(t.to_string()));
        assert!(NodeKind::Noise.param_applies("worley_return", of("Worley")));
        assert!(!NodeKind::Noise.param_applies("worley_return", of("fBm")));
        assert!(NodeKind::Noise.param_applies("octaves", of("Ridged")));
        assert!(!NodeKind::Noise.param_applies("octaves", of("Perlin")));
        assert!(NodeKind::Noise.param_applies("frequency", of("Perlin")));
        assert!(NodeKind::Blur.param_applies("radius", |_: &str| None));
        let step = |on: bool| move |n: &str| (n == "step_mode").then_some(ParamValue::Bool(on));
        assert!(NodeKind::TectonicPlates.param_applies("cycles", step(true)));
        assert!(!NodeKind::TectonicPlates.param_applies("cycles", step(false)));
    }

    #[test]
    fn metadata_is_consistent() {
        for k in NodeKind::ALL {
            let m = k.meta();
            for p in m.params {
                assert!(p.check(&p.default_value()).is_ok(), "{k:?}.{}: default out of range", p.name);
                assert!(!p.tooltip.is_empty());
            }
            let mut names: Vec<_> = m.params.iter().map(|p| p.name).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), m.params.len(), "{k:?}: duplicate parameter");
            if m.category == Category::Sources {
                assert!(m.inputs.is_empty());
            }
        }
    }
}
