//! The Colour ramp node: values through an editable gradient to colours.

use super::mix;
use crate::nodes::prelude::*;
use crate::planet::colour::srgb_to_linear3;

crate::settings! {
    /// Settings of the Colour ramp node.
    pub struct ColourRampSettings, keys ColourRampKeys {
        /// Input value at the gradient's start.
        min: f32 = float("From", -1.0, -100000.0, 100000.0, Unit::None, 0.01, "Input value at the left end of the gradient (values below take its first colour)."),
        /// Input value at the gradient's end.
        max: f32 = float("To", 1.0, -100000.0, 100000.0, Unit::None, 0.01, "Input value at the right end of the gradient (values above take its last colour)."),
        /// Colour stops.
        gradient: Vec<[f32; 4]> = gradient("Gradient", &[[0.0, 0.05, 0.12, 0.35], [0.5, 0.85, 0.8, 0.55], [0.7, 0.3, 0.5, 0.2], [1.0, 0.95, 0.95, 0.97]], "Colour stops: drag a stop's position, click its swatch to pick a colour; + adds a stop, x removes one. Colours are blended in linear light."),
    }
}

/// The Colour ramp node.
pub struct ColourRamp;

crate::ports! {
    const OUTPUTS: Out = [
        /// The mapped colours (linear RGB).
        COLOUR: ColourField = PortDef::of("colour", PortType::Colour),
    ];
}

impl Node for ColourRamp {
    type Settings = ColourRampSettings;
    const META: NodeMeta = NodeMeta::new("Colour ramp", Category::Texture, "Maps values through an editable colour gradient (World Machine's colorizer, Blender's Color Ramp).", IN, OUTPUTS, file!()).costing(13);

    fn run(s: &ColourRampSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let f = inputs.port(FIELD_IN)?;
        let ramp = Ramp::new(&s.gradient);
        let span = s.max - s.min;
        Ok(vec![ColourField::from_fn_on(f.grid(), |c| {
            let t = if span.abs() > f32::EPSILON { (f.data()[c] - s.min) / span } else { 0.5 };
            ramp.at(t)
        })
        .into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

/// A gradient with its stops sorted and in linear RGB.
pub struct Ramp {
    stops: Vec<(f32, [f32; 3])>,
}

impl Ramp {
    /// From stops `[position, r, g, b]` (sRGB).
    pub fn new(stops: &[[f32; 4]]) -> Ramp {
        let mut stops: Vec<(f32, [f32; 3])> = stops.iter().map(|s| (s[0], srgb_to_linear3([s[1], s[2], s[3]]))).collect();
        stops.sort_by(|a, b| a.0.total_cmp(&b.0));
        Ramp { stops }
    }

    /// The colour at `t` (0 the first stop's position ... 1), clamped to the end colours.
    pub fn at(&self, t: f32) -> [f32; 3] {
        let Some(&(first_t, first)) = self.stops.first() else { return [0.0; 3] };
        if t <= first_t || t.is_nan() {
            return first;
        }
        for w in self.stops.windows(2) {
            let ((t0, c0), (t1, c1)) = (w[0], w[1]);
            if t <= t1 {
                return mix(c0, c1, ((t - t0) / (t1 - t0).max(1e-6)).clamp(0.0, 1.0));
            }
        }
        self.stops[self.stops.len() - 1].1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ramp_hits_its_stops_and_clamps() {
        let r = Ramp::new(&[[1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]]);
        assert_eq!(r.at(-1.0), [0.0; 3]);
        assert_eq!(r.at(2.0), [1.0; 3]);
        let mid = r.at(0.5);
        assert!((mid[0] - 0.5).abs() < 1e-6, "blended in linear light: {mid:?}");
    }
}
