//! Source nodes: fields made from nothing but their settings.

pub mod constant;
pub mod diamond_square;
pub mod fault_planet;
pub mod hillgrow;
pub mod import_raster;
pub mod island;
pub mod latitude;
pub mod noise;
