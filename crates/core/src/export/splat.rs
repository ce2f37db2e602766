//! Splat maps (the Splat map node): weight fields packed four to a file into RGBA 8-bit PNGs
//! and a JSON that names the layer in each file and channel.
//!
//! Normalisation: at every pixel the layers' weights (negative ones taken as 0) are divided by
//! their sum and rounded to 8-bit samples by largest remainder, so the samples of all of the
//! node's files add up to exactly 255; where every weight is 0 the first layer takes the whole
//! pixel. Layers 1-4 are the red, green, blue and alpha channels of the files `{name}_0_...`,
//! layers 5-8 those of `{name}_1_...` (unused channels 0); `{name}.json` lists them.

use super::plan::plan;
use super::source::Source;
use crate::nodes::output::splat_map::{SplatMapSettings, LAYERS_PER_FILE};

/// One layer of a splat map: its name, where it comes from and its weights.
#[derive(Debug, Clone)]
pub struct SplatLayer {
    /// The layer's name in the JSON (`sand`).
    pub name: String,
    /// The output that feeds it (`Materials 7: sand`).
    pub source: String,
    /// Its weights (any scale; normalised per pixel with the other layers'): a field, or in a
    /// tiled build a value evaluated tile by tile.
    pub weights: Source,
}

/// A Splat map node's work: its settings and its connected layers in input order.
#[derive(Debug, Clone)]
pub struct SplatJob {
    /// Settings.
    pub settings: SplatMapSettings,
    /// The connected layers, in input order.
    pub layers: Vec<SplatLayer>,
}

/// The channel names of a splat file.
pub(super) const CHANNELS: [&str; LAYERS_PER_FILE] = ["R", "G", "B", "A"];

/// How many files of four layers `layers` layers take.
pub(super) fn groups(layers: usize) -> usize {
    layers.div_ceil(LAYERS_PER_FILE).max(1)
}

/// The JSON file's name.
pub(super) fn json_name(s: &SplatMapSettings) -> String {
    format!("{}.json", s.name)
}

/// The files a Splat map node with settings `s` and `layers` connected inputs writes at
/// resolution `n`: every group's images, then the JSON.
pub fn file_names(s: &SplatMapSettings, layers: usize, n: usize) -> Vec<String> {
    let mut names: Vec<String> = (0..groups(layers)).flat_map(|k| plan(&s.images(k), n).into_iter().map(|p| p.name)).collect();
    names.push(json_name(s));
    names
}

/// Rounds `weights` (normalised by their sum; negative ones as 0) to 8-bit samples that add up
/// to exactly 255, by largest remainder (ties to the earlier layer); all 0: the first layer
/// takes 255.
pub fn quantise(weights: &[f32], out: &mut [u8]) {
    let clean = |w: f32| if w > 0.0 { w } else { 0.0 };
    let sum: f32 = weights.iter().map(|&w| clean(w)).sum();
    out.fill(0);
    if sum <= 0.0 || !sum.is_finite() {
        if let Some(first) = out.first_mut() {
            *first = 255;
        }
        return;
    }
    let mut rest: [(f32, usize); 8] = [(0.0, 0); 8];
    let mut left = 255i32;
    for (k, (&w, o)) in weights.iter().zip(out.iter_mut()).enumerate() {
        let scaled = clean(w) / sum * 255.0;
        let whole = scaled.floor().min(255.0);
        *o = whole as u8;
        left -= i32::from(*o);
        rest[k] = (scaled - whole, k);
    }
    let used = &mut rest[..weights.len().min(8)];
    used.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, k) in used.iter().take(left.max(0) as usize) {
        out[k] += 1;
    }
}

impl SplatJob {
    /// Files written at resolution `n`.
    pub fn file_names(&self, n: usize) -> Vec<String> {
        file_names(&self.settings, self.layers.len(), n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_add_up_to_255_and_follow_the_weights() {
        let mut out = [0u8; 5];
        for w in [[1.0, 1.0, 1.0, 0.0, 0.0], [0.2, 0.3, 0.5, 0.0, 0.0], [3.0, -1.0, 0.0, 1.0, 2.0], [0.1, 0.1, 0.1, 0.1, 0.1], [1e-9, 0.0, 0.0, 0.0, 1e-9]] {
            quantise(&w, &mut out);
            assert_eq!(out.iter().map(|&v| u32::from(v)).sum::<u32>(), 255, "{w:?} -> {out:?}");
            let sum: f32 = w.iter().map(|v| v.max(0.0)).sum();
            for (v, o) in w.iter().zip(out) {
                assert!((v.max(0.0) / sum * 255.0 - f32::from(o)).abs() < 1.0, "{w:?} -> {out:?}");
            }
        }
        quantise(&[0.0, 0.0, 0.0], &mut out[..3]);
        assert_eq!(&out[..3], &[255, 0, 0], "no weight: the first layer");
        quantise(&[-2.0, 0.0], &mut out[..2]);
        assert_eq!(&out[..2], &[255, 0]);
    }

    #[test]
    fn files_are_grouped_four_layers_a_file_then_the_json() {
        let s = SplatMapSettings::default();
        assert_eq!(file_names(&s, 3, 8), vec!["splat_0_equirect.png", "splat.json"]);
        assert_eq!(file_names(&s, 5, 8), vec!["splat_0_equirect.png", "splat_1_equirect.png", "splat.json"]);
        let faces = SplatMapSettings { projection: crate::nodes::output::export::ExportProjection::Faces, ..s };
        let names = file_names(&faces, 4, 8);
        assert_eq!(names.len(), 7);
        assert_eq!(names[0], "splat_0_face0_front.png");
    }
}
