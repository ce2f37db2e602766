//! The To metres node: unitless elevation to metres, as the Planet node maps it, for the
//! nodes that work in physical units (climate, biomes, materials) upstream of the Planet.

use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the To metres node: none of its own, it maps with the planet's settings.
    pub struct ToMetresSettings, keys ToMetresKeys {}
}

/// The To metres node.
pub struct ToMetres;

impl Node for ToMetres {
    type Settings = ToMetresSettings;
    const META: NodeMeta = NodeMeta::new(
        "To metres",
        Category::Modify,
        "Unitless elevation to metres relative to sea level, mapped exactly as the Planet node maps it with the planet's sea level, highest peak and deepest ocean (set on the Planet node), for climate, biomes and materials.",
        IN,
        &[PortDef::field("out").with_unit(PortUnit::Of(Unit::Metre))],
        file!(),
    )
    .reading_planet()
    .costing(5);

    fn run(_: &ToMetresSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let planet = ctx.planet()?;
        Ok(vec![planet.apply(inputs.port(FIELD_IN)?).into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}
