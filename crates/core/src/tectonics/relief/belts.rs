//! Relief along plate boundaries by type: what a convergent boundary raises depends on the
//! crust on its two sides (Andes, island arcs, Himalaya and Tibet), and continental crust that
//! parts opens a rift. Each profile is a function of the distance (km) from the nearest
//! boundary point of its kind on the cell's own plate, and of the boundary's intensity `f`
//! (its convergence or opening speed over 5 cm/yr, 0..2).

/// What a boundary point does to its own plate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The plate dives: a trench at the boundary and an outer rise beyond it.
    Trench,
    /// Continent over a diving ocean: a volcanic cordillera set back from the boundary (the
    /// Andes).
    Cordillera,
    /// Ocean over a diving ocean: an island arc set back from the boundary.
    IslandArc,
    /// Continent against continent: a wide orogen centred on the boundary (the Himalaya).
    Collision,
    /// Behind one side of a collision: a high plateau (Tibet).
    Plateau,
    /// Continental crust parting: a rift valley with raised flanks.
    Rift,
}

impl Role {
    /// Every role, in the order their distance maps are built.
    pub const ALL: [Role; 6] = [Role::Trench, Role::Cordillera, Role::IslandArc, Role::Collision, Role::Plateau, Role::Rift];
}

/// Heights of the boundary features, m.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BeltHeights {
    /// Depth a trench adds below the ocean floor at `f = 1`.
    pub trench_m: f32,
    /// Height of a cordillera at `f = 1`.
    pub cordillera_m: f32,
    /// Height of an island arc above the floor at `f = 1`.
    pub island_arc_m: f32,
    /// Height of a collision orogen at `f = 1`.
    pub collision_m: f32,
    /// Height of a plateau at `f = 1`.
    pub plateau_m: f32,
    /// Depth of a rift valley at `f = 1`.
    pub rift_m: f32,
}

/// Compact smooth bump: 1 at 0, 0 from `w` on, zero slope at both ends.
#[inline]
pub fn falloff(d: f32, w: f32) -> f32 {
    let t = (d / w.max(1e-6)).min(1.0);
    let s = 1.0 - t * t;
    s * s
}

#[inline]
fn gauss(d: f32, w: f32) -> f32 {
    let t = d / w;
    (-t * t).exp()
}

/// A feature's shape at one cell: the height it adds (m, before the mountain texture and the
/// along-strike variation are applied to its `textured` part) and the rock uplift it drives.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Feature {
    /// Relief that takes the mountain texture, m.
    pub textured_m: f32,
    /// Relief kept smooth (trenches, plateaus, rift floors), m.
    pub smooth_m: f32,
    /// Rock uplift, mm/yr.
    pub uplift_mm_yr: f32,
    /// How much of the cell is a dry, internally drained plateau interior (Tibet), 0..1: its
    /// rivers cut slowly, so it stays flat while its edges erode.
    pub dry: f32,
    /// How much of the cell is a collision belt's core, 0..1 (its rivers cut at full speed even
    /// where a plateau begins behind it).
    pub belt: f32,
}

// The profiles' widths and offsets, km from the boundary, and their weights. A value "per f"
// grows with the boundary's intensity (speed over 5 cm/yr). The figures are Earth's orders of
// magnitude, fitted so that the default planet's belts match Earth's widths (README, "Earth-like
// relief").

/// Gaussian half-width of a trench, km (ocean trenches are 50 to 100 km wide).
pub const TRENCH_WIDTH_KM: f32 = 55.0;
/// Distance of the outer rise seaward of a trench, km (flexure of the diving plate: 100 to 200 km).
pub const OUTER_RISE_KM: f32 = 150.0;
/// Gaussian half-width of the outer rise, km.
pub const OUTER_RISE_WIDTH_KM: f32 = 60.0;
/// Height of the outer rise at `f >= 1`, m (200 to 500 m on Earth).
pub const OUTER_RISE_M: f32 = 250.0;
/// Share of a trench's or cordillera's height at `f = 0`, and its growth per `f`.
pub const SUBDUCTION_SHARE: (f32, f32) = (0.6, 0.4);
/// Distance of a cordillera's crest from the trench at `f = 0`, and its growth per `f`, km (the
/// Andes' volcanic front lies 100 to 300 km inland, further where subduction is fast).
pub const CORDILLERA_OFFSET_KM: (f32, f32) = (90.0, 60.0);
/// Width of a cordillera's back slope at `f = 0`, and its growth per `f`, km.
pub const CORDILLERA_BACK_KM: (f32, f32) = (110.0, 90.0);
/// Rock uplift of a cordillera at `f = 0`, and its growth per `f`, mm/yr.
pub const CORDILLERA_UPLIFT_MM_YR: (f32, f32) = (0.4, 0.8);
/// Distance of an island arc from its trench at `f = 0`, and its growth per `f`, km (the
/// arc-trench gap: about 100 km).
pub const ARC_OFFSET_KM: (f32, f32) = (80.0, 30.0);
/// Half-width of an island arc, km.
pub const ARC_WIDTH_KM: f32 = 60.0;
/// Share of an island arc's height at `f = 0`, and its growth per `f`.
pub const ARC_SHARE: (f32, f32) = (0.7, 0.3);
/// Rock uplift of an island arc, mm/yr.
pub const ARC_UPLIFT_MM_YR: f32 = 0.6;
/// Half-width of a collision belt at `f = 0`, and its growth per `f`, km (the Himalaya and its
/// foothills: about 300 km at 5 cm/yr).
pub const COLLISION_WIDTH_KM: (f32, f32) = (140.0, 160.0);
/// Share of a collision belt's height at `f = 0`, and its growth per `f`.
pub const COLLISION_SHARE: (f32, f32) = (0.45, 0.55);
/// Rock uplift of a collision belt at `f = 0`, and its growth per `f`, mm/yr (the Himalaya's
/// is several mm/yr).
pub const COLLISION_UPLIFT_MM_YR: (f32, f32) = (0.5, 0.9);
/// Width of a plateau's outer edge, km.
pub const PLATEAU_EDGE_KM: f32 = 250.0;
/// Share of a plateau's height at `f = 0`, and its growth per `f` (up to `f = 1`).
pub const PLATEAU_SHARE: (f32, f32) = (0.8, 0.2);
/// Gaussian half-width of a rift valley, km (the East African rift's valleys are 40 to 60 km
/// wide).
pub const RIFT_WIDTH_KM: f32 = 45.0;
/// Distance of a rift's raised flanks from its axis, km.
pub const RIFT_FLANK_KM: f32 = 90.0;
/// Height of a rift's flanks as a share of its depth.
pub const RIFT_FLANK: f32 = 0.35;
/// The strongest intensity a rift takes.
pub const RIFT_MAX_F: f32 = 1.5;
/// Depth of the landward wall of a trench (the forearc) as a share of the trench's, and its
/// Gaussian half-width, km.
pub const FOREARC: (f32, f32) = (0.55, 35.0);

/// The feature of `role` at `d` km from the boundary with intensity `f`; `width` scales the
/// belt widths along strike (about 0.7..1.3).
pub fn feature(role: Role, d: f32, f: f32, width: f32, h: &BeltHeights) -> Feature {
    let f = f.clamp(0.0, 2.0);
    match role {
        Role::Trench => Feature { smooth_m: -h.trench_m * (SUBDUCTION_SHARE.0 + SUBDUCTION_SHARE.1 * f) * gauss(d, TRENCH_WIDTH_KM) + OUTER_RISE_M * f.min(1.0) * gauss(d - OUTER_RISE_KM, OUTER_RISE_WIDTH_KM), ..Feature::default() },
        Role::Cordillera => {
            let offset = CORDILLERA_OFFSET_KM.0 + CORDILLERA_OFFSET_KM.1 * f;
            let back = (CORDILLERA_BACK_KM.0 + CORDILLERA_BACK_KM.1 * f) * width;
            let p = if d < offset { falloff(offset - d, offset) } else { falloff(d - offset, back) };
            Feature { textured_m: h.cordillera_m * (SUBDUCTION_SHARE.0 + SUBDUCTION_SHARE.1 * f) * p, smooth_m: forearc(d, h, f), uplift_mm_yr: (CORDILLERA_UPLIFT_MM_YR.0 + CORDILLERA_UPLIFT_MM_YR.1 * f) * p, ..Feature::default() }
        }
        Role::IslandArc => {
            let offset = ARC_OFFSET_KM.0 + ARC_OFFSET_KM.1 * f;
            let p = falloff((d - offset).abs(), ARC_WIDTH_KM * width);
            Feature { textured_m: h.island_arc_m * (ARC_SHARE.0 + ARC_SHARE.1 * f) * p, smooth_m: forearc(d, h, f), uplift_mm_yr: ARC_UPLIFT_MM_YR * p, ..Feature::default() }
        }
        Role::Collision => {
            let w = (COLLISION_WIDTH_KM.0 + COLLISION_WIDTH_KM.1 * f) * width;
            let p = falloff(d, w);
            Feature { textured_m: h.collision_m * (COLLISION_SHARE.0 + COLLISION_SHARE.1 * f) * p, uplift_mm_yr: (COLLISION_UPLIFT_MM_YR.0 + COLLISION_UPLIFT_MM_YR.1 * f) * p, belt: p, ..Feature::default() }
        }
        Role::Plateau => {
            // Only fast collisions build a plateau (Tibet behind India's 5 cm/yr; none behind
            // the slow Alps): none below 2 cm/yr, 700 km deep at 5 cm/yr, 1050 km at most.
            let reach = PLATEAU_REACH_KM * ((f - PLATEAU_MIN_F) / (1.0 - PLATEAU_MIN_F)).clamp(0.0, 1.5) * width;
            if reach <= 0.0 {
                return Feature::default();
            }
            let edge = PLATEAU_EDGE_KM;
            // A fall away from the belt over the reach, so rivers on the plateau keep one
            // direction and previews drain as builds do.
            let p = if d < reach { 1.0 - PLATEAU_FALL * d / reach } else { (1.0 - PLATEAU_FALL) * falloff(d - reach, edge) };
            let height = h.plateau_m * (PLATEAU_SHARE.0 + PLATEAU_SHARE.1 * f.min(1.0));
            // Dry inside its reach, wet again over its outer edge, where rivers cut into it.
            let dry = if d < reach { 1.0 } else { falloff(d - reach, 0.5 * edge) };
            Feature { smooth_m: height * p, uplift_mm_yr: PLATEAU_UPLIFT_MM_YR * p, dry, ..Feature::default() }
        }
        Role::Rift => Feature { smooth_m: -h.rift_m * f.min(RIFT_MAX_F) * gauss(d, RIFT_WIDTH_KM) + RIFT_FLANK * h.rift_m * f.min(RIFT_MAX_F) * gauss(d - RIFT_FLANK_KM, RIFT_WIDTH_KM), ..Feature::default() },
    }
}

/// How far a plateau reaches behind a collision at 5 cm/yr, km.
pub const PLATEAU_REACH_KM: f32 = 700.0;

/// How much of its height a plateau loses from the belt to the end of its reach (Tibet's
/// surface falls about 0.15 of its height, from about 5 km behind the Himalaya to 4.3 km in
/// the north-east).
pub const PLATEAU_FALL: f32 = 0.15;

/// The intensity (closing speed over 5 cm/yr) below which a collision raises no plateau.
pub const PLATEAU_MIN_F: f32 = 0.4;

/// Rock uplift under a plateau, mm/yr: with its low erodibility it about holds the plateau's
/// height over the landscape evolution's time.
pub const PLATEAU_UPLIFT_MM_YR: f32 = 0.0;

/// The landward wall of a trench on the overriding plate.
fn forearc(d: f32, h: &BeltHeights, f: f32) -> f32 {
    -FOREARC.0 * h.trench_m * (SUBDUCTION_SHARE.0 + SUBDUCTION_SHARE.1 * f) * gauss(d, FOREARC.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: BeltHeights = BeltHeights { trench_m: 3500.0, cordillera_m: 3500.0, island_arc_m: 3500.0, collision_m: 4000.0, plateau_m: 4500.0, rift_m: 1200.0 };

    #[test]
    fn profiles_have_their_shapes() {
        // Trench deepest at the boundary.
        assert!(feature(Role::Trench, 0.0, 1.0, 1.0, &H).smooth_m < -3000.0);
        assert!(feature(Role::Trench, 400.0, 1.0, 1.0, &H).smooth_m.abs() < 10.0);
        // Cordillera and arcs peak inland, not at the boundary.
        for role in [Role::Cordillera, Role::IslandArc] {
            let at = |d| feature(role, d, 1.0, 1.0, &H).textured_m;
            assert!(at(0.0) < 1.0 && at(120.0) > 2000.0 && at(600.0) < 1.0, "{role:?}");
        }
        // Collision belts are centred and grow with speed.
        let c = |d, f| feature(Role::Collision, d, f, 1.0, &H).textured_m;
        assert!(c(0.0, 1.0) > c(100.0, 1.0));
        assert!(c(0.0, 2.0) > c(0.0, 0.5));
        assert!(c(350.0, 2.0) > 0.0 && c(350.0, 0.5) == 0.0);
        // Plateau flat, then falling.
        let p = |d| feature(Role::Plateau, d, 1.0, 1.0, &H).smooth_m;
        assert!(p(0.0) > p(300.0) && p(300.0) > 0.85 * p(0.0) && p(1300.0) < 1.0);
        // Slow collisions raise none; fast ones reach further.
        assert_eq!(feature(Role::Plateau, 0.0, 0.35, 1.0, &H), Feature::default());
        let reach = |f| (0..2000).find(|&d| feature(Role::Plateau, d as f32, f, 1.0, &H).dry < 1.0).unwrap_or(2000);
        assert!(reach(0.7) < reach(1.0) && reach(1.0) < reach(1.5), "{} {} {}", reach(0.7), reach(1.0), reach(1.5));
        // Rifts lower the boundary.
        assert!(feature(Role::Rift, 0.0, 1.0, 1.0, &H).smooth_m < -1000.0);
    }

    #[test]
    fn plateaus_are_dry_inside_and_wet_beyond_their_edge() {
        let f = |d| feature(Role::Plateau, d, 1.0, 1.0, &H);
        assert_eq!(f(0.0).dry, 1.0);
        assert_eq!(f(650.0).dry, 1.0);
        assert!(f(800.0).dry < 1.0 && f(800.0).dry > 0.0);
        assert_eq!(f(1200.0).dry, 0.0);
        // Collision belts are the belt, not dry; other roles neither.
        assert_eq!(feature(Role::Collision, 0.0, 1.0, 1.0, &H).belt, 1.0);
        for r in [Role::Trench, Role::Cordillera, Role::IslandArc, Role::Collision, Role::Rift] {
            assert_eq!(feature(r, 50.0, 1.0, 1.0, &H).dry, 0.0, "{r:?}");
        }
    }

    #[test]
    fn uplift_is_highest_in_collision_belts_and_zero_far_away() {
        let u = |r, d| feature(r, d, 1.0, 1.0, &H).uplift_mm_yr;
        assert!(u(Role::Collision, 0.0) > u(Role::Cordillera, 150.0));
        assert!(u(Role::Cordillera, 150.0) > u(Role::IslandArc, 110.0));
        for r in Role::ALL {
            assert_eq!(u(r, 5000.0), 0.0, "{r:?}");
        }
    }
}
