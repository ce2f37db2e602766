"""Imports a `planetgraph build`'s meshes and float heights into Blender from the command line
and checks what Blender holds, from the manifest alone:

    blender -b --factory-startup --python blender_import.py -- OUT_DIR

- every GLB (glTF importer) and OBJ (Wavefront importer) loads; its ground vertices, in world
  coordinates, lie at the planet's radius plus the manifest's data range, and its sea objects
  on the radius;
- every single-channel EXR opens as an image of float values within the manifest's data range
  (metres, not clamped), and where the build holds a RAW float file of the same face and size,
  Blender's pixels equal it exactly (Blender stores rows bottom-up).

Exit 0 when every check passes; otherwise prints what failed and exits 1.
"""
import json
import sys
from pathlib import Path

import numpy

# Debian's Blender 3.4 glTF importer still names numpy.bool, which numpy 1.24 removed.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

import bpy  # noqa: E402

OUT = Path(sys.argv[sys.argv.index("--") + 1])
M = json.loads((OUT / "manifest.json").read_text())
R = M["radius_km"] * 1000.0
FAILS = []
CHECKS = [0]


def check(ok, what):
    CHECKS[0] += 1
    if not ok:
        FAILS.append(what)


def radii(objects):
    """Smallest and largest distance from the origin of the objects' world-space vertices."""
    lo, hi = float("inf"), 0.0
    for o in objects:
        co = numpy.empty(len(o.data.vertices) * 3)
        o.data.vertices.foreach_get("co", co)
        co = co.reshape(-1, 3)
        mw = numpy.array(o.matrix_world)
        world = co @ mw[:3, :3].T + mw[:3, 3]
        d = numpy.linalg.norm(world, axis=1)
        lo, hi = min(lo, d.min()), max(hi, d.max())
    return lo, hi


meshes = [f for f in M["files"] if f["layer"] == "mesh" and f["format"] in ("glb", "obj") and f["path"].endswith((".glb", ".obj"))]
check(meshes, "the build has meshes")
for f in meshes:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    path = str(OUT / f["path"])
    if f["format"] == "glb":
        result = bpy.ops.import_scene.gltf(filepath=path)
    else:
        result = bpy.ops.wm.obj_import(filepath=path)
    check(result == {"FINISHED"}, f"{f['path']}: import {result}")
    objects = [o for o in bpy.data.objects if o.type == "MESH"]
    sea = [o for o in objects if o.name.startswith("sea")]
    ground = [o for o in objects if not o.name.startswith("sea")]
    check(len(ground) >= 6, f"{f['path']}: {len(ground)} ground objects")
    lo_m, hi_m = f["data_range"]
    lo, hi = radii(ground)
    check(R + lo_m - 2.0 <= lo and hi <= R + hi_m + 2.0, f"{f['path']}: ground radii {lo:.1f}..{hi:.1f}, manifest {R + lo_m:.1f}..{R + hi_m:.1f}")
    if sea:
        lo, hi = radii(sea)
        check(abs(lo - R) < 2.0 and abs(hi - R) < 2.0, f"{f['path']}: sea radii {lo:.1f}..{hi:.1f}, radius {R:.1f}")
    print(f"{f['path']}: {len(ground)} ground and {len(sea)} sea objects, {len(bpy.data.images)} images")

compared = [0]
exrs = [f for f in M["files"] if f["format"] == "exr" and len(f["channels"]) == 1 and f["layer"] == "data"]
check(exrs, "the build has float EXR heights")
for f in exrs:
    img = bpy.data.images.load(str(OUT / f["path"]))
    check((img.size[0], img.size[1]) == (f["width"], f["height"]), f"{f['path']}: {tuple(img.size)} != manifest")
    px = numpy.empty(img.size[0] * img.size[1] * img.channels, dtype=numpy.float32)
    img.pixels.foreach_get(px)
    grey = px.reshape(img.size[1], img.size[0], img.channels)[::-1, :, 0]
    lo_d, hi_d = f["data_range"]
    tol = 1e-3 * max(1.0, abs(lo_d), abs(hi_d))
    check(lo_d - tol <= grey.min() and grey.max() <= hi_d + tol, f"{f['path']}: Blender reads {grey.min()}..{grey.max()}, manifest {lo_d}..{hi_d}")
    check(grey.max() - grey.min() > 1.0, f"{f['path']}: Blender reads a flat image")
    twins = [r for r in M["files"] if r["format"] == "raw" and r["sample"] == "f32" and r["source"] == f["source"] and r.get("face") == f.get("face") and r["projection"] == f["projection"] and (r["width"], r["height"]) == (f["width"], f["height"]) and not r.get("tile_origin")]
    for r in twins[:1]:
        raw = numpy.fromfile(OUT / r["path"], dtype=("<" if r["byte_order"] == "little" else ">") + "f4").reshape(r["height"], r["width"])
        check(numpy.array_equal(raw, grey), f"{f['path']}: Blender's pixels differ from {r['path']} by {numpy.abs(raw - grey).max()}")
        compared[0] += 1

check(compared[0] > 0, "no EXR had a RAW float twin to compare with")
print(f"{CHECKS[0]} Blender checks on {len(meshes)} meshes and {len(exrs)} EXR files ({compared[0]} equal to their RAW twins)")
if FAILS:
    print("\n".join(FAILS[:40]))
    print(f"{len(FAILS)} failed")
    sys.exit(1)
