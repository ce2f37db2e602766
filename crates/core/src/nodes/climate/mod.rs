//! Climate nodes in physical units: temperature (degrees C) and precipitation (mm per year)
//! with the prevailing winds. Elevations come in metres (a To metres node).

pub mod ice_sheet;
pub mod precipitation;
pub mod temperature;

use glam::Vec3;

/// Latitude in radians of a unit direction.
pub fn latitude(d: Vec3) -> f32 {
    d.y.clamp(-1.0, 1.0).asin()
}

/// The unit vectors pointing east and north at a unit direction (east is +X at longitude 0;
/// at the poles an arbitrary but continuous-enough pair).
pub fn east_north(d: Vec3) -> (Vec3, Vec3) {
    let east = Vec3::Y.cross(d).try_normalize().unwrap_or(Vec3::X);
    let north = d.cross(east);
    (east, north)
}

/// Precipitation at which the snow line lies at the settings' temperature, mm/yr.
pub const SNOW_LINE_REFERENCE_MM: f32 = 800.0;

/// How much warmer the snow line lies per doubling of the precipitation, °C.
pub const SNOW_LINE_C_PER_DOUBLING: f32 = 3.0;

/// How much warmer the snow line lies at most in wet ranges, °C.
pub const SNOW_LINE_WET_SHIFT_C: f32 = 5.0;

/// How much colder the snow line lies at most in dry ranges, °C.
pub const SNOW_LINE_DRY_SHIFT_C: f32 = 8.0;

/// The annual mean temperature (°C) below which snow lies where `precipitation_mm` falls:
/// `snow_c` at [`SNOW_LINE_REFERENCE_MM`], [`SNOW_LINE_C_PER_DOUBLING`] warmer per doubling
/// and as much colder per halving, at most [`SNOW_LINE_WET_SHIFT_C`] warmer and
/// [`SNOW_LINE_DRY_SHIFT_C`] colder. Glaciers' snow lines lie near -1 °C in wet maritime
/// ranges and near -12 to -15 °C in the driest ones, such as the Atacama's Andes (so with
/// `snow_c` = -6: -1 °C at 2550 mm/yr and more, -14 °C at 125 mm/yr and less):
/// snow needs snowfall, and dry plateaus (Tibet) stay bare far above the snow line of wet
/// ranges.
pub fn snow_line_c(snow_c: f32, precipitation_mm: f32) -> f32 {
    let ratio = (precipitation_mm / SNOW_LINE_REFERENCE_MM).max(1e-3);
    snow_c + (SNOW_LINE_C_PER_DOUBLING * ratio.log2()).clamp(-SNOW_LINE_DRY_SHIFT_C, SNOW_LINE_WET_SHIFT_C)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snow_line_is_warm_in_wet_ranges_and_cold_in_dry_ones() {
        assert_eq!(snow_line_c(-6.0, SNOW_LINE_REFERENCE_MM), -6.0);
        assert!((snow_line_c(-6.0, 1600.0) + 3.0).abs() < 1e-5);
        assert_eq!(snow_line_c(-6.0, 100_000.0), -1.0);
        assert_eq!(snow_line_c(-6.0, 0.0), -14.0);
        assert!(snow_line_c(-6.0, 300.0) < snow_line_c(-6.0, 3000.0));
    }
}
