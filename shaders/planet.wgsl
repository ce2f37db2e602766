// PlanetGraph planet shader: elevation colour ramp (mirrors crates/core/src/appearance.rs), face colours or
// an overlay texture (plates, regions, or the albedo with water over the sea floor; borders in
// its alpha), Lambert lighting from the sun, a specular glint on the sea, a thin atmosphere rim,
// and line passes for the wireframe and motion arrows.

struct Uniforms {
    view_proj: mat4x4<f32>,
    // xyz: direction towards the light (unit), w: ambient term.
    light: vec4<f32>,
    // x: deepest ocean (m), y: highest peak (m), z: colour mode (0 elevation, 1 faces,
    // 2 overlay colours), w: 1 to darken by the overlay's alpha (region borders, centroids).
    ramp: vec4<f32>,
    // Wireframe line colour (linear RGB) and outward offset factor in w.
    line: vec4<f32>,
    // Camera position (planet radii); w: atmosphere rim strength (0 off).
    eye: vec4<f32>,
    // Colour of deep water (linear RGB).
    water: vec4<f32>,
    // Attenuation of light per metre of water depth, per channel (rgb).
    water_attenuation: vec4<f32>,
    // x: 1 to light by the normal map (per pixel), 0 by the vertex normals; y: how far the
    // relief has morphed from the vertices' earlier relief (0..1, see VertexIn.morph); z: share
    // of the mesh's relief drawn (0..1, see relief_scaled).
    detail: vec4<f32>,
    // The detail patches of a close-up, one per texture layer: face coordinates of the corner
    // (xy), the edge (z), the face (w).
    patch_area: array<vec4<f32>, 32>,
    // Per patch, 1 where it fades towards a side, 2 to 3 where it softens towards a coarser
    // patch (2 plus how far it blends into the coarser patch under it), 0 where it stays
    // sharp: low a, high a, low b, high b.
    patch_fades: array<vec4<f32>, 32>,
    // Per patch, how much of it shows (0..1, while it fades in), four to a vector.
    patch_opacity: array<vec4<f32>, 8>,
    // x: 1 when the patches have colours, y: 1 when they have normals, z: fading margin,
    // w: how many patches are drawn.
    patch_flags: vec4<f32>,
    // The inverse of view_proj (for the sky's view rays).
    inv_view_proj: mat4x4<f32>,
};

@group(0) @binding(0) var<uniform> u: Uniforms;
// Six layers, one per cube face, addressed by face coordinates.
@group(0) @binding(1) var overlay: texture_2d_array<f32>;
@group(0) @binding(2) var overlay_sampler: sampler;
// World-space normals per texel (0.5 + 0.5 n), the same six layers.
@group(0) @binding(3) var normal_map: texture_2d_array<f32>;
// The detail patches' colours and normals (a layer per patch), over the planet's where they lie.
@group(0) @binding(4) var patch_overlay: texture_2d_array<f32>;
@group(0) @binding(5) var patch_normals: texture_2d_array<f32>;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) elevation: f32,
    @location(3) face: u32,
    @location(4) uv: vec2<f32>,
    // The relief before the close-ups changed, as offsets from this vertex: along the radius
    // (planet radii) and in elevation (m).
    @location(5) morph: vec2<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) elevation: f32,
    @location(2) @interpolate(flat) face: u32,
    @location(3) uv: vec2<f32>,
    @location(4) world: vec3<f32>,
};

// A point of the mesh with its height above the unit sphere scaled by the share of the relief
// drawn (detail.z): the mesh is built for the Relief setting, the view may draw less of it.
fn relief_scaled(p: vec3<f32>) -> vec3<f32> {
    let r = length(p);
    return p / r * (1.0 + (r - 1.0) * u.detail.z);
}

// A normal of the relief the mesh was built for, turned to the relief scaled by detail.z: the
// surface gradient scales with the relief, and n / (n . up) = up - k g for a gradient g and an
// exaggeration k, so the scaled normal is (1 - s) up + s n / (n . up), normalised.
fn relief_normal(n: vec3<f32>, up: vec3<f32>) -> vec3<f32> {
    let s = u.detail.z;
    return normalize((1.0 - s) * up + s * n / max(dot(n, up), 0.05));
}

// The vertex moved back towards its earlier relief by what is left of the morph, its relief
// scaled as drawn.
fn morphed(v: VertexIn) -> vec4<f32> {
    let back = 1.0 - u.detail.y;
    return vec4<f32>(relief_scaled(v.position + normalize(v.position) * v.morph.x * back), v.elevation + v.morph.y * back);
}

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    var out: VertexOut;
    let m = morphed(v);
    out.clip = u.view_proj * vec4<f32>(m.xyz, 1.0);
    out.world = m.xyz;
    out.normal = v.normal;
    out.elevation = m.w;
    out.face = v.face;
    out.uv = v.uv;
    return out;
}

fn ramp3(c0: vec3<f32>, c1: vec3<f32>, t0: f32, t1: f32, t: f32) -> vec3<f32> {
    return mix(c0, c1, clamp((t - t0) / max(t1 - t0, 1e-6), 0.0, 1.0));
}

// sRGB-ish ramp colours, the same stops as appearance::hypsometric.
fn hypsometric(e: f32) -> vec3<f32> {
    if (e < 0.0) {
        let t = clamp(-e / max(u.ramp.x, 1.0), 0.0, 1.0);
        if (t < 0.25) {
            return ramp3(vec3<f32>(0.36, 0.62, 0.78), vec3<f32>(0.11, 0.33, 0.60), 0.0, 0.25, t);
        }
        return ramp3(vec3<f32>(0.11, 0.33, 0.60), vec3<f32>(0.02, 0.07, 0.24), 0.25, 1.0, t);
    }
    let t = clamp(e / max(u.ramp.y, 1.0), 0.0, 1.0);
    if (t < 0.12) {
        return ramp3(vec3<f32>(0.33, 0.55, 0.29), vec3<f32>(0.50, 0.64, 0.35), 0.0, 0.12, t);
    }
    if (t < 0.3) {
        return ramp3(vec3<f32>(0.50, 0.64, 0.35), vec3<f32>(0.78, 0.72, 0.47), 0.12, 0.3, t);
    }
    if (t < 0.55) {
        return ramp3(vec3<f32>(0.78, 0.72, 0.47), vec3<f32>(0.58, 0.44, 0.30), 0.3, 0.55, t);
    }
    if (t < 0.75) {
        return ramp3(vec3<f32>(0.58, 0.44, 0.30), vec3<f32>(0.50, 0.46, 0.44), 0.55, 0.75, t);
    }
    return ramp3(vec3<f32>(0.50, 0.46, 0.44), vec3<f32>(0.96, 0.96, 0.98), 0.75, 0.9, t);
}

fn face_colour(f: u32) -> vec3<f32> {
    switch f {
        case 0u: { return vec3<f32>(0.85, 0.30, 0.30); }
        case 1u: { return vec3<f32>(0.30, 0.75, 0.35); }
        case 2u: { return vec3<f32>(0.30, 0.45, 0.90); }
        case 3u: { return vec3<f32>(0.90, 0.80, 0.30); }
        case 4u: { return vec3<f32>(0.85, 0.40, 0.85); }
        default: { return vec3<f32>(0.35, 0.85, 0.85); }
    }
}

// Share of a patch's edge over which it softens towards a coarser patch (or blends into the
// one under it), and the mipmap level it is drawn at where it softens
// (crates/renderer/src/layers.rs SOFT_MARGIN, SOFT_LOD).
const SOFT_MARGIN: f32 = 0.25;
const SOFT_LOD: f32 = 2.0;

// Position across detail patch k (xy), the patch's weight there (z: 1 inside, fading to 0
// over the margin towards the sides it fades on and over SOFT_MARGIN to 1 less its blend
// towards those it softens on, 0 outside or on another face) and the mipmap level to draw it
// at (w: SOFT_LOD times 1 less its blend on a side it softens on, 0 from SOFT_MARGIN in); the
// same as DetailPatch::place and DetailPatch::softness.
fn patch_place(k: i32, face: u32, uv: vec2<f32>) -> vec4<f32> {
    let area = u.patch_area[k];
    let t = (uv - area.xy) / max(area.z, 1e-6);
    var w = 0.0;
    var lod = 0.0;
    if (face == u32(area.w + 0.5) && all(t >= vec2<f32>(0.0)) && all(t <= vec2<f32>(1.0))) {
        let fades = u.patch_fades[k];
        let far = vec4<f32>(1e9);
        let inside = vec4<f32>(t.x, 1.0 - t.x, t.y, 1.0 - t.y);
        let sides = select(far, inside, fades > vec4<f32>(0.5) & fades < vec4<f32>(1.5));
        let edge = min(min(sides.x, sides.y), min(sides.z, sides.w));
        w = clamp(edge / max(u.patch_flags.z, 1e-6), 0.0, 1.0);
        let soft = fades > vec4<f32>(1.5);
        let ramp = clamp(inside / SOFT_MARGIN, vec4<f32>(0.0), vec4<f32>(1.0));
        let blend = clamp(fades - vec4<f32>(2.0), vec4<f32>(0.0), vec4<f32>(1.0));
        let weights = select(vec4<f32>(1.0), vec4<f32>(1.0) - blend * (vec4<f32>(1.0) - ramp), soft);
        w = min(w, min(min(weights.x, weights.y), min(weights.z, weights.w)));
        let lods = select(vec4<f32>(0.0), (vec4<f32>(1.0) - ramp) * (vec4<f32>(1.0) - blend), soft);
        lod = SOFT_LOD * max(max(lods.x, lods.y), max(lods.z, lods.w));
    }
    return vec4<f32>(clamp(t, vec2<f32>(0.0), vec2<f32>(1.0)), w, lod);
}

@fragment
fn fs_main(v: VertexOut) -> @location(0) vec4<f32> {
    var base: vec3<f32>;
    // The cube face, and whether the ground lies below sea level away from the ocean (an
    // inland basin: ground, not sea; crates/render/src/mesh.rs INLAND).
    let face = v.face & 7u;
    let inland = (v.face & 8u) != 0u;
    var over = textureSample(overlay, overlay_sampler, v.uv, i32(face));
    var mapped = textureSample(normal_map, overlay_sampler, v.uv, i32(face)).xyz;
    // The patches, finest (last) first, each sampled only where it lies (an explicit mipmap
    // level: 0, or coarser towards a coarser neighbour; it needs no uniform control flow), composited
    // front to back: the same as laying them coarse first one over the other, but it stops
    // at the first patch that covers the fragment fully.
    var patch_colour = vec4<f32>(0.0);
    var fine_normal = vec3<f32>(0.0);
    var uncovered = 1.0;
    for (var k = i32(u.patch_flags.w + 0.5) - 1; k >= 0; k = k - 1) {
        let place = patch_place(k, face, v.uv);
        let weight = place.z * u.patch_opacity[k / 4][k % 4];
        if (weight > 0.0) {
            let w = weight * uncovered;
            patch_colour += w * textureSampleLevel(patch_overlay, overlay_sampler, place.xy, k, place.w);
            fine_normal += w * textureSampleLevel(patch_normals, overlay_sampler, place.xy, k, place.w).xyz;
            uncovered *= 1.0 - weight;
            if (uncovered <= 0.0) {
                break;
            }
        }
    }
    let fine_weight = 1.0 - uncovered;
    if (u.patch_flags.x > 0.5) {
        over = patch_colour + uncovered * over;
    }
    if (u.patch_flags.y > 0.5) {
        mapped = fine_normal + uncovered * mapped;
    }
    if (u.ramp.z > 1.5) {
        base = over.rgb;
    } else if (u.ramp.z > 0.5) {
        base = face_colour(face);
    } else {
        base = hypsometric(v.elevation);
    }
    if (u.ramp.w > 0.5) {
        base = base * (1.0 - 0.8 * over.a);
    }
    var n = normalize(v.normal);
    mapped = mapped * 2.0 - 1.0;
    if (u.detail.x > 0.5) {
        n = normalize(mapped);
    } else if (u.patch_flags.y > 0.5 && fine_weight > 0.0) {
        n = normalize(mix(n, normalize(fine_normal / fine_weight * 2.0 - 1.0), fine_weight));
    }
    let up = normalize(v.world);
    if (u.detail.z < 0.999) {
        n = relief_normal(n, up);
    }
    // The ramp is written in sRGB; the target is an sRGB texture, so convert to linear first.
    var linear = pow(base, vec3<f32>(2.2));
    let view_dir = normalize(u.eye.xyz - v.world);
    var glint = 0.0;
    if (u.ramp.z > 2.5 && v.elevation < 0.0 && !inland) {
        // Water over the sea floor: the deeper, the more of the water's colour (seed 002's
        // exp(-depth k), red lost first, blue last); the surface is flat, with a glint of the sun.
        let cover = vec3<f32>(1.0) - exp(-(-v.elevation) * u.water_attenuation.rgb);
        linear = mix(linear, u.water.rgb, cover);
        n = up;
        let h = normalize(u.light.xyz + view_dir);
        // A sharp highlight (the sun's image on calm water) over a faint, wider sheen.
        let ndh = max(dot(n, h), 0.0);
        glint = (0.9 * pow(ndh, 2000.0) + 0.015 * pow(ndh, 150.0)) * step(0.0, dot(n, u.light.xyz));
    }
    let lambert = max(dot(n, u.light.xyz), 0.0);
    let shade = u.light.w + (1.0 - u.light.w) * lambert;
    var colour = linear * shade + vec3<f32>(glint);
    // A thin atmosphere: scattered light towards the limb on the day side.
    let limb = pow(1.0 - max(dot(up, view_dir), 0.0), 3.0);
    let day = 0.25 + 0.75 * max(dot(up, u.light.xyz), 0.0);
    colour = colour + u.eye.w * limb * day * vec3<f32>(0.18, 0.32, 0.65);
    return vec4<f32>(colour, 1.0);
}

@vertex
fn vs_line(v: VertexIn) -> VertexOut {
    var out: VertexOut;
    let m = morphed(v);
    out.clip = u.view_proj * vec4<f32>(m.xyz * u.line.w, 1.0);
    out.world = m.xyz;
    out.normal = v.normal;
    out.elevation = m.w;
    out.face = v.face;
    out.uv = v.uv;
    return out;
}

@fragment
fn fs_line(v: VertexOut) -> @location(0) vec4<f32> {
    return vec4<f32>(u.line.rgb, 1.0);
}

@fragment
fn fs_arrow(v: VertexOut) -> @location(0) vec4<f32> {
    return vec4<f32>(1.0, 0.92, 0.35, 1.0);
}

// The sky behind the planet: the dark of space, and where the atmosphere's rim is on, the glow
// of the air seen edge-on above the horizon, strongest where a view ray passes closest to the
// ground and on the day side. Drawn first, as one triangle over the whole picture.
struct SkyOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) ndc: vec2<f32>,
};

@vertex
fn vs_sky(@builtin(vertex_index) i: u32) -> SkyOut {
    let p = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u)) * 2.0 - vec2<f32>(1.0, 1.0);
    var out: SkyOut;
    out.clip = vec4<f32>(p, 0.5, 1.0);
    out.ndc = p;
    return out;
}

// Height in planet radii over which the glow fades by 1/e: about 60 km on an Earth-sized planet,
// several times the air's own scale height, so the rim shows at the viewport's sizes.
const SKY_SCALE_HEIGHT: f32 = 0.01;

@fragment
fn fs_sky(v: SkyOut) -> @location(0) vec4<f32> {
    let space = vec3<f32>(0.008, 0.009, 0.015);
    if (u.eye.w <= 0.0) {
        return vec4<f32>(space, 1.0);
    }
    let near = u.inv_view_proj * vec4<f32>(v.ndc, 0.0, 1.0);
    let far = u.inv_view_proj * vec4<f32>(v.ndc, 1.0, 1.0);
    let d = normalize(far.xyz / far.w - near.xyz / near.w);
    let e = u.eye.xyz;
    // The point of the ray (ahead of the eye) closest to the planet's centre.
    let c = e + max(-dot(e, d), 0.0) * d;
    let height = max(length(c) - 1.0, 0.0);
    let glow = exp(-height / SKY_SCALE_HEIGHT);
    let day = smoothstep(-0.35, 0.5, dot(normalize(c), u.light.xyz));
    let colour = space + u.eye.w * glow * day * vec3<f32>(0.18, 0.32, 0.65);
    return vec4<f32>(colour, 1.0);
}
