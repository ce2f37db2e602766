//! The shapes of the Earth-like relief away from the plate boundaries' own profiles
//! ([`super::belts`]): the ocean floor's hills, the continents' interiors, shelves, slopes and
//! rises, how the features vary along and across their boundaries, the small-scale relief,
//! and the smoothing of the boundaries' speeds. Heights in metres, distances in km, noise
//! features counted around the equator.

/// Height of the abyssal hills on young floor, m: the fBm's amplitude (Earth's abyssal hills
/// stand 50 to 300 m above the floor around them).
pub(super) const ABYSSAL_HILLS_M: f32 = 250.0;
/// Age at which sediment has buried the abyssal hills down to [`HILLS_LEAST_SHARE`], Myr
/// (they fade linearly with age before).
pub(super) const HILLS_BURIED_MYR: f32 = 200.0;
/// Share of their height the abyssal hills keep under the oldest floor's sediment.
pub(super) const HILLS_LEAST_SHARE: f32 = 0.2;
/// Features of the abyssal hills' noise around the equator (about 250 km apart on Earth).
pub(super) const HILLS_FEATURES: f32 = 160.0;
/// Height of the land at the coast, m.
pub(super) const COAST_M: f32 = 10.0;
/// Lowest height of a continent's interior, m, and the spread its noise adds (interiors from
/// 250 to 670 m: Earth's continents stand about 800 m on average with their ranges, most
/// lowland interiors at 200 to 600 m).
pub(super) const INTERIOR_LOW_M: f32 = 250.0;
/// See [`INTERIOR_LOW_M`].
pub(super) const INTERIOR_SPREAD_M: f32 = 420.0;
/// Features of the interiors' noise around the equator (broad basins and swells, about 8000
/// km apart on Earth).
pub(super) const INTERIOR_FEATURES: f32 = 5.0;
/// Distance inland over which the land rises from the coast to its interior's height, km
/// (coastal plains).
pub(super) const INLAND_RISE_KM: f32 = 450.0;
/// Width of the continental shelf at age 0, km, and what it widens per Myr of the floor
/// beside it (old passive margins carry wide shelves).
pub(super) const SHELF_KM: (f32, f32) = (35.0, 0.8);
/// Widest shelf, km (Earth's average is 80 km; the Siberian shelf reaches 1500).
pub(super) const SHELF_MAX_KM: f32 = 180.0;
/// Width of the continental slope, km (Earth: 50 to 100 km): also where the crust output falls
/// from continental to oceanic.
pub(super) const CONTINENTAL_SLOPE_KM: f32 = 70.0;
/// Width of the continental rise, km (Earth: 100 to 1000 km).
pub(super) const CONTINENTAL_RISE_KM: f32 = 300.0;
/// Along-strike variation of the boundary features: the noise's share, its features around
/// the equator and the least factor (ranges swell and narrow along their length, as the Andes
/// from the Altiplano to Patagonia).
pub(super) const STRIKE: (f32, f32, f32) = (0.7, 7.0, 0.2);
/// Variation of the features' widths: the noise's share, its features and the least factor.
pub(super) const WIDTH: (f32, f32, f32) = (0.6, 4.0, 0.4);
/// Ridged texture of the ranges: its noise's features around the equator, the sharpness of its
/// ridges, and the texture's base and gain (ranges are crests and valleys, not domes).
pub(super) const RIDGES: (f32, f32, f32, f32) = (40.0, 1.8, 0.55, 0.75);
/// Distance seaward of the coast over which collision belts, plateaus and cordilleras fade
/// out, km.
pub(super) const OROGEN_FADE_KM: f32 = 250.0;
/// Bounds of the along-strike factor of a collision belt's smooth part.
pub(super) const COLLISION_STRIKE: (f32, f32) = (0.7, 1.2);
/// Bounds of the along-strike factor of a plateau's smooth part (Tibet is flat: it varies less
/// than the range beside it).
pub(super) const PLATEAU_STRIKE: (f32, f32) = (0.85, 1.1);
/// Small-scale relief on continental crust: its height at sea level, m, its share of the height
/// above, and its noise's features around the equator (about 1700 km apart).
pub(super) const DETAIL: (f32, f32, f32) = (200.0, 0.12, 24.0);
/// Share of a hotspot volcano's height that continental crust takes away (continental
/// hotspots make broad swells and traps more than tall cones).
pub(super) const VOLCANO_DAMPING: f32 = 0.85;
/// Boundary smoothing: the region resolution it is made for and the region rings at it (the
/// rings grow with the square of the resolution over it).
pub(super) const SMOOTHING: (f32, f32) = (50.0, 4.0);
/// Slowest spreading a ridge is given, cm/yr (full rate; Earth's ultraslow ridges spread at
/// about 1).
pub(super) const SLOWEST_SPREADING_CM_YR: f32 = 0.4;
/// Blur of the spreading rates along the ridges, degrees of arc.
pub(super) const HALF_RATE_BLUR_DEG: f32 = 2.0;
/// A boundary feature's intensity: the closing speed that makes it 1, cm/yr, and its most.
pub(super) const INTENSITY: (f32, f32) = (5.0, 2.0);
/// Blur of the features' intensities along their boundaries, degrees of arc.
pub(super) const INTENSITY_BLUR_DEG: f32 = 1.0;

/// The uplands of the continents' interiors (old orogens and swells, as the Appalachians, the
/// Urals, the Brazilian and Deccan highlands): where a noise of `features` around the equator
/// rises above `threshold` (over a `ramp` of the noise), fading in over `inland_km` from the
/// coast. About a third of the interiors.
pub(super) struct Uplands {
    /// Features of the noise around the equator (about 3000 km apart on Earth).
    pub features: f32,
    /// Noise value above which ground is upland.
    pub threshold: f32,
    /// Noise range over which the uplands rise to their full height.
    pub ramp: f32,
    /// Distance from the coast over which they fade in, km.
    pub inland_km: f32,
    /// Distance from a rift within which they fade out, km (a rift's valley and flanks span
    /// about 300 km).
    pub rift_clear_km: f32,
}

/// The rock-strength noise: features around the equator (patches about 160 km apart on Earth,
/// a few cells of a 512 build, the scale of massifs and plutons) and octaves.
pub(super) const ROCK: (f32, usize) = (250.0, 3);

/// See [`Uplands`].
pub(super) const UPLANDS: Uplands = Uplands { features: 12.0, threshold: -0.02, ramp: 0.25, inland_km: 200.0, rift_clear_km: 400.0 };

/// Uplift of a plateau's dry interior on top of its boundary's, mm/yr: the slow rise of thick,
/// buoyant crust (Tibet still rises by about 1 mm/yr in places), which keeps the plateau's
/// height through the landscape evolution while its rivers cut only the rims.
pub(super) const PLATEAU_UPLIFT_MM_YR: f32 = 0.05;
