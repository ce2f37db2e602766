//! L-system rivers (seed 003, chapter 3) on the sphere, aware of the terrain.
//!
//! A stochastic parametric L-system grows each river from a mouth on a coast: the first
//! segment leaves the coast inland within 45 degrees of straight on (seed 003's 45 to 135
//! degrees to the coastline); at each segment's end the river goes on in one direction or
//! splits in two with changed angles, and branches end early with a probability that grows
//! near the last iteration. Seed 003 grows blind and fails on hillgrow terrain; here each
//! proposed direction is bent, within 20 degrees, towards the lowest ground ahead, a segment
//! never rises over a ridge (no point along it higher than its end plus a tolerance) nor
//! runs into another river, and a branch ends where the ground leaves the height range.
//!
//! The rivers are then drawn into the heightmap at their bed heights (falling towards the
//! mouth, deeper where more branches feed them) and the valley around them is box-filtered
//! towards the channel, which keeps its bed (seed 003 redraws and filters until the channel
//! is deep enough; a channel that is never filtered needs no redrawing). Growth reads the
//! terrain at a fixed planning resolution, so previews and builds grow the same number of
//! rivers (the network can differ in detail: growth compares heights).

use crate::planet::diffusion::diffusion_passes;
use crate::planet::pipes::{pipes8, NONE};
use crate::planet::SimError;
use crate::planet::{dir_to_cell, Field, Rng};
use glam::{Quat, Vec3};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

/// Cells per face edge at which rivers are planned.
const PLAN_N: usize = 128;
/// What a river may dip or a ridge may rise above a segment's end, as a share of the height
/// range (hmax - hmin): bumps of rough terrain smaller than this do not stop a river.
const RIDGE_TOLERANCE: f32 = 0.04;
/// Seed 003 draws the rivers and box-filters the map until the channel is deep enough; here
/// the channel keeps its bed, so the rounds are k passes each, this many times.
const BANK_ROUNDS: usize = 4;
/// Blur of the planning terrain, degrees of arc.
const PLAN_BLUR_DEG: f32 = 1.0;
/// Cells per face edge of the grid that keeps rivers apart.
const SPACING_N: usize = 256;

/// Settings of [`lsystem_rivers`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LSystemSettings {
    /// Number of rivers (mouths).
    pub rivers: usize,
    /// Seed 003's i: most segments from a mouth to a spring.
    pub iterations: usize,
    /// Seed 003's s: most tributaries (splits) per river.
    pub tributaries: usize,
    /// Seed 003's k: box-filter passes per round ([`BANK_ROUNDS`]) at 128 cells per face
    /// edge.
    pub box_steps: usize,
    /// Seed 003's hmin: the lowest bed (at the mouths), input units.
    pub h_min: f32,
    /// Seed 003's hmax: rivers grow only over ground below this, input units.
    pub h_max: f32,
    /// Elevation below which a cell is sea.
    pub sea_level: f32,
    /// Segment length, km.
    pub segment_km: f32,
    /// Largest change of direction from one segment to the next, degrees.
    pub turn_deg: f32,
    /// Chance that a segment end splits in two (while tributaries remain).
    pub split_chance: f32,
    /// Channel depth at the mouth, input units.
    pub depth: f32,
    /// Valley half-width at the mouth, km.
    pub width_km: f32,
    /// Planet radius, km.
    pub radius_km: f32,
    /// Random seed.
    pub seed: u32,
}

/// One node of a river tree: a segment's end.
#[derive(Debug, Clone, Copy)]
struct Joint {
    at: Vec3,
    /// The joint downstream (its own index at a mouth).
    parent: usize,
    /// Ground height when it was grown (planning resolution).
    ground: f32,
}

/// The rivers drawn into `h`, and a mask of their channel cells.
#[derive(Debug, Clone)]
pub struct LSystemRivers {
    /// The carved elevation.
    pub elevation: Field,
    /// 1 on channel cells, else 0.
    pub rivers: Field,
    /// Segments grown (for tests and figures).
    pub segments: usize,
}

/// Grows the river trees over `h` and carves them (see the module notes). `None` when
/// `cancel` was set.
pub fn lsystem_rivers(h: &Field, s: &LSystemSettings, cancel: &AtomicBool) -> Result<LSystemRivers, SimError> {
    let plan = plan(h, cancel)?;
    let joints = grow(&plan, s);
    if cancel.load(Ordering::Relaxed) {
        return Err(SimError::Cancelled);
    }
    let segments = joints.iter().enumerate().filter(|(k, j)| j.parent != *k).count();
    let (elevation, rivers) = carve(h, &joints, s, cancel)?;
    Ok(LSystemRivers { elevation, rivers, segments })
}

/// The terrain the rivers are planned on: the input at the planning resolution, blurred by
/// about a cell so that it hardly depends on the input's resolution.
fn plan(h: &Field, cancel: &AtomicBool) -> Result<Field, SimError> {
    crate::planet::diffusion::blur(&h.resample(PLAN_N), PLAN_BLUR_DEG, cancel)
}

/// The point a fraction `t` of the way from `a` to `b` on the sphere (for the short arcs of
/// segments; not at constant speed).
fn along(a: Vec3, b: Vec3, t: f32) -> Vec3 {
    a.lerp(b, t).normalize()
}

/// The unit tangent at `p` closest to `v` (zero when `v` is along `p`).
fn tangent(p: Vec3, v: Vec3) -> Vec3 {
    (v - p * p.dot(v)).normalize_or_zero()
}

/// Mouths: coast cells of the planning grid (land with a sea neighbour), drawn at random and
/// at least three segments apart; each with its inland heading.
fn mouths(plan: &Field, s: &LSystemSettings, rng: &mut Rng) -> Vec<(Vec3, Vec3)> {
    let n = plan.n();
    let table = pipes8(n);
    let hv = plan.data();
    let coast: Vec<usize> = (0..6 * n * n).filter(|&c| hv[c] >= s.sea_level && table.to[c].iter().any(|&x| x != NONE && hv[x as usize] < s.sea_level)).collect();
    let dir = |c: usize| crate::planet::Cell::from_index(c, n).direction(n);
    let coast_dirs: Vec<Vec3> = coast.iter().map(|&c| dir(c)).collect();
    let mut out: Vec<(Vec3, Vec3)> = Vec::new();
    let min_apart = (3.0 * s.segment_km / s.radius_km).cos();
    // The coast cell nearest to a random point, so that a slightly different coastline moves a
    // mouth a little instead of choosing another one.
    for _ in 0..50 * s.rivers.max(1) {
        if out.len() >= s.rivers || coast.is_empty() {
            break;
        }
        let target = rng.unit_vector();
        let Some(k) = (0..coast.len()).max_by(|&a, &b| coast_dirs[a].dot(target).total_cmp(&coast_dirs[b].dot(target)).then(b.cmp(&a))) else { break };
        let (c, p) = (coast[k], coast_dirs[k]);
        if out.iter().any(|(q, _)| q.dot(p) > min_apart) {
            continue;
        }
        // Away from the sea neighbours.
        let sea: Vec3 = table.to[c].iter().filter(|&&x| x != NONE && hv[x as usize] < s.sea_level).map(|&x| dir(x as usize)).sum();
        let inland = tangent(p, p - sea.normalize_or_zero());
        if inland != Vec3::ZERO {
            out.push((p, inland));
        }
    }
    out
}

/// The L-system: joints of every river, grown breadth first (all rivers one generation at
/// a time, so none takes all the room).
fn grow(plan: &Field, s: &LSystemSettings) -> Vec<Joint> {
    let mut rng = Rng::new(s.seed, 0x5249_5645);
    let step = s.segment_km / s.radius_km;
    let turn = s.turn_deg.to_radians();
    let ridge_tol = RIDGE_TOLERANCE * (s.h_max - s.h_min).abs().max(1e-6);
    let mut joints: Vec<Joint> = Vec::new();
    let mut taken: HashSet<usize> = HashSet::new();
    let cell_of = |p: Vec3| dir_to_cell(p, SPACING_N).index(SPACING_N);
    // Tips: joint, heading, generation, river, and the joint's code: each joint draws its
    // random numbers from a stream of its own (named by its path from the mouth), so a
    // different decision in one branch leaves the others as they were.
    let mut tips: Vec<(usize, Vec3, usize, usize, u64)> = Vec::new();
    let mouths = mouths(plan, s, &mut rng);
    let mut splits = vec![0usize; mouths.len()];
    let child_code = |code: u64, k: u64| (code ^ k.wrapping_add(1)).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29) ^ 0xA24B_AED4_963E_E407;
    for (r, &(p, inland)) in mouths.iter().enumerate() {
        let heading = Quat::from_axis_angle(p, rng.range(-0.25, 0.25) * std::f32::consts::PI) * inland;
        joints.push(Joint { at: p, parent: joints.len(), ground: plan.sample_dir(p) });
        taken.insert(cell_of(p));
        tips.push((joints.len() - 1, heading, 0, r, child_code(0x5249, r as u64)));
    }
    for generation in 0..s.iterations {
        let mut next = Vec::new();
        for &(j, heading, g, r, code) in &tips {
            let mut rng = Rng::new(s.seed, code);
            // Early ends near the last iteration (a probability rising from 0 at 60 %).
            let late = (g as f32 / s.iterations.max(1) as f32 - 0.6) / 0.4;
            if g > 0 && rng.f32() < late {
                continue;
            }
            let split = splits[r] < s.tributaries && rng.f32() < s.split_chance;
            let proposals: Vec<f32> = if split {
                splits[r] += 1;
                let a = rng.range(0.35, 0.8);
                vec![a, -rng.range(0.35, 0.8)]
            } else {
                vec![rng.range(-turn, turn)]
            };
            for (k, angle) in proposals.into_iter().enumerate() {
                let from = joints[j];
                if let Some((at, new_heading, ground)) = best_segment(plan, from.at, from.ground, Quat::from_axis_angle(from.at, angle) * heading, step, ridge_tol, s, &taken, &cell_of) {
                    // Mark the cells the segment passes (the first quarter may touch its parent's).
                    for m in 1..=8 {
                        taken.insert(cell_of(along(from.at, at, m as f32 / 8.0)));
                    }
                    joints.push(Joint { at, parent: j, ground });
                    next.push((joints.len() - 1, new_heading, generation + 1, r, child_code(code, k as u64)));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        tips = next;
    }
    joints
}

/// The next segment from `p`: among the proposal turned by -20 to 20 degrees, a valley floor
/// (lower at its end than the candidates beside it) nearest to the proposal, else the
/// proposal itself, else the valid candidate nearest to it; `None` when every candidate goes
/// downhill, climbs over a ridge, leaves the height range, reaches the sea or runs into
/// another river. Rivers grow upstream: the ground at the end is never lower than here by
/// more than the tolerance.
#[allow(clippy::too_many_arguments)]
fn best_segment(plan: &Field, p: Vec3, ground: f32, heading: Vec3, step: f32, ridge_tol: f32, s: &LSystemSettings, taken: &HashSet<usize>, cell_of: &dyn Fn(Vec3) -> usize) -> Option<(Vec3, Vec3, f32)> {
    // Candidates m = -2..=2: end point, new heading, ground at the end, valid.
    let candidates: Vec<(Vec3, Vec3, f32, bool)> = (-2i32..=2)
        .map(|m| {
            let h = Quat::from_axis_angle(p, m as f32 * 10f32.to_radians()) * heading;
            let axis = p.cross(h).normalize_or_zero();
            if axis == Vec3::ZERO {
                return (p, heading, f32::INFINITY, false);
            }
            let at = Quat::from_axis_angle(axis, step) * p;
            let end = plan.sample_dir(at);
            // No ridge between: nothing along the way higher than the end (plus a tolerance).
            let crest = (1..8).map(|k| plan.sample_dir(along(p, at, k as f32 / 8.0))).fold(f32::MIN, f32::max);
            let valid = end >= s.sea_level && end <= s.h_max && end >= ground - ridge_tol && crest <= end + ridge_tol && !(3..=8).any(|k| taken.contains(&cell_of(along(p, at, k as f32 / 8.0))));
            (at, tangent(at, axis.cross(at)), end, valid)
        })
        .collect();
    let floor = |k: usize| (1..=3).contains(&k) && candidates[k].2 < candidates[k - 1].2 && candidates[k].2 < candidates[k + 1].2;
    // Nearest to the proposal first (0, then -1 and 1, then -2 and 2).
    let order = [2usize, 1, 3, 0, 4];
    let pick = order.iter().copied().find(|&k| candidates[k].3 && floor(k)).or_else(|| order.iter().copied().find(|&k| candidates[k].3))?;
    let (at, h, end, _) = candidates[pick];
    Some((at, h, end))
}

/// Draws the rivers at their bed heights into `h` and box-filters their valleys.
fn carve(h: &Field, joints: &[Joint], s: &LSystemSettings, cancel: &AtomicBool) -> Result<(Field, Field), SimError> {
    let n = h.n();
    // Branches feeding each joint (springs count 1), children after parents in `joints`.
    let mut feed = vec![1f32; joints.len()];
    for k in (0..joints.len()).rev() {
        let p = joints[k].parent;
        if p != k {
            feed[p] += feed[k];
        }
    }
    // Each joint's mouth (parents come before their children).
    let mut mouth = vec![0usize; joints.len()];
    for k in 0..joints.len() {
        mouth[k] = if joints[k].parent == k { k } else { mouth[joints[k].parent] };
    }
    let weight: Vec<f32> = (0..joints.len()).map(|k| (feed[k] / feed[mouth[k]]).sqrt()).collect();
    // Bed heights at the joints: the ground less the depth, never below hmin.
    let bed: Vec<f32> = (0..joints.len()).map(|k| (joints[k].ground - s.depth * (0.3 + 0.7 * weight[k])).max(s.h_min)).collect();
    // Channel samples from the springs down: each takes the lowest of its own bed, the ground
    // under it and everything upstream, so beds never rise towards the mouth.
    let cell_km = std::f32::consts::FRAC_PI_2 / n as f32 * s.radius_km;
    let hv = h.data();
    let mut channel: Vec<(usize, f32)> = Vec::new();
    let mut valley: HashSet<usize> = HashSet::new();
    let mut upstream = vec![f32::INFINITY; joints.len()];
    for k in (0..joints.len()).rev() {
        let p = joints[k].parent;
        if p == k {
            continue;
        }
        let (a, b) = (joints[p].at, joints[k].at);
        let samples = ((a.angle_between(b) * s.radius_km / (0.4 * cell_km)).ceil() as usize).max(1);
        let half_width = s.width_km * (0.3 + 0.7 * weight[k]);
        let reach = (half_width / cell_km).ceil().max(1.0) as i64;
        let mut running = upstream[k];
        for t in (0..=samples).rev() {
            let t = t as f32 / samples as f32;
            let at = along(a, b, t);
            let c = dir_to_cell(at, n).index(n);
            running = running.min(bed[p] + (bed[k] - bed[p]) * t).min(hv[c]);
            channel.push((c, running));
            // The valley: a cap of the half-width around the sample (at least the neighbours).
            let centre = crate::planet::Cell::from_index(c, n);
            for dj in -reach..=reach {
                for di in -reach..=reach {
                    if let Some(x) = crate::planet::neighbour(centre, di, dj, n) {
                        if x.direction(n).angle_between(at) * s.radius_km <= half_width.max(cell_km) {
                            valley.insert(x.index(n));
                        }
                    }
                }
            }
        }
        upstream[p] = upstream[p].min(running);
        if cancel.load(Ordering::Relaxed) {
            return Err(SimError::Cancelled);
        }
    }
    // Where several samples fall in one cell, the lowest bed.
    channel.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)));
    channel.dedup_by_key(|x| x.0);
    // Channel cells keep their beds; the filter works on the banks.
    let in_channel: HashSet<usize> = channel.iter().map(|x| x.0).collect();
    let mut valley: Vec<usize> = valley.into_iter().filter(|c| !in_channel.contains(c)).collect();
    valley.sort_unstable();
    // The channel cells take their beds (never above the ground, so this only lowers them)
    // and keep them; the banks are box-filtered towards them, the filter only lowering ground.
    let mut carved = h.clone();
    let out = carved.data_mut();
    for &(c, b) in &channel {
        out[c] = b;
    }
    let table = pipes8(n);
    for _ in 0..BANK_ROUNDS * diffusion_passes(s.box_steps, n) {
        let next: Vec<f32> = valley
            .iter()
            .map(|&c| {
                let (sum, count) = table.to[c].iter().filter(|&&x| x != NONE).fold((out[c], 1.0), |(sum, count), &x| (sum + out[x as usize], count + 1.0));
                (sum / count).min(out[c])
            })
            .collect();
        for (&c, v) in valley.iter().zip(next) {
            out[c] = v;
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(SimError::Cancelled);
        }
    }
    let in_channel = |c: usize| in_channel.contains(&c);
    Ok((carved, Field::from_fn_cell(n, |c| if in_channel(c) { 1.0 } else { 0.0 })))
}

#[cfg(test)]
#[path = "lsystem_tests.rs"]
mod tests;
