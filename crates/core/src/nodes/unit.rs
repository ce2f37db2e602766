//! [`Unit`]: the one description of a physical unit, with the symbol people read in the editor
//! and the ASCII form written into manifests, Python docstrings and error texts meant for files.

/// A unit of a parameter's or an output's values.
///
/// [`Unit::symbol`] is what the editor shows (`m³/s`, `°C`, `km²`); [`Unit::ascii`] is what
/// files carry (`m3/s`, `degC`, `km2`). Units particular to one model (its time and height
/// units, per-resolution counts) are [`Unit::Named`], shown and written as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// No unit (ratios, factors, unitless heights, masks).
    None,
    /// Metres.
    Metre,
    /// Kilometres.
    Kilometre,
    /// Square kilometres.
    SquareKilometre,
    /// Degrees of angle (slopes, latitudes, directions).
    Degree,
    /// Degrees Celsius.
    Celsius,
    /// Degrees Celsius per kilometre (lapse rates).
    CelsiusPerKilometre,
    /// Millimetres per year (rain, uplift).
    MillimetrePerYear,
    /// Centimetres per year (plate motion).
    CentimetrePerYear,
    /// Metres per year.
    MetrePerYear,
    /// Metres per second (wind).
    MetrePerSecond,
    /// Square metres per year (diffusivities).
    SquareMetrePerYear,
    /// Cubic metres per second (discharge).
    CubicMetrePerSecond,
    /// Years.
    Year,
    /// Millions of years.
    MillionYears,
    /// A unit of one model, shown and written as this text (ASCII).
    Named(&'static str),
}

impl Unit {
    /// Every unit with a variant of its own (what output ports may carry).
    pub const KNOWN: &'static [Unit] = &[
        Unit::Metre,
        Unit::Kilometre,
        Unit::SquareKilometre,
        Unit::Degree,
        Unit::Celsius,
        Unit::CelsiusPerKilometre,
        Unit::MillimetrePerYear,
        Unit::CentimetrePerYear,
        Unit::MetrePerYear,
        Unit::MetrePerSecond,
        Unit::SquareMetrePerYear,
        Unit::CubicMetrePerSecond,
        Unit::Year,
        Unit::MillionYears,
    ];

    /// The symbol shown to people, with superscripts and degree signs; empty for no unit.
    pub const fn symbol(self) -> &'static str {
        match self {
            Unit::None => "",
            Unit::Metre => "m",
            Unit::Kilometre => "km",
            Unit::SquareKilometre => "km²",
            Unit::Degree => "°",
            Unit::Celsius => "°C",
            Unit::CelsiusPerKilometre => "°C/km",
            Unit::MillimetrePerYear => "mm/yr",
            Unit::CentimetrePerYear => "cm/yr",
            Unit::MetrePerYear => "m/yr",
            Unit::MetrePerSecond => "m/s",
            Unit::SquareMetrePerYear => "m²/yr",
            Unit::CubicMetrePerSecond => "m³/s",
            Unit::Year => "years",
            Unit::MillionYears => "Myr",
            Unit::Named(text) => text,
        }
    }

    /// The ASCII form written into files (manifests, docstrings); empty for no unit.
    pub const fn ascii(self) -> &'static str {
        match self {
            Unit::None => "",
            Unit::Metre => "m",
            Unit::Kilometre => "km",
            Unit::SquareKilometre => "km2",
            Unit::Degree => "deg",
            Unit::Celsius => "degC",
            Unit::CelsiusPerKilometre => "degC/km",
            Unit::MillimetrePerYear => "mm/yr",
            Unit::CentimetrePerYear => "cm/yr",
            Unit::MetrePerYear => "m/yr",
            Unit::MetrePerSecond => "m/s",
            Unit::SquareMetrePerYear => "m2/yr",
            Unit::CubicMetrePerSecond => "m3/s",
            Unit::Year => "yr",
            Unit::MillionYears => "Myr",
            Unit::Named(text) => text,
        }
    }

    /// What follows a number: nothing for no unit, the degree sign directly (`35°`), otherwise
    /// a space and the symbol (`27 °C`, `800 km`).
    pub fn suffix(self) -> String {
        match self {
            Unit::None => String::new(),
            Unit::Degree => self.symbol().to_string(),
            _ => format!(" {}", self.symbol()),
        }
    }
}

impl std::fmt::Display for Unit {
    /// Writes the symbol (what people read).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.symbol())
    }
}

#[cfg(test)]
mod tests {
    use super::Unit;

    #[test]
    fn every_ascii_form_is_ascii_and_names_one_unit() {
        let mut seen = std::collections::HashSet::new();
        for &u in Unit::KNOWN {
            assert!(u.ascii().is_ascii(), "{u:?}: {}", u.ascii());
            assert!(!u.symbol().is_empty() && !u.ascii().is_empty(), "{u:?}");
            assert!(seen.insert(u.ascii()), "two units write {}", u.ascii());
        }
        assert_eq!((Unit::None.symbol(), Unit::None.ascii()), ("", ""));
        assert_eq!((Unit::Named("t.u.").symbol(), Unit::Named("t.u.").ascii()), ("t.u.", "t.u."));
    }

    #[test]
    fn symbols_and_ascii_forms_differ_where_the_symbol_needs_more_than_ascii() {
        assert_eq!((Unit::CubicMetrePerSecond.symbol(), Unit::CubicMetrePerSecond.ascii()), ("m³/s", "m3/s"));
        assert_eq!((Unit::Celsius.symbol(), Unit::Celsius.ascii()), ("°C", "degC"));
        assert_eq!((Unit::SquareKilometre.symbol(), Unit::SquareKilometre.ascii()), ("km²", "km2"));
        assert_eq!(Unit::Metre.to_string(), "m");
        assert_eq!((Unit::Degree.suffix(), Unit::Celsius.suffix(), Unit::None.suffix()), ("°".to_string(), " °C".to_string(), String::new()));
    }
}
