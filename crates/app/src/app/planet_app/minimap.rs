//! The minimap: an overview of the whole canvas in a corner of it (frames, nodes in their
//! category colours, the visible part outlined), shown while part of the graph lies outside the
//! view. A click or drag on it centres the view there; zoom is kept. It sits in the bottom-right
//! corner unless nodes lie there and another corner is freer, and folds to a small tab: by the
//! user, or by itself while every place it could take has nodes under it (until the user opens it).

use super::frames::{colour_of, rect_of};
use super::PlanetApp;
use crate::editor::types::{category_colour, GROUP_COLOUR};
use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2};

/// Size of the minimap in screen points.
pub(super) const SIZE: Vec2 = Vec2::new(200.0, 130.0);
/// Space between the minimap and the canvas corner, in screen points.
pub(super) const INSET: f32 = 12.0;
/// Size of the folded minimap's tab in screen points.
const TAB: Vec2 = Vec2::new(64.0, 22.0);
/// The places the minimap may take, in order of preference: the corners, then the middles of
/// the edges.
const PLACES: [egui::Align2; 8] = [egui::Align2::RIGHT_BOTTOM, egui::Align2::LEFT_BOTTOM, egui::Align2::RIGHT_TOP, egui::Align2::LEFT_TOP, egui::Align2::CENTER_BOTTOM, egui::Align2::RIGHT_CENTER, egui::Align2::CENTER_TOP, egui::Align2::LEFT_CENTER];

/// Where the minimap sits and whether it is folded.
#[derive(Default)]
pub(super) struct MinimapPlace {
    /// The place on the canvas it sits in (an index into `PLACES`).
    pub corner: usize,
    /// Whether the user folded it to a tab (`Some(true)`) or opened it (`Some(false)`);
    /// `None`: folded while every place it could take has nodes under it.
    pub folded: Option<bool>,
}

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
    /// Whether it is folded to a tab (then `rect` is the tab's).
    pub folded: bool,
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
        let pz = &self.canvas.editor.pan_zoom;
        let view = pz.to_graph() * pz.clip_rect;
        let mut boxes: Vec<(Rect, Color32)> = self.doc.graph.frames.iter().map(|f| (rect_of(f), colour_of(f))).collect();
        let frames = boxes.len();
        boxes.extend(self.canvas.editor.node_rects.iter().filter_map(|(id, r)| {
            let data = &self.canvas.editor.graph.nodes.get(*id)?.user_data;
            Some((*r, data.node_kind().map_or(GROUP_COLOUR, |k| category_colour(k.meta().category))))
        }));
        if boxes.iter().all(|(r, _)| view.contains_rect(*r)) {
            return None;
        }
        let world = boxes.iter().map(|(r, _)| *r).fold(view, |a, b| a.union(b)).expand(40.0);
        let scale = (SIZE.x / world.width()).min(SIZE.y / world.height());
        let folded = self.minimap_is_folded();
        let rect = self.minimap_rect(self.canvas.minimap.corner, folded);
        Some(Minimap { rect, boxes, frames, view, world, scale, folded })
    }

    /// The minimap's rectangle on screen in place `corner` (an index into [`PLACES`]), open
    /// or folded to its tab.
    pub(super) fn minimap_rect(&self, corner: usize, folded: bool) -> Rect {
        let size = if folded { TAB } else { SIZE };
        PLACES[corner % PLACES.len()].align_size_within_rect(size, self.canvas.editor.pan_zoom.clip_rect.shrink(INSET))
    }

    /// Whether the minimap shows as its tab: as the user chose, else while nodes lie under every
    /// place it could take (it would cover some wherever it went).
    pub fn minimap_is_folded(&self) -> bool {
        self.canvas.minimap.folded.unwrap_or_else(|| (0..PLACES.len()).all(|c| self.covered(self.minimap_rect(c, false)) > 0.0))
    }

    /// How much of screen rectangle `r` the drawn nodes cover, in square screen points.
    fn covered(&self, r: Rect) -> f32 {
        let to_screen = self.canvas.editor.pan_zoom.to_screen();
        self.canvas.editor.node_rects.values().map(|n| (to_screen * *n).intersect(r)).filter(|i| i.is_positive()).map(|i| i.area()).sum()
    }

    /// Moves the minimap to the corner nodes cover least, when nodes lie under it where it is
    /// (so it stays put while it covers nothing, and never jumps for a tie).
    fn settle_minimap_corner(&mut self) {
        let folded = self.minimap_is_folded();
        let here = self.covered(self.minimap_rect(self.canvas.minimap.corner, folded));
        if here <= 0.0 {
            return;
        }
        let best = (0..PLACES.len()).map(|c| (c, self.covered(self.minimap_rect(c, folded)))).min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        if let Some((corner, _)) = best.filter(|&(_, cover)| cover < here) {
            self.canvas.minimap.corner = corner;
        }
    }

    /// Draws the minimap and moves the view when it is clicked or dragged.
    pub(super) fn minimap(&mut self, ctx: &egui::Context) {
        self.settle_minimap_corner();
        let Some(map) = self.minimap_layout() else { return };
        let mut target = None;
        let mut fold = None;
        if map.folded {
            egui::Area::new(egui::Id::unique("minimap")).fixed_pos(map.rect.min).order(egui::Order::Foreground).show(ctx, |ui| {
                if ui.add_sized(TAB, egui::Button::new("▸ Map")).on_hover_text("Show the minimap: the whole graph, the view outlined").clicked() {
                    fold = Some(false);
                }
            });
            if fold.is_some() {
                self.canvas.minimap.folded = fold;
            }
            return;
        }
        egui::Area::new(egui::Id::unique("minimap")).fixed_pos(map.rect.min).order(egui::Order::Foreground).show(ctx, |ui| {
            let (resp, painter) = ui.allocate_painter(SIZE, Sense::click_and_drag());
            painter.rect(map.rect, 4.0, Color32::from_black_alpha(190), Stroke::new(1.0, Color32::from_gray(90)), egui::StrokeKind::Inside);
            for (k, (r, c)) in map.boxes.iter().enumerate() {
                let fill = if k < map.frames { c.gamma_multiply(0.35) } else { *c };
                painter.rect_filled(map.to_screen_rect(*r), 0.0, fill);
            }
            painter.rect_stroke(map.to_screen_rect(map.view).intersect(map.rect), 0.0, Stroke::new(1.5, Color32::WHITE), egui::StrokeKind::Inside);
            let resp = resp.on_hover_text("The whole graph: click or drag to move the view there");
            // The fold button over the map's top-right corner (the later widget takes the click).
            let button = Rect::from_min_size(map.rect.right_top() + Vec2::new(-20.0, 2.0), Vec2::splat(18.0));
            if ui.put(button, egui::Button::new("–").frame(false)).on_hover_text("Fold the minimap to a tab").clicked() {
                fold = Some(true);
            } else if resp.clicked() || resp.dragged() {
                target = resp.interact_pointer_pos().map(|p| map.to_graph(p));
            }
        });
        if fold.is_some() {
            self.canvas.minimap.folded = fold;
        }
        if let Some(p) = target {
            self.centre_view_on(p);
            self.canvas.frame_pending = 0;
        }
    }

    /// Moves the view so that graph point `p` is at the canvas centre (zoom unchanged).
    pub fn centre_view_on(&mut self, p: Pos2) {
        let pz = &mut self.canvas.editor.pan_zoom;
        pz.pan = pz.clip_rect.center() - pz.clip_rect.min - p.to_vec2() * pz.zoom;
    }
}
