//! The minimap: an overview of the whole canvas in its bottom-right corner (frames, nodes in
//! their category colours, the visible part outlined), shown while part of the graph lies
//! outside the view. A click or drag on it centres the view there; zoom is kept.

use super::PlanetApp;
use crate::editor::types::{category_colour, GROUP_COLOUR};
use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2};

/// Size of the minimap in screen points.
const SIZE: Vec2 = Vec2::new(200.0, 130.0);
/// Space between the minimap and the canvas corner, in screen points.
const INSET: f32 = 12.0;

impl PlanetApp {
    /// Graph-point rectangles and colours of the nodes drawn in the last frame.
    fn minimap_nodes(&self) -> Vec<(Rect, Color32)> {
        let g = &self.editor.graph;
        self.editor.node_rects.iter().filter_map(|(id, r)| {
            let data = &g.nodes.get(*id)?.user_data;
            Some((*r, data.node_kind().map_or(GROUP_COLOUR, |k| category_colour(k.meta().category))))
        }).collect()
    }

    /// Whether the minimap shows: some node or frame lies (partly) outside the view.
    pub fn minimap_shown(&self) -> bool {
        let view = self.editor.pan_zoom.to_graph() * self.editor.pan_zoom.clip_rect;
        self.minimap_nodes().into_iter().chain(self.minimap_frames()).any(|(r, _)| !view.contains_rect(r))
    }

    /// The minimap's rectangle on screen.
    pub fn minimap_rect(&self) -> Rect {
        let clip = self.editor.pan_zoom.clip_rect;
        Rect::from_min_size(clip.right_bottom() - SIZE - Vec2::splat(INSET), SIZE)
    }

    /// The frames as graph-point rectangles with their colours.
    fn minimap_frames(&self) -> Vec<(Rect, Color32)> {
        self.doc.graph.frames.iter().map(|f| (Rect::from_min_size(egui::pos2(f.rect.0, f.rect.1), egui::vec2(f.rect.2, f.rect.3)), Color32::from_rgb(f.colour[0], f.colour[1], f.colour[2]))).collect()
    }

    /// What the minimap covers (graph points, around the nodes, frames and view), its scale
    /// (screen points per graph point) and the offset that centres it.
    fn minimap_map(&self) -> Option<(Rect, f32, Vec2)> {
        let pz = &self.editor.pan_zoom;
        let view = pz.to_graph() * pz.clip_rect;
        let world = self.minimap_nodes().into_iter().chain(self.minimap_frames()).map(|(r, _)| r).chain([view]).reduce(|a, b| a.union(b))?.expand(40.0);
        let scale = (SIZE.x / world.width()).min(SIZE.y / world.height());
        Some((world, scale, (SIZE - world.size() * scale) * 0.5))
    }

    /// Where graph point `p` is drawn on the minimap (screen points).
    pub fn minimap_point(&self, p: Pos2) -> Option<Pos2> {
        let (world, scale, offset) = self.minimap_map()?;
        Some(self.minimap_rect().min + offset + (p - world.min) * scale)
    }

    /// Draws the minimap and moves the view when it is clicked or dragged.
    pub(super) fn minimap(&mut self, ctx: &egui::Context) {
        if !self.minimap_shown() {
            return;
        }
        let Some((world, scale, offset)) = self.minimap_map() else { return };
        let view = self.editor.pan_zoom.to_graph() * self.editor.pan_zoom.clip_rect;
        let (nodes, frames) = (self.minimap_nodes(), self.minimap_frames());
        let at = self.minimap_rect();
        let to_map = |p: Pos2| at.min + offset + (p - world.min) * scale;
        let to_graph = |p: Pos2| world.min + (p - at.min - offset) / scale;
        let mut target = None;
        egui::Area::new(egui::Id::new("minimap")).fixed_pos(at.min).order(egui::Order::Foreground).show(ctx, |ui| {
            let (resp, painter) = ui.allocate_painter(SIZE, Sense::click_and_drag());
            painter.rect(at, 4.0, Color32::from_black_alpha(190), Stroke::new(1.0, Color32::from_gray(90)));
            let map_rect = |r: Rect| Rect::from_min_max(to_map(r.min), to_map(r.max));
            for (r, c) in &frames {
                painter.rect_filled(map_rect(*r), 1.0, c.gamma_multiply(0.35));
            }
            for (r, c) in &nodes {
                painter.rect_filled(map_rect(*r), 0.0, *c);
            }
            painter.rect_stroke(map_rect(view).intersect(at), 0.0, Stroke::new(1.5, Color32::WHITE));
            let resp = resp.on_hover_text("The whole graph: click or drag to move the view there");
            if resp.clicked() || resp.dragged() {
                target = resp.interact_pointer_pos().map(to_graph);
            }
        });
        if let Some(p) = target {
            self.centre_view_on(p);
            self.frame_pending = 0;
        }
    }

    /// Moves the view so that graph point `p` is at the canvas centre (zoom unchanged).
    pub fn centre_view_on(&mut self, p: Pos2) {
        let pz = &mut self.editor.pan_zoom;
        pz.pan = pz.clip_rect.center() - pz.clip_rect.min - p.to_vec2() * pz.zoom;
    }
}
