//! The minimap: an overview of the whole canvas in its bottom-right corner (frames, nodes in
//! their category colours, the visible part outlined), shown while part of the graph lies
//! outside the view. A click or drag on it centres the view there; zoom is kept.

use super::frames::{colour_of, rect_of};
use super::PlanetApp;
use crate::editor::types::{category_colour, GROUP_COLOUR};
use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2};

/// Size of the minimap in screen points.
pub(super) const SIZE: Vec2 = Vec2::new(200.0, 130.0);
/// Space between the minimap and the canvas corner, in screen points.
pub(super) const INSET: f32 = 12.0;

/// What the minimap draws this frame, and how graph points map onto it.
pub struct Minimap {
    /// Its rectangle on screen.
    pub rect: Rect,
    /// Frames and nodes (graph points) with their colours, frames first.
    boxes: Vec<(Rect, Color32)>,
    /// How many of `boxes` are frames.
    frames: usize,
    /// The visible part of the canvas (graph points).
    view: Rect,
    /// The graph points it covers.
    world: Rect,
    /// Screen points per graph point.
    scale: f32,
}

impl Minimap {
    /// Where graph point `p` is drawn (screen points).
    pub fn to_screen(&self, p: Pos2) -> Pos2 {
        self.rect.center() + (p - self.world.center()) * self.scale
    }

    /// The graph point drawn at screen point `p`.
    pub fn to_graph(&self, p: Pos2) -> Pos2 {
        self.world.center() + (p - self.rect.center()) / self.scale
    }

    fn to_screen_rect(&self, r: Rect) -> Rect {
        Rect::from_min_max(self.to_screen(r.min), self.to_screen(r.max))
    }
}

impl PlanetApp {
    /// The minimap of the last frame's canvas: `None` while every node and frame is in view.
    pub fn minimap_layout(&self) -> Option<Minimap> {
        let pz = &self.editor.pan_zoom;
        let view = pz.to_graph() * pz.clip_rect;
        let mut boxes: Vec<(Rect, Color32)> = self.doc.graph.frames.iter().map(|f| (rect_of(f), colour_of(f))).collect();
        let frames = boxes.len();
        boxes.extend(self.editor.node_rects.iter().filter_map(|(id, r)| {
            let data = &self.editor.graph.nodes.get(*id)?.user_data;
            Some((*r, data.node_kind().map_or(GROUP_COLOUR, |k| category_colour(k.meta().category))))
        }));
        if boxes.iter().all(|(r, _)| view.contains_rect(*r)) {
            return None;
        }
        let world = boxes.iter().map(|(r, _)| *r).fold(view, |a, b| a.union(b)).expand(40.0);
        let scale = (SIZE.x / world.width()).min(SIZE.y / world.height());
        let rect = Rect::from_min_size(pz.clip_rect.right_bottom() - SIZE - Vec2::splat(INSET), SIZE);
        Some(Minimap { rect, boxes, frames, view, world, scale })
    }

    /// Draws the minimap and moves the view when it is clicked or dragged.
    pub(super) fn minimap(&mut self, ctx: &egui::Context) {
        let Some(map) = self.minimap_layout() else { return };
        let mut target = None;
        egui::Area::new(egui::Id::unique("minimap")).fixed_pos(map.rect.min).order(egui::Order::Foreground).show(ctx, |ui| {
            let (resp, painter) = ui.allocate_painter(SIZE, Sense::click_and_drag());
            painter.rect(map.rect, 4.0, Color32::from_black_alpha(190), Stroke::new(1.0, Color32::from_gray(90)), egui::StrokeKind::Inside);
            for (k, (r, c)) in map.boxes.iter().enumerate() {
                let fill = if k < map.frames { c.gamma_multiply(0.35) } else { *c };
                painter.rect_filled(map.to_screen_rect(*r), 0.0, fill);
            }
            painter.rect_stroke(map.to_screen_rect(map.view).intersect(map.rect), 0.0, Stroke::new(1.5, Color32::WHITE), egui::StrokeKind::Inside);
            let resp = resp.on_hover_text("The whole graph: click or drag to move the view there");
            if resp.clicked() || resp.dragged() {
                target = resp.interact_pointer_pos().map(|p| map.to_graph(p));
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
