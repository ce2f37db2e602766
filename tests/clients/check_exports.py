"""Reads every file of a `planetgraph build` from its manifest alone, with the programs users
read them with (Pillow and numpy for PNG and RAW, pypng for 16-bit RGB PNG, which Pillow
reads as 8-bit, OpenEXR for EXR, tifffile and Pillow for TIFF, a GLB/OBJ parse in numpy),
and checks them against the manifest's documented conventions.

Usage: python3 check_exports.py OUT_DIR MARKER_LAT MARKER_LON
Exit 0 when every check passes; otherwise prints what failed and exits 1.
"""
import json
import math
import struct
import sys
from pathlib import Path

import numpy as np
import OpenEXR
import png
import tifffile
from PIL import Image

OUT = Path(sys.argv[1])
MARKER = (float(sys.argv[2]), float(sys.argv[3]))
M = json.loads((OUT / "manifest.json").read_text())
FAILS = []
CHECKS = [0]


def check(ok, what):
    CHECKS[0] += 1
    if not ok:
        FAILS.append(what)


# Face frames from the manifest's "face_frames" convention: (normal, column, row).
FRAMES = {}
for part in M["conventions"]["face_frames"].split(": ", 1)[1].split("; pixels")[0].split("), "):
    name, vecs = part.split(" (")
    FRAMES[name.strip()] = [
        np.array({"X": [1, 0, 0], "Y": [0, 1, 0], "Z": [0, 0, 1]}[v.strip()[1]]) * (1 if v.strip()[0] == "+" else -1)
        for v in vecs.rstrip(")").split(";")
    ]
GL = {"posx": "right", "negx": "left", "posy": "top", "negy": "bottom", "posz": "front", "negz": "back"}
THETA = 0.86873


def warp(x):
    return math.tan(x * THETA) / math.tan(THETA)


def unwarp(u):
    return math.atan(u * math.tan(THETA)) / THETA


def read(f):
    """The file's samples as float values through the manifest's mapping: (H, W, C)."""
    p = OUT / f["path"]
    w, h, c = f["width"], f["height"], len(f["channels"])
    if f["format"] == "png" and c == 3 and f["sample"] == "u16":
        # Pillow reads 16-bit RGB PNGs as 8-bit; pypng keeps the 16 bits.
        pw, ph, rows, info = png.Reader(filename=str(p)).asDirect()
        check((pw, ph, info["bitdepth"]) == (w, h, 16), f"{f['path']}: {pw}x{ph} {info['bitdepth']}-bit != manifest")
        a = np.vstack([np.asarray(r, dtype=np.float64) for r in rows]).reshape(h, w, c)
    elif f["format"] == "png":
        im = Image.open(p)
        check(im.size == (w, h), f"{f['path']}: size {im.size} != manifest {(w, h)}")
        a = np.array(im).astype(np.float64).reshape(h, w, c)
    elif f["format"] == "raw":
        dt = {"u16": "u2", "f32": "f4"}[f["sample"]]
        dt = ("<" if f["byte_order"] == "little" else ">") + dt
        a = np.fromfile(p, dtype=dt).astype(np.float64)
        check(a.size == w * h * c, f"{f['path']}: {a.size} samples, manifest says {w}x{h}x{c}")
        a = a.reshape(h, w, c)
    elif f["format"] == "exr":
        with OpenEXR.File(str(p), separate_channels=True) as e:
            ch = e.channels()
            a = np.stack([ch[n].pixels.astype(np.float64) for n in f["channels"]], axis=-1)
        check(a.shape[:2] == (h, w), f"{f['path']}: EXR {a.shape} != manifest {(h, w)}")
    elif f["format"] == "tiff":
        a = tifffile.imread(p).astype(np.float64).reshape(h, w, c)
        if c == 1:
            # Grey TIFFs also open in Pillow (16-bit as I;16, float as F).
            pil = np.array(Image.open(p)).astype(np.float64).reshape(h, w, 1)
            check(np.array_equal(pil, a), f"{f['path']}: Pillow and tifffile read different samples")
    else:
        raise ValueError(f["format"])
    mp = f.get("mapping") or {}
    if mp.get("type") == "linear":
        a = mp["low"] + a / mp["max_sample"] * (mp["high"] - mp["low"])
    elif mp.get("type") == "normal" and f["sample"] != "f32":
        a = a / (255.0 if f["sample"] == "u8" else 65535.0) * 2.0 - 1.0
    return a


def step(f):
    mp = f["mapping"]
    return (mp["high"] - mp["low"]) / mp["max_sample"] if mp.get("type") == "linear" else 0.0


def pixel_dir(f, face, i, j):
    """Direction of pixel (i, j) of an m-pixel face (without border) by the documented formulas."""
    n, col, row = FRAMES[GL.get(face, face)]
    m = f["face_size"]
    if f["grid"] == "cells":
        a, b = (i + 0.5) / m, (j + 0.5) / m
    else:
        a, b = i / (m - 1), j / (m - 1)
    u, v = 2 * a - 1, 2 * b - 1
    if f["projection"] == "cube-face":
        u, v = warp(u), warp(v)
    d = n + u * col + v * row
    return d / np.linalg.norm(d)


def face_pixel_of(f, d):
    """The face and pixel (i, j) of direction d in this layout."""
    best = None
    for name, (n, col, row) in FRAMES.items():
        if np.dot(d, n) > (best[1] if best else -1):
            best = (name, np.dot(d, n))
    name = best[0]
    n, col, row = FRAMES[name]
    p = d / np.dot(d, n)
    u, v = np.dot(p, col), np.dot(p, row)
    if f["projection"] == "cube-face":
        u, v = unwarp(u), unwarp(v)
    m = f["face_size"]
    a, b = (u + 1) / 2, (v + 1) / 2
    if f["grid"] == "cells":
        return name, a * m - 0.5, b * m - 0.5
    return name, a * (m - 1), b * (m - 1)


def lonlat_dir(lat, lon):
    la, lo = math.radians(lat), math.radians(lon)
    return np.array([math.cos(la) * math.sin(lo), math.sin(la), math.cos(la) * math.cos(lo)])


files = M["files"]
check(M["version"] == 2, "manifest version 2")
for f in files:
    check((OUT / f["path"]).stat().st_size == f["bytes"], f"{f['path']}: size differs from the manifest")
check(not list(OUT.glob(".*.part")), "no temporary files are left")
by_export = {}
for f in files:
    by_export.setdefault(f["export"], []).append(f)
images = {f["path"]: read(f) for f in files if f["layer"] != "mesh" and f["format"] != "json"}

# Equirectangular elevation: PNG16 through the mapping equals the EXR float metres within one step,
# and the marker (the highest point) is at the documented pixel.
png = by_export["elevation"][0]
exr = by_export["elevation_float"][0]
a, b = images[png["path"]][..., 0], images[exr["path"]][..., 0]
lo, hi = png["mapping"]["low"], png["mapping"]["high"]
diff = np.abs(a - np.clip(b, lo, hi)).max()
check(diff <= step(png) * 0.51 + 1e-3, f"PNG16 vs EXR metres differ by {diff} m (step {step(png)})")
H, W = b.shape
row, col = np.unravel_index(np.argmax(b), b.shape)
want = ((MARKER[1] / 360 + 0.5) * W - 0.5, (0.5 - MARKER[0] / 180) * H - 0.5)
check(abs(col - want[0]) <= 1.5 and abs(row - want[1]) <= 1.5, f"equirect marker at {(col, row)}, documented {want}")

# EXR float faces equal the RAW float faces (both the evaluation's cells) exactly.
for fe, fr in zip(sorted(by_export["elevation_exr_faces"], key=lambda f: f["face_index"]), sorted(by_export["elevation_r32"], key=lambda f: f["face_index"])):
    check(np.array_equal(images[fe["path"]], images[fr["path"]]), f"{fe['path']} != {fr['path']}")
    lo_d, hi_d = fe["data_range"]
    check(lo_d - 1e-3 <= images[fe["path"]].min() and images[fe["path"]].max() <= hi_d + 1e-3, f"{fe['path']} outside data_range")


# TIFF: 16-bit equirect equals the PNG16 samples, float faces equal the RAW float faces, 16-bit
# linear albedo faces equal the EXR's linear floats within half a step.
check(np.array_equal(images[by_export["elevation_tiff16"][0]["path"]], images[png["path"]]), "TIFF16 equirect != PNG16")
for ft, fr in zip(sorted(by_export["elevation_tiff32_faces"], key=lambda f: f["face_index"]), sorted(by_export["elevation_r32"], key=lambda f: f["face_index"])):
    check(np.array_equal(images[ft["path"]], images[fr["path"]]), f"{ft['path']} != {fr['path']}")
lin = {f["face"]: images[f["path"]] for f in by_export["albedo_linear"]}
for f in by_export["albedo_tiff16"]:
    worst = np.abs(images[f["path"]] / 65535.0 - np.clip(lin[f["face"]], 0, 1)).max()
    check(worst <= 0.51 / 65535.0 + 1e-7, f"{f['path']}: differs from the linear EXR by {worst}")

# Units come from the source: metres after the Planet node, degrees from Slope, none for colours.
for name, unit in [("elevation", "m"), ("elevation_tiff32_faces", "m"), ("slope_mask", "deg"), ("albedo", "")]:
    for f in by_export[name]:
        check(f["units"] == unit, f"{f['path']}: units '{f['units']}', expected '{unit}'")


def assemble(group):
    """Face name -> (H, W, C) image, tiles put back at their origins."""
    faces = {}
    for f in group:
        size = f["face_size"] + 2 * (f["border"] or 0)
        img = faces.setdefault(f["face"], np.zeros((size, size, len(f["channels"]))))
        x0, y0 = f.get("tile_origin") or [0, 0]
        img[y0:y0 + f["height"], x0:x0 + f["width"]] = images[f["path"]]
    return faces


# Every cube layout: the marker at the documented face and pixel; borders and shared edges.
for name in ["elevation_faces", "elevation_unity", "elevation_cube", "elevation_r32"]:
    group = by_export[name]
    f0 = group[0]
    faces = assemble(group)
    bd = f0["border"] or 0
    face, fi, fj = face_pixel_of(f0, lonlat_dir(*MARKER))
    key = [k for k in faces if GL.get(k, k) == face][0]
    img = faces[key][..., 0]
    inner = img[bd:img.shape[0] - bd, bd:img.shape[1] - bd]
    j, i = np.unravel_index(np.argmax(inner), inner.shape)
    check(abs(i - fi) <= 1.5 and abs(j - fj) <= 1.5, f"{name}: marker at {key} {(i, j)}, documented {(fi, fj)}")
    check(inner.max() >= max(v[..., 0].max() for v in faces.values()) - step(f0), f"{name}: the marker is the highest point")
    m = f0["face_size"]
    for key, img in faces.items():
        fr = GL.get(key, key)
        for (i, j) in [(k, 0) for k in range(m)] + [(k, m - 1) for k in range(m)] + [(0, k) for k in range(m)] + [(m - 1, k) for k in range(m)]:
            d = pixel_dir(f0, key, i, j)
            n, col, row = FRAMES[fr]
            # Each step out of the face from this edge pixel: (column step, row step, direction).
            steps = [(1, 0, col)] if i == m - 1 else [(-1, 0, -col)] if i == 0 else []
            steps += [(0, 1, row)] if j == m - 1 else [(0, -1, -row)] if j == 0 else []
            for di, dj, step_dir in steps:
                # The neighbour across this edge is the face whose normal is the outward step.
                nb = [k for k, (nn, _, _) in FRAMES.items() if np.array_equal(nn, step_dir)][0]
                nkey = [k for k in faces if GL.get(k, k) == nb][0]
                # The neighbour's pixel nearest to this pixel, among its pixels on its edges.
                cands = []
                for k in range(m):
                    for (a2, b2) in [(0, k), (m - 1, k), (k, 0), (k, m - 1)]:
                        cands.append((np.dot(pixel_dir(f0, nkey, a2, b2), d), a2, b2))
                _, a2, b2 = max(cands)
                if bd:
                    # Border pixel beyond (i, j) towards the neighbour equals the neighbour's edge pixel.
                    bi, bj = i + bd + di, j + bd + dj
                    got, want_v = img[bj, bi, 0], faces[nkey][b2 + bd, a2 + bd, 0]
                    check(got == want_v, f"{name} {key} border at {(bi, bj)}: {got} != neighbour {nkey} edge pixel {(a2, b2)} {want_v}")
                elif f0["grid"] == "edge_sharing":
                    got, want_v = img[j, i, 0], faces[nkey][b2, a2, 0]
                    check(abs(got - want_v) <= step(f0) * 1.01 + 1e-3, f"{name} {key} edge pixel {(i, j)}: {got} vs {nkey} {(a2, b2)} {want_v}")

# Albedo: the sRGB PNG face textures of the OBJ equal the linear EXR faces (both the
# evaluation's cells) through the sRGB transfer, within one 8-bit step.
def to_srgb(c):
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * np.power(c, 1 / 2.4) - 0.055)


linear = {f["face"]: images[f["path"]] for f in by_export["albedo_linear"]}
for f in by_export["planet_obj"]:
    if f["path"].endswith(".png"):
        png8 = np.array(Image.open(OUT / f["path"])).astype(np.float64)
        worst = np.abs(png8 - np.round(to_srgb(linear[f["face"]]) * 255)).max()
        check(worst <= 1.0, f"{f['path']}: sRGB texture differs from the linear EXR by {worst} steps")
alb = images[by_export["albedo"][0]["path"]] / 255.0
check(alb.shape[2] == 3 and 0.0 < alb.mean() < 1.0, "albedo PNG is RGB with colour")

# Slope mask: degrees within the fixed range.
sl = images[by_export["slope_mask"][0]["path"]]
check(sl.min() >= 0.0 and sl.max() <= 10.0 + 1e-6, "slope mask within its fixed range")

# Normal maps: unit length, facing out; the marker's north flank tilts north: green up the
# image (OpenGL) or down (DirectX).
for name in ["normals_opengl", "normals_directx", "normals_object"]:
    for f in by_export[name]:
        v = images[f["path"]]
        ln = np.linalg.norm(v, axis=-1)
        tol = 0.02 if f["sample"] == "u8" else 0.001
        check(np.abs(ln - 1).max() < tol * 3, f"{f['path']}: normals not unit ({np.abs(ln - 1).max()})")
        if f["mapping"]["space"] == "tangent":
            check(v[..., 2].min() > 0.0, f"{f['path']}: a tangent normal points into the ground")
dx = images[by_export["normals_directx"][0]["path"]]
H, W = dx.shape[:2]
c, r = int((MARKER[1] / 360 + 0.5) * W), int((0.5 - (MARKER[0] + 3.0) / 180) * H)
check(dx[r, c, 1] < -0.05, f"DirectX green on the north flank is {dx[r, c, 1]} (should point down the image)")
ogl = assemble(by_export["normals_opengl"])
face, fi, fj = face_pixel_of(by_export["normals_opengl"][0], lonlat_dir(MARKER[0] + 3.0, MARKER[1]))
g = ogl[[k for k in ogl if GL.get(k, k) == face][0]][int(round(fj)), int(round(fi)), 1]
check(g > 0.05, f"OpenGL green on the north flank is {g} (should point up the image)")

# Meshes: GLB vertices back at their node translations lie on the surface.
R = M["radius_km"] * 1000.0
for f in by_export["planet"]:
    data = (OUT / f["path"]).read_bytes()
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    check(magic == b"glTF" and version == 2 and length == len(data), "GLB header")
    jlen, = struct.unpack_from("<I", data, 12)
    gj = json.loads(data[20:20 + jlen])
    blen, = struct.unpack_from("<I", data, 20 + jlen)
    binary = data[28 + jlen:28 + jlen + blen]
    lo_m, hi_m = f["data_range"]
    worst = 0.0
    for node in gj["nodes"]:
        prim = gj["meshes"][node["mesh"]]["primitives"][0]
        acc = gj["accessors"][prim["attributes"]["POSITION"]]
        view = gj["bufferViews"][acc["bufferView"]]
        pos = np.frombuffer(binary, dtype="<f4", count=acc["count"] * 3, offset=view.get("byteOffset", 0)).reshape(-1, 3).astype(np.float64)
        pos += np.array(node["translation"])
        h = np.linalg.norm(pos, axis=1) - R
        tol = 2.0
        if node["name"].startswith("sea"):
            worst = max(worst, np.abs(h).max())
        else:
            check(h.min() >= lo_m - tol and h.max() <= hi_m + tol, f"{node['name']}: heights {h.min()}..{h.max()} outside {lo_m}..{hi_m}")
        check(np.abs(pos - np.array(node["translation"])).max() < R, "vertices stored relative to the chunk centre")
    check(worst < 2.0, f"sea sphere off the radius by {worst} m")
for f in by_export["planet_obj"]:
    if f["path"].endswith(".obj"):
        # Heights per object: the ground chunks within the data range, the sea on the radius.
        objects, name = {}, None
        for line in (OUT / f["path"]).read_text().splitlines():
            if line.startswith("o "):
                name = line[2:]
            elif line.startswith("v "):
                objects.setdefault(name, []).append([float(x) for x in line.split()[1:4]])
        sea = [k for k in objects if k.startswith("sea_")]
        ground = [k for k in objects if not k.startswith("sea_")]
        check(len(sea) == 6 and len(ground) == 6 * 4, f"OBJ objects: {len(ground)} ground chunks, {len(sea)} sea faces")
        for k in ground:
            h = np.linalg.norm(np.array(objects[k]), axis=1) - R
            check(h.min() >= f["data_range"][0] - 2 and h.max() <= f["data_range"][1] + 2, f"OBJ {k} heights {h.min()}..{h.max()}")
        for k in sea:
            h = np.linalg.norm(np.array(objects[k]), axis=1) - R
            check(np.abs(h).max() < 2.0, f"OBJ {k} off the sea radius by {np.abs(h).max()} m")

# Splat maps: RGBA 8-bit faces whose samples add up to 255 at every pixel over both files, the
# layers where the JSON and the manifest say, the sea floor's weight on the deep sea floor.
listing = json.loads((OUT / "splat.json").read_text())
check([(l["name"], l["file"], l["channel"]) for l in listing["layers"]] == [("seabed", 0, "R"), ("sand", 0, "G"), ("ground", 0, "B"), ("rock", 0, "A"), ("snow", 1, "R")], f"splat.json layers: {listing['layers']}")
splat_faces = {}
for f in by_export["splat"]:
    if f["format"] == "json":
        continue
    im = Image.open(OUT / f["path"])
    check(im.mode == "RGBA" and f["channels"] == ["R", "G", "B", "A"], f"{f['path']}: mode {im.mode}, channels {f['channels']}")
    group = int(f["path"].split("_")[1])
    check(f["splat_layers"] == listing["files"][group]["layers"] and f["path"] in listing["files"][group]["images"], f"{f['path']}: layers {f['splat_layers']} not as splat.json lists")
    splat_faces.setdefault(f["face"], {})[group] = np.array(im).astype(np.int64)
check(len(splat_faces) == 6, f"splat faces: {sorted(splat_faces)}")
heights = {f["face"]: images[f["path"]][..., 0] for f in by_export["elevation_exr_faces"]}
for face, groups in splat_faces.items():
    total = groups[0].sum(axis=-1) + groups[1].sum(axis=-1)
    check((total == 255).all(), f"splat {face}: samples sum to {total.min()}..{total.max()}, not 255")
    check((groups[1][..., 1:] == 0).all(), f"splat {face}: unused channels of the second file are not 0")
    deep = heights[face] < -500
    if deep.any():
        check(groups[0][..., 0][deep].min() >= 250, f"splat {face}: the sea floor's weight on deep sea floor is {groups[0][..., 0][deep].min()}")

print(f"{CHECKS[0]} checks on {len(files)} files")
if FAILS:
    print("\n".join(FAILS[:40]))
    print(f"{len(FAILS)} failed")
    sys.exit(1)
