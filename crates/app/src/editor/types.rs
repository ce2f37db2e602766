//! The egui_node_graph2 types of PlanetGraph and their trait implementations.

pub use super::colours::{category_colour, GROUP_COLOUR};
pub use super::widgets::port_label;
use super::widgets::{param_widget, preset_menu};
use egui_node_graph2::{DataTypeTrait, Graph, GraphEditorState, NodeDataTrait, NodeId, NodeResponse, NodeTemplateIter, NodeTemplateTrait, UserResponseTrait, WidgetValueTrait};
use planetgraph_core::graph::NodeId as DomainId;
use planetgraph_core::nodes::{Category, NodeKind, ParamDef, ParamValue, PortType};
use std::borrow::Cow;
use std::collections::HashMap;

/// Port and parameter types in the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdType {
    /// A link port carrying a domain value of this type.
    Port(PortType),
    /// An inline parameter (never linked).
    Param,
}

/// The value stored on an editor input: a parameter value, or nothing for link ports.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EdValue(pub Option<ParamValue>);

/// What an editor node stands for.
#[derive(Debug, Clone, PartialEq)]
pub enum EdKind {
    /// A node of the graph.
    Node(NodeKind),
    /// A closed group: the part of the graph it holds (its nodes, the links among them, their
    /// layout and the group itself, see [`planetgraph_core::graph::part::subgraph`]).
    Group(Box<planetgraph_core::graph::Graph>),
}

/// Per-node data: the domain id and kind, and the node's name, bypass and collapse state.
#[derive(Debug, Clone, PartialEq)]
pub struct EdNode {
    /// Stable id of the node (or group) in the saved graph.
    pub id: DomainId,
    /// What it stands for.
    pub kind: EdKind,
    /// The user's name for the node.
    pub label: Option<String>,
    /// Whether the node is bypassed.
    pub bypass: bool,
    /// Whether the node is drawn collapsed to its title bar.
    pub collapsed: bool,
    /// Whether a thumbnail of its output is drawn on it (`None`: the kind's default).
    pub thumbnail: Option<bool>,
}

impl EdNode {
    /// The node kind (`None` for a group).
    pub fn node_kind(&self) -> Option<NodeKind> {
        match self.kind {
            EdKind::Node(k) => Some(k),
            EdKind::Group(_) => None,
        }
    }

    /// The group this editor node shows (`None` for a node).
    pub fn group(&self) -> Option<&planetgraph_core::graph::Group> {
        match &self.kind {
            EdKind::Node(_) => None,
            EdKind::Group(body) => body.groups.first(),
        }
    }

    /// Whether the viewport shows this node's output (for a group, a node inside it).
    pub fn is_viewed(&self, state: &EdState) -> bool {
        state.viewed.is_some_and(|v| v == self.id || self.group().is_some_and(|g| g.contains(v)))
    }

    /// The definition behind parameter input `name`, and the label to show: the kind's own,
    /// or for a group the member parameter it stands for under the group's name for it.
    pub fn param_def(&self, name: &str) -> Option<(ParamDef, String)> {
        match &self.kind {
            EdKind::Node(k) => k.param(name).map(|d| (d, d.label.to_string())),
            EdKind::Group(body) => {
                let p = body.groups.first()?.params.iter().find(|p| p.name == name)?;
                body.node(p.node)?.kind.param(&p.param).map(|d| (d, p.name.clone()))
            }
        }
    }

    /// Whether input port `name` may stay unconnected (`None` for a group's ports and unknown
    /// names).
    pub fn input_optional(&self, name: &str) -> Option<bool> {
        let kind = self.node_kind()?;
        kind.meta().inputs.iter().find(|p| p.name == name).map(|p| p.optional || kind.meta().needs_one_input)
    }
}

/// A finder entry: a node kind, or a group from the user's library.
#[derive(Debug, Clone, PartialEq)]
pub enum EdTemplate {
    /// A node of this kind.
    Kind(NodeKind),
    /// A copy of a library group.
    Group(std::sync::Arc<planetgraph_core::graph::Graph>),
    /// A ready-made group shipped with PlanetGraph (*Planet surface*), listed under its
    /// category.
    Ready(std::sync::Arc<planetgraph_core::graph::Graph>),
}

/// What a step-mode button on a Tectonic plates node asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepAction {
    /// Back to the seed regions (step mode, cycle 0).
    Reset,
    /// One more growth cycle.
    Step,
    /// Keep stepping until the plates are complete.
    Play,
    /// Stop playing.
    Pause,
    /// Leave step mode: grow to completion.
    Finish,
}

/// An action from a node's right-click menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeAction {
    /// Show (or stop showing) the node's output in the viewport.
    View,
    /// Duplicate the node (or the selection it belongs to).
    Duplicate,
    /// Copy the node (or the selection it belongs to) to the clipboard.
    Copy,
    /// Delete the node (or the selection it belongs to).
    Delete,
    /// Give the node a name of its own.
    Rename,
    /// Bypass (mute) the node, or bring it back.
    Bypass,
    /// Collapse the node to its title bar, or expand it.
    Collapse,
    /// Draw a thumbnail of the node's output on it, or stop.
    Thumbnail,
    /// Make a group of the selection.
    Group,
    /// Open a group to edit its nodes in place, or close the open group a node belongs to.
    OpenClose,
    /// Choose a group's name and shown parameters.
    EditGroup,
    /// Dissolve a group into its nodes.
    Ungroup,
    /// Save a group to the user's library (it then appears in the finder).
    SaveGroup,
}

/// Editor responses beyond the library's own (other edits are found by diffing).
#[derive(Debug, Clone, PartialEq)]
pub enum EdResponse {
    /// A step-mode button of a Tectonic plates node.
    PlateStep(DomainId, StepAction),
    /// A consumer preset chosen on an Export node.
    ExportPreset(DomainId, planetgraph_core::export::presets::Preset),
    /// A preset chosen on a Hydraulic erosion node.
    ErosionPreset(DomainId, planetgraph_core::nodes::erosion::hydraulic::HydraulicPreset),
    /// An action from a node's right-click menu.
    Node(DomainId, NodeAction),
    /// A typed value was outside its parameter's range and was clamped (the sentence says to
    /// what).
    Clamped(DomainId, String),
}

/// The growth state of a Tectonic plates node's last result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlateStatus {
    /// Growth cycles run.
    pub cycles: usize,
    /// Regions with a plate.
    pub claimed: usize,
    /// All regions.
    pub total: usize,
    /// Whether every region has a plate.
    pub complete: bool,
}

impl UserResponseTrait for EdResponse {}

/// What the editor shows besides the graph: per-node errors, previews and timings.
#[derive(Default)]
pub struct EdState {
    /// Error message per node.
    pub errors: HashMap<DomainId, String>,
    /// Nodes waiting for an input to be connected (not an error), with a hint.
    pub idle: HashMap<DomainId, String>,
    /// The node whose output the viewport shows instead of the planet's colouring.
    pub viewed: Option<DomainId>,
    /// Preview pictures per Preview node, and thumbnails of the nodes that show one.
    pub previews: HashMap<DomainId, egui::TextureHandle>,
    /// The value range of each field thumbnail (its lowest and highest value).
    pub thumbnail_ranges: HashMap<DomainId, (f32, f32)>,
    /// Whether the thumbnails are from before the last change (drawn dimmed until it lands).
    pub previews_stale: bool,
    /// Milliseconds of the last computation per node.
    pub timings: HashMap<DomainId, f64>,
    /// Selected nodes (drawn with a brighter title bar).
    pub selected: Vec<DomainId>,
    /// Growth state per Tectonic plates node.
    pub plates: HashMap<DomainId, PlateStatus>,
    /// The Tectonic plates node whose growth is playing.
    pub playing: Option<DomainId>,
    /// Nodes that belong to an open group (their menu offers to close it).
    pub open_groups: Vec<DomainId>,
    /// The graph file's folder: file parameters' dialogs answer relative to it.
    pub folder: Option<std::path::PathBuf>,
}

/// The library's editor state with PlanetGraph's types.
pub type EditorState = GraphEditorState<EdNode, EdType, EdValue, EdTemplate, EdState>;
/// The library's graph with PlanetGraph's types.
pub type EdGraph = Graph<EdNode, EdType, EdValue>;

impl DataTypeTrait<EdState> for EdType {
    fn data_type_color(&self, _: &mut EdState) -> egui::Color32 {
        match self {
            EdType::Port(PortType::Field) => egui::Color32::from_rgb(110, 190, 120),
            EdType::Port(PortType::Vector) => egui::Color32::from_rgb(220, 170, 70),
            EdType::Port(PortType::Regions) => egui::Color32::from_rgb(90, 170, 220),
            EdType::Port(PortType::Plates) => egui::Color32::from_rgb(200, 110, 200),
            EdType::Port(PortType::Colour) => egui::Color32::from_rgb(240, 120, 150),
            EdType::Param => egui::Color32::GRAY,
        }
    }

    fn name(&self) -> Cow<'_, str> {
        match self {
            EdType::Port(p) => Cow::Borrowed(p.name()),
            EdType::Param => Cow::Borrowed("parameter"),
        }
    }
}

/// All templates, for the finder: every node kind, then the groups of the user's library.
pub struct AllKinds<'a>(pub &'a [EdTemplate]);

/// The finder's category of the user's library groups.
pub const LIBRARY_CATEGORY: &str = "My groups";

/// What the finder says of the *Planet surface* group.
const READY_DESCRIPTION: &str = "Texturing in one step: the default planet's climate, biomes and materials (To metres, Slope, Distance to coast, Temperature, Precipitation, Biomes, Materials) as one group. Wire the elevation (-1..1, as the Planet node takes it) into 'in' and 'albedo' into the Planet's albedo; Tab opens it to change any setting.";

impl NodeTemplateIter for AllKinds<'_> {
    type Item = EdTemplate;
    fn all_kinds(&self) -> Vec<EdTemplate> {
        NodeKind::ALL.iter().map(|&k| EdTemplate::Kind(k)).chain(self.0.iter().cloned()).collect()
    }
}

impl EdTemplate {
    fn label(&self) -> &str {
        match self {
            EdTemplate::Kind(k) => k.meta().label,
            EdTemplate::Group(body) | EdTemplate::Ready(body) => body.groups.first().map_or("Group", |g| g.label.as_str()),
        }
    }
}

impl NodeTemplateTrait for EdTemplate {
    type NodeData = EdNode;
    type DataType = EdType;
    type ValueType = EdValue;
    type UserState = EdState;
    type CategoryType = &'static str;

    fn node_finder_label(&self, _: &mut EdState) -> Cow<'_, str> {
        Cow::Borrowed(self.label())
    }

    fn node_finder_description(&self, _: &mut EdState) -> Option<String> {
        match self {
            EdTemplate::Kind(k) => Some(k.meta().description.to_string()),
            EdTemplate::Group(body) => Some(format!("A saved group of {} nodes from your library", body.nodes.len())),
            EdTemplate::Ready(_) => Some(READY_DESCRIPTION.to_string()),
        }
    }

    fn node_finder_categories(&self, _: &mut EdState) -> Vec<&'static str> {
        match self {
            EdTemplate::Kind(k) => vec![k.meta().category.name()],
            EdTemplate::Group(_) => vec![LIBRARY_CATEGORY],
            EdTemplate::Ready(_) => vec![Category::Texture.name()],
        }
    }

    fn node_graph_label(&self, _: &mut EdState) -> String {
        self.label().to_string()
    }

    fn user_data(&self, _: &mut EdState) -> EdNode {
        // The ids are assigned when the node is added (see `bridge::assign_new_ids`).
        let kind = match self {
            EdTemplate::Kind(k) => EdKind::Node(*k),
            EdTemplate::Group(body) | EdTemplate::Ready(body) => EdKind::Group(Box::new(body.as_ref().clone())),
        };
        EdNode { id: DomainId(0), kind, label: None, bypass: false, collapsed: false, thumbnail: None }
    }

    fn build_node(&self, graph: &mut EdGraph, _: &mut EdState, node_id: NodeId) {
        match self {
            EdTemplate::Kind(k) => super::bridge::add_ports(graph, node_id, *k, None),
            EdTemplate::Group(body) | EdTemplate::Ready(body) => super::group::add_group_ports(graph, node_id, body),
        }
    }
}

impl WidgetValueTrait for EdValue {
    type Response = EdResponse;
    type UserState = EdState;
    type NodeData = EdNode;

    fn value_widget(&mut self, param_name: &str, _node_id: NodeId, ui: &mut egui::Ui, state: &mut EdState, node: &EdNode) -> Vec<EdResponse> {
        match (&mut self.0, node.param_def(param_name)) {
            (Some(value), Some((def, label))) => {
                if let Some(note) = param_widget(ui, &def, &label, value, node.id, state.folder.as_deref()) {
                    return vec![EdResponse::Clamped(node.id, note)];
                }
            }
            _ => {
                let (text, tip) = port_label(param_name, node.input_optional(param_name));
                let r = ui.label(text);
                if let Some(tip) = tip {
                    r.on_hover_text(tip);
                }
            }
        }
        Vec::new()
    }

    fn value_widget_connected(&mut self, param_name: &str, _: NodeId, ui: &mut egui::Ui, _: &mut EdState, _: &EdNode) -> Vec<EdResponse> {
        ui.label(super::widgets::port_words(param_name));
        Vec::new()
    }
}

impl NodeDataTrait for EdNode {
    type Response = EdResponse;
    type UserState = EdState;
    type DataType = EdType;
    type ValueType = EdValue;

    fn collapsed(&self) -> bool {
        self.collapsed
    }

    fn output_ui(&self, ui: &mut egui::Ui, _: NodeId, _: &egui_node_graph2::Graph<Self, EdType, EdValue>, _: &mut EdState, param_name: &str) -> Vec<egui_node_graph2::NodeResponse<EdResponse, Self>> {
        ui.label(super::widgets::port_words(param_name));
        Vec::new()
    }

    fn title_tooltip(&self) -> Option<String> {
        match &self.kind {
            EdKind::Node(k) => Some(format!("{} ({} {})\n\n{}", k.meta().label, k.meta().category.name(), self.id, k.meta().description)),
            EdKind::Group(body) => Some(format!("Group {} of {} nodes", self.id, body.nodes.len())),
        }
    }

    fn top_bar_ui(&self, ui: &mut egui::Ui, _node_id: NodeId, _graph: &EdGraph, _state: &mut EdState) -> Vec<NodeResponse<EdResponse, EdNode>> {
        if let Some(g) = self.group() {
            let tip = format!("A group of {} nodes: open it to edit them in place (Tab)", g.members.len());
            if ui.small_button("⊞").on_hover_text(tip).clicked() {
                return vec![NodeResponse::User(EdResponse::Node(self.id, NodeAction::OpenClose))];
            }
            return Vec::new();
        }
        let tip = if self.collapsed { "Expand the node (H)" } else { "Collapse the node to its title bar (H)" };
        let size = ui.spacing().icon_width;
        let (_, response) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::click());
        // The same triangle as egui's collapsing headers: right when collapsed, down when open.
        egui::collapsing_header::paint_default_icon(ui, if self.collapsed { 0.0 } else { 1.0 }, &response);
        if response.on_hover_text(tip).clicked() {
            return vec![NodeResponse::User(EdResponse::Node(self.id, NodeAction::Collapse))];
        }
        Vec::new()
    }

    fn bottom_ui(&self, ui: &mut egui::Ui, _node_id: NodeId, _graph: &EdGraph, state: &mut EdState) -> Vec<NodeResponse<EdResponse, EdNode>> {
        let mut responses = Vec::new();
        if self.node_kind() == Some(NodeKind::TectonicPlates) {
            let playing = state.playing == Some(self.id);
            ui.horizontal(|ui| {
                let mut act = |a: StepAction| responses.push(NodeResponse::User(EdResponse::PlateStep(self.id, a)));
                if ui.small_button("⏮ Reset").on_hover_text("Step mode from the seed regions (cycle 0)").clicked() {
                    act(StepAction::Reset);
                }
                if ui.small_button("Step").on_hover_text("One more growth cycle").clicked() {
                    act(StepAction::Step);
                }
                if playing {
                    if ui.small_button("⏸ Pause").on_hover_text("Stop the animation").clicked() {
                        act(StepAction::Pause);
                    }
                } else if ui.small_button("▶ Play").on_hover_text("Animate the flood fill in the viewport (choose the Plates colouring there)").clicked() {
                    act(StepAction::Play);
                }
                if ui.small_button("Finish").on_hover_text("Leave step mode: grow until every region has a plate").clicked() {
                    act(StepAction::Finish);
                }
            });
            if let Some(st) = state.plates.get(&self.id) {
                let text = if st.complete { format!("complete after {} cycles", st.cycles) } else { format!("cycle {}: {} of {} regions", st.cycles, st.claimed, st.total) };
                ui.label(egui::RichText::new(text).small());
            }
        }
        if self.node_kind() == Some(NodeKind::Export) {
            use planetgraph_core::export::presets::Preset;
            let entries = Preset::ALL.map(|p| (p.label(), None));
            if let Some(k) = preset_menu(ui, self.id, &entries, "Set this node's options for an engine or tool in one click (undoable); the file name stays") {
                responses.push(NodeResponse::User(EdResponse::ExportPreset(self.id, Preset::ALL[k])));
            }
        }
        if self.node_kind() == Some(NodeKind::HydraulicErosion) {
            use planetgraph_core::nodes::erosion::hydraulic::HydraulicPreset;
            let entries = HydraulicPreset::ALL.map(|p| (p.label(), Some(p.description())));
            if let Some(k) = preset_menu(ui, self.id, &entries, "Set how much and how the water carves in one click (undoable): rain, capacity, dissolving, deposition, evaporation, time and creep") {
                responses.push(NodeResponse::User(EdResponse::ErosionPreset(self.id, HydraulicPreset::ALL[k])));
            }
        }
        super::thumbnails::picture(ui, state, self.id, self.node_kind());
        if self.bypass {
            ui.label(egui::RichText::new("bypassed: passes its input on").small().color(egui::Color32::from_rgb(230, 190, 120)));
        }
        if self.is_viewed(state) {
            ui.label(egui::RichText::new("👁 shown in the viewport").small().color(egui::Color32::from_rgb(150, 200, 255)));
        }
        if let Some(err) = state.errors.get(&self.id) {
            ui.add(egui::Label::new(egui::RichText::new(format!("⚠ {err}")).color(egui::Color32::from_rgb(255, 120, 110)).small()).wrap());
        } else if let Some(hint) = state.idle.get(&self.id) {
            ui.add(egui::Label::new(egui::RichText::new(format!("idle: {hint}")).small().weak()).wrap());
        } else if let Some(ms) = state.timings.get(&self.id) {
            ui.label(egui::RichText::new(format!("{ms:.1} ms")).small().weak());
        }
        responses
    }

    fn has_context_menu(&self) -> bool {
        true
    }

    fn context_menu(&self, ui: &mut egui::Ui, _node_id: NodeId, _graph: &EdGraph, state: &mut EdState) -> Vec<NodeResponse<EdResponse, EdNode>> {
        let mut out = Vec::new();
        let mut item = |ui: &mut egui::Ui, text: &str, key: &str, action: NodeAction| {
            if ui.add(egui::Button::new(text).shortcut_text(key)).clicked() {
                out.push(NodeResponse::User(EdResponse::Node(self.id, action)));
                ui.close();
            }
        };
        let viewing = self.is_viewed(state);
        item(ui, if viewing { "Show the planet in the viewport" } else { "Show in viewport" }, "V", NodeAction::View);
        ui.separator();
        item(ui, "Rename…", "F2", NodeAction::Rename);
        match self.node_kind() {
            Some(kind) => {
                if !kind.meta().category.is_sink() {
                    item(ui, if self.bypass { "Un-bypass" } else { "Bypass" }, "M", NodeAction::Bypass);
                }
                item(ui, if self.collapsed { "Expand" } else { "Collapse" }, "H", NodeAction::Collapse);
                if !matches!(self.node_kind(), Some(NodeKind::Preview | NodeKind::ColourPreview)) {
                    item(ui, if state.previews.contains_key(&self.id) { "Hide thumbnail" } else { "Show thumbnail" }, "", NodeAction::Thumbnail);
                }
                if state.open_groups.contains(&self.id) {
                    item(ui, "Close its group", "Tab", NodeAction::OpenClose);
                } else {
                    item(ui, "Group the selection", "Ctrl+G", NodeAction::Group);
                }
            }
            None => {
                item(ui, "Open the group", "Tab", NodeAction::OpenClose);
                item(ui, "Group settings…", "", NodeAction::EditGroup);
                item(ui, "Ungroup", "Ctrl+Shift+G", NodeAction::Ungroup);
                item(ui, "Save to my groups…", "", NodeAction::SaveGroup);
            }
        }
        item(ui, "Duplicate", "Ctrl+D", NodeAction::Duplicate);
        item(ui, "Copy", "Ctrl+C", NodeAction::Copy);
        item(ui, "Delete", "Del", NodeAction::Delete);
        out
    }

    fn titlebar_color(&self, _ui: &egui::Ui, _node_id: NodeId, _graph: &EdGraph, state: &mut EdState) -> Option<egui::Color32> {
        let base = if state.errors.contains_key(&self.id) {
            egui::Color32::from_rgb(140, 40, 40)
        } else if state.idle.contains_key(&self.id) {
            egui::Color32::from_gray(78)
        } else {
            self.node_kind().map_or(GROUP_COLOUR, |k| category_colour(k.meta().category))
        };
        let base = if self.bypass { base.gamma_multiply(0.45) } else { base };
        if state.selected.contains(&self.id) {
            Some(base.lerp_to_gamma(egui::Color32::WHITE, 0.35))
        } else {
            Some(base)
        }
    }
}
