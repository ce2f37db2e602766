use std::collections::HashSet;
use std::num::NonZeroU32;

use crate::color_hex_utils::*;
use crate::utils::ColorUtils;

use super::*;
use egui::epaint::{CubicBezierShape, RectShape};
use egui::*;

/// Mapping from parameter id to positions of hooks it contains.
///
/// Outputs and short inputs always only have one hook, so the value is
/// just `vec![port_position]`. Wide inputs may have multiple hooks.
pub type PortLocations = std::collections::HashMap<AnyParameterId, Vec<Pos2>>;

/// Destination positions of connections made to a given input.
///
/// This is not equivalent to [`PortLocations`] because connections may be moved
/// around (e.g. while an in-progress connection is hovered over a wide port),
/// while hooks within a port are strictly a function of the port.
pub type ConnLocations = std::collections::HashMap<InputId, Vec<Pos2>>;

/// Rectangle containing each node.
pub type NodeRects = std::collections::HashMap<NodeId, Rect>;

const DISTANCE_TO_CONNECT: f32 = 10.0;

/// Nodes communicate certain events to the parent graph when drawn. There is
/// one special `User` variant which can be used by users as the return value
/// when executing some custom actions in the UI of the node.
#[derive(Clone, Debug)]
pub enum NodeResponse<UserResponse: UserResponseTrait, NodeData: NodeDataTrait> {
    ConnectEventStarted(NodeId, AnyParameterId),
    ConnectEventEnded {
        output: OutputId,
        input: InputId,
        /// Index of the connection in wide input ports.
        ///
        /// If the input isn't a wide port this is always 0 and may be ignored.
        input_hook: usize,
    },
    /// PlanetGraph fork: a wire was released on a port of another type; no link is made
    /// (the application says why).
    ConnectRefused {
        /// The port the drag started from.
        from: AnyParameterId,
        /// The port it was released on.
        to: AnyParameterId,
    },
    CreatedNode(NodeId),
    SelectNode(NodeId),
    /// As a user of this library, prefer listening for `DeleteNodeFull` which
    /// will also contain the user data for the deleted node.
    DeleteNodeUi(NodeId),
    /// Emitted when a node is deleted. The node will no longer exist in the
    /// graph after this response is returned from the draw function, but its
    /// contents are passed along with the event.
    DeleteNodeFull {
        node_id: NodeId,
        node: Node<NodeData>,
    },
    DisconnectEvent {
        output: OutputId,
        input: InputId,
    },
    /// Emitted when a node is interacted with, and should be raised
    RaiseNode(NodeId),
    MoveNode {
        node: NodeId,
        drag_delta: Vec2,
    },
    User(UserResponse),
}

/// The return value of [`draw_graph_editor`]. This value can be used to make
/// user code react to specific events that happened when drawing the graph.
#[derive(Clone, Debug)]
pub struct GraphResponse<UserResponse: UserResponseTrait, NodeData: NodeDataTrait> {
    /// Events that occurred during this frame of rendering the graph. Check the
    /// [`UserResponse`] type for a description of each event.
    pub node_responses: Vec<NodeResponse<UserResponse, NodeData>>,
    /// Is the mouse currently hovering the graph editor? Note that the node
    /// finder is considered part of the graph editor, even when it floats
    /// outside the graph editor rect.
    pub cursor_in_editor: bool,
    /// Is the mouse currently hovering the node finder?
    pub cursor_in_finder: bool,
}
impl<UserResponse: UserResponseTrait, NodeData: NodeDataTrait> Default
    for GraphResponse<UserResponse, NodeData>
{
    fn default() -> Self {
        Self {
            node_responses: Default::default(),
            cursor_in_editor: false,
            cursor_in_finder: false,
        }
    }
}
pub struct GraphNodeWidget<'a, NodeData, DataType, ValueType> {
    pub position: &'a mut Pos2,
    pub graph: &'a mut Graph<NodeData, DataType, ValueType>,
    pub port_locations: &'a mut PortLocations,
    pub conn_locations: &'a mut ConnLocations,
    pub node_rects: &'a mut NodeRects,
    pub node_id: NodeId,
    pub ongoing_drag: Option<(NodeId, AnyParameterId)>,
    pub selected: bool,
    pub pan: egui::Vec2,
}

impl<NodeData, DataType, ValueType, NodeTemplate, UserResponse, UserState, CategoryType>
    GraphEditorState<NodeData, DataType, ValueType, NodeTemplate, UserState>
where
    NodeData: NodeDataTrait<
        Response = UserResponse,
        UserState = UserState,
        DataType = DataType,
        ValueType = ValueType,
    >,
    UserResponse: UserResponseTrait,
    ValueType:
        WidgetValueTrait<Response = UserResponse, UserState = UserState, NodeData = NodeData>,
    NodeTemplate: NodeTemplateTrait<
        NodeData = NodeData,
        DataType = DataType,
        ValueType = ValueType,
        UserState = UserState,
        CategoryType = CategoryType,
    >,
    DataType: DataTypeTrait<UserState>,
    CategoryType: CategoryTrait,
{
    /// Draws the editor in `ui`'s rectangle (PlanetGraph fork: the graph lives on its own
    /// layer, transformed by [`PanZoom`]; the wheel zooms around the cursor and a middle or
    /// Ctrl drag on the background pans).
    #[must_use]
    pub fn draw_graph_editor(
        &mut self,
        ui: &mut Ui,
        all_kinds: impl NodeTemplateIter<Item = NodeTemplate>,
        user_state: &mut UserState,
        prepend_responses: Vec<NodeResponse<UserResponse, NodeData>>,
    ) -> GraphResponse<UserResponse, NodeData> {
        self.draw_graph_editor_with(ui, all_kinds, user_state, prepend_responses, &mut |_| {})
    }

    /// Like [`Self::draw_graph_editor`], with `background` drawn on the canvas (in graph
    /// coordinates) beneath the wires and nodes; its widgets take the pointer before the empty
    /// canvas and after the nodes (PlanetGraph fork: frames).
    #[must_use]
    pub fn draw_graph_editor_with(
        &mut self,
        ui: &mut Ui,
        all_kinds: impl NodeTemplateIter<Item = NodeTemplate>,
        user_state: &mut UserState,
        prepend_responses: Vec<NodeResponse<UserResponse, NodeData>>,
        background: &mut dyn FnMut(&mut Ui),
    ) -> GraphResponse<UserResponse, NodeData> {
        let editor_rect = ui.max_rect();
        ui.set_clip_rect(editor_rect);
        self.pan_zoom.clip_rect = editor_rect;
        let ctx = ui.ctx().clone();
        // Wheel and middle-drag act only when nothing (a window, a popup, the finder) is on top.
        let pointer = ctx.input(|i| i.pointer.hover_pos());
        let free = pointer.is_some_and(|p| {
            editor_rect.contains(p)
                && ctx.layer_id_at(p).map_or(true, |l| l.order == Order::Background)
        });
        if let (true, Some(p)) = (free, pointer) {
            // PlanetGraph fork: the wheel's own steps this frame, not egui's smoothed delta
            // (which goes on after the wheel stops, and after a Home): the zoom stops with the
            // wheel.
            let line = ctx.options(|o| o.input_options.line_scroll_speed);
            let scroll: f32 = ctx.input(|i| {
                i.events
                    .iter()
                    .map(|e| match e {
                        Event::MouseWheel { unit: MouseWheelUnit::Point, delta, .. } => delta.y,
                        Event::MouseWheel { unit: MouseWheelUnit::Line, delta, .. } => line * delta.y,
                        Event::MouseWheel { unit: MouseWheelUnit::Page, delta, .. } => i.viewport_rect().height() * delta.y,
                        _ => 0.0,
                    })
                    .sum()
            });
            if scroll != 0.0 {
                self.pan_zoom.zoom_around(p, (scroll * 0.002).exp());
            }
            if ctx.input(|i| i.pointer.middle_down()) {
                self.pan_zoom.pan += ctx.input(|i| i.pointer.delta());
            }
        }
        // The graph is drawn in a background area of its own (an area, so that its widgets
        // take the pointer before the panel behind them), transformed by the pan and zoom.
        let area = Area::new(ui.scope_id().with("graph_canvas"))
            .order(Order::Background)
            .constrain(false);
        let layer = area.layer();
        ctx.set_transform_layer(layer, self.pan_zoom.to_screen());
        let graph_rect = self.pan_zoom.to_graph() * editor_rect;
        let fill = ui.visuals().extreme_bg_color;
        let response = area
            .fixed_pos(graph_rect.min)
            .show(&ctx, |canvas| {
                canvas.set_clip_rect(graph_rect);
                canvas.painter().rect_filled(graph_rect, 0.0, fill);
                canvas
                    .scope_builder(UiBuilder::new().max_rect(graph_rect), |canvas| {
                        self.draw_graph_editor_inside_zoom(canvas, all_kinds, user_state, prepend_responses, background)
                    })
                    .inner
            })
            .inner;
        ui.advance_cursor_after_rect(editor_rect);
        response
    }

    /// The port of another node than `origin_node`, of the other kind than `origin` (an input
    /// for a wire from an output, and back), whose hook is within reach of `cursor` (graph
    /// coordinates), the nearest (PlanetGraph fork).
    fn port_under_wire_end(
        &self,
        port_locations: &PortLocations,
        origin_node: NodeId,
        origin: AnyParameterId,
        cursor: Pos2,
    ) -> Option<AnyParameterId> {
        let node_of = |id: AnyParameterId| match id {
            AnyParameterId::Input(i) => self.graph.inputs.get(i).map(|p| p.node),
            AnyParameterId::Output(o) => self.graph.outputs.get(o).map(|p| p.node),
        };
        let other_kind = |id: &AnyParameterId| {
            matches!(
                (id, origin),
                (AnyParameterId::Input(_), AnyParameterId::Output(_)) | (AnyParameterId::Output(_), AnyParameterId::Input(_))
            )
        };
        port_locations
            .iter()
            .filter(|(id, _)| other_kind(id) && node_of(**id).is_some_and(|n| n != origin_node))
            .filter_map(|(id, hooks)| hooks.iter().map(|h| h.distance(cursor)).min_by(f32::total_cmp).map(|d| (*id, d)))
            .filter(|(_, d)| *d < DISTANCE_TO_CONNECT)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(id, _)| id)
    }

    fn draw_graph_editor_inside_zoom(
        &mut self,
        ui: &mut Ui,
        all_kinds: impl NodeTemplateIter<Item = NodeTemplate>,
        user_state: &mut UserState,
        prepend_responses: Vec<NodeResponse<UserResponse, NodeData>>,
        background: &mut dyn FnMut(&mut Ui),
    ) -> GraphResponse<UserResponse, NodeData> {
        // This causes the graph editor to use as much free space as it can.
        // (so for windows it will use up to the resizeably set limit
        // and for a Panel it will fill it completely)
        let editor_rect = ui.max_rect();
        let resp = ui.allocate_rect(editor_rect, Sense::hover());

        // The pointer on screen and in graph coordinates (PlanetGraph fork).
        let screen_cursor = ui
            .ctx()
            .input(|i| i.pointer.hover_pos().unwrap_or(Pos2::ZERO));
        let cursor_pos = self.pan_zoom.to_graph() * screen_cursor;
        // Nodes are drawn at zoom 1 in graph coordinates; the layer transform scales them.
        let unit = PanZoom::default();
        // The graph layer is not an egui area, so `contains_pointer` cannot be used: the pointer
        // is in the editor when it is over the canvas and no window or popup covers it.
        let _ = resp;
        let mut cursor_in_editor = editor_rect.contains(cursor_pos)
            && ui.ctx().input(|i| i.pointer.hover_pos()).is_some()
            && ui
                .ctx()
                .layer_id_at(screen_cursor)
                .map_or(true, |l| l.order == Order::Background);
        let mut cursor_in_finder = false;
        // PlanetGraph fork: a click on a popup (the finder, a menu) does not close the finder.
        let cursor_on_popup = ui
            .ctx()
            .layer_id_at(screen_cursor)
            .is_some_and(|l| l.order >= Order::Foreground);

        // Gets filled with the node metrics as they are drawn
        let mut port_locations = PortLocations::new();
        let mut node_rects = NodeRects::new();

        // actual dest location of each connection
        let mut conn_locations = ConnLocations::default();

        // The responses returned from node drawing have side effects that are best
        // executed at the end of this function.
        let mut delayed_responses: Vec<NodeResponse<UserResponse, NodeData>> = prepend_responses;

        // Used to detect when the background was clicked
        let mut click_on_background = false;

        // Used to detect drag events in the background
        let mut drag_started_on_background = false;
        let mut drag_released_on_background = false;

        debug_assert_eq!(
            self.node_order.iter().copied().collect::<HashSet<_>>(),
            self.graph.iter_nodes().collect::<HashSet<_>>(),
            "The node_order field of the GraphEditorself was left in an \
        inconsistent self. It has either more or less values than the graph."
        );

        // Allocate rect before the nodes, otherwise this will block the interaction
        // with the nodes.
        let r = ui.allocate_rect(ui.min_rect(), Sense::click().union(Sense::drag()));
        if r.clicked() {
            click_on_background = true;
        } else if r.drag_started() {
            drag_started_on_background = true;
        } else if r.drag_stopped() {
            drag_released_on_background = true;
        }

        background(ui);

        // Wires go beneath the nodes: reserve their place in the paint order (PlanetGraph fork).
        let wires_shape = ui.painter().add(Shape::Noop);

        /* Draw nodes */
        for node_id in self.node_order.iter().copied() {
            let responses = GraphNodeWidget {
                position: self.node_positions.get_mut(node_id).unwrap(),
                graph: &mut self.graph,
                port_locations: &mut port_locations,
                conn_locations: &mut conn_locations,
                node_rects: &mut node_rects,
                node_id,
                ongoing_drag: self.connection_in_progress,
                selected: self
                    .selected_nodes
                    .iter()
                    .any(|selected| *selected == node_id),
                pan: Vec2::ZERO,
            }
            .show(&unit, ui, user_state);

            // Actions executed later
            delayed_responses.extend(responses);
        }

        /* Draw the node finder, if open */
        let mut should_close_node_finder = false;
        if let Some(ref mut node_finder) = self.node_finder {
            let mut node_finder_area = Area::new(Id::unique(("node_finder", node_finder.serial))).order(Order::Foreground);
            if let Some(pos) = node_finder.position {
                node_finder_area = node_finder_area.current_pos(pos);
            }
            node_finder_area.show(ui.ctx(), |ui| {
                if let Some(node_kind) = node_finder.show(ui, all_kinds, user_state) {
                    let new_node = self.graph.add_node(
                        node_kind.node_graph_label(user_state),
                        node_kind.user_data(user_state),
                        |graph, node_id| node_kind.build_node(graph, user_state, node_id),
                    );
                    self.node_positions.insert(
                        new_node,
                        self.pan_zoom.to_graph() * node_finder.position.unwrap_or(screen_cursor),
                    );
                    self.node_order.push(new_node);

                    should_close_node_finder = true;
                    delayed_responses.push(NodeResponse::CreatedNode(new_node));
                }
                let finder_rect = ui.min_rect();
                // If the cursor is not in the main editor, check if the cursor is in the finder
                // if the cursor is in the finder, then we can consider that also in the editor.
                if finder_rect.contains(screen_cursor) {
                    cursor_in_editor = true;
                    cursor_in_finder = true;
                }
            });
        }
        if should_close_node_finder {
            self.node_finder = None;
        }

        // draw in-progress connections
        let mut drag_refusal = None;
        if let Some((origin_node, ref locator)) = self.connection_in_progress {
            let port_type = self.graph.any_param_type(*locator).unwrap();
            let connection_color = port_type.data_type_color(user_state);

            // outputs can't be wide yet so this is fine.
            let start_pos = *port_locations[locator].last().unwrap();

            // PlanetGraph fork: the port of another node that the wire's end is over, and why
            // it would refuse the wire, shown before the button is released.
            let target = self.port_under_wire_end(&port_locations, origin_node, *locator, cursor_pos);
            let refusal = target.and_then(|t| match self.link_check {
                Some(check) => check(self, *locator, t),
                None => self
                    .graph
                    .any_param_type(t)
                    .map_or(true, |other| other != port_type)
                    .then(|| "the ports carry different types".to_string()),
            });
            if let (Some(reason), Some(t)) = (refusal, target) {
                let refused = Color32::from_rgb(230, 70, 60);
                let at = port_locations[&t][0];
                ui.painter().circle_stroke(at, 8.0, Stroke::new(2.5, refused));
                let (a, b) = match locator {
                    AnyParameterId::Output(_) => (start_pos, cursor_pos),
                    AnyParameterId::Input(_) => (cursor_pos, start_pos),
                };
                ui.painter().add(connection_shape(&unit, a, b, refused));
                egui::Tooltip::always_open(ui.ctx().clone(), ui.layer_id(), Id::new("link_refusal"), egui::PopupAnchor::Pointer)
                    .show(|ui| ui.colored_label(refused, format!("✖ {reason}")));
                drag_refusal = Some(reason);
            } else {

            // Find a port to connect to
            fn snap_to_ports<
                NodeData,
                UserState,
                DataType: DataTypeTrait<UserState>,
                ValueType,
                Key: slotmap::Key + Into<AnyParameterId>,
                Value,
            >(
                graph: &Graph<NodeData, DataType, ValueType>,
                port_type: &DataType,
                ports: &SlotMap<Key, Value>,
                port_locations: &PortLocations,
                cursor_pos: Pos2,
            ) -> Pos2 {
                ports
                    .iter()
                    .find_map(|(port_id, _)| {
                        let compatible_ports = graph
                            .any_param_type(port_id.into())
                            .map(|other| other == port_type)
                            .unwrap_or(false);

                        if compatible_ports {
                            port_locations.get(&port_id.into()).and_then(|hooks| {
                                hooks
                                    .iter()
                                    .min_by(|hook1, hook2| {
                                        hook1
                                            .distance(cursor_pos)
                                            .partial_cmp(&hook2.distance(cursor_pos))
                                            .unwrap()
                                    })
                                    .filter(|nearest_hook| {
                                        nearest_hook.distance(cursor_pos) < DISTANCE_TO_CONNECT
                                    })
                                    .copied()
                            })
                        } else {
                            None
                        }
                    })
                    .unwrap_or(cursor_pos)
            }

            let (src_pos, dst_pos) = match locator {
                AnyParameterId::Output(_) => (
                    start_pos,
                    snap_to_ports(
                        &self.graph,
                        port_type,
                        &self.graph.inputs,
                        &port_locations,
                        cursor_pos,
                    ),
                ),
                AnyParameterId::Input(_) => (
                    snap_to_ports(
                        &self.graph,
                        port_type,
                        &self.graph.outputs,
                        &port_locations,
                        cursor_pos,
                    ),
                    start_pos,
                ),
            };
            ui.painter().add(connection_shape(&unit, src_pos, dst_pos, connection_color));
            }
        }
        self.drag_refusal = drag_refusal;
        // PlanetGraph fork: every wire let go on a port goes through the host's check, whichever
        // port the pointer was judged to be over; a refused one is not made and the host hears
        // why.
        if let (Some(check), Some((_, origin))) = (self.link_check, self.connection_in_progress) {
            let mut refused = Vec::new();
            delayed_responses.retain(|r| match r {
                NodeResponse::ConnectEventEnded { output, input, .. } => {
                    let (output, input) = (AnyParameterId::Output(*output), AnyParameterId::Input(*input));
                    let ok = check(self, output, input).is_none();
                    if !ok {
                        refused.push(if origin == output { (output, input) } else { (input, output) });
                    }
                    ok
                }
                _ => true,
            });
            for (from, to) in refused {
                if !delayed_responses.iter().any(|r| matches!(r, NodeResponse::ConnectRefused { .. })) {
                    delayed_responses.push(NodeResponse::ConnectRefused { from, to });
                }
            }
        }

        // draw existing connections
        let mut wires = Vec::new();
        // Reroute points are drawn over the wires.
        let mut handles = Vec::new();
        self.link_curves.clear();
        // PlanetGraph fork: wires pass through their reroute points, which are dragged,
        // removed with a double click, and added with a double click on a wire.
        let pointer = pointer_in_layer(ui);
        let double_click = ui.input(|i| i.pointer.button_double_clicked(PointerButton::Primary));
        let over_node = pointer.is_some_and(|p| node_rects.values().any(|r| r.contains(p)));
        let mut reroute_removed = None;
        let mut reroute_added = None;
        for (input, outputs) in self.graph.iter_connection_groups() {
            for (hook_n, &output) in outputs.iter().enumerate() {
                let port_type = self
                    .graph
                    .any_param_type(AnyParameterId::Output(output))
                    .unwrap();
                let connection_color = port_type.data_type_color(user_state);
                // outputs can't be wide yet so this is fine.
                let src_pos = port_locations[&AnyParameterId::Output(output)][0];
                let dst_pos = conn_locations[&input][hook_n];
                let points = self.reroutes.get_mut(&(input, output));
                let mut chain = vec![src_pos];
                if let Some(points) = points {
                    for (k, p) in points.iter_mut().enumerate() {
                        let handle = ui.interact(
                            Rect::from_center_size(*p, Vec2::splat(14.0)),
                            Id::unique(("reroute", input, output, k)),
                            Sense::click_and_drag(),
                        );
                        if handle.double_clicked() {
                            reroute_removed = Some(((input, output), k));
                        } else if handle.dragged() {
                            if let Some(to) = pointer {
                                *p = to;
                            }
                        }
                        let radius = if handle.hovered() || handle.dragged() { 7.0 } else { 5.0 };
                        handles.push(Shape::circle_filled(*p, radius, connection_color));
                        chain.push(*p);
                    }
                }
                chain.push(dst_pos);
                for (k, ends) in chain.windows(2).enumerate() {
                    let wire = connection_shape(&unit, ends[0], ends[1], connection_color);
                    if double_click && !over_node && reroute_added.is_none() && reroute_removed.is_none() {
                        if let Some(p) = pointer.filter(|p| near_bezier(&wire.points, *p, 6.0)) {
                            reroute_added = Some(((input, output), k, p));
                        }
                    }
                    self.link_curves.push((input, output, wire.points));
                    wires.push(Shape::CubicBezier(wire));
                }
            }
        }
        if let Some((key, k)) = reroute_removed {
            if let Some(points) = self.reroutes.get_mut(&key) {
                points.remove(k);
                if points.is_empty() {
                    self.reroutes.remove(&key);
                }
            }
        } else if let Some((key, k, p)) = reroute_added {
            self.reroutes.entry(key).or_default().insert(k, p);
        }
        wires.extend(handles);
        ui.painter().set(wires_shape, Shape::Vec(wires));
        self.node_rects = node_rects.clone();

        /* Handle responses from drawing nodes */

        // Some responses generate additional responses when processed. These
        // are stored here to report them back to the user.
        let mut extra_responses: Vec<NodeResponse<UserResponse, NodeData>> = Vec::new();

        for response in delayed_responses.iter() {
            match response {
                NodeResponse::ConnectEventStarted(node_id, port) => {
                    self.connection_in_progress = Some((*node_id, *port));
                }
                NodeResponse::ConnectEventEnded {
                    output,
                    input,
                    input_hook,
                } => self.graph.add_connection(*output, *input, *input_hook),
                NodeResponse::CreatedNode(_) | NodeResponse::ConnectRefused { .. } => {
                    //Convenience NodeResponse for users
                }
                NodeResponse::SelectNode(node_id) => {
                    self.selected_nodes = Vec::from([*node_id]);
                }
                NodeResponse::DeleteNodeUi(node_id) => {
                    let (node, disc_events) = self.graph.remove_node(*node_id);

                    // Pass the disconnection responses first so user code can perform cleanup
                    // before node removal response.
                    extra_responses.extend(
                        disc_events
                            .into_iter()
                            .map(|(input, output)| NodeResponse::DisconnectEvent { input, output }),
                    );
                    // Pass the full node as a response so library users can
                    // listen for it and get their user data.
                    extra_responses.push(NodeResponse::DeleteNodeFull {
                        node_id: *node_id,
                        node,
                    });
                    self.node_positions.remove(*node_id);
                    // Make sure to not leave references to old nodes hanging
                    self.selected_nodes.retain(|id| *id != *node_id);
                    self.node_order.retain(|id| *id != *node_id);
                }
                NodeResponse::DisconnectEvent { input, output } => {
                    let other_node = self.graph.get_output(*output).node;
                    self.graph.remove_connection(*input, *output);
                    self.connection_in_progress =
                        Some((other_node, AnyParameterId::Output(*output)));
                }
                NodeResponse::RaiseNode(node_id) => {
                    let old_pos = self
                        .node_order
                        .iter()
                        .position(|id| *id == *node_id)
                        .expect("Node to be raised should be in `node_order`");
                    self.node_order.remove(old_pos);
                    self.node_order.push(*node_id);
                }
                NodeResponse::MoveNode { node, drag_delta } => {
                    self.node_positions[*node] += *drag_delta;
                    // Handle multi-node selection movement
                    if self.selected_nodes.contains(node) && self.selected_nodes.len() > 1 {
                        for n in self.selected_nodes.iter().copied() {
                            if n != *node {
                                self.node_positions[n] += *drag_delta;
                            }
                        }
                    }
                }
                NodeResponse::User(_) => {
                    // These are handled by the user code.
                }
                NodeResponse::DeleteNodeFull { .. } => {
                    unreachable!("The UI should never produce a DeleteNodeFull event.")
                }
            }
        }

        // Handle box selection
        if let Some(box_start) = self.ongoing_box_selection {
            let selection_rect = Rect::from_two_pos(cursor_pos, box_start);
            let bg_color = Color32::from_rgba_unmultiplied(200, 200, 200, 20);
            let stroke_color = Color32::from_rgba_unmultiplied(200, 200, 200, 180);
            ui.painter().rect(
                selection_rect,
                2.0,
                bg_color,
                Stroke::new(3.0, stroke_color),
                StrokeKind::Inside,
            );

            self.selected_nodes = node_rects
                .into_iter()
                .filter_map(|(node_id, rect)| {
                    if selection_rect.intersects(rect) {
                        Some(node_id)
                    } else {
                        None
                    }
                })
                .collect();
        }

        // Push any responses that were generated during response handling.
        // These are only informative for the end-user and need no special
        // treatment here.
        delayed_responses.extend(extra_responses);

        /* Mouse input handling */

        // This locks the context, so don't hold on to it for too long.
        let mouse = &ui.ctx().input(|i| i.pointer.clone());

        if mouse.any_released() && self.connection_in_progress.is_some() {
            self.connection_in_progress = None;
        }

        // A right click over a node is the node's own (its menu), never the finder.
        let over_node = self.node_rects.values().any(|r| r.contains(cursor_pos));
        if mouse.secondary_released() && cursor_in_editor && !cursor_in_finder && !over_node {
            self.node_finder = Some(NodeFinder::new_at(screen_cursor));
        }
        if ui.ctx().input(|i| i.key_pressed(Key::Escape)) {
            self.node_finder = None;
        }

        if r.dragged() && ui.ctx().input(|i| i.modifiers.command_only() && i.pointer.primary_down()) {
            self.pan_zoom.pan += ui.ctx().input(|i| i.pointer.delta());
        }

        // Deselect if the editor background is clicked. PlanetGraph fork: a click elsewhere (the
        // menu bar, a menu, another panel) keeps the selection, so the Edit menu acts on it; it
        // only closes the finder, unless it lands on a popup such as the finder itself.
        if click_on_background {
            self.selected_nodes = Vec::new();
        }
        if click_on_background || (mouse.any_click() && !cursor_in_editor && !cursor_on_popup) {
            self.node_finder = None;
        }

        if drag_started_on_background
            && mouse.primary_down()
            && !ui.ctx().input(|i| i.modifiers.command_only())
        {
            self.ongoing_box_selection = Some(cursor_pos);
        }
        if mouse.primary_released() || drag_released_on_background {
            self.ongoing_box_selection = None;
        }

        GraphResponse {
            node_responses: delayed_responses,
            cursor_in_editor,
            cursor_in_finder,
        }
    }
}

fn connection_shape(pan_zoom: &PanZoom, src_pos: Pos2, dst_pos: Pos2, color: Color32) -> CubicBezierShape {
    let connection_stroke = egui::Stroke {
        width: 5.0 * pan_zoom.zoom,
        color,
    };

    let control_scale = ((dst_pos.x - src_pos.x) * pan_zoom.zoom / 2.0).max(30.0 * pan_zoom.zoom);
    let src_control = src_pos + Vec2::X * control_scale;
    let dst_control = dst_pos - Vec2::X * control_scale;

    CubicBezierShape::from_points_stroke(
        [src_pos, src_control, dst_control, dst_pos],
        false,
        Color32::TRANSPARENT,
        connection_stroke,
    )
}

/// Whether `p` lies within `tol` of the cubic Bézier through `c` (sampled as 24 segments;
/// PlanetGraph fork).
fn near_bezier(c: &[Pos2; 4], p: Pos2, tol: f32) -> bool {
    let at = |t: f32| {
        let u = 1.0 - t;
        (c[0].to_vec2() * (u * u * u) + c[1].to_vec2() * (3.0 * u * u * t) + c[2].to_vec2() * (3.0 * u * t * t) + c[3].to_vec2() * (t * t * t)).to_pos2()
    };
    (0..24).any(|k| {
        let (a, b) = (at(k as f32 / 24.0), at((k + 1) as f32 / 24.0));
        let ab = b - a;
        let t = if ab.length_sq() > 0.0 { ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0) } else { 0.0 };
        (a + ab * t).distance(p) <= tol
    })
}

/// The pointer in the coordinates of `ui`'s layer (PlanetGraph fork: the graph layer is
/// transformed).
fn pointer_in_layer(ui: &Ui) -> Option<Pos2> {
    let pos = ui.ctx().pointer_hover_pos()?;
    let t = ui.ctx().layer_transform_to_global(ui.layer_id());
    Some(t.map_or(pos, |t| t.inverse() * pos))
}

#[derive(Clone, Copy, Debug)]
struct OuterRectMemory(Rect);

impl<'a, NodeData, DataType, ValueType, UserResponse, UserState>
    GraphNodeWidget<'a, NodeData, DataType, ValueType>
where
    NodeData: NodeDataTrait<
        Response = UserResponse,
        UserState = UserState,
        DataType = DataType,
        ValueType = ValueType,
    >,
    UserResponse: UserResponseTrait,
    ValueType:
        WidgetValueTrait<Response = UserResponse, UserState = UserState, NodeData = NodeData>,
    DataType: DataTypeTrait<UserState>,
{
    pub const MAX_NODE_SIZE: [f32; 2] = [200.0, 200.0];

    pub fn show(
        self,
        pan_zoom: &PanZoom,
        ui: &mut Ui,
        user_state: &mut UserState,
    ) -> Vec<NodeResponse<UserResponse, NodeData>> {
        let mut child_ui = ui.new_child(
            UiBuilder::new()
                .max_rect(Rect::from_min_size(*self.position + self.pan, Self::MAX_NODE_SIZE.into()))
                .layout(Layout::default())
                .id_salt(self.node_id),
        );

        Self::show_graph_node(self, pan_zoom, &mut child_ui, user_state)
    }

    /// Draws this node. Also fills in the list of port locations with all of its ports.
    /// Returns responses indicating multiple events.
    fn show_graph_node(
        self,
        pan_zoom: &PanZoom,
        ui: &mut Ui,
        user_state: &mut UserState,
    ) -> Vec<NodeResponse<UserResponse, NodeData>> {
        let margin = egui::vec2(15.0, 5.0) * pan_zoom.zoom;
        let mut responses = Vec::<NodeResponse<UserResponse, NodeData>>::new();

        let background_color;
        let text_color;
        if ui.visuals().dark_mode {
            background_color = color_from_hex("#3f3f3f").unwrap();
            text_color = color_from_hex("#fefefe").unwrap();
        } else {
            background_color = color_from_hex("#ffffff").unwrap();
            text_color = color_from_hex("#505050").unwrap();
        }

        ui.visuals_mut().widgets.noninteractive.fg_stroke =
            Stroke::new(2.0 * pan_zoom.zoom, text_color);

        // Preallocate shapes to paint below contents
        let outline_shape = ui.painter().add(Shape::Noop);
        let background_shape = ui.painter().add(Shape::Noop);

        let mut outer_rect_bounds = ui.available_rect_before_wrap();
        // Scale hack, otherwise some (larger) rects expand too much when zoomed out
        outer_rect_bounds.max.x =
            outer_rect_bounds.min.x + outer_rect_bounds.width() * pan_zoom.zoom;

        let mut inner_rect = outer_rect_bounds.shrink2(margin);

        // Make sure we don't shrink to the negative:
        inner_rect.max.x = inner_rect.max.x.max(inner_rect.min.x);
        inner_rect.max.y = inner_rect.max.y.max(inner_rect.min.y);

        let mut child_ui = ui.new_child(UiBuilder::new().max_rect(inner_rect).layout(*ui.layout()));

        // Get interaction rect from memory, it may expand after the window response on resize.
        let interaction_rect = ui
            .ctx()
            .memory_mut(|mem| {
                mem.data
                    .get_temp::<OuterRectMemory>(child_ui.scope_id())
                    .map(|stored| stored.0)
            })
            .unwrap_or(outer_rect_bounds);
        // After 0.20, layers added over others can block hover interaction. Call this first
        // before creating the node content.
        let window_response = ui.interact(
            interaction_rect,
            Id::unique((self.node_id, "window")),
            Sense::click_and_drag(),
        );

        let mut title_height = 0.0;

        let mut input_port_heights = vec![];
        let mut output_port_heights = vec![];

        child_ui.vertical(|ui| {
            ui.horizontal(|ui| {
                let title = ui.add(Label::new(
                    RichText::new(&self.graph[self.node_id].label)
                        .text_style(TextStyle::Button)
                        .color(text_color),
                ));
                // PlanetGraph fork: the title's tooltip.
                if let Some(tip) = self.graph[self.node_id].user_data.title_tooltip() {
                    title.on_hover_text(tip);
                }
                responses.extend(self.graph[self.node_id].user_data.top_bar_ui(
                    ui,
                    self.node_id,
                    self.graph,
                    user_state,
                ));
                ui.add_space(8.0 * pan_zoom.zoom); // The size of the little cross icon
            });
            ui.add_space(margin.y);
            title_height = ui.min_size().y;

            // PlanetGraph fork: a collapsed node is its title bar; every port sits at the
            // title's middle, so links stay drawn.
            if self.graph[self.node_id].user_data.collapsed() {
                let mid = ui.min_rect().top() + (title_height - margin.y) * 0.5;
                input_port_heights = vec![mid; self.graph[self.node_id].inputs.len()];
                output_port_heights = vec![mid; self.graph[self.node_id].outputs.len()];
                return;
            }

            // First pass: Draw the inner fields. Compute port heights
            let inputs = self.graph[self.node_id].inputs.clone();
            for (param_name, param_id) in inputs {
                if self.graph[param_id].shown_inline {
                    let height_before = ui.min_rect().bottom();

                    if self.graph[param_id].max_connections == NonZeroU32::new(1) {
                        // NOTE: We want to pass the `user_data` to
                        // `value_widget`, but we can't since that would require
                        // borrowing the graph twice. Here, we make the
                        // assumption that the value is cheaply replaced, and
                        // use `std::mem::take` to temporarily replace it with a
                        // dummy value. This requires `ValueType` to implement
                        // Default, but results in a totally safe alternative.
                        let mut value = std::mem::take(&mut self.graph[param_id].value);

                        if !self.graph.connections(param_id).is_empty() {
                            let node_responses = value.value_widget_connected(
                                &param_name,
                                self.node_id,
                                ui,
                                user_state,
                                &self.graph[self.node_id].user_data,
                            );

                            responses.extend(node_responses.into_iter().map(NodeResponse::User));
                        } else {
                            let node_responses = value.value_widget(
                                &param_name,
                                self.node_id,
                                ui,
                                user_state,
                                &self.graph[self.node_id].user_data,
                            );

                            responses.extend(node_responses.into_iter().map(NodeResponse::User));
                        }

                        self.graph[param_id].value = value;
                    } else {
                        ui.label(param_name);
                    }

                    let height_intermediate = ui.min_rect().bottom();

                    let max_connections = self.graph[param_id]
                        .max_connections
                        .map(NonZeroU32::get)
                        .unwrap_or(std::u32::MAX)
                        as usize;
                    let port_height = port_height(
                        max_connections != 1,
                        self.graph.connections(param_id).len(),
                        max_connections,
                    );
                    let margin = 5.0;
                    let missing_space =
                        port_height - (height_intermediate - height_before) + margin;
                    if missing_space > 0.0 {
                        ui.add_space(missing_space);
                    }

                    self.graph[self.node_id].user_data.separator(
                        ui,
                        self.node_id,
                        AnyParameterId::Input(param_id),
                        self.graph,
                        user_state,
                    );

                    let height_after = ui.min_rect().bottom();

                    input_port_heights.push((height_before + height_after) / 2.0);
                }
            }

            let outputs = self.graph[self.node_id].outputs.clone();
            for (param_name, param_id) in outputs {
                let height_before = ui.min_rect().bottom();
                responses.extend(
                    self.graph[self.node_id]
                        .user_data
                        .output_ui(ui, self.node_id, self.graph, user_state, &param_name)
                        .into_iter(),
                );

                self.graph[self.node_id].user_data.separator(
                    ui,
                    self.node_id,
                    AnyParameterId::Output(param_id),
                    self.graph,
                    user_state,
                );

                let height_after = ui.min_rect().bottom();
                output_port_heights.push((height_before + height_after) / 2.0);
            }

            responses.extend(self.graph[self.node_id].user_data.bottom_ui(
                ui,
                self.node_id,
                self.graph,
                user_state,
            ));
        });

        // Second pass, iterate again to draw the ports. This happens outside
        // the child_ui because we want ports to overflow the node background.

        let outer_rect = child_ui.min_rect().expand2(margin);
        let port_left = outer_rect.left();
        let port_right = outer_rect.right();

        // Save expanded rect to memory.
        ui.ctx().memory_mut(|mem| {
            mem.data
                .insert_temp(child_ui.scope_id(), OuterRectMemory(outer_rect))
        });

        fn port_height(wide_port: bool, connections: usize, max_connections: usize) -> f32 {
            let port_full = connections == max_connections;
            if wide_port {
                let hooks = connections + if port_full { 0 } else { 1 };

                5.0 + (10.0 * hooks as f32).max(10.0)
            } else {
                10.0
            }
        }

        #[allow(clippy::too_many_arguments)]
        fn draw_port<NodeData, DataType, ValueType, UserResponse, UserState>(
            pan_zoom: &PanZoom,
            ui: &mut Ui,
            graph: &Graph<NodeData, DataType, ValueType>,
            node_id: NodeId,
            user_state: &mut UserState,
            port_pos: Pos2,
            responses: &mut Vec<NodeResponse<UserResponse, NodeData>>,
            param_id: AnyParameterId,
            port_locations: &mut PortLocations,
            conn_locations: &mut ConnLocations,
            ongoing_drag: Option<(NodeId, AnyParameterId)>,
            wide_port: bool,
            connections: usize,
            max_connections: usize,
        ) where
            DataType: DataTypeTrait<UserState>,
            UserResponse: UserResponseTrait,
            NodeData: NodeDataTrait,
        {
            let port_type = graph.any_param_type(param_id).unwrap();

            let port_rect = Rect::from_center_size(
                port_pos,
                egui::vec2(10.0, port_height(wide_port, connections, max_connections))
                    * pan_zoom.zoom,
            );

            let port_full = connections == max_connections;

            let inner_ports = if wide_port {
                connections + if port_full { 0 } else { 1 }
            } else {
                1
            };

            port_locations.insert(
                param_id,
                (0..inner_ports)
                    .map(|k| {
                        port_rect.center_top()
                            + Vec2::new(0.0, 5.0 * pan_zoom.zoom)
                            + Vec2::new(0.0, 10.0 * pan_zoom.zoom) * k as f32
                    })
                    .collect(),
            );

            let sense = if ongoing_drag.is_some() {
                Sense::hover()
            } else {
                Sense::click_and_drag()
            };

            let resp = ui.allocate_rect(port_rect, sense);

            // Check if the distance between the port and the mouse is the distance to connect
            let close_enough = if let Some(pointer_pos) = pointer_in_layer(ui) {
                port_rect.center().distance(pointer_pos) < DISTANCE_TO_CONNECT * pan_zoom.zoom
            } else {
                false
            };

            let port_color = if close_enough {
                Color32::WHITE
            } else {
                port_type.data_type_color(user_state)
            };

            if wide_port {
                ui.painter()
                    .rect_filled(port_rect, 5.0 * pan_zoom.zoom, port_color);
            } else {
                ui.painter().circle(
                    port_rect.center(),
                    5.0 * pan_zoom.zoom,
                    port_color,
                    Stroke::NONE,
                );
            }

            if connections > 0 {
                if let AnyParameterId::Input(input) = param_id {
                    for (k, dst_pos) in port_locations[&AnyParameterId::Input(input)]
                        .iter()
                        .enumerate()
                    {
                        conn_locations.entry(input).or_default().insert(k, *dst_pos);
                    }
                }
            }

            let nearest_hook = pointer_in_layer(ui)
                .and_then(|mouse_pos| match param_id {
                    AnyParameterId::Input(input) => Some((mouse_pos, input)),
                    AnyParameterId::Output(_) => None,
                })
                .and_then(|(mouse_pos, input)| {
                    let hooks = 0..inner_ports;
                    hooks.min_by(|&hook1, &hook2| {
                        let out1_dist = conn_locations[&input][hook1].distance(mouse_pos);
                        let out2_dist = conn_locations[&input][hook2].distance(mouse_pos);

                        out1_dist.partial_cmp(&out2_dist).unwrap()
                    })
                });

            if resp.drag_started() {
                match param_id {
                    AnyParameterId::Input(input) => {
                        match nearest_hook
                            .and_then(|hook| graph.connections(input).get(hook).copied())
                        {
                            Some(output) => {
                                responses.push(NodeResponse::DisconnectEvent { input, output });
                            }
                            None => {
                                responses
                                    .push(NodeResponse::ConnectEventStarted(node_id, param_id));
                            }
                        }
                    }
                    AnyParameterId::Output(_) => {
                        responses.push(NodeResponse::ConnectEventStarted(node_id, param_id));
                    }
                }
            }

            if let Some((origin_node, origin_param)) = ongoing_drag {
                if origin_node != node_id {
                    // Don't allow self-loops
                    if graph.any_param_type(origin_param).unwrap() == port_type && close_enough {
                        match (param_id, origin_param) {
                            (AnyParameterId::Input(input), AnyParameterId::Output(output))
                            | (AnyParameterId::Output(output), AnyParameterId::Input(input)) => {
                                let input_hook =
                                    nearest_hook.unwrap_or(graph.connections(input).len());

                                if ui.input(|i| i.pointer.any_released()) {
                                    responses.push(NodeResponse::ConnectEventEnded {
                                        output,
                                        input,
                                        input_hook,
                                    });
                                } else if wide_port && !port_full {
                                    // move connections below the in-progress one to a lower position
                                    for k in input_hook..graph.connections(input).len() {
                                        conn_locations.get_mut(&input).unwrap()[k].y += 7.5;
                                    }
                                }
                            }
                            _ => { /* Ignore in-in or out-out connections */ }
                        }
                    } else if close_enough && ui.input(|i| i.pointer.any_released()) {
                        // PlanetGraph fork: report a drop on a port of another type.
                        responses.push(NodeResponse::ConnectRefused { from: origin_param, to: param_id });
                    }
                }
            }
        }

        // Input ports
        for ((_, param), port_height) in self.graph[self.node_id]
            .inputs
            .iter()
            .zip(input_port_heights.into_iter())
        {
            let should_draw = match self.graph[*param].kind() {
                InputParamKind::ConnectionOnly => true,
                InputParamKind::ConstantOnly => false,
                InputParamKind::ConnectionOrConstant => true,
            };

            if should_draw {
                let pos_left = pos2(port_left, port_height);
                let max_connections = self.graph[*param]
                    .max_connections
                    .map(NonZeroU32::get)
                    .unwrap_or(std::u32::MAX) as usize;
                draw_port(
                    pan_zoom,
                    ui,
                    self.graph,
                    self.node_id,
                    user_state,
                    pos_left,
                    &mut responses,
                    AnyParameterId::Input(*param),
                    self.port_locations,
                    self.conn_locations,
                    self.ongoing_drag,
                    max_connections > 1,
                    self.graph.connections(*param).len(),
                    max_connections,
                );
            }
        }

        // Output ports
        for ((_, param), port_height) in self.graph[self.node_id]
            .outputs
            .iter()
            .zip(output_port_heights.into_iter())
        {
            let pos_right = pos2(port_right, port_height);
            draw_port(
                pan_zoom,
                ui,
                self.graph,
                self.node_id,
                user_state,
                pos_right,
                &mut responses,
                AnyParameterId::Output(*param),
                self.port_locations,
                self.conn_locations,
                self.ongoing_drag,
                false,
                0,
                1,
            );
        }

        // Draw the background shape.
        // NOTE: This code is a bit more involved than it needs to be because egui
        // does not support drawing rectangles with asymmetrical round corners.

        let (shape, outline) = {
            let rounding_radius = 4.0 * pan_zoom.zoom;
            let rounding = CornerRadius::same(rounding_radius.round().clamp(0.0, 255.0) as u8);

            let titlebar_height = title_height + margin.y;
            let titlebar_rect =
                Rect::from_min_size(outer_rect.min, vec2(outer_rect.width(), titlebar_height));
            let titlebar = Shape::Rect(RectShape::filled(titlebar_rect, rounding, self.graph[self.node_id]
                    .user_data
                    .titlebar_color(ui, self.node_id, self.graph, user_state)
                    .unwrap_or_else(|| background_color.lighten(0.8))));

            let body_rect = Rect::from_min_size(
                outer_rect.min + vec2(0.0, titlebar_height - rounding_radius),
                vec2(outer_rect.width(), outer_rect.height() - titlebar_height),
            );
            let body = Shape::Rect(RectShape::filled(body_rect, CornerRadius::ZERO, background_color));

            let bottom_body_rect = Rect::from_min_size(
                body_rect.min + vec2(0.0, body_rect.height() - titlebar_height * 0.5),
                vec2(outer_rect.width(), titlebar_height),
            );
            let bottom_body = Shape::Rect(RectShape::filled(bottom_body_rect, rounding, background_color));

            let node_rect = titlebar_rect.union(body_rect).union(bottom_body_rect);
            let outline = if self.selected {
                Shape::Rect(RectShape::filled(node_rect.expand(1.0 * pan_zoom.zoom), rounding, Color32::WHITE.lighten(0.8)))
            } else {
                Shape::Noop
            };

            // Take note of the node rect, so the editor can use it later to compute intersections.
            self.node_rects.insert(self.node_id, node_rect);

            (Shape::Vec(vec![titlebar, body, bottom_body]), outline)
        };

        ui.painter().set(background_shape, shape);
        ui.painter().set(outline_shape, outline);

        // --- Interaction ---

        // Titlebar buttons
        let can_delete = self.graph.nodes[self.node_id].user_data.can_delete(
            self.node_id,
            self.graph,
            user_state,
        );

        if can_delete && Self::close_button(pan_zoom, ui, outer_rect).clicked() {
            responses.push(NodeResponse::DeleteNodeUi(self.node_id));
        };

        // Movement
        let drag_delta = window_response.drag_delta();
        if drag_delta.length_sq() > 0.0 {
            responses.push(NodeResponse::MoveNode {
                node: self.node_id,
                drag_delta,
            });
            responses.push(NodeResponse::RaiseNode(self.node_id));
        }

        // The node's menu on a right click (PlanetGraph fork).
        if self.graph[self.node_id].user_data.has_context_menu() {
            let graph = &*self.graph;
            let node_id = self.node_id;
            window_response.context_menu(|ui| {
                responses.extend(graph[node_id].user_data.context_menu(ui, node_id, graph, user_state));
            });
        }

        // Node selection
        //
        // HACK: Only set the select response when no other response is active.
        // This prevents some issues.
        if responses.is_empty() && window_response.clicked_by(PointerButton::Primary) {
            responses.push(NodeResponse::SelectNode(self.node_id));
            responses.push(NodeResponse::RaiseNode(self.node_id));
        }

        responses
    }

    fn close_button(pan_zoom: &PanZoom, ui: &mut Ui, node_rect: Rect) -> Response {
        // Measurements
        let margin = 8.0 * pan_zoom.zoom;
        let size = 10.0 * pan_zoom.zoom;
        let stroke_width = 2.0;
        let offs = margin + size / 2.0;

        let position = pos2(node_rect.right() - offs, node_rect.top() + offs);
        let rect = Rect::from_center_size(position, vec2(size, size));
        let resp = ui.allocate_rect(rect, Sense::click());

        let dark_mode = ui.visuals().dark_mode;
        let color = if resp.clicked() {
            if dark_mode {
                color_from_hex("#ffffff").unwrap()
            } else {
                color_from_hex("#000000").unwrap()
            }
        } else if resp.hovered() {
            if dark_mode {
                color_from_hex("#dddddd").unwrap()
            } else {
                color_from_hex("#222222").unwrap()
            }
        } else {
            #[allow(clippy::collapsible_else_if)]
            if dark_mode {
                color_from_hex("#aaaaaa").unwrap()
            } else {
                color_from_hex("#555555").unwrap()
            }
        };
        let stroke = Stroke {
            width: stroke_width,
            color,
        };

        ui.painter()
            .line_segment([rect.left_top(), rect.right_bottom()], stroke);
        ui.painter()
            .line_segment([rect.right_top(), rect.left_bottom()], stroke);

        resp
    }
}
