//! The files an export writes, known before anything is evaluated: each image file's name and
//! grid (a face, a face's tile or the equirectangular image), and the names of a mesh's files.

use super::images::{tile_spans, FaceTile, Grid, CUBE_MAP};
use crate::nodes::output::export::{ExportFormat, ExportLayer, ExportProjection, ExportSettings, FaceGrid};
use crate::planet::Face;

/// One planned image file.
pub(super) struct Planned {
    pub(super) name: String,
    pub(super) grid: Grid,
    pub(super) face: Option<(String, Face)>,
}

/// The file extension of an export's format.
fn extension(s: &ExportSettings) -> &'static str {
    match s.format {
        ExportFormat::Png8 | ExportFormat::Png16 => "png",
        ExportFormat::Exr => "exr",
        ExportFormat::Tiff16 | ExportFormat::Tiff32 => "tif",
        ExportFormat::Raw16 => "r16",
        ExportFormat::Raw32 => "r32",
        ExportFormat::Glb => "glb",
        ExportFormat::Obj => "obj",
    }
}

/// The image files of an export at evaluation resolution `n`.
pub(super) fn plan(s: &ExportSettings, n: usize) -> Vec<Planned> {
    let ext = extension(s);
    if s.projection == ExportProjection::Equirect {
        let width = if s.width == 0 { 4 * n } else { s.width };
        return vec![Planned { name: format!("{}_equirect.{ext}", s.name), grid: Grid::Equirect { width, height: width / 2 }, face: None }];
    }
    let m = match (s.face_size, s.grid) {
        (0, FaceGrid::Cells) => n,
        (0, FaceGrid::EdgeSharing) => n + 1,
        (m, _) => m,
    };
    let border = usize::from(s.border && s.grid == FaceGrid::Cells);
    let full = m + 2 * border;
    let spans = tile_spans(full, s.tiles);
    // (face, name in the manifest, name in the file)
    let faces: Vec<(Face, String, String)> = match s.projection {
        ExportProjection::CubeMap => CUBE_MAP.iter().map(|&(f, name)| (f, name.to_string(), name.to_string())).collect(),
        _ => Face::ALL.iter().map(|&f| (f, f.name().to_string(), format!("face{}_{}", f.index(), f.name()))).collect(),
    };
    let mut out = Vec::new();
    for (face, face_name, file_part) in faces {
        for (ty, &(y0, h)) in spans.iter().enumerate() {
            for (tx, &(x0, w)) in spans.iter().enumerate() {
                let tile = if spans.len() > 1 { format!("_x{tx}_y{ty}") } else { String::new() };
                let grid = Grid::Face(FaceTile { face, m, grid: s.grid, gnomonic: s.projection == ExportProjection::CubeMap, border, x0, y0, w, h });
                out.push(Planned { name: format!("{}_{file_part}{tile}.{ext}", s.name), grid, face: Some((face_name.clone(), face)) });
            }
        }
    }
    out
}

/// Files an export with settings `s` writes at resolution `n` (names relative to the output
/// folder); `textured`: a mesh has a colour input (face textures).
pub fn file_names(s: &ExportSettings, n: usize, textured: bool) -> Vec<String> {
    if s.layer == ExportLayer::Mesh {
        return mesh_file_names(s, textured);
    }
    plan(s, n).into_iter().map(|p| p.name).collect()
}

/// The files of a mesh export with settings `s`: the GLB, or the OBJ with its .mtl and, when
/// `textured`, the face textures.
/// Files a mesh export writes; `textured`: it has a colour input (face textures).
pub(super) fn mesh_file_names(s: &ExportSettings, textured: bool) -> Vec<String> {
    let name = &s.name;
    match s.format {
        ExportFormat::Obj => {
            let mut v = vec![format!("{name}.obj"), format!("{name}.mtl")];
            if textured {
                v.extend(Face::ALL.iter().map(|f| texture_name(name, *f)));
            }
            v
        }
        _ => vec![format!("{name}.glb")],
    }
}

/// The file name of a mesh's texture of face `f`.
pub(super) fn texture_name(name: &str, f: Face) -> String {
    format!("{name}_albedo_face{}_{}.png", f.index(), f.name())
}
