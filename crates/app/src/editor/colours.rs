//! Title-bar colours of the node categories.

use planetgraph_core::nodes::Category;

/// Title-bar colour of group nodes.
pub const GROUP_COLOUR: egui::Color32 = egui::Color32::from_rgb(70, 70, 86);

/// Title-bar colour of a category.
pub fn category_colour(c: Category) -> egui::Color32 {
    match c {
        Category::Sources => egui::Color32::from_rgb(46, 96, 64),
        Category::Combine => egui::Color32::from_rgb(54, 76, 120),
        Category::Modify => egui::Color32::from_rgb(104, 74, 46),
        Category::Tectonics => egui::Color32::from_rgb(40, 104, 110),
        Category::Erosion => egui::Color32::from_rgb(46, 84, 130),
        Category::Masks => egui::Color32::from_rgb(96, 96, 56),
        Category::Climate => egui::Color32::from_rgb(40, 110, 90),
        Category::Texture => egui::Color32::from_rgb(130, 70, 90),
        Category::Display => egui::Color32::from_rgb(88, 60, 112),
        Category::Output => egui::Color32::from_rgb(120, 100, 40),
    }
}
