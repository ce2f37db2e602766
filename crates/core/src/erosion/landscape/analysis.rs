//! Measures of a drainage network that geomorphology compares with real rivers: the
//! slope-area relation (its exponent is minus the concavity m / n at steady state) and Hack's
//! law (main stream length against drainage area, exponent 0.5..0.65 on Earth).

use super::grid::NONE;

/// Least-squares slope of `y` against `x`, or `None` with fewer than 3 points or no spread.
pub fn regression_slope(points: &[(f64, f64)]) -> Option<f64> {
    if points.len() < 3 {
        return None;
    }
    let k = points.len() as f64;
    let (mx, my) = points.iter().fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / k, b + y / k));
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for &(x, y) in points {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
    }
    (sxx > 0.0).then(|| sxy / sxx)
}

/// Land cells ordered so that every cell comes before its receiver (sources first), from the
/// receivers alone.
pub fn upstream_first(receiver: &[u32]) -> Vec<usize> {
    let cells = receiver.len();
    let mut inflow = vec![0u32; cells];
    for &r in receiver {
        if r != NONE {
            inflow[r as usize] += 1;
        }
    }
    let mut order: Vec<usize> = (0..cells).filter(|&c| inflow[c] == 0).collect();
    let mut i = 0;
    while i < order.len() {
        let r = receiver[order[i]];
        if r != NONE {
            let r = r as usize;
            inflow[r] -= 1;
            if inflow[r] == 0 {
                order.push(r);
            }
        }
        i += 1;
    }
    order
}

/// Length of the longest flow path from a divide down to each cell, m.
pub fn flow_length(receiver: &[u32], receiver_m: &[f32]) -> Vec<f64> {
    let mut length = vec![0f64; receiver.len()];
    for c in upstream_first(receiver) {
        let r = receiver[c];
        if r != NONE {
            let l = length[c] + f64::from(receiver_m[c]);
            if l > length[r as usize] {
                length[r as usize] = l;
            }
        }
    }
    length
}

/// Hack's exponent `h` of `L ~ A^h` over the cells whose drainage area is at least
/// `min_area_km2` (and at most `max_area_km2`): `L` the longest flow path to the cell.
pub fn hack_exponent(receiver: &[u32], receiver_m: &[f32], area_km2: &[f32], min_area_km2: f32, max_area_km2: f32) -> Option<f64> {
    let length = flow_length(receiver, receiver_m);
    let points: Vec<(f64, f64)> = (0..receiver.len()).filter(|&c| receiver[c] != NONE && area_km2[c] >= min_area_km2 && area_km2[c] <= max_area_km2 && length[c] > 0.0).map(|c| (f64::from(area_km2[c]).ln(), length[c].ln())).collect();
    regression_slope(&points)
}

/// The slope-area exponent: the slope of `log S` against `log A` over the cells with drainage
/// area at least `min_area_km2` and a positive slope to their receiver (`S` from the heights in
/// metres). At steady state it is `-m / n`.
pub fn slope_area_exponent(height_m: &[f32], receiver: &[u32], receiver_m: &[f32], area_km2: &[f32], min_area_km2: f32) -> Option<f64> {
    let points: Vec<(f64, f64)> = (0..receiver.len())
        .filter_map(|c| {
            let r = receiver[c];
            if r == NONE || area_km2[c] < min_area_km2 || height_m[r as usize] < 0.0 {
                return None;
            }
            let s = f64::from(height_m[c] - height_m[r as usize]) / f64::from(receiver_m[c]);
            (s > 0.0).then(|| (f64::from(area_km2[c]).ln(), s.ln()))
        })
        .collect();
    regression_slope(&points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_line_and_a_chain() {
        let pts: Vec<(f64, f64)> = (0..10).map(|i| (i as f64, 3.0 - 0.45 * i as f64)).collect();
        assert!((regression_slope(&pts).expect("spread") + 0.45).abs() < 1e-12);
        // 0 <- 1 <- 2 <- 3, and 4 -> 2.
        let receiver = [NONE, 0, 1, 2, 2];
        let length = flow_length(&receiver, &[1.0; 5]);
        assert_eq!(length, vec![3.0, 2.0, 1.0, 0.0, 0.0]);
    }
}
