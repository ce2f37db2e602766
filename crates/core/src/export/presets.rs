//! Presets: one click sets an Export node's options for a consumer (README: export table).

use crate::nodes::output::export::{ByteOrder, ExportEngine, ExportFormat, ExportLayer, ExportProjection, ExportSettings, FaceGrid, NormalGreen, NormalSpace, ValueMapping};

/// A consumer's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// Unity terrain: RAW 16-bit little-endian, square 2^n+1 faces sharing edges.
    Unity,
    /// Unity terrain at its largest heightmap: faces of 4097 pixels.
    UnityLarge,
    /// Unreal landscape: 16-bit PNG faces of 1009 pixels sharing edges.
    Unreal,
    /// Unreal landscape: faces of 4033 pixels.
    UnrealLarge,
    /// Unreal World Partition: faces of 16257 pixels in 2 x 2 tiles of 8129.
    UnrealWorldPartition,
    /// Godot (HTerrain, Terrain3D): EXR float faces of 2^n+1 pixels.
    Godot,
    /// Godot: faces of 16385 pixels in 2 x 2 tiles of 8193 (Godot's images stop at 16384).
    GodotTiled,
    /// Blender: EXR float equirectangular metres, for a displaced UV sphere.
    Blender,
    /// World Machine, Gaea, Instant Terra: RAW 32-bit float faces.
    WorldMachine,
    /// Kerbal Space Program (Kopernicus): 16-bit PNG equirectangular.
    Kopernicus,
    /// Space Engineers, Voxel Plugin: six 16-bit PNG faces.
    SpaceEngineers,
    /// A standard OpenGL cube map (+X..-Z), 16-bit PNG.
    CubeMap,
    /// Tangent-space normal map, OpenGL green (glTF, Blender, Unity, Godot).
    NormalsOpenGl,
    /// Tangent-space normal map, DirectX green (Unreal).
    NormalsDirectX,
    /// A glTF binary mesh with the albedo.
    Gltf,
    /// An engine's mask layer (rock, wetness, hillslopes): 8-bit PNG faces, 0 to 1 as black to
    /// white.
    MaskLayer,
    /// A data layer kept in its units (drainage area in km², sediment in m, slope in degrees):
    /// 32-bit float EXR faces.
    DataLayer,
}

impl Preset {
    /// Every preset in menu order.
    pub const ALL: [Preset; 17] = [
        Preset::Unity,
        Preset::UnityLarge,
        Preset::Unreal,
        Preset::UnrealLarge,
        Preset::UnrealWorldPartition,
        Preset::Godot,
        Preset::GodotTiled,
        Preset::Blender,
        Preset::WorldMachine,
        Preset::Kopernicus,
        Preset::SpaceEngineers,
        Preset::CubeMap,
        Preset::NormalsOpenGl,
        Preset::NormalsDirectX,
        Preset::Gltf,
        Preset::MaskLayer,
        Preset::DataLayer,
    ];

    /// Menu label.
    pub fn label(self) -> &'static str {
        match self {
            Preset::Unity => "Unity terrain (RAW 16, 1025 faces)",
            Preset::UnityLarge => "Unity terrain (RAW 16, 4097 faces)",
            Preset::Unreal => "Unreal landscape (PNG 16, 1009 faces)",
            Preset::UnrealLarge => "Unreal landscape (PNG 16, 4033 faces)",
            Preset::UnrealWorldPartition => "Unreal World Partition (PNG 16, 16257 faces in 2 x 2 tiles of 8129)",
            Preset::Godot => "Godot terrain (EXR, 1025 faces)",
            Preset::GodotTiled => "Godot terrain (EXR, 16385 faces in 2 x 2 tiles of 8193)",
            Preset::Blender => "Blender (EXR equirectangular)",
            Preset::WorldMachine => "World Machine / Gaea (RAW 32 faces)",
            Preset::Kopernicus => "KSP Kopernicus (PNG 16 equirectangular)",
            Preset::SpaceEngineers => "Space Engineers / Voxel Plugin (PNG 16 faces)",
            Preset::CubeMap => "OpenGL cube map (PNG 16, +X..-Z)",
            Preset::NormalsOpenGl => "Normal map, OpenGL (PNG 8 faces)",
            Preset::NormalsDirectX => "Normal map, DirectX (PNG 8 faces)",
            Preset::Gltf => "glTF mesh (GLB)",
            Preset::MaskLayer => "Mask layer for engines (PNG 8 faces, 0 to 1)",
            Preset::DataLayer => "Data layer in its units (EXR float faces)",
        }
    }

    /// Sets the node's options for this consumer (the file name and the range stay).
    pub fn apply(self, s: &mut ExportSettings) {
        let keep = ExportSettings { name: s.name.clone(), low: s.low, high: s.high, units_from: s.units_from, units: s.units.clone(), ..ExportSettings::default() };
        *s = keep;
        let faces = |s: &mut ExportSettings, format, grid, size| {
            s.projection = ExportProjection::Faces;
            s.format = format;
            s.grid = grid;
            s.face_size = size;
        };
        s.mapping = ValueMapping::Planet;
        s.byte_order = ByteOrder::Little;
        match self {
            Preset::Unity | Preset::UnityLarge => {
                faces(s, ExportFormat::Raw16, FaceGrid::EdgeSharing, if self == Preset::Unity { 1025 } else { 4097 });
                s.engine = ExportEngine::Unity;
            }
            Preset::Unreal | Preset::UnrealLarge | Preset::UnrealWorldPartition => {
                let (size, tiles) = match self {
                    Preset::Unreal => (1009, 1),
                    Preset::UnrealLarge => (4033, 1),
                    _ => (16257, 2),
                };
                faces(s, ExportFormat::Png16, FaceGrid::EdgeSharing, size);
                s.tiles = tiles;
                s.engine = ExportEngine::Unreal;
            }
            Preset::Godot | Preset::GodotTiled => {
                let (size, tiles) = if self == Preset::Godot { (1025, 1) } else { (16385, 2) };
                faces(s, ExportFormat::Exr, FaceGrid::EdgeSharing, size);
                s.tiles = tiles;
                s.engine = ExportEngine::Godot;
            }
            Preset::Blender => s.format = ExportFormat::Exr,
            Preset::WorldMachine => faces(s, ExportFormat::Raw32, FaceGrid::Cells, 0),
            Preset::Kopernicus => s.format = ExportFormat::Png16,
            Preset::SpaceEngineers => faces(s, ExportFormat::Png16, FaceGrid::Cells, 0),
            Preset::CubeMap => {
                faces(s, ExportFormat::Png16, FaceGrid::Cells, 0);
                s.projection = ExportProjection::CubeMap;
            }
            Preset::NormalsOpenGl | Preset::NormalsDirectX => {
                faces(s, ExportFormat::Png8, FaceGrid::Cells, 0);
                s.layer = ExportLayer::Normals;
                s.normal_space = NormalSpace::Tangent;
                s.normal_green = if self == Preset::NormalsDirectX { NormalGreen::DirectX } else { NormalGreen::OpenGl };
            }
            Preset::Gltf => {
                s.layer = ExportLayer::Mesh;
                s.format = ExportFormat::Glb;
            }
            Preset::MaskLayer => {
                faces(s, ExportFormat::Png8, FaceGrid::Cells, 0);
                s.mapping = ValueMapping::Fixed;
                (s.low, s.high) = (0.0, 1.0);
            }
            Preset::DataLayer => faces(s, ExportFormat::Exr, FaceGrid::Cells, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_for_an_elevation_field() {
        for p in Preset::ALL {
            let mut s = ExportSettings { name: "height".into(), ..Default::default() };
            p.apply(&mut s);
            assert_eq!(s.name, "height");
            s.check(true, p == Preset::Gltf).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        }
    }
}
