//! The Blend node: a where the mask is 0, b where it is 1.

use crate::nodes::prelude::*;

/// The Blend node.
pub struct Blend;

crate::ports! {
    const INPUTS: In = [
        /// The field where the mask is 0.
        A: Field = FIELD_A.def(),
        /// The field where the mask is 1.
        B: Field = FIELD_B.def(),
        /// The mix, 0..1 (clamped).
        MASK: Field = PortDef::field("mask"),
    ];
}

impl Node for Blend {
    type Settings = NoSettings;
    const META: NodeMeta = NodeMeta::new("Blend", Category::Combine, "a where the mask is 0, b where it is 1, mixed in between (mask clamped to 0..1).", INPUTS, OUT, file!()).costing(8);

    fn run(_: &NoSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![blend(inputs.port(A)?, inputs.port(B)?, inputs.port(MASK)?).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

/// `a (1 - m) + b m` with the mask clamped to 0..1.
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
    fn blend_by_mask() {
        let (a, b) = (Field::filled(2, 6.0), Field::filled(2, 3.0));
        assert_eq!(blend(&a, &b, &Field::filled(2, 0.25)).data()[0], 6.0 - 0.75);
        assert_eq!(blend(&a, &b, &Field::filled(2, 7.0)).data()[0], 3.0, "mask clamped");
    }
}
