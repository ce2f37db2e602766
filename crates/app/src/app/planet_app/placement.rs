//! Where a new node lands: inside the visible canvas, clear of the minimap's corner and of
//! the other nodes (the finder opens at the pointer, which may be at an edge or over a node).

use super::PlanetApp;
use egui::{vec2, Pos2, Rect};

/// Space kept between a placed node and its neighbours, in graph points.
const GAP: f32 = 12.0;

impl PlanetApp {
    /// The size a node will have once drawn, estimated from its rows (it is drawn only in the
    /// next frame), in graph points.
    fn estimated_size(&self, node: egui_node_graph2::NodeId) -> egui::Vec2 {
        let n = &self.canvas.editor.graph[node];
        size_of_rows(n.inputs.len() + n.outputs.len())
    }

    /// Moves a newly created node into view, clear of the minimap's corner and of the other
    /// nodes, to the free place nearest to where it was put.
    pub(super) fn place_new_node(&mut self, node: egui_node_graph2::NodeId) {
        let Some(&start) = self.canvas.editor.node_positions.get(node) else { return };
        let pz = &self.canvas.editor.pan_zoom;
        let to_graph = pz.to_graph();
        let view = (to_graph * pz.clip_rect).shrink(GAP);
        let minimap = to_graph * self.minimap_rect(self.canvas.minimap.corner, self.minimap_is_folded()).expand(GAP);
        let size = self.estimated_size(node);
        let others: Vec<Rect> = self.canvas.editor.node_rects.iter().filter(|(id, _)| **id != node).map(|(_, r)| r.expand(GAP)).collect();
        let fits = |p: Pos2| {
            let r = Rect::from_min_size(p, size);
            !r.intersects(minimap) && others.iter().all(|o| !o.intersects(r))
        };
        let clamp = |p: Pos2| Pos2::new(p.x.clamp(view.left(), (view.right() - size.x).max(view.left())), p.y.clamp(view.top(), (view.bottom() - size.y).max(view.top())));
        let wanted = clamp(start);
        // The free place nearest to where the node was put, on a 16-point grid over the view;
        // when the view is full, the node stays where it was put.
        let step = 16.0;
        let (nx, ny) = (((view.width() - size.x) / step).max(0.0) as usize, ((view.height() - size.y) / step).max(0.0) as usize);
        let p = (0..=nx)
            .flat_map(|i| (0..=ny).map(move |j| Pos2::new(view.left() + i as f32 * step, view.top() + j as f32 * step)))
            .chain(std::iter::once(wanted))
            .filter(|p| fits(*p))
            .min_by(|a, b| a.distance_sq(wanted).total_cmp(&b.distance_sq(wanted)))
            .unwrap_or(wanted);
        self.canvas.editor.node_positions[node] = p;
    }
}

/// The size of a node of `rows` rows (ports and parameters) once drawn, estimated, in graph
/// points.
fn size_of_rows(rows: usize) -> egui::Vec2 {
    vec2(230.0, 40.0 + 24.0 * rows as f32)
}

/// The size a domain node will have once drawn (its ports and parameters), estimated.
fn estimated_domain_size(node: &planetgraph_core::graph::Node) -> egui::Vec2 {
    let k = node.kind;
    size_of_rows(k.meta().inputs.len() + k.meta().outputs.len() + k.params().len())
}

impl PlanetApp {
    /// Moves the nodes `ids` of `g` (just pasted or duplicated, not drawn yet) together, as
    /// one block, to the free place nearest to where they were put: clear of every node on the
    /// canvas (as drawn), so a paste or a duplicate never lands on top of the originals or of
    /// other nodes. Within a view's size around the wanted place; beyond, they stay put.
    pub(super) fn place_new_block(&self, g: &mut planetgraph_core::graph::Graph, ids: &[planetgraph_core::graph::NodeId]) {
        let block = ids
            .iter()
            .filter_map(|id| {
                let (x, y) = *g.layout.get(id)?;
                Some(Rect::from_min_size(Pos2::new(x, y), estimated_domain_size(g.node(*id)?)))
            })
            .reduce(|a, b| a.union(b));
        let Some(block) = block else { return };
        let others: Vec<Rect> = self.canvas.editor.node_rects.values().map(|r| r.expand(GAP)).collect();
        let fits = |d: egui::Vec2| others.iter().all(|o| !o.intersects(block.translate(d)));
        if fits(egui::Vec2::ZERO) {
            return;
        }
        let pz = &self.canvas.editor.pan_zoom;
        let view = pz.to_graph() * pz.clip_rect;
        let step = 16.0;
        let (rx, ry) = ((view.width() / step) as i32 + 1, (view.height() / step) as i32 + 1);
        let best = (-rx..=rx).flat_map(|i| (-ry..=ry).map(move |j| vec2(i as f32 * step, j as f32 * step))).filter(|d| fits(*d)).min_by(|a, b| a.length_sq().total_cmp(&b.length_sq()));
        if let Some(d) = best {
            for id in ids {
                if let Some(p) = g.layout.get_mut(id) {
                    *p = (p.0 + d.x, p.1 + d.y);
                }
            }
        }
    }
}
