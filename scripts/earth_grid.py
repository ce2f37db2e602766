#!/usr/bin/env python3
"""Makes graphs/data/earth_etopo1.png, the Earth relief that graphs/earth_amplified.ron imports.

Source: ETOPO1 Bedrock (Amante and Eakins 2009, NOAA NCEI; public domain, a work of the US
government), as resampled to 0.1 degree and bundled in the PyPI package pybacktrack 1.5.0
(pybacktrack/bundle_data/topography/ETOPO1_0.1.grd, a gridline-registered NetCDF-4 grid of
3601 x 1801 nodes, longitude 0..360, latitude -90..90, metres).

Output: an equirectangular 16-bit grey PNG of 1440 x 720 pixels (0.25 degree, pixel centres at
longitude -180 + 0.125 + 0.25 i, latitude 90 - 0.125 - 0.25 j, north up), each pixel the mean
of the 0.1-degree nodes within it, stored as metres + 11000 (so 0..65535 is -11000..54535 m;
the import's Offset is -11000).

Run: python3 scripts/earth_grid.py path/to/pybacktrack-1.5.0-py3-none-any.whl
(needs numpy, h5py and Pillow).

With `--fine OUT.png` it writes the full 0.1-degree grid instead, for the comparisons with
Earth (tests/earth.rs, `planetgraph bench --earth`; scripts/test.sh fetches the wheel and runs
this, the file is not committed): 3600 x 1800 pixels, pixel centres at longitude
-180 + 0.05 + 0.1 i, latitude 90 - 0.05 - 0.1 j, north up, each pixel the mean of the four
nodes at its corners, stored the same way (metres + 11000). It is written to OUT.tmp first and
renamed, so an interrupted run leaves no partial file.
"""
import os
import io
import sys
import zipfile

import h5py
import numpy as np
from PIL import Image

GRID = "pybacktrack/bundle_data/topography/ETOPO1_0.1.grd"
OUT = "graphs/data/earth_etopo1.png"
OFFSET_M = 11000.0


def nodes(wheel):
    """The grid's nodes, north up (latitude 90..-90), longitude -180..179.9, and their latitudes."""
    with zipfile.ZipFile(wheel) as z:
        data = z.read(GRID)
    with h5py.File(io.BytesIO(data), "r") as f:
        lon = np.asarray(f["lon"][:])
        lat = np.asarray(f["lat"][:])
        z = np.asarray(f["z"][:], dtype=np.float64)
    assert lon[0] == 0.0 and lon[-1] == 360.0 and lat[0] == -90.0 and lat[-1] == 90.0, (lon[:2], lat[:2])
    assert z.shape == (1801, 3601), z.shape
    # Longitude -180..180, north up; drop the repeated 360 column.
    z = z[:, :-1]
    z = np.roll(z, z.shape[1] // 2, axis=1)[::-1, :]
    return z, lat[::-1]


def fine(wheel, out_path):
    """Writes the 0.1-degree pixel grid (see the module's text)."""
    z, _ = nodes(wheel)
    east = np.roll(z, -1, axis=1)
    pixels = 0.25 * (z[:-1] + z[1:] + east[:-1] + east[1:])
    stored = np.clip(np.round(pixels + OFFSET_M), 0, 65535).astype(np.uint16)
    tmp = out_path + ".tmp"
    Image.fromarray(stored).save(tmp, format="PNG")
    os.replace(tmp, out_path)
    print(f"{out_path}: {stored.shape[1]} x {stored.shape[0]}, land {(pixels > 0).mean() * 100:.2f} % of pixels, "
          f"min {pixels.min():.0f} m, max {pixels.max():.0f} m")


def main(wheel):
    z, lat_nodes = nodes(wheel)
    lon_nodes = np.arange(z.shape[1]) * 0.1 - 180.0
    width, height = 1440, 720
    out = np.zeros((height, width))
    # Each output pixel: the mean of the nodes inside it (nodes on its edges count half).
    for j in range(height):
        north = 90.0 - 0.25 * j
        rows = np.where((lat_nodes <= north + 1e-9) & (lat_nodes >= north - 0.25 - 1e-9))[0]
        wr = np.where(np.isclose(lat_nodes[rows], north) | np.isclose(lat_nodes[rows], north - 0.25), 0.5, 1.0)
        band = (z[rows] * wr[:, None]).sum(axis=0) / wr.sum()
        for i in range(width):
            west = -180.0 + 0.25 * i
            idx = np.arange(int(round((west + 180.0) / 0.1)), int(round((west + 0.25 + 180.0) / 0.1)) + 1) % band.shape[0]
            wc = np.ones(len(idx))
            wc[0] = wc[-1] = 0.5 if len(idx) > 1 else 1.0
            # 0.25 is not a multiple of 0.1: nodes strictly inside count fully, edge nodes half.
            xs = lon_nodes[idx]
            inside = (xs > west - 1e-9) & (xs < west + 0.25 + 1e-9)
            wc = np.where(inside, wc, 0.0)
            out[j, i] = (band[idx] * wc).sum() / wc.sum()
    stored = np.clip(np.round(out + OFFSET_M), 0, 65535).astype(np.uint16)
    Image.fromarray(stored).save(OUT, optimize=True)
    land = out > 0
    print(f"{OUT}: {width} x {height}, land {land.mean() * 100:.2f} % of pixels, "
          f"min {out.min():.0f} m, max {out.max():.0f} m")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--fine":
        fine(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        sys.exit("usage: earth_grid.py WHEEL  |  earth_grid.py --fine WHEEL OUT.png")
