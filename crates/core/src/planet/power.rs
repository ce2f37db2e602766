//! `a` to the power `m` for many positive `a` at once, in plain IEEE arithmetic (no library
//! call, no fused multiply-add), so the compiler can run four values per AVX2 instruction and
//! every machine gets the same bits. The landscape evolution raises every land cell's drainage
//! area to the power m in every step; the C library's `pow` one value at a time was a third of
//! the stream-power update.
//!
//! Method: `a = 2^e x` with `x` in `[sqrt(1/2), sqrt(2))`, so `a^m = 2^(m e) x^m`. The
//! product `m e` is split exactly into an integer `k` and a fraction (`m`'s leading 26 bits
//! times `e` is exact); `ln x = 2 atanh(s)` with `s = (x - 1) / (x + 1)`, `|s| < 0.172`, by its
//! odd series to `s^21`; what is left, `y` = (the fraction) ln 2 + `m ln x`, is below 1.5 in
//! size, is split again as `j ln 2 + r` with `|r| <= ln 2 / 2`, and `e^r` comes from its Taylor
//! series to `r^13` (both truncation errors are below 1e-17). The result is `e^r 2^(k + j)`.
//! Its relative error is a few units in the last place, whatever the size of the power.

/// ln 2 in two parts: the high part is ln 2's leading 21 bits, so `j * LN2_HI` is exact for
/// the small integers `j` used here.
const LN2_HI: f64 = f64::from_bits(std::f64::consts::LN_2.to_bits() & !0xFFFF_FFFF);
/// ln 2 minus [`LN2_HI`].
const LN2_LO: f64 = std::f64::consts::LN_2 - LN2_HI;
/// 1.5 * 2^52: adding it rounds a number below 2^51 in size to an integer, which then sits in
/// the low bits of the sum.
const ROUNDER: f64 = 6_755_399_441_055_744.0;
/// 1 / k! for k from 0 to 13.
const INVERSE_FACTORIALS: [f64; 14] = [1.0, 1.0, 1.0 / 2.0, 1.0 / 6.0, 1.0 / 24.0, 1.0 / 120.0, 1.0 / 720.0, 1.0 / 5_040.0, 1.0 / 40_320.0, 1.0 / 362_880.0, 1.0 / 3_628_800.0, 1.0 / 39_916_800.0, 1.0 / 479_001_600.0, 1.0 / 6_227_020_800.0];
/// 2^52, whose low mantissa bits can hold a small integer (the biased exponent).
const TWO_52: f64 = 4_503_599_627_370_496.0;
/// Largest `|m e|` handled (`e` the binary exponent of `a`): the result stays a normal number.
const MAX_EXPONENT: f64 = 1000.0;

/// `a^m` for `a` a positive finite normal number and `m` finite; 0 for `a` of 0, below the
/// smallest normal number (2.2e-308) or negative. A power beyond about `2^±1000` is not
/// handled (it comes out finite and wrong). Relative error a few units in the last place.
#[inline(always)]
pub fn power(a: f64, m: f64) -> f64 {
    let bits = a.to_bits();
    // The mantissa as x in [1, 2), halved above sqrt(2) (the exponent then one more).
    let x = f64::from_bits((bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000);
    let big = x > std::f64::consts::SQRT_2;
    let x = if big { x * 0.5 } else { x };
    // The biased exponent as a float: its eleven bits in the low bits of 2^52.
    let biased = f64::from_bits(TWO_52.to_bits() | ((bits >> 52) & 0x7FF)) - TWO_52;
    let e = biased - 1023.0 + if big { 1.0 } else { 0.0 };
    let f = x - 1.0;
    let s = f / (2.0 + f);
    let z = s * s;
    // The series in z by Estrin's scheme (short chains of dependent operations).
    let (z2, z4) = (z * z, z * z * (z * z));
    let low = (1.0 + z * (1.0 / 3.0)) + z2 * (1.0 / 5.0 + z * (1.0 / 7.0));
    let mid = (1.0 / 9.0 + z * (1.0 / 11.0)) + z2 * (1.0 / 13.0 + z * (1.0 / 15.0));
    let high = (1.0 / 17.0 + z * (1.0 / 19.0)) + z2 * (1.0 / 21.0);
    let series = low + z4 * (mid + z4 * high);
    let ln_x = 2.0 * s * series;
    // m e = k + fraction, exactly: m's leading 26 bits times e's at most 11 are exact.
    let m_hi = f64::from_bits(m.to_bits() & !((1u64 << 27) - 1));
    let m_lo = m - m_hi;
    let whole = (m_hi * e).clamp(-MAX_EXPONENT, MAX_EXPONENT);
    let t_k = whole + ROUNDER;
    let k = t_k - ROUNDER;
    let y = ((whole - k) + m_lo * e) * std::f64::consts::LN_2 + m * ln_x;
    // y = j ln 2 + r.
    let t_j = y * std::f64::consts::LOG2_E + ROUNDER;
    let j = t_j - ROUNDER;
    let r = (y - j * LN2_HI) - j * LN2_LO;
    // e^r to r^13 by Estrin's scheme: pairs of terms, then pairs of pairs.
    let (r2, r4) = (r * r, r * r * (r * r));
    let pair = |k: usize| INVERSE_FACTORIALS[k] + r * INVERSE_FACTORIALS[k + 1];
    let (p0, p1, p2, p3, p4, p5, p6) = (pair(0), pair(2), pair(4), pair(6), pair(8), pair(10), pair(12));
    let q0 = p0 + r2 * p1;
    let q1 = p2 + r2 * p3;
    let q2 = p4 + r2 * p5;
    let r8 = r4 * r4;
    let exp_r = (q0 + r4 * q1) + r8 * (q2 + r4 * p6);
    // 2^(k + j) from the integers' bits in the low bits of `t_k` and `t_j`.
    let rounder = ROUNDER.to_bits();
    let k_bits = t_k.to_bits().wrapping_sub(rounder).wrapping_add(t_j.to_bits().wrapping_sub(rounder));
    let scale = f64::from_bits(k_bits.wrapping_add(1023) << 52);
    let out = exp_r * scale;
    if a >= f64::MIN_POSITIVE {
        out
    } else {
        0.0
    }
}

/// Every value of `values` raised to the power `m` in place, as [`power`] gives it (the same
/// bits): in AVX2 vector instructions where the CPU has them, plainly elsewhere.
pub fn powers_in_place(values: &mut [f64], m: f64) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 support was detected at run time just above.
        unsafe { powers_avx2(values, m) };
        return;
    }
    powers_plain(values, m);
}

/// [`powers_in_place`] compiled with AVX2 (and without FMA, so the bits are [`power`]'s).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn powers_avx2(values: &mut [f64], m: f64) {
    powers_plain(values, m);
}

/// [`powers_in_place`] as the compiler's target allows.
#[inline(always)]
fn powers_plain(values: &mut [f64], m: f64) {
    for v in values.iter_mut() {
        *v = power(*v, m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_are_the_library_s_to_a_few_units_in_the_last_place() {
        let mut worst = 0.0f64;
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for i in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // a from 1e-30 to 1e30, m from 0.01 to 3 (the Area exponent's range), and m of f64's
            // every bit as well as an f32's.
            let a = 10f64.powf((state % 600_001) as f64 / 10_000.0 - 30.0) * (1.0 + (i % 7) as f64 * 0.01);
            let m = 0.01 + (state >> 11) as f64 / (1u64 << 53) as f64 * 2.99;
            let m = if i % 2 == 0 { m } else { f64::from(m as f32) };
            let exact = a.powf(m);
            worst = worst.max(((power(a, m) - exact) / exact).abs());
        }
        assert!(worst < 2e-15, "worst relative error {worst:e}");
        for (a, m) in [(1.0, 0.45), (2.0, 1.0), (4.0, 0.5), (1e12, 0.45), (0.5, 3.0), (f64::MIN_POSITIVE, 0.5)] {
            let exact = f64::powf(a, m);
            assert!(((power(a, m) - exact) / exact).abs() < 1e-14, "{a}^{m}");
        }
    }

    #[test]
    fn zero_and_below_give_zero_and_large_exponents_stay_finite() {
        assert_eq!(power(0.0, 0.45), 0.0);
        assert_eq!(power(-3.0, 0.45), 0.0);
        assert_eq!(power(1e-310, 0.45), 0.0);
        let huge = power(1e100, 3.0);
        assert!(((huge - 1e300) / 1e300).abs() < 1e-14, "{huge}");
        assert!(power(1e300, 3.0).is_finite());
        assert!(((power(1e-100, 3.0) - 1e-300) / 1e-300).abs() < 1e-14);
    }

    #[test]
    fn lanes_give_each_value_s_own_bits() {
        let mut values: Vec<f64> = (0..1003).map(|i| (i as f64 * 7.31).exp2().min(1e200) * 1.37 + i as f64).collect();
        values[17] = 0.0;
        let alone: Vec<u64> = values.iter().map(|&a| power(a, 0.45).to_bits()).collect();
        powers_in_place(&mut values, 0.45);
        let together: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        assert_eq!(alone, together);
    }
}
