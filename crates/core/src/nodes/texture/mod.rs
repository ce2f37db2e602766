//! Texture nodes: colours from values (ramps), blends, biomes and materials. Colours are
//! linear RGB; colour parameters are sRGB as pickers show them.

pub mod biome_noise;
pub mod biomes;
pub mod blend_colours;
pub mod colour_ramp;
pub mod materials;
pub mod vegetation;

/// `a + (b - a) t` per channel.
pub fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
}
