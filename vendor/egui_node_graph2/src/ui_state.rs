use super::*;
use egui::emath::TSTransform;
use egui::{Pos2, Rect, Vec2};
use std::marker::PhantomData;

#[cfg(feature = "persistence")]
use serde::{Deserialize, Serialize};

/// Smallest zoom (PlanetGraph fork).
pub const MIN_ZOOM: f32 = 0.2;
/// Largest zoom: above 1 text is magnified, so it is kept moderate (PlanetGraph fork).
pub const MAX_ZOOM: f32 = 1.5;

/// A host's check of a wire from the first port to the second (either end may be the output):
/// `Some(reason)` refuses it (PlanetGraph fork).
pub type LinkCheck<NodeData, DataType, ValueType, NodeKind, UserState> =
    fn(&GraphEditorState<NodeData, DataType, ValueType, NodeKind, UserState>, AnyParameterId, AnyParameterId) -> Option<String>;

#[derive(Clone)]
#[cfg_attr(feature = "persistence", derive(Serialize, Deserialize))]
pub struct GraphEditorState<NodeData, DataType, ValueType, NodeTemplate, UserState> {
    pub graph: Graph<NodeData, DataType, ValueType>,
    /// Nodes are drawn in this order. Draw order is important because nodes
    /// that are drawn last are on top.
    pub node_order: Vec<NodeId>,
    /// An ongoing connection interaction: The mouse has dragged away from a
    /// port and the user is holding the click
    pub connection_in_progress: Option<(NodeId, AnyParameterId)>,
    /// The currently selected node. Some interface actions depend on the
    /// currently selected node.
    pub selected_nodes: Vec<NodeId>,
    /// The mouse drag start position for an ongoing box selection.
    pub ongoing_box_selection: Option<egui::Pos2>,
    /// The position of each node.
    pub node_positions: SecondaryMap<NodeId, egui::Pos2>,
    /// The node finder is used to create new nodes.
    pub node_finder: Option<NodeFinder<NodeTemplate>>,
    /// The panning of the graph viewport.
    pub pan_zoom: PanZoom,
    /// Each node's rectangle in graph coordinates as drawn in the last frame (PlanetGraph
    /// fork: frame all, overlap checks, drop on a wire).
    #[cfg_attr(feature = "persistence", serde(skip))]
    pub node_rects: std::collections::HashMap<NodeId, Rect>,
    /// Each link's curve in graph coordinates as drawn in the last frame, by input and
    /// output (PlanetGraph fork).
    #[cfg_attr(feature = "persistence", serde(skip))]
    pub link_curves: Vec<(InputId, OutputId, [egui::Pos2; 4])>,
    /// Reroute points of wires in graph coordinates, from the output towards the input
    /// (PlanetGraph fork): a double click on a wire adds one, dragging moves it, a double click
    /// on it removes it.
    #[cfg_attr(feature = "persistence", serde(skip))]
    pub reroutes: std::collections::HashMap<(InputId, OutputId), Vec<egui::Pos2>>,
    /// The host's judgement of a wire from one port to another (PlanetGraph fork): `Some`
    /// with a short reason refuses it. Asked while a wire is dragged over a port, so the
    /// refusal shows before the button is released; without it only ports of the same type
    /// join.
    #[cfg_attr(feature = "persistence", serde(skip))]
    pub link_check: Option<LinkCheck<NodeData, DataType, ValueType, NodeTemplate, UserState>>,
    /// Why the port under a dragged wire's end would refuse it, in the last frame (PlanetGraph
    /// fork); `None` when no wire is dragged or the port would take it.
    #[cfg_attr(feature = "persistence", serde(skip))]
    pub drag_refusal: Option<String>,
    pub _user_state: PhantomData<fn() -> UserState>,
}

impl<NodeData, DataType, ValueType, NodeKind, UserState>
    GraphEditorState<NodeData, DataType, ValueType, NodeKind, UserState>
{
    pub fn new(default_zoom: f32) -> Self {
        Self {
            pan_zoom: PanZoom::new(default_zoom),
            ..Default::default()
        }
    }
}
impl<NodeData, DataType, ValueType, NodeKind, UserState> Default
    for GraphEditorState<NodeData, DataType, ValueType, NodeKind, UserState>
{
    fn default() -> Self {
        Self {
            graph: Default::default(),
            node_order: Default::default(),
            connection_in_progress: Default::default(),
            selected_nodes: Default::default(),
            ongoing_box_selection: Default::default(),
            node_positions: Default::default(),
            node_finder: Default::default(),
            pan_zoom: Default::default(),
            node_rects: Default::default(),
            link_curves: Default::default(),
            reroutes: Default::default(),
            link_check: None,
            drag_refusal: None,
            _user_state: Default::default(),
        }
    }
}

#[cfg(feature = "persistence")]
fn _default_clip_rect() -> Rect {
    Rect::NOTHING
}

/// The view of the canvas (PlanetGraph fork): node positions are in graph coordinates and
/// never change with the view; the screen shows `screen = clip_rect.min + pan + zoom * graph`
/// through a layer transform, so everything (nodes, widgets, text, wires) scales together and
/// nodes never overlap at any zoom.
#[derive(Clone)]
#[cfg_attr(feature = "persistence", derive(Serialize, Deserialize))]
pub struct PanZoom {
    /// Screen offset of the graph origin from the editor rectangle's corner, in points.
    pub pan: Vec2,
    /// Screen points per graph unit.
    pub zoom: f32,
    /// The editor rectangle on screen in the last frame.
    #[cfg_attr(feature = "persistence", serde(skip, default = "_default_clip_rect"))]
    pub clip_rect: Rect,
}

impl Default for PanZoom {
    fn default() -> Self {
        PanZoom { pan: Vec2::ZERO, zoom: 1.0, clip_rect: Rect::NOTHING }
    }
}

impl PanZoom {
    pub fn new(zoom: f32) -> PanZoom {
        PanZoom { zoom, ..Default::default() }
    }

    /// Graph coordinates to screen points.
    pub fn to_screen(&self) -> TSTransform {
        TSTransform::new(self.clip_rect.min.to_vec2() + self.pan, self.zoom)
    }

    /// Screen points to graph coordinates.
    pub fn to_graph(&self) -> TSTransform {
        self.to_screen().inverse()
    }

    /// Multiplies the zoom by `factor` (clamped), keeping the graph point under the screen
    /// point `anchor` in place.
    pub fn zoom_around(&mut self, anchor: Pos2, factor: f32) {
        let graph = self.to_graph() * anchor;
        self.zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        self.pan = anchor.to_vec2() - self.clip_rect.min.to_vec2() - graph.to_vec2() * self.zoom;
    }

    /// Shows the graph rectangle `rect` centred in the editor, as large as fits with a margin
    /// of `margin` points, at most at zoom 1.
    /// PlanetGraph fork: like [`Self::frame`], but never below `min_zoom`: a rectangle too
    /// large to fit at that zoom shows its top-left corner, and the rest is a scroll away.
    pub fn frame_legible(&mut self, rect: Rect, margin: f32, min_zoom: f32) {
        self.frame(rect, margin);
        if self.zoom >= min_zoom {
            return;
        }
        self.zoom = min_zoom.min(1.0);
        let view = self.clip_rect.shrink(margin);
        self.pan = view.min.to_vec2() - self.clip_rect.min.to_vec2() - rect.min.to_vec2() * self.zoom;
    }

    pub fn frame(&mut self, rect: Rect, margin: f32) {
        let view = self.clip_rect.shrink(margin);
        if !rect.is_positive() || !view.is_positive() {
            return;
        }
        self.zoom = (view.width() / rect.width()).min(view.height() / rect.height()).clamp(MIN_ZOOM, 1.0);
        self.pan = self.clip_rect.center().to_vec2() - self.clip_rect.min.to_vec2() - rect.center().to_vec2() * self.zoom;
    }
}
