//! Hotspots: fixed plumes under moving plates leave chains of volcanoes and seamounts, the
//! youngest over the plume, older and lower (subsided) along the plate's motion.

use crate::planet::pipes::pipes4;
use crate::planet::rng::Rng;
use crate::planet::{dir_to_cell, Cell};
use glam::{Quat, Vec3};

/// One volcano of a chain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Volcano {
    /// Unit direction of its summit today.
    pub dir: Vec3,
    /// Age, Myr (time since it sat over the plume).
    pub age_myr: f32,
    /// Height above the surrounding floor, m.
    pub height_m: f32,
    /// Radius (one standard deviation of its Gaussian shape), km.
    pub radius_km: f32,
}

/// How hotspot chains are laid out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HotspotSettings {
    /// Number of plumes.
    pub count: usize,
    /// Height of a volcano fresh over its plume, m above the floor.
    pub height_m: f32,
    /// Radius of a volcano, km.
    pub radius_km: f32,
    /// Time over which a volcano loses about 63 % of its height (subsidence and erosion), Myr.
    pub decay_myr: f32,
    /// Age of the oldest volcano of a chain, Myr.
    pub chain_myr: f32,
    /// Time between two volcanoes, Myr.
    pub step_myr: f32,
}

/// The volcano chains of `settings.count` plumes placed at random. `plate_at` gives the plate
/// under a direction; `omega` each plate's angular velocity (rad per time unit) and
/// `km_per_myr_per_unit` how many km per Myr a speed of one planet radius per time unit is. A
/// chain ends where it would leave the plate the plume sits under.
pub fn chains(settings: &HotspotSettings, omega: &[Vec3], km_per_myr_per_unit: f32, radius_km: f32, seed: u32, plate_at: impl Fn(Vec3) -> u32) -> Vec<Volcano> {
    let mut rng = Rng::new(seed, 0x4075_9075);
    let mut out = Vec::new();
    for _ in 0..settings.count {
        // Uniform on the sphere.
        let z = rng.range(-1.0, 1.0);
        let phi = rng.range(0.0, std::f32::consts::TAU);
        let r = (1.0 - z * z).max(0.0).sqrt();
        let plume = Vec3::new(r * phi.cos(), r * phi.sin(), z);
        let vigour = rng.range(PLUME_VIGOUR.0, PLUME_VIGOUR.1);
        let plate = plate_at(plume);
        let Some(&w) = omega.get(plate as usize) else { continue };
        let (axis, rate) = (w.normalize_or_zero(), w.length());
        let steps = (settings.chain_myr / settings.step_myr.max(0.1)).floor() as usize;
        for k in 0..=steps {
            let age = k as f32 * settings.step_myr;
            let angle = rate * km_per_myr_per_unit * age / radius_km;
            let dir = if axis == Vec3::ZERO { plume } else { (Quat::from_axis_angle(axis, angle) * plume).normalize() };
            if plate_at(dir) != plate {
                break;
            }
            let jitter = rng.range(VOLCANO_HEIGHT_SPREAD.0, VOLCANO_HEIGHT_SPREAD.1);
            out.push(Volcano { dir, age_myr: age, height_m: settings.height_m * vigour * jitter * (-age / settings.decay_myr.max(0.1)).exp(), radius_km: settings.radius_km * rng.range(VOLCANO_RADIUS_SPREAD.0, VOLCANO_RADIUS_SPREAD.1) });
        }
    }
    out
}

/// The range of a plume's strength, times the settings' height: some hotspots build far more
/// than others (Hawaii against the Azores).
pub const PLUME_VIGOUR: (f32, f32) = (0.6, 1.2);
/// The range of one volcano's height along its chain, times its plume's (chains' seamounts vary
/// several-fold in height).
pub const VOLCANO_HEIGHT_SPREAD: (f32, f32) = (0.4, 1.3);
/// The range of one volcano's radius, times the settings' radius.
pub const VOLCANO_RADIUS_SPREAD: (f32, f32) = (0.8, 1.25);
/// How far a volcano's Gaussian cone is drawn, in its radii (beyond, under 1.2 % of its height).
pub const CONE_REACH_SIGMAS: f32 = 3.0;

/// Adds the volcanoes to `relief_m` (metres per cell of a resolution-`n` grid) as Gaussian cones reaching [`CONE_REACH_SIGMAS`] radii out; `scale` weighs each cell's share (to
/// damp volcanoes on continents, for example).
pub fn add_volcanoes(relief_m: &mut [f32], n: usize, volcanoes: &[Volcano], radius_km: f32, scale: impl Fn(usize) -> f32) {
    let table = pipes4(n);
    let dir = |c: usize| Cell::from_index(c, n).direction(n);
    let mut seen: Vec<u32> = vec![u32::MAX; relief_m.len()];
    for (id, v) in volcanoes.iter().enumerate() {
        let sigma = v.radius_km / radius_km;
        let reach = (CONE_REACH_SIGMAS * sigma).cos();
        let start = dir_to_cell(v.dir, n).index(n);
        let mut stack = vec![start as u32];
        seen[start] = id as u32;
        while let Some(c) = stack.pop() {
            let c = c as usize;
            let a = dir(c).dot(v.dir).clamp(-1.0, 1.0).acos() / sigma;
            relief_m[c] += v.height_m * (-0.5 * a * a).exp() * scale(c);
            for &k in &table.to[c] {
                let k = k as usize;
                if seen[k] != id as u32 && dir(k).dot(v.dir) >= reach {
                    seen[k] = id as u32;
                    stack.push(k as u32);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::distance::cell_dirs;

    #[test]
    fn chains_run_along_the_motion_and_get_older_and_lower() {
        let s = HotspotSettings { count: 3, height_m: 5000.0, radius_km: 60.0, decay_myr: 30.0, chain_myr: 40.0, step_myr: 4.0 };
        // One plate turning about z: material moves east.
        let omega = [Vec3::Z * 0.8];
        let v = chains(&s, &omega, 50.0, 6371.0, 7, |_| 0);
        assert_eq!(v.len(), 3 * 11);
        for chain in v.chunks(11) {
            let plume = chain[0].dir;
            for pair in chain.windows(2) {
                assert!(pair[1].age_myr > pair[0].age_myr);
                // Each volcano lies east of the previous (positive turn about z).
                let (a, b) = (pair[0].dir, pair[1].dir);
                assert!(a.cross(b).z >= 0.0);
            }
            let mean_young = chain[..3].iter().map(|x| x.height_m).sum::<f32>();
            let mean_old = chain[8..].iter().map(|x| x.height_m).sum::<f32>();
            assert!(mean_old < mean_young * 0.5);
            // 40 Myr at 0.8 x 50 km/Myr = 1600 km from the plume.
            let km = plume.angle_between(chain[10].dir) * 6371.0;
            let lat = plume.z.asin().cos();
            assert!((km - 1600.0 * lat).abs() < 50.0 + 1600.0 * (1.0 - lat), "{km}");
        }
        // A chain stops at its plate's edge: with a second plate west of x = -0.5 (the same
        // motion), every volcano lies on its plume's plate, and some chains end early.
        let plate = |d: Vec3| u32::from(d.x < -0.5);
        // 400 Myr chains turn 2.5 rad: most cross the edge wherever their plume sits.
        let many = HotspotSettings { count: 40, chain_myr: 400.0, ..s };
        let cut = chains(&many, &[omega[0], omega[0]], 50.0, 6371.0, 7, plate);
        let mut plume_plate = u32::MAX;
        for x in &cut {
            if x.age_myr == 0.0 {
                plume_plate = plate(x.dir);
            }
            assert_eq!(plate(x.dir), plume_plate, "a volcano of age {} left its plate", x.age_myr);
        }
        // Measured 2684 of the 4040 volcanoes full chains would hold.
        assert!(cut.len() < 40 * 101 * 9 / 10, "too few chains stopped at the plate edge: {} volcanoes", cut.len());
    }

    #[test]
    fn a_volcano_peaks_over_its_summit() {
        let n = 64;
        let dirs = cell_dirs(n);
        let mut relief = vec![0.0; dirs.len()];
        let summit = dirs[n * n * 2 + 30 * n + 30];
        add_volcanoes(&mut relief, n, &[Volcano { dir: summit, age_myr: 0.0, height_m: 4000.0, radius_km: 100.0 }], 6371.0, |_| 1.0);
        let top = relief.iter().cloned().fold(0.0f32, f32::max);
        assert!((top - 4000.0).abs() < 1.0);
        let touched = relief.iter().filter(|&&h| h > 0.0).count();
        // A disc of 300 km radius on 156 km cells: about 12 cells.
        assert!((6..40).contains(&touched), "{touched}");
    }
}
