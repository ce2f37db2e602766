//! The pictures drawn on nodes: a Preview node's picture, and the thumbnail of any node's
//! output where it shows one (with its value range), from the preview evaluation.

use super::types::EdState;
use planetgraph_core::graph::NodeId as DomainId;
use planetgraph_core::nodes::NodeKind;

/// Draws node `id`'s picture, if it has one, with its value range under a field's thumbnail.
pub fn picture(ui: &mut egui::Ui, state: &EdState, id: DomainId, kind: Option<NodeKind>) {
    if let Some(tex) = state.previews.get(&id) {
        let size = tex.size_vec2();
        // A Preview node's picture is the point of the node; other nodes' thumbnails are smaller.
        let preview = matches!(kind, Some(NodeKind::Preview | NodeKind::ColourPreview));
        let w = if preview { 170.0f32.min(size.x * 2.0) } else { 130.0f32.min(size.x * 2.0) };
        let tint = if state.previews_stale { egui::Color32::from_gray(110) } else { egui::Color32::WHITE };
        ui.add(egui::Image::new((tex.id(), egui::vec2(w, w * size.y / size.x))).corner_radius(3.0).tint(tint)).on_hover_text(if state.previews_stale { "From before the last change: updating" } else { "The node's output at the preview resolution" });
        if let Some(&(lo, hi)) = state.thumbnail_ranges.get(&id) {
            let unit = match kind.and_then(|k| k.meta().outputs.first()).map(|p| p.unit) {
                Some(planetgraph_core::nodes::PortUnit::Of(u)) => u.symbol(),
                _ => "",
            };
            ui.label(egui::RichText::new(format!("{} to {}{}", short_number(lo), short_number(hi), if unit.is_empty() { String::new() } else { format!(" {unit}") })).small().weak())
                .on_hover_text("The lowest and highest value of the output; the picture runs from black to white over the middle 98 % of its values");
        }
    }
}

/// `x` to three significant digits, as a thumbnail's range shows it (`1234`, `5.50`, `0.0123`).
pub fn short_number(x: f32) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.digits$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_show_three_significant_digits() {
        assert_eq!(short_number(1234.5), "1234");
        assert_eq!(short_number(-5.5), "-5.50");
        assert_eq!(short_number(0.012345), "0.0123");
        assert_eq!(short_number(0.0), "0");
    }
}
