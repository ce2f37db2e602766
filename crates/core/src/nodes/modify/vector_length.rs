//! The Vector length node: the length of each vector of a vector field.

use crate::nodes::prelude::*;
use crate::planet::VectorField;
use rayon::prelude::*;

/// The Vector length node.
pub struct VectorLength;

crate::ports! {
    const INPUTS: In = [
        /// The vectors measured.
        VECTOR: VectorField = PortDef::of("in", PortType::Vector),
    ];
}

impl Node for VectorLength {
    type Settings = NoSettings;
    const META: NodeMeta = NodeMeta::new("Vector length", Category::Modify, "Length of each vector (for example slope steepness from a Gradient).", INPUTS, OUT, file!()).costing(5);

    fn run(_: &NoSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![vector_length(inputs.port(VECTOR)?)?.into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

/// Length of each vector; an error if the vector field does not hold `6 n²` vectors.
pub fn vector_length(v: &VectorField) -> Result<Field, OpError> {
    let data = v.data.par_iter().map(|g| (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).sqrt()).collect();
    Ok(Field::from_vec_on(v.grid(), data)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_a_malformed_field_is_an_error() {
        let v = VectorField { n: 1, tile: None, data: vec![[3.0, 4.0, 0.0]; 6] };
        assert_eq!(vector_length(&v).expect("six vectors").data(), &[5.0; 6]);
        assert!(vector_length(&VectorField { n: 2, tile: None, data: vec![[0.0; 3]; 6] }).is_err());
    }
}
