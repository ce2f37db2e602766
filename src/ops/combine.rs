//! Combine nodes: two or three fields in, one out, value by value.

use super::kinds::NodeKind;
use crate::planet::Field;

/// Applies a two-input combine node.
pub fn binary(kind: NodeKind, a: &Field, b: &Field, epsilon: f32) -> Field {
    match kind {
        NodeKind::Subtract => a.zip(b, |x, y| x - y),
        NodeKind::Multiply => a.zip(b, |x, y| x * y),
        NodeKind::Divide => a.zip(b, move |x, y| if y.abs() < epsilon || y == 0.0 { 0.0 } else { x / y }),
        NodeKind::Min => a.zip(b, f32::min),
        NodeKind::Max => a.zip(b, f32::max),
        NodeKind::Power => a.zip(b, |x, y| {
            let v = x.abs().powf(y).copysign(x);
            if v.is_finite() {
                v
            } else {
                0.0
            }
        }),
        _ => a.zip(b, |x, y| x + y),
    }
}

/// The Blend node: `a (1 - m) + b m` with the mask clamped to 0..1.
pub fn blend(a: &Field, b: &Field, mask: &Field) -> Field {
    let ab = a.zip(b, |x, y| y - x);
    let mut out = a.clone();
    for ((o, d), m) in out.data_mut().iter_mut().zip(ab.data()).zip(mask.data()) {
        *o += d * m.clamp(0.0, 1.0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combine_values() {
        let a = Field::filled(2, 6.0);
        let b = Field::filled(2, 3.0);
        let z = Field::filled(2, 0.0);
        assert_eq!(binary(NodeKind::Add, &a, &b, 0.0).data()[0], 9.0);
        assert_eq!(binary(NodeKind::Subtract, &a, &b, 0.0).data()[0], 3.0);
        assert_eq!(binary(NodeKind::Multiply, &a, &b, 0.0).data()[0], 18.0);
        assert_eq!(binary(NodeKind::Divide, &a, &b, 1e-6).data()[0], 2.0);
        assert_eq!(binary(NodeKind::Divide, &a, &z, 1e-6).data()[0], 0.0, "safe at zero");
        assert_eq!(binary(NodeKind::Divide, &a, &z, 0.0).data()[0], 0.0, "safe at exactly zero");
        assert_eq!(binary(NodeKind::Min, &a, &b, 0.0).data()[0], 3.0);
        assert_eq!(binary(NodeKind::Max, &a, &b, 0.0).data()[0], 6.0);
        let neg = Field::filled(2, -4.0);
        let half = Field::filled(2, 0.5);
        assert_eq!(binary(NodeKind::Power, &neg, &half, 0.0).data()[0], -2.0);
        assert_eq!(binary(NodeKind::Power, &z, &Field::filled(2, -1.0), 0.0).data()[0], 0.0, "no infinity");
        let m = Field::filled(2, 0.25);
        assert_eq!(blend(&a, &b, &m).data()[0], 6.0 - 0.75);
        assert_eq!(blend(&a, &b, &Field::filled(2, 7.0)).data()[0], 3.0, "mask clamped");
    }
}
