//! Inline parameter widgets: sliders with ranges and units, seeds with a randomize button,
//! choices, the curve editor and the matrix editor. Every widget carries the tooltip.

use egui::{pos2, vec2, Color32, Sense, Stroke};
use planetgraph_core::graph::NodeId;
use planetgraph_core::nodes::{ParamDef, ParamSpec, ParamValue};

/// A number as typed: spaces, underscores and thin spaces between digit groups are allowed
/// ("1 000 000").
fn parse_typed(text: &str) -> Option<f64> {
    let t: String = text.chars().filter(|c| !matches!(c, ' ' | '_' | '\u{2009}' | '\u{202f}')).collect();
    t.parse::<f64>().ok()
}

/// `x` as a person would write it: whole numbers without decimals, reals in the shortest
/// form that reads back as the same `f32` (parameters are `f32`: 0.01, not
/// 0.009999999776482582).
pub fn shortest(x: f64, integral: bool) -> String {
    if integral {
        format!("{}", x.round() as i64)
    } else {
        format!("{}", x as f32)
    }
}

/// A number widget with a range. A value the file holds outside the range is shown as it is
/// (the node reports it); a typed value outside is clamped, and the returned sentence says to
/// what.
// The value, its range, drag speed, unit suffix, label and tooltip: one argument per part of the widget.
#[allow(clippy::too_many_arguments)]
fn ranged_number<N: egui::emath::Numeric>(ui: &mut egui::Ui, v: &mut N, min: N, max: N, speed: f64, suffix: String, label: &str, tip: &str) -> Option<String> {
    let typed = std::cell::Cell::new(None);
    let short = |x: f64| shortest(x, N::INTEGRAL);
    let tip = format!("{tip}\n\nRange: {} to {}{suffix}", short(min.to_f64()), short(max.to_f64()));
    // Whole numbers show no decimals ("30", not "30.0"); reals up to four.
    let drag = egui::DragValue::new(v).range(min..=max).clamp_existing_to_range(false).speed(speed).suffix(suffix.clone());
    let drag = if N::INTEGRAL { drag.fixed_decimals(0) } else { drag.max_decimals(4) };
    let r = ui
        .add(drag.custom_parser(|t| {
            let x = parse_typed(t);
            typed.set(x);
            x
        }))
        .on_hover_text(&tip);
    let x = typed.get().filter(|_| r.changed())?;
    let (lo, hi) = (min.to_f64(), max.to_f64());
    (x < lo || x > hi).then(|| format!("{label}: {x} is outside {}..{}{suffix}; set to {}", short(lo), short(hi), short(v.to_f64())))
}

/// Draws the widget of one parameter under `label` (the definition's own, or a group's name
/// for it). Returns a sentence when a typed value was clamped to the parameter's range.
pub fn param_widget(ui: &mut egui::Ui, def: &ParamDef, label: &str, value: &mut ParamValue, node: NodeId, folder: Option<&std::path::Path>) -> Option<String> {
    let tip = def.tooltip;
    match (def.spec, value) {
        (ParamSpec::Float { min, max, unit, speed, .. }, ParamValue::Float(v)) => {
            return ui
                .horizontal(|ui| {
                    ui.label(label).on_hover_text(tip);
                    ranged_number(ui, v, min, max, speed as f64, unit.suffix(), label, tip)
                })
                .inner;
        }
        (ParamSpec::Int { min, max, .. }, ParamValue::Int(v)) => {
            return ui
                .horizontal(|ui| {
                    ui.label(label).on_hover_text(tip);
                    ranged_number(ui, v, min, max, 0.1, String::new(), label, tip)
                })
                .inner;
        }
        (ParamSpec::Bool { .. }, ParamValue::Bool(b)) => {
            ui.checkbox(b, label).on_hover_text(tip);
        }
        (ParamSpec::Seed { .. }, ParamValue::Seed(s)) => {
            ui.horizontal(|ui| {
                ui.label(label).on_hover_text(tip);
                ui.add(egui::DragValue::new(s).speed(1.0)).on_hover_text(tip);
                if ui.small_button("🎲").on_hover_text("Randomize the seed").clicked() {
                    *s = random_seed(*s, node);
                }
            });
        }
        (ParamSpec::Choice { options, .. }, ParamValue::Choice(c)) => {
            ui.horizontal(|ui| {
                ui.label(label).on_hover_text(tip);
                let shown = options.iter().find(|o| o.id == c.as_str()).map_or(c.as_str(), |o| o.label);
                egui::ComboBox::from_id_salt((node, def.name, label)).selected_text(shown).width(100.0).show_ui(ui, |ui| {
                    for o in options {
                        ui.selectable_value(c, o.id.to_string(), o.label);
                    }
                });
            });
        }
        (ParamSpec::Curve { .. }, ParamValue::Curve(pts)) => {
            ui.label(label).on_hover_text(tip);
            curve_editor(ui, pts, (node, def.name, label)).on_hover_text(tip);
        }
        (ParamSpec::Matrix { .. }, ParamValue::Matrix(m)) => {
            ui.label(label).on_hover_text(tip);
            matrix_editor(ui, m);
        }
        (ParamSpec::Colour { .. }, ParamValue::Colour(c)) => {
            ui.horizontal(|ui| {
                ui.label(label).on_hover_text(tip);
                colour_button(ui, c).on_hover_text(tip);
            });
        }
        (ParamSpec::Set { options, .. }, ParamValue::Set(ids)) => {
            egui::CollapsingHeader::new(format!("{} ({} of {})", label, ids.len(), options.len()))
                .id_salt((node, def.name, label))
                .show(ui, |ui| {
                    for o in options {
                        let mut on = ids.iter().any(|i| i == o.id);
                        if ui.checkbox(&mut on, o.label).on_hover_text(tip).changed() {
                            // Kept in menu order, so saved files diff cleanly.
                            *ids = options.iter().filter(|x| if x.id == o.id { on } else { ids.iter().any(|i| i == x.id) }).map(|x| x.id.to_string()).collect();
                        }
                    }
                })
                .header_response
                .on_hover_text(tip);
        }
        (ParamSpec::Gradient { .. }, ParamValue::Gradient(stops)) => {
            ui.label(label).on_hover_text(tip);
            gradient_editor(ui, stops);
        }
        (ParamSpec::Text { max_len, file, .. }, ParamValue::Text(t)) => {
            ui.horizontal(|ui| {
                ui.label(label).on_hover_text(tip);
                ui.add(egui::TextEdit::singleline(t).char_limit(max_len).desired_width(110.0)).on_hover_text(tip);
                if file && ui.button("…").on_hover_text("Choose the file (written relative to the graph file's folder)").clicked() {
                    let mut dialog = rfd::FileDialog::new().add_filter("Heightmaps and images", &["png", "tif", "tiff", "exr", "r16", "r32", "raw"]);
                    if let Some(f) = folder {
                        dialog = dialog.set_directory(f);
                    }
                    if let Some(picked) = dialog.pick_file() {
                        *t = match folder {
                            Some(f) if f.is_absolute() => planetgraph_core::raster::store::relative(&picked, f),
                            _ => picked.to_string_lossy().to_string(),
                        };
                    }
                }
            });
        }
        (_, v) => {
            ui.label(format!("{}: {}", label, v.type_name())).on_hover_text(tip);
        }
    }
    None
}

/// A new seed, different from `old`, derived from the clock (reproducible once chosen).
pub fn random_seed(old: u32, node: NodeId) -> u32 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0);
    let mut rng = planetgraph_core::planet::Rng::new(old ^ node.0.rotate_left(16), t);
    let s = (rng.next_u64() % 100_000) as u32;
    if s == old {
        s + 1
    } else {
        s
    }
}

/// The curve editor: x and y in [-1, 1]; drag points, double-click to add, right-click to
/// remove (at least two points stay).
pub fn curve_editor(ui: &mut egui::Ui, pts: &mut Vec<[f32; 2]>, id: impl egui::AsIdSalt) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(vec2(160.0, 110.0), Sense::click_and_drag());
    let id = ui.make_persistent_id(id);
    let to_screen = |p: [f32; 2]| pos2(rect.left() + (p[0] + 1.0) * 0.5 * rect.width(), rect.bottom() - (p[1] + 1.0) * 0.5 * rect.height());
    let from_screen = |s: egui::Pos2| [((s.x - rect.left()) / rect.width() * 2.0 - 1.0).clamp(-1.0, 1.0), ((rect.bottom() - s.y) / rect.height() * 2.0 - 1.0).clamp(-1.0, 1.0)];
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_gray(28));
    painter.line_segment([pos2(rect.center().x, rect.top()), pos2(rect.center().x, rect.bottom())], Stroke::new(1.0, Color32::from_gray(50)));
    painter.line_segment([pos2(rect.left(), rect.center().y), pos2(rect.right(), rect.center().y)], Stroke::new(1.0, Color32::from_gray(50)));
    let curve = planetgraph_core::nodes::modify::curve::MonotoneCurve::new(pts);
    let line: Vec<egui::Pos2> = (0..=64)
        .map(|k| {
            let x = -1.0 + k as f32 / 32.0;
            to_screen([x, curve.eval(x).clamp(-1.0, 1.0)])
        })
        .collect();
    painter.add(egui::Shape::line(line, Stroke::new(1.5, Color32::from_rgb(120, 200, 255))));
    let pointer = response.interact_pointer_pos().or(response.hover_pos());
    let nearest = pointer.and_then(|p| pts.iter().enumerate().map(|(i, q)| (i, to_screen(*q).distance(p))).filter(|(_, d)| *d < 10.0).min_by(|a, b| a.1.total_cmp(&b.1)).map(|(i, _)| i));
    let mut dragging: Option<usize> = ui.data(|d| d.get_temp(id));
    if response.drag_started() {
        dragging = nearest;
    }
    if let (Some(i), Some(p)) = (dragging, response.interact_pointer_pos()) {
        if response.dragged() && i < pts.len() {
            pts[i] = from_screen(p);
        }
    }
    if response.drag_stopped() {
        dragging = None;
        pts.sort_by(|a, b| a[0].total_cmp(&b[0]));
    }
    ui.data_mut(|d| d.insert_temp(id, dragging));
    if response.double_clicked() {
        if let Some(p) = pointer {
            pts.push(from_screen(p));
            pts.sort_by(|a, b| a[0].total_cmp(&b[0]));
        }
    }
    if response.secondary_clicked() && pts.len() > 2 {
        if let Some(i) = nearest {
            pts.remove(i);
        }
    }
    for (i, p) in pts.iter().enumerate() {
        let c = if Some(i) == nearest { Color32::WHITE } else { Color32::from_rgb(255, 200, 90) };
        painter.circle_filled(to_screen(*p), 3.5, c);
    }
    response
}

/// The matrix editor: size 3/5/7 and one drag value per weight.
pub fn matrix_editor(ui: &mut egui::Ui, m: &mut Vec<f32>) {
    let k = (m.len() as f64).sqrt() as usize;
    ui.horizontal(|ui| {
        for size in [3usize, 5, 7] {
            if ui.selectable_label(k == size, format!("{size}x{size}")).on_hover_text("Matrix size (resets the weights to ones)").clicked() && k != size {
                *m = vec![1.0; size * size];
            }
        }
    });
    let k = (m.len() as f64).sqrt() as usize;
    egui::Grid::new(ui.next_auto_id()).spacing(vec2(2.0, 2.0)).show(ui, |ui| {
        for r in 0..k {
            for c in 0..k {
                if let Some(v) = m.get_mut(r * k + c) {
                    ui.add(egui::DragValue::new(v).speed(0.05).max_decimals(2));
                }
            }
            ui.end_row();
        }
    });
}

/// A colour swatch that opens a picker; `srgb` holds sRGB components in 0..1 (written back only
/// when the user changes the colour, so an untouched colour never drifts by round-off).
pub fn colour_button(ui: &mut egui::Ui, srgb: &mut [f32; 3]) -> egui::Response {
    use planetgraph_core::planet::colour::{linear_to_srgb, srgb_to_linear3};
    let mut linear = srgb_to_linear3(*srgb);
    let r = ui.color_edit_button_rgb(&mut linear);
    if r.changed() {
        *srgb = linear.map(linear_to_srgb);
    }
    r
}

/// The gradient editor: a preview bar, then one row per stop (position, colour, remove) and a
/// button that adds a stop in the middle of the widest gap.
pub fn gradient_editor(ui: &mut egui::Ui, stops: &mut Vec<[f32; 4]>) {
    let ramp = planetgraph_core::nodes::texture::colour_ramp::Ramp::new(stops);
    let (rect, _) = ui.allocate_exact_size(vec2(160.0, 14.0), Sense::hover());
    let painter = ui.painter_at(rect);
    let steps = 64;
    for k in 0..steps {
        let t0 = k as f32 / steps as f32;
        let [r, g, b] = planetgraph_core::planet::colour::to_srgb8(ramp.at(t0 + 0.5 / steps as f32));
        let x0 = rect.left() + t0 * rect.width();
        let cell = egui::Rect::from_min_max(pos2(x0, rect.top()), pos2(x0 + rect.width() / steps as f32 + 0.5, rect.bottom()));
        painter.rect_filled(cell, 0.0, Color32::from_rgb(r, g, b));
    }
    let mut remove = None;
    for (k, stop) in stops.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut stop[0]).range(0.0..=1.0).speed(0.005).max_decimals(3)).on_hover_text("Position of the stop along the gradient (0..1)");
            let mut c = [stop[1], stop[2], stop[3]];
            if colour_button(ui, &mut c).changed() {
                stop[1..4].copy_from_slice(&c);
            }
            if ui.small_button("x").on_hover_text("Remove this stop (at least two stay)").clicked() {
                remove = Some(k);
            }
        });
    }
    if let Some(k) = remove.filter(|_| stops.len() > 2) {
        stops.remove(k);
    }
    if ui.small_button("+ stop").on_hover_text("Add a stop in the middle of the widest gap").clicked() {
        let mut pos: Vec<f32> = stops.iter().map(|s| s[0]).collect();
        pos.sort_by(f32::total_cmp);
        let (a, b) = pos.windows(2).map(|w| (w[0], w[1])).max_by(|x, y| (x.1 - x.0).total_cmp(&(y.1 - y.0))).unwrap_or((0.0, 1.0));
        let t = 0.5 * (a + b);
        let [r, g, bl] = ramp.at(t).map(planetgraph_core::planet::colour::linear_to_srgb);
        stops.push([t, r, g, bl]);
    }
}

/// How a port's saved name reads on a node: words apart ("elevation m", not "elevation_m").
pub fn port_words(name: &str) -> String {
    name.replace('_', " ")
}

/// How an input port's name is shown: optional ports say so, so that a node's required
/// inputs are known before it sits idle.
pub fn port_label(name: &str, optional: Option<bool>) -> (String, Option<&'static str>) {
    let words = port_words(name);
    match optional {
        Some(true) => (format!("{words} (optional)"), Some("May stay unconnected: the node works without it")),
        Some(false) => (words, Some("Required: the node waits (idle) until this input is connected")),
        None => (words, None),
    }
}

/// A "Preset…" menu on a node: one entry per preset (label, optional tooltip); returns the
/// index of the entry clicked this frame.
pub fn preset_menu(ui: &mut egui::Ui, node: planetgraph_core::graph::NodeId, entries: &[(&str, Option<&str>)], hover: &str) -> Option<usize> {
    let mut chosen = None;
    egui::ComboBox::from_id_salt(("preset", node))
        .selected_text("Preset…")
        .width(150.0)
        .show_ui(ui, |ui| {
            for (k, (label, tip)) in entries.iter().enumerate() {
                let r = ui.selectable_label(false, *label);
                let r = match tip {
                    Some(t) => r.on_hover_text(*t),
                    None => r,
                };
                if r.clicked() {
                    chosen = Some(k);
                }
            }
        })
        .response
        .on_hover_text(hover);
    chosen
}

#[cfg(test)]
mod tests {
    use super::shortest;

    #[test]
    fn numbers_read_in_their_shortest_form() {
        assert_eq!(shortest(f64::from(0.01f32), false), "0.01");
        assert_eq!(shortest(f64::from(1000.0f32), false), "1000");
        assert_eq!(shortest(f64::from(23.44f32), false), "23.44");
        assert_eq!(shortest(1_000_000.0, true), "1000000");
        assert_eq!(shortest(-3.0, true), "-3");
    }
}
