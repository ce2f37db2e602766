//! `floor` without a library call. The baseline x86-64 target has no rounding instruction
//! (SSE4.1 brings one), so `f64::floor` and `f32::floor` call the C library, which costs more
//! than the rest of a noise octave's arithmetic. These give the same values, bit for bit.

/// `x.floor()`, bit for bit (signed zeros, infinities and NaN included).
#[inline(always)]
pub fn floor64(x: f64) -> f64 {
    // From 2^52 up every f64 is an integer (and the cast below would not hold it).
    if x.abs() < 4_503_599_627_370_496.0 {
        let t = x as i64 as f64;
        // The cast rounds towards zero; below zero a fraction needs one less. The sign of a
        // zero result is the input's (floor(-0.0) is -0.0, floor(0.5) is 0.0).
        (if x < t { t - 1.0 } else { t }).copysign(x)
    } else {
        x
    }
}

/// `x.floor()`, bit for bit (signed zeros, infinities and NaN included).
#[inline(always)]
pub fn floor32(x: f32) -> f32 {
    // From 2^23 up every f32 is an integer.
    if x.abs() < 8_388_608.0 {
        let t = x as i32 as f32;
        (if x < t { t - 1.0 } else { t }).copysign(x)
    } else {
        x
    }
}

/// `x.floor()` as an `i32`, for `x` well inside the range of `i32` (lattice coordinates).
#[inline(always)]
pub fn floor_to_i32(x: f32) -> i32 {
    let t = x as i32;
    t - i32::from(x < t as f32)
}

/// Magnitude below which [`floor_to_i32_near`] holds: 2^22.
pub const NEAR_RANGE: f32 = 4_194_304.0;

/// [`floor_to_i32`] of `x` with `|x| <` [`NEAR_RANGE`], without a conversion instruction: adding
/// 1.5 * 2^23 leaves `x` rounded to an integer in the low bits of the sum, so a row of these
/// compiles to vector additions and compares (the saturating `as i32` of [`floor_to_i32`] stays
/// one scalar conversion per value). Larger magnitudes give wrong values, not a panic.
#[inline(always)]
pub fn floor_to_i32_near(x: f32) -> i32 {
    const SHIFT: f32 = 12_582_912.0;
    let nearest = ((x + SHIFT).to_bits() as i32).wrapping_sub(SHIFT.to_bits() as i32);
    nearest - i32::from(x < nearest as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_near_floor_is_the_floor_below_its_range() {
        let mut state = 0x2545_F491u32;
        let edges = [0.0f32, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.499_999_97, -0.499_999_97, 1e-30, -1e-30, NEAR_RANGE - 0.5, -(NEAR_RANGE - 0.5), NEAR_RANGE - 1.0, -NEAR_RANGE];
        let randoms = (0..400_000).map(|k| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            // Uniform bits below 2^22 in magnitude, and small values with many fraction bits.
            let x = (state >> 9) as f32 * if k % 2 == 0 { 0.5 } else { 1.0 / 4096.0 };
            if state & 1 == 0 {
                x
            } else {
                -x
            }
        });
        for x in edges.into_iter().chain(randoms) {
            assert_eq!(floor_to_i32_near(x), x.floor() as i32, "floor_to_i32_near({x:e})");
        }
    }

    #[test]
    fn the_floors_are_the_library_s_bit_for_bit() {
        let specials64 = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1e-300, -1e-300, 4_503_599_627_370_495.5, -4_503_599_627_370_495.5, 4_503_599_627_370_496.0, 1e300, -1e300, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE, -f64::MIN_POSITIVE];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let randoms = (0..200_000).map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            f64::from_bits(state)
        });
        for x in specials64.into_iter().chain(randoms).chain((-4000..4000).map(|k| k as f64 * 0.37)) {
            assert!(floor64(x).to_bits() == x.floor().to_bits() || (x.is_nan() && floor64(x).is_nan()), "floor64({x:e})");
            let y = x as f32;
            if y.abs() < 1e9 {
                assert_eq!(floor_to_i32(y), y.floor() as i32, "floor_to_i32({y:e})");
            }
            assert!(floor32(y).to_bits() == y.floor().to_bits() || (y.is_nan() && floor32(y).is_nan()), "floor32({y:e})");
        }
        for y in [8_388_607.5f32, -8_388_607.5, 8_388_608.0, -0.0, 0.0, -0.25, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(floor32(y).to_bits(), y.floor().to_bits(), "floor32({y})");
        }
    }
}
