//! The binary math nodes (Add, Subtract, Multiply, Divide, Min, Max, Power): one file for the
//! family, one node type each.

use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Divide node.
    pub struct DivideSettings, keys DivideKeys {
        /// Divisors closer to zero than this give 0.
        epsilon: f32 = float("Epsilon", 1e-6, 0.0, 1.0, Unit::None, 1e-5, "Divisors closer to zero than this give 0 instead of a huge value."),
    }
}

/// Declares a binary node without parameters: type, label, description, operation.
macro_rules! binary_node {
    ($(#[$doc:meta])* $name:ident, $label:literal, $description:literal, $op:expr) => {
        $(#[$doc])*
        pub struct $name;

        impl Node for $name {
            type Settings = NoSettings;
            const META: NodeMeta = NodeMeta::new($label, Category::Combine, $description, IN_AB, OUT, file!()).costing(5);

            fn run(_: &NoSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
                Ok(vec![inputs.port(FIELD_A)?.zip(inputs.port(FIELD_B)?, $op).into()])
            }

            fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
                Locality::Cellwise
            }
        }
    };
}

binary_node!(
    /// a + b.
    Add, "Add", "a + b", |x, y| x + y
);
binary_node!(
    /// a - b.
    Subtract, "Subtract", "a - b", |x, y| x - y
);
binary_node!(
    /// a * b.
    Multiply, "Multiply", "a * b", |x, y| x * y
);
binary_node!(
    /// The smaller of a and b.
    Min, "Min", "The smaller of a and b.", f32::min
);
binary_node!(
    /// The larger of a and b.
    Max, "Max", "The larger of a and b.", f32::max
);
binary_node!(
    /// sign(a) |a|^b, 0 where that is not finite.
    Power, "Power", "sign(a) |a|^b: a to the power b, keeping a's sign.", power
);

/// `sign(a) |a|^b`, 0 where the result is not finite.
pub fn power(x: f32, y: f32) -> f32 {
    let v = x.abs().powf(y).copysign(x);
    if v.is_finite() {
        v
    } else {
        0.0
    }
}

/// `a / b`, 0 where `|b| < epsilon` or `b == 0`.
pub fn divide(x: f32, y: f32, epsilon: f32) -> f32 {
    if y.abs() < epsilon || y == 0.0 {
        0.0
    } else {
        x / y
    }
}

/// a / b, safe at zero.
pub struct Divide;

impl Node for Divide {
    type Settings = DivideSettings;
    const META: NodeMeta = NodeMeta::new("Divide", Category::Combine, "a / b; where |b| is below epsilon the result is 0.", IN_AB, OUT, file!()).costing(5);

    fn run(s: &DivideSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let e = s.epsilon;
        Ok(vec![inputs.port(FIELD_A)?.zip(inputs.port(FIELD_B)?, move |x, y| divide(x, y, e)).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;
    use std::sync::atomic::AtomicBool;

    fn apply(kind: NodeKind, a: f32, b: f32) -> f32 {
        let cancel = AtomicBool::new(false);
        let ctx = OpContext { tile: None, n: 2, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        let inputs = [Some(Field::filled(2, a).into()), Some(Field::filled(2, b).into())];
        let out = kind.run(&kind.default_params(), &inputs, &ctx).expect("runs");
        out[0].as_field().expect("field").data()[0]
    }

    #[test]
    fn combine_values() {
        assert_eq!(apply(NodeKind::Add, 6.0, 3.0), 9.0);
        assert_eq!(apply(NodeKind::Subtract, 6.0, 3.0), 3.0);
        assert_eq!(apply(NodeKind::Multiply, 6.0, 3.0), 18.0);
        assert_eq!(apply(NodeKind::Divide, 6.0, 3.0), 2.0);
        assert_eq!(apply(NodeKind::Divide, 6.0, 0.0), 0.0, "safe at zero");
        assert_eq!(divide(6.0, 0.0, 0.0), 0.0, "safe at exactly zero");
        assert_eq!(apply(NodeKind::Min, 6.0, 3.0), 3.0);
        assert_eq!(apply(NodeKind::Max, 6.0, 3.0), 6.0);
        assert_eq!(apply(NodeKind::Power, -4.0, 0.5), -2.0);
        assert_eq!(apply(NodeKind::Power, 0.0, -1.0), 0.0, "no infinity");
    }
}
