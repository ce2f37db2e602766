//! Planet colours: the hypsometric ramp shared by previews, colour exports (as the height
//! tint, [`height_tint`]) and (mirrored in
//! `shaders/planet.wgsl`) the viewport.

use crate::planet::colour::srgb_to_linear3;

/// Colour of an elevation in metres relative to sea level: ocean shaded by depth (light
/// shallows to dark deep water), land from lowland green through mountain brown to snow.
/// `max_depth_m` and `max_elevation_m` scale the ramp. Returns sRGB bytes.
pub fn hypsometric(elevation_m: f32, max_depth_m: f32, max_elevation_m: f32) -> [u8; 3] {
    const OCEAN: [([f32; 3], f32); 3] = [([0.36, 0.62, 0.78], 0.0), ([0.11, 0.33, 0.60], 0.25), ([0.02, 0.07, 0.24], 1.0)];
    const LAND: [([f32; 3], f32); 6] = [([0.33, 0.55, 0.29], 0.0), ([0.50, 0.64, 0.35], 0.12), ([0.78, 0.72, 0.47], 0.3), ([0.58, 0.44, 0.30], 0.55), ([0.50, 0.46, 0.44], 0.75), ([0.96, 0.96, 0.98], 0.9)];
    let ramp = |stops: &[([f32; 3], f32)], t: f32| -> [f32; 3] {
        let t = t.clamp(0.0, 1.0);
        for w in stops.windows(2) {
            let ((c0, t0), (c1, t1)) = (w[0], w[1]);
            if t <= t1 {
                let s = ((t - t0) / (t1 - t0).max(1e-6)).clamp(0.0, 1.0);
                return [c0[0] + (c1[0] - c0[0]) * s, c0[1] + (c1[1] - c0[1]) * s, c0[2] + (c1[2] - c0[2]) * s];
            }
        }
        stops[stops.len() - 1].0
    };
    let c = if elevation_m < 0.0 { ramp(&OCEAN, -elevation_m / max_depth_m.max(1.0)) } else { ramp(&LAND, elevation_m / max_elevation_m.max(1.0)) };
    [(c[0] * 255.0) as u8, (c[1] * 255.0) as u8, (c[2] * 255.0) as u8]
}

/// Grey level of `v` between `lo` (black) and `hi` (white).
pub fn grey(v: f32, lo: f32, hi: f32) -> [u8; 3] {
    let t = if hi > lo { ((v - lo) / (hi - lo)).clamp(0.0, 1.0) } else { 0.5 };
    let g = (t * 255.0) as u8;
    [g, g, g]
}

/// The height tint (linear RGB) of an elevation of `metres` on a planet of that peak and depth
/// (metres, the depth positive): the hypsometric colours, as sRGB bytes made linear.
pub fn height_tint(metres: f32, max_depth_m: f32, max_elevation_m: f32) -> [f32; 3] {
    srgb_to_linear3(hypsometric(metres, max_depth_m, max_elevation_m).map(|v| v as f32 / 255.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramp_is_blue_below_and_green_white_above() {
        let deep = hypsometric(-6000.0, 7000.0, 6000.0);
        let shallow = hypsometric(-50.0, 7000.0, 6000.0);
        assert!(deep[2] > deep[0] && shallow[2] > shallow[0]);
        assert!(shallow[2] > deep[2], "shallow water is lighter");
        let low = hypsometric(10.0, 7000.0, 6000.0);
        assert!(low[1] > low[0] && low[1] > low[2], "lowland is green");
        let peak = hypsometric(6000.0, 7000.0, 6000.0);
        assert!(peak.iter().all(|&c| c > 230), "snow");
    }
}
