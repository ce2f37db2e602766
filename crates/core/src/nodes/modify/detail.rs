//! The Detail node: fine relief added where a field is evaluated finely enough to hold it.
//!
//! Octaves of Perlin noise from a coarsest wavelength down to the finest one the evaluation's
//! level resolves (two cells), each faded in over its last octave of wavelength, so a build at
//! 512 gets none of it and a close-up at level 16384 gets five more octaves than one at 512,
//! while the octaves both share are the same. The amplitude follows the input: full on high
//! ground, a share of it on lowland and sea floor, so valleys and plains stay smoother than
//! ranges. It works cell by cell, so region evaluation runs it on tiles at their own level.

use crate::nodes::prelude::*;
use crate::planet::fbm::LevelOctaves;

crate::choices! {
    /// The shape of the Detail node's octaves.
    pub enum DetailCharacter {
        /// Rounded bumps (fBm).
        Smooth = ("smooth", "Smooth"),
        /// Sharp crests and rounded hollows (ridged octaves).
        Ridged = ("ridged", "Ridged"),
    }
}

crate::settings! {
    /// Settings of the Detail node.
    pub struct DetailSettings, keys DetailKeys {
        /// Octave shape.
        character: DetailCharacter = DetailCharacter::Ridged.param("Character", "Smooth: rounded bumps. Ridged: sharp crests and rounded hollows, like eroded rock."),
        /// Features per planet of the coarsest octave.
        frequency: f32 = float("Coarsest features", 2000.0, 10.0, 100000.0, Unit::Named("/planet"), 10.0, "How many of the coarsest detail features fit around the equator: 2000 gives a wavelength of 20 km on an Earth-sized planet. Builds whose cells are larger than half this wavelength get no detail."),
        /// Octaves at most.
        octaves: usize = int("Octaves", 10, 1, 16, "Finer octaves at most, each at twice the frequency of the one before; only those the evaluation's cells resolve are added."),
        /// Amplitude factor from one octave to the next.
        roughness: f32 = float("Roughness", 0.5, 0.0, 1.0, Unit::None, 0.005, "Amplitude factor from one octave to the next: 0.5 keeps the slopes of every octave alike."),
        /// Largest amplitude, in the input's units.
        amplitude: f32 = float("Amplitude", 0.03, 0.0, 10.0, Unit::None, 0.001, "Largest height of the detail, in the input's units: 0.03 of a unitless elevation is 270 m on a planet whose highest peak is 9000 m."),
        /// Input value at which the detail reaches its full amplitude.
        relief: f32 = float("Full at", 0.3, 0.001, 10.0, Unit::None, 0.005, "Input value (in its units) from which the detail has its full amplitude; below it the amplitude falls towards the lowland share."),
        /// Share of the amplitude on lowland and sea floor.
        lowland: f32 = float("Lowland share", 0.15, 0.0, 1.0, Unit::None, 0.005, "Share of the amplitude on ground at or below 0 in the input's units (lowland, sea floor)."),
        /// Random seed.
        seed: u32 = seed(5),
    }
}

crate::ports! {
    /// Inputs: the field to add detail to, and an optional 0..1 mask that scales it.
    const INPUTS: In = [
        /// The field detail is added to.
        INPUT: Field = FIELD_IN.def(),
        /// Optional 0..1 mask that scales the detail.
        MASK: Field = PortDef::optional("mask", PortType::Field),
    ];
}

/// The Detail node.
pub struct Detail;

impl Node for Detail {
    type Settings = DetailSettings;
    const META: NodeMeta = NodeMeta::new(
        "Detail",
        Category::Modify,
        "Adds fine relief down to the size of the evaluation's cells: none in coarse builds, more octaves the closer a tile or build looks. Stronger on high ground than in lowland.",
        INPUTS,
        OUT_AS_INPUT,
        file!(),
    )
    .costing(5);

    fn run(s: &DetailSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let (input, mask) = (inputs.port(INPUT)?, inputs.port_opt(MASK)?);
        let octaves = Octaves::new(s, ctx.n);
        let (relief, lowland) = (s.relief.max(1e-6), s.lowland.clamp(0.0, 1.0));
        // No noise evaluated where it would be multiplied by nothing.
        let noise = if s.amplitude == 0.0 { None } else { octaves.field(input.grid()) };
        let out = input.like(|c, _| {
            let h = input.data()[c];
            let t = (h / relief).clamp(0.0, 1.0);
            let share = lowland + (1.0 - lowland) * t * t * (3.0 - 2.0 * t);
            let m = mask.map_or(1.0, |m| m.data()[c].clamp(0.0, 1.0));
            let amp = s.amplitude * share * m;
            match &noise {
                Some(noise) if amp != 0.0 => h + amp * noise.data()[c],
                _ => h,
            }
        });
        ctx.check()?;
        Ok(vec![out.into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

/// The octaves a level resolves and their shape.
struct Octaves {
    layers: LevelOctaves,
    ridged: bool,
}

impl Octaves {
    /// The octaves of `s` that cells at level `n` resolve ([`LevelOctaves`]: a finer level adds
    /// octaves, never rescales).
    fn new(s: &DetailSettings, n: usize) -> Octaves {
        Octaves { layers: LevelOctaves::new(s.seed, s.frequency, s.octaves, s.roughness, n), ridged: s.character == DetailCharacter::Ridged }
    }

    /// The detail at every cell of `grid`, about -1..1; `None` when the level resolves none
    /// of the octaves.
    fn field(&self, grid: Grid) -> Option<Field> {
        if self.layers.is_empty() {
            return None;
        }
        Some(if self.ridged {
            self.layers.field(grid, |v| {
                let crest = 1.0 - v.abs();
                2.0 * crest * crest - 0.9
            })
        } else {
            self.layers.field(grid, |v| v)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;
    use std::sync::atomic::AtomicBool;

    fn run(n: usize, input: f32) -> Field {
        let cancel = AtomicBool::new(false);
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: None, files: &[] };
        let kind = NodeKind::Detail;
        let out = kind.run(&kind.default_params(), &[Some(Field::filled(n, input).into()), None], &ctx).expect("runs");
        out[0].as_field().expect("a field").as_ref().clone()
    }

    fn spread(f: &Field, mean: f32) -> f32 {
        (f.data().iter().map(|v| (v - mean).powi(2)).sum::<f32>() / f.data().len() as f32).sqrt()
    }

    /// Coarse levels get no detail; finer ones get more of it, and more on high ground.
    #[test]
    fn detail_appears_only_where_cells_resolve_it_and_grows_with_height() {
        assert!(run(256, 0.5).data().iter().all(|&v| v == 0.5), "cells of 40 km hold none of a 20 km wavelength");
        let fine = run(2048, 0.5);
        let finer = run(4096, 0.5);
        let (a, b) = (spread(&fine, 0.5), spread(&finer, 0.5));
        assert!(a > 1e-4 && b > a, "more octaves at a finer level: {a} then {b}");
        let low = spread(&run(4096, 0.0), 0.0);
        assert!(low < 0.3 * b, "lowland {low} against high ground {b}");
    }

    /// On a tile the node gives the whole planet's values (with octaves the level resolves:
    /// the registry-wide region test runs at a level too coarse for the default frequency).
    #[test]
    fn a_tile_holds_the_whole_planet_s_detail() {
        let kind = NodeKind::Detail;
        let mut params = kind.default_params();
        params.insert("frequency".into(), crate::nodes::ParamValue::Float(12.0));
        let n = 48;
        let input = Field::from_fn_dir(n, |d| d.x);
        let cancel = AtomicBool::new(false);
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: None, files: &[] };
        let whole = kind.run(&params, &[Some(input.clone().into()), None], &ctx).expect("runs");
        let whole = whole[0].as_field().expect("a field");
        assert!(whole.data() != input.data(), "the level resolves the detail");
        let tile = crate::planet::Tile::new(crate::planet::Face::Back, n, 40, 3, 8).expect("tile");
        let on_tile: Value = Field::from_fn_on(Grid::Tile(tile), |_, d| d.x).into();
        let ctx = OpContext { tile: Some(tile), ..ctx };
        let out = kind.run(&params, &[Some(on_tile), None], &ctx).expect("runs");
        let out = out[0].as_field().expect("a field");
        for k in 0..tile.cells() {
            assert_eq!(out.data()[k], whole.data()[tile.cell(k).index(n)]);
        }
    }

    /// The octaves a level shares with a finer one are the same: the finer level adds, it does
    /// not replace, so a close-up keeps the shapes of the coarser view.
    #[test]
    fn a_finer_level_adds_octaves_and_keeps_the_coarser_ones() {
        let s = DetailSettings::from_params(&NodeKind::Detail.default_params()).expect("defaults");
        let (coarse, fine) = (Octaves::new(&s, 4096), Octaves::new(&s, 16384));
        assert!(fine.layers.octaves().count() > coarse.layers.octaves().count());
        for ((r1, w1), (r2, w2)) in coarse.layers.octaves().zip(fine.layers.octaves()) {
            assert_eq!(r1, r2);
            // An octave fading in at the coarser level has its full weight at the finer one.
            assert!(w1 <= w2);
        }
    }
}
