//! Mesh exports of the displaced cube-sphere: GLB (glTF 2.0 binary through `gltf-json`) with
//! one node per face chunk whose vertices are stored relative to the chunk centre, normals,
//! face UVs and the albedo embedded as one PNG texture per face, an optional sea-level sphere;
//! and OBJ (absolute positions, a .mtl and the face textures) as a fallback.

use super::base::{AtomicFile, Control, ExportError};
use super::encode::write_png;
use super::images::{Encoding, FaceTile, Frame, Grid, Pixels};
use super::manifest::ManifestFile;
use super::plan::{mesh_file_names, texture_name};
use super::source::{At, Source, Taps, TiledSource};
use crate::nodes::output::export::{ExportFormat, ExportSettings, FaceGrid};
use crate::planet::coords::face_ab_to_dir;
use crate::planet::Face;
use glam::{DVec3, Vec3};
use gltf::json;
use json::validation::Checked::Valid;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::Ordering;

/// Vertices per face edge of the sea-level sphere.
const SEA_VERTS: usize = 33;

/// One face of the sea-level sphere (radius in metres).
fn sea_chunk(face: Face, radius_m: f64) -> Result<Chunk, ExportError> {
    chunk(face, (0, 0), 1, SEA_VERTS, radius_m, &|dirs: &[Vec3]| Ok(dirs.iter().map(|&d| (0.0, d)).collect()))
}

/// Vertices of one chunk: positions relative to `centre` (metres), unit normals, face UVs,
/// and triangle indices wound counter-clockwise seen from outside.
pub struct Chunk {
    /// Face of the chunk.
    pub face: Face,
    /// Chunk centre on the planet, metres.
    pub centre: DVec3,
    /// Positions relative to `centre`, metres.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals.
    pub normals: Vec<[f32; 3]>,
    /// Face coordinates (a, b) in 0..1.
    pub uvs: Vec<[f32; 2]>,
    /// Triangles.
    pub indices: Vec<u32>,
}

/// The displaced surface a mesh samples: for a batch of unit directions, the height above the
/// sphere (metres) and the unit normal in each.
pub type SurfaceAt<'a> = dyn Fn(&[Vec3]) -> Result<Vec<(f32, Vec3)>, ExportError> + 'a;

/// The chunk `(ci, cj)` of `chunks` per edge of `face`, on a grid of `verts` vertices per face
/// edge, of the surface `surface` over a sphere of `radius_m` metres.
pub fn chunk(face: Face, (ci, cj): (usize, usize), chunks: usize, verts: usize, radius_m: f64, surface: &SurfaceAt) -> Result<Chunk, ExportError> {
    let last = verts - 1;
    let span = |k: usize| (k * last / chunks, (k + 1) * last / chunks);
    let ((i0, i1), (j0, j1)) = (span(ci), span(cj));
    let t = |k: usize| k as f32 / last as f32;
    let mid = face_ab_to_dir(face, (t(i0) + t(i1)) / 2.0, (t(j0) + t(j1)) / 2.0, true).as_dvec3() * radius_m;
    let (w, h) = (i1 - i0 + 1, j1 - j0 + 1);
    let (mut dirs, mut uvs) = (Vec::with_capacity(w * h), Vec::with_capacity(w * h));
    for j in j0..=j1 {
        for i in i0..=i1 {
            dirs.push(face_ab_to_dir(face, t(i), t(j), true));
            uvs.push([t(i), t(j)]);
        }
    }
    let samples = surface(&dirs)?;
    let positions = dirs.iter().zip(&samples).map(|(d, (height_m, _))| (d.as_dvec3() * (radius_m + *height_m as f64) - mid).as_vec3().to_array()).collect();
    let normals = samples.iter().map(|(_, n)| n.to_array()).collect();
    let mut c = Chunk { face, centre: mid, positions, normals, uvs, indices: Vec::new() };
    for y in 0..h - 1 {
        for x in 0..w - 1 {
            let v = |dx: usize, dy: usize| ((y + dy) * w + x + dx) as u32;
            // Rows run along the face's `down`, columns along `right`: (down x right) points out.
            c.indices.extend([v(0, 0), v(0, 1), v(1, 0), v(1, 0), v(0, 1), v(1, 1)]);
        }
    }
    Ok(c)
}

/// The albedo `colour` on `face` as an sRGB PNG of `size` pixels per edge, in memory (written
/// in strips of rows, as image files are).
fn face_texture(colour: Option<&Source>, face: Face, size: usize, path: &Path, control: &Control) -> Result<Option<Vec<u8>>, ExportError> {
    let Some(source) = colour else { return Ok(None) };
    let grid = Grid::Face(FaceTile { face, m: size, grid: FaceGrid::Cells, gnomonic: false, border: 0, x0: 0, y0: 0, w: size, h: size });
    control.progress.rows_total.store(size, Ordering::Relaxed);
    control.progress.rows_done.store(0, Ordering::Relaxed);
    let mut png_bytes = Vec::new();
    write_png(&mut png_bytes, path, &Pixels { source, grid, encoding: Encoding::Srgb, frame: Frame::Object }, false, control)?;
    Ok(Some(png_bytes))
}

/// What a mesh reads: its field (in the field's units; the export's relief makes them metres),
/// the normals of the field, the colours of its face textures, and the field's range. Whole
/// fields in a whole build, tiles in a tiled build.
pub struct MeshSources {
    /// The field input.
    pub height: Source,
    /// Its object-space normals, with the export's relief.
    pub normals: Source,
    /// The colour input.
    pub colour: Option<Source>,
    /// The field's smallest and largest value.
    pub range: (f32, f32),
}

/// The values of a tiled build's store that a mesh reads besides its field.
#[derive(Debug, Clone)]
pub struct TiledMesh {
    /// The normals of the field, with the export's relief.
    pub normals: TiledSource,
    /// The colour input, for the face textures.
    pub colour: Option<TiledSource>,
}

/// Vertices sampled at a time: a tiled source holds the tiles they read meanwhile.
const MESH_BATCH: usize = 4096;

/// Writes a mesh job (GLB or OBJ) from `sources`; returns the manifest entries.
pub fn write_mesh(out: &Path, s: &ExportSettings, source: &str, sources: &MeshSources, radius_km: f32, control: &Control) -> Result<Vec<ManifestFile>, ExportError> {
    let radius_m = radius_km as f64 * 1000.0;
    let relief = s.relief;
    let (height, normals) = (&sources.height, &sources.normals);
    let ground = |dirs: &[Vec3]| -> Result<Vec<(f32, Vec3)>, ExportError> {
        let mut samples = Vec::with_capacity(dirs.len());
        for batch in dirs.chunks(MESH_BATCH) {
            control.check()?;
            let (h_taps, n_taps): (Vec<Taps>, Vec<Taps>) = batch.iter().map(|&d| (height.taps(At::Dir(d)), normals.taps(At::Dir(d)))).unzip();
            let (h_view, n_view) = (height.view_for(&h_taps, control.cancel)?, normals.view_for(&n_taps, control.cancel)?);
            samples.extend(h_taps.iter().zip(&n_taps).map(|(&a, &b)| (height.sample_taps(a, h_view.as_ref())[0] * relief, Vec3::from(normals.sample_taps(b, n_view.as_ref())))));
        }
        Ok(samples)
    };
    let tex = if s.texture_size == 0 { height.n() } else { s.texture_size };
    let mut files = Vec::new();
    let entry = |path: &str, bytes: u64| ManifestFile {
        path: path.into(),
        export: s.name.clone(),
        source: source.to_string(),
        layer: "mesh".into(),
        format: if s.format == ExportFormat::Obj { "obj" } else { "glb" }.into(),
        projection: "mesh".into(),
        face: None,
        face_index: None,
        orientation: Some("Y up, planet centre at the origin, metres".into()),
        grid: None,
        face_size: Some(s.mesh_size),
        border: None,
        tile_origin: None,
        width: s.mesh_size,
        height: s.mesh_size,
        channels: Vec::new(),
        sample: "f32".into(),
        byte_order: None,
        mapping: None,
        units: "m".into(),
        data_range: Some([sources.range.0 * relief, sources.range.1 * relief]),
        bytes,
        splat_layers: None,
    };
    if s.format == ExportFormat::Obj {
        let path = out.join(format!("{}.obj", s.name));
        let mtl = out.join(format!("{}.mtl", s.name));
        let (file, mut w) = AtomicFile::create(&path)?;
        let io = |source| ExportError::Io { path: path.clone(), source };
        writeln!(w, "# PlanetGraph mesh: metres, Y up, planet centre at the origin\nmtllib {}.mtl", s.name).map_err(io)?;
        let mut base = 1usize;
        let mut mtl_text = String::new();
        // Vertices, normals and UVs are numbered alike; the sea has no UVs.
        let mut write_chunk = |w: &mut std::io::BufWriter<std::fs::File>, name: &str, material: &str, c: &Chunk, with_uv: bool| -> std::io::Result<()> {
            writeln!(w, "o {name}\nusemtl {material}")?;
            for p in &c.positions {
                let q = c.centre + Vec3::from(*p).as_dvec3();
                writeln!(w, "v {:.3} {:.3} {:.3}", q.x, q.y, q.z)?;
            }
            for n in &c.normals {
                writeln!(w, "vn {:.6} {:.6} {:.6}", n[0], n[1], n[2])?;
            }
            if with_uv {
                for uv in &c.uvs {
                    // OBJ's v runs up the image.
                    writeln!(w, "vt {:.6} {:.6}", uv[0], 1.0 - uv[1])?;
                }
            }
            for t in c.indices.chunks(3) {
                let [a, b, d] = [t[0], t[1], t[2]].map(|k| k as usize + base);
                if with_uv {
                    writeln!(w, "f {a}/{a}/{a} {b}/{b}/{b} {d}/{d}/{d}")?;
                } else {
                    writeln!(w, "f {a}//{a} {b}//{b} {d}//{d}")?;
                }
            }
            base += c.positions.len();
            Ok(())
        };
        // UV indices count only the ground's vertices, so the sea comes after all of them.
        for face in Face::ALL {
            control.check()?;
            for cj in 0..s.chunks {
                for ci in 0..s.chunks {
                    let c = chunk(face, (ci, cj), s.chunks, s.mesh_size, radius_m, &ground)?;
                    write_chunk(&mut w, &format!("face{}_{}_x{ci}_y{cj}", face.index(), face.name()), &format!("face{}", face.index()), &c, true).map_err(io)?;
                }
            }
            mtl_text.push_str(&format!("newmtl face{}\nKd 1 1 1\n", face.index()));
            let tname = texture_name(&s.name, face);
            if let Some(bytes) = face_texture(sources.colour.as_ref(), face, tex, &out.join(&tname), control)? {
                let tpath = out.join(&tname);
                let (tf, mut tw) = AtomicFile::create(&tpath)?;
                tw.write_all(&bytes).map_err(|source| ExportError::Io { path: tpath.clone(), source })?;
                let size = tf.commit(tw)?;
                mtl_text.push_str(&format!("map_Kd {tname}\n"));
                files.push(ManifestFile {
                    format: "png".into(),
                    sample: "u8".into(),
                    channels: ["R", "G", "B"].map(String::from).to_vec(),
                    width: tex,
                    height: tex,
                    face: Some(face.name().into()),
                    face_index: Some(face.index()),
                    units: String::new(),
                    data_range: None,
                    mapping: Some(super::manifest::Mapping::Srgb),
                    ..entry(&tname, size)
                });
            }
        }
        if s.sea {
            for face in Face::ALL {
                let c = sea_chunk(face, radius_m)?;
                write_chunk(&mut w, &format!("sea_{}", face.name()), "sea", &c, false).map_err(io)?;
            }
            mtl_text.push_str("newmtl sea\nKd 0.02 0.09 0.22\nd 0.85\n");
        }
        let (mf, mut mw) = AtomicFile::create(&mtl)?;
        mw.write_all(mtl_text.as_bytes()).map_err(|source| ExportError::Io { path: mtl.clone(), source })?;
        let mtl_size = mf.commit(mw)?;
        let obj_size = file.commit(w)?;
        files.push(entry(&format!("{}.mtl", s.name), mtl_size));
        files.push(entry(&format!("{}.obj", s.name), obj_size));
        control.progress.files_done.fetch_add(mesh_file_names(s, sources.colour.is_some()).len(), Ordering::Relaxed);
        return Ok(files);
    }
    let path = out.join(format!("{}.glb", s.name));
    let mut b = GlbBuilder::default();
    let sea_material = s.sea.then(|| b.material("sea", [0.02, 0.09, 0.22, 1.0], 0.15, None));
    let mut nodes = Vec::new();
    for face in Face::ALL {
        control.check()?;
        let texture = face_texture(sources.colour.as_ref(), face, tex, &path, control)?.map(|png| b.texture(png));
        let material = b.material(&format!("ground_{}", face.name()), if texture.is_some() { [1.0; 4] } else { [0.45, 0.42, 0.38, 1.0] }, 0.9, texture);
        for cj in 0..s.chunks {
            for ci in 0..s.chunks {
                let c = chunk(face, (ci, cj), s.chunks, s.mesh_size, radius_m, &ground)?;
                nodes.push(b.chunk_node(&format!("face{}_{}_x{ci}_y{cj}", face.index(), face.name()), &c, material, true));
            }
        }
        if let Some(sea) = sea_material {
            let c = sea_chunk(face, radius_m)?;
            nodes.push(b.chunk_node(&format!("sea_{}", face.name()), &c, sea, false));
        }
    }
    let bytes = b.finish(nodes, &path)?;
    let (file, mut w) = AtomicFile::create(&path)?;
    w.write_all(&bytes).map_err(|source| ExportError::Io { path: path.clone(), source })?;
    let size = file.commit(w)?;
    control.progress.files_done.fetch_add(1, Ordering::Relaxed);
    files.push(entry(&format!("{}.glb", s.name), size));
    Ok(files)
}

/// Collects the binary buffer and the glTF objects of a GLB.
#[derive(Default)]
struct GlbBuilder {
    root: json::Root,
    bin: Vec<u8>,
}

impl GlbBuilder {
    fn view(&mut self, bytes: &[u8], target: Option<json::buffer::Target>) -> json::Index<json::buffer::View> {
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        self.root.push(json::buffer::View { buffer: json::Index::new(0), byte_length: bytes.len().into(), byte_offset: Some(offset.into()), byte_stride: None, name: None, target: target.map(Valid), extensions: None, extras: Default::default() })
    }

    fn accessor(&mut self, bytes: &[u8], count: usize, ty: json::accessor::Type, component: json::accessor::ComponentType, bounds: Option<(Vec<f32>, Vec<f32>)>, target: json::buffer::Target) -> json::Index<json::Accessor> {
        let view = self.view(bytes, Some(target));
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: Some(0usize.into()),
            count: count.into(),
            component_type: Valid(json::accessor::GenericComponentType(component)),
            extensions: None,
            extras: Default::default(),
            type_: Valid(ty),
            min: bounds.as_ref().map(|b| json::Value::from(b.0.clone())),
            max: bounds.map(|b| json::Value::from(b.1)),
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    fn texture(&mut self, png: Vec<u8>) -> json::Index<json::Texture> {
        let view = self.view(&png, None);
        let image = self.root.push(json::Image { buffer_view: Some(view), mime_type: Some(json::image::MimeType("image/png".into())), name: None, uri: None, extensions: None, extras: Default::default() });
        let sampler = self.root.push(json::texture::Sampler {
            mag_filter: Some(Valid(json::texture::MagFilter::Linear)),
            min_filter: Some(Valid(json::texture::MinFilter::LinearMipmapLinear)),
            wrap_s: Valid(json::texture::WrappingMode::ClampToEdge),
            wrap_t: Valid(json::texture::WrappingMode::ClampToEdge),
            ..Default::default()
        });
        self.root.push(json::Texture { name: None, sampler: Some(sampler), source: image, extensions: None, extras: Default::default() })
    }

    fn material(&mut self, name: &str, colour: [f32; 4], roughness: f32, texture: Option<json::Index<json::Texture>>) -> json::Index<json::Material> {
        let mut m = json::Material { name: Some(name.into()), ..Default::default() };
        m.pbr_metallic_roughness.base_color_factor = json::material::PbrBaseColorFactor(colour);
        m.pbr_metallic_roughness.metallic_factor = json::material::StrengthFactor(0.0);
        m.pbr_metallic_roughness.roughness_factor = json::material::StrengthFactor(roughness);
        m.pbr_metallic_roughness.base_color_texture = texture.map(|index| json::texture::Info { index, tex_coord: 0, extensions: None, extras: Default::default() });
        self.root.push(m)
    }

    fn chunk_node(&mut self, name: &str, c: &Chunk, material: json::Index<json::Material>, with_uv: bool) -> json::Index<json::Node> {
        use json::accessor::{ComponentType, Type};
        use json::buffer::Target;
        let (mut lo, mut hi) = (vec![f32::MAX; 3], vec![f32::MIN; 3]);
        for p in &c.positions {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        let mut attributes = BTreeMap::new();
        let pos = self.accessor(bytemuck::cast_slice(&c.positions), c.positions.len(), Type::Vec3, ComponentType::F32, Some((lo, hi)), Target::ArrayBuffer);
        attributes.insert(Valid(json::mesh::Semantic::Positions), pos);
        let nrm = self.accessor(bytemuck::cast_slice(&c.normals), c.normals.len(), Type::Vec3, ComponentType::F32, None, Target::ArrayBuffer);
        attributes.insert(Valid(json::mesh::Semantic::Normals), nrm);
        if with_uv {
            let uv = self.accessor(bytemuck::cast_slice(&c.uvs), c.uvs.len(), Type::Vec2, ComponentType::F32, None, Target::ArrayBuffer);
            attributes.insert(Valid(json::mesh::Semantic::TexCoords(0)), uv);
        }
        let indices = self.accessor(bytemuck::cast_slice(&c.indices), c.indices.len(), Type::Scalar, ComponentType::U32, None, Target::ElementArrayBuffer);
        let primitive = json::mesh::Primitive { attributes, extensions: None, extras: Default::default(), indices: Some(indices), material: Some(material), mode: Valid(json::mesh::Mode::Triangles), targets: None };
        let mesh = self.root.push(json::Mesh { extensions: None, extras: Default::default(), name: Some(name.into()), primitives: vec![primitive], weights: None });
        self.root.push(json::Node { mesh: Some(mesh), name: Some(name.into()), translation: Some(c.centre.as_vec3().to_array()), ..Default::default() })
    }

    fn finish(mut self, nodes: Vec<json::Index<json::Node>>, path: &Path) -> Result<Vec<u8>, ExportError> {
        self.root.push(json::Buffer { byte_length: self.bin.len().into(), name: None, uri: None, extensions: None, extras: Default::default() });
        let scene = self.root.push(json::Scene { extensions: None, extras: Default::default(), name: Some("planet".into()), nodes });
        self.root.scene = Some(scene);
        self.root.asset.generator = Some(format!("PlanetGraph {}", env!("CARGO_PKG_VERSION")));
        let err = |message: String| ExportError::Encode { path: path.to_path_buf(), message };
        let text = self.root.to_vec().map_err(|e| err(e.to_string()))?;
        let glb = gltf::binary::Glb { header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 }, json: Cow::Owned(text), bin: Some(Cow::Owned(self.bin)) };
        glb.to_vec().map_err(|e| err(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_vertices_lie_on_the_surface_and_triangles_face_out() {
        let r = 6.371e6;
        for face in Face::ALL {
            let c = chunk(face, (1, 0), 2, 9, r, &|dirs: &[Vec3]| Ok(dirs.iter().map(|&d| (1000.0, d)).collect())).expect("no error");
            assert_eq!(c.positions.len(), 5 * 5);
            for p in &c.positions {
                let q = c.centre + Vec3::from(*p).as_dvec3();
                assert!((q.length() - (r + 1000.0)).abs() < 1.0, "{}", q.length());
            }
            for t in c.indices.chunks(3) {
                let [a, b, d] = [t[0], t[1], t[2]].map(|k| Vec3::from(c.positions[k as usize]).as_dvec3() + c.centre);
                assert!((b - a).cross(d - a).dot(a) > 0.0, "{face:?}");
            }
        }
    }
}
