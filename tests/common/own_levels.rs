//! A graph with two whole-planet nodes that make their outputs at a level of their own, for the
//! region and tiled-build tests of `Node::own_level`.

use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::nodes::climate::precipitation::ELEVATION as RAIN_ELEVATION;
use planetgraph_core::nodes::{NodeKind, ParamValue, FIELD_IN, FIELD_OUT};

/// A Noise feeding a Blur of 6 degrees (which works at 32 for any level of 32 and more) and a
/// Precipitation node (at 128): the graph and the nodes `(noise, blur, rain)`.
pub fn noise_blur_rain() -> (Graph, NodeId, NodeId, NodeId) {
    let mut g = Graph::default();
    let noise = g.add_node(NodeKind::Noise, (0.0, 0.0));
    let blur = g.add_node(NodeKind::Blur, (1.0, 0.0));
    let rain = g.add_node(NodeKind::Precipitation, (1.0, 1.0));
    g.set_param(blur, "radius", ParamValue::Float(6.0));
    g.link(noise, FIELD_OUT, blur, FIELD_IN).expect("link");
    g.link(noise, FIELD_OUT, rain, RAIN_ELEVATION).expect("link");
    (g, noise, blur, rain)
}
