//! The Normalize node: stretches the field linearly to a target range.

use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Normalize node.
    pub struct NormalizeSettings, keys NormalizeKeys {
        /// Target of the smallest value.
        min: f32 = float("Min", -1.0, -100.0, 100.0, Unit::None, 0.01, "Target of the smallest value."),
        /// Target of the largest value.
        max: f32 = float("Max", 1.0, -100.0, 100.0, Unit::None, 0.01, "Target of the largest value."),
    }
}

/// The Normalize node.
pub struct Normalize;

impl Node for Normalize {
    type Settings = NormalizeSettings;
    const META: NodeMeta = NodeMeta::new("Normalize", Category::Modify, "Stretches the field linearly so its smallest value becomes min and its largest max.", IN, OUT, file!()).costing(5);

    fn run(s: &NormalizeSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![normalize(inputs.port(FIELD_IN)?, s.min, s.max).into()])
    }

    /// On a tile finer than the whole-planet run, the tile's own input stretched as the run
    /// stretched the planet's (by the run's input range), so its detail is the tile's.
    fn refine(s: &NormalizeSettings, r: &Refine) -> Result<Vec<Option<Value>>, OpError> {
        let (range, tile) = range_and_tile_input(r)?;
        Ok(vec![Some(normalize_in(&tile, range, s.min, s.max).into())])
    }

    fn refines_from(_s: &NormalizeSettings) -> RefineFrom {
        RefineFrom::TileAndRunInputs
    }
}

/// For a node that maps its input through the input's range on the whole planet (Normalize,
/// Terrace) and refines on a tile: the range of its input in the whole-planet run, and its
/// input on the tile.
pub(crate) fn range_and_tile_input(r: &Refine) -> Result<((f32, f32), Arc<Field>), OpError> {
    let whole = r.whole_inputs.first().and_then(Option::as_ref).and_then(Value::as_field).ok_or_else(|| OpError::Invalid("internal error: the node refines without its whole-planet input".to_string()))?;
    let tile = (r.input_on)(FIELD_IN.index(), r.grid)?;
    let tile = tile.as_field().cloned().ok_or_else(|| OpError::Invalid("internal error: the node's input on a tile is not a field".to_string()))?;
    Ok((whole.min_max(), tile))
}

/// Linear stretch of `[min, max]` of the field to `[lo, hi]`; a flat field becomes the middle.
pub fn normalize(f: &Field, lo: f32, hi: f32) -> Field {
    normalize_in(f, f.min_max(), lo, hi)
}

/// [`normalize`] stretching `(a, b)` instead of the field's own range (a tile's values by the
/// whole planet's range).
pub fn normalize_in(f: &Field, (a, b): (f32, f32), lo: f32, hi: f32) -> Field {
    if b - a <= f32::EPSILON * a.abs().max(1.0) {
        return Field::filled_on(f.grid(), 0.5 * (lo + hi));
    }
    let s = (hi - lo) / (b - a);
    f.map(|x| lo + (x - a) * s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stretches_to_the_range_and_flat_becomes_the_middle() {
        let f = Field::from_vec(1, vec![-2.0, -1.0, 0.0, 1.0, 2.0, 3.0]).expect("6 values");
        assert_eq!(normalize(&f, 0.0, 1.0).data(), &[0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(normalize(&Field::filled(1, 3.0), 0.0, 1.0).data()[0], 0.5);
    }
}
