"""The Python API against the CLI's own outputs, and its errors."""

import _thread
import json
import pickle
import threading
import time

import numpy as np
import OpenEXR
import pytest

import planetgraph
from planetgraph import Graph, GraphFileError, PlanetGraphError

N = 48


def read_faces_r32(out, manifest, export):
    files = sorted((f for f in manifest["files"] if f["export"] == export), key=lambda f: f["face_index"])
    assert [f["face_index"] for f in files] == list(range(6))
    return np.stack([np.fromfile(out / f["path"], dtype="<f4").reshape(f["height"], f["width"]) for f in files])


def test_load_lists_nodes_and_typed_params(repo, exports_graph):
    g = Graph.load(repo / "graphs" / "default.ron")
    kinds = {n.kind for n in g.nodes()}
    assert "Planet" in kinds
    assert set(kinds) <= set(planetgraph.node_kinds())
    planet = g.find("Planet")[0]
    info = {p.name: p for p in g.params(planet)}
    assert info["radius_km"].type == "float" and info["radius_km"].unit == "km"
    assert info["radius_km"].min < info["radius_km"].value < info["radius_km"].max
    assert info["radius_km"].tooltip
    assert g.find("Regions") == [1] and g.get(1, "seed") == {p.name: p for p in g.params(1)}["seed"].value
    e = Graph.load(exports_graph)
    by_name = {p.name: p for p in e.params(e.find("Noise")[0])}
    assert by_name["seed"].type == "seed"
    assert by_name["type"].type == "choice" and by_name["type"].value in by_name["type"].options


def test_set_checks_values_like_the_editor(exports_graph):
    g = Graph.load(exports_graph)
    g.set(1, "octaves", 4)
    assert g.get(1, "octaves") == 4
    g.set(1, "frequency", 2)  # an int is a number too
    assert g.get(1, "frequency") == 2.0
    with pytest.raises(ValueError, match=r"Noise #1: parameter 'octaves' = 99 is outside"):
        g.set(1, "octaves", 99)
    assert g.get(1, "octaves") == 4, "a refused value changes nothing"
    with pytest.raises(ValueError, match=r"Noise #1: parameter 'frequency' takes a number, not str"):
        g.set(1, "frequency", "high")
    with pytest.raises(ValueError, match=r"Noise #1: there is no parameter 'colour'"):
        g.set(1, "colour", 1.0)
    with pytest.raises(ValueError, match=r"there is no node #77"):
        g.set(77, "octaves", 3)
    with pytest.raises(ValueError, match=r"Noise #1: parameter 'type'"):
        g.set(1, "type", "no_such_noise")
    with pytest.raises(ValueError, match=r"Noise #1: parameter 'seed'"):
        g.set(1, "seed", -1)
    # The node's own rules: an Export's Low must stay below its High.
    g.set(23, "mapping", "fixed")
    with pytest.raises(ValueError, match=r"Export #23"):
        g.set(23, "low", 5.0)
    # A choice by its label is stored as its identifier.
    g.set(20, "format", "EXR 32-bit float")
    assert g.get(20, "format") == "exr"


def test_bad_files_raise_located_errors(tmp_path):
    bad = tmp_path / "bad.ron"
    bad.write_text("(\n  version: 3,\n  nodes: [ (id: 1, kind: Noise, params: {\"octaves\": Int(6)}) \n  links: [],\n)\n")
    with pytest.raises(GraphFileError, match=r"bad\.ron:4:\d+: "):
        Graph.load(bad)
    out_of_range = '(version: 3, nodes: [(id: 1, kind: Noise, params: {"octaves": Int(40)}), (id: 2, kind: Planet)], links: [(from: 1, output: "out", to: 2, input: "elevation")])'
    with pytest.raises(GraphFileError, match=r"mine\.ron: .*Noise #1.*octaves"):
        Graph.from_ron(out_of_range, "mine.ron")
    with pytest.raises(GraphFileError, match=r"missing\.ron: cannot read the file"):
        Graph.load(tmp_path / "missing.ron")
    # A formula that does not parse fails the same way the CLI's build does.
    formula = '(version: 3, nodes: [(id: 1, kind: Noise), (id: 2, kind: Expression, params: {"formula": Text("unknown(a)")}), (id: 3, kind: Planet)], links: [(from: 1, output: "out", to: 2, input: "a"), (from: 2, output: "out", to: 3, input: "elevation")])'
    with pytest.raises((GraphFileError, PlanetGraphError), match=r"Expression #2"):
        Graph.from_ron(formula, "formula.ron").evaluate(resolution=8)


def test_evaluate_gives_the_cli_exports_arrays(exports_graph, cli, tmp_path):
    out = tmp_path / "cli"
    cli("build", exports_graph, "--out", out, "--resolution", N)
    manifest = json.loads((out / "manifest.json").read_text())
    g = Graph.load(exports_graph)
    arrays = g.evaluate(resolution=N, outputs=[4, "5:colour"])
    elevation = arrays[4]
    assert elevation.dtype == np.float32 and elevation.shape == (6, N, N)
    assert np.array_equal(elevation, read_faces_r32(out, manifest, "elevation_faces"))
    # The colour ramp's colours equal the linear EXR faces.
    albedo = arrays["5:colour"]
    assert albedo.shape == (6, N, N, 3)
    for f in (f for f in manifest["files"] if f["export"] == "albedo"):
        with OpenEXR.File(str(out / f["path"]), separate_channels=True) as e:
            ch = e.channels()
            exr = np.stack([ch[c].pixels for c in ("R", "G", "B")], axis=-1)
        assert np.array_equal(exr, albedo[f["face_index"]]), f["path"]
    # Equirectangular arrays sample exactly as the equirectangular export does.
    eq = g.evaluate(resolution=N, outputs=[4], projection="equirect", width=200)[4]
    assert eq.shape == (100, 200)
    (f,) = [f for f in manifest["files"] if f["export"] == "elevation_equirect"]
    assert np.array_equal(eq, np.fromfile(out / f["path"], dtype="<f4").reshape(100, 200))


def test_build_writes_the_cli_files(repo, cli, tmp_path):
    graph = repo / "graphs" / "default.ron"
    cli("build", graph, "--out", tmp_path / "cli", "--resolution", N)
    manifest = Graph.load(graph).build(tmp_path / "py", resolution=N)
    cli_manifest = json.loads((tmp_path / "cli" / "manifest.json").read_text())
    assert [f["path"] for f in manifest["files"]] == [f["path"] for f in cli_manifest["files"]]
    for f in manifest["files"]:
        assert (tmp_path / "py" / f["path"]).read_bytes() == (tmp_path / "cli" / f["path"]).read_bytes(), f["path"]
    for key in ("files", "conventions", "resolution"):
        assert manifest[key] == cli_manifest[key]


def test_a_build_above_its_memory_budget_is_tiled_as_the_cli_tiles_it(repo, cli, tmp_path):
    graph = repo / "graphs" / "default.ron"
    cli("build", graph, "--out", tmp_path / "cli", "--resolution", 256, "--memory", 0.05)
    manifest = Graph.load(graph).build(tmp_path / "py", resolution=256, memory_gib=0.05)
    assert manifest["whole_planet_level"] == 128 and manifest["tile_cells"] == 256
    for f in manifest["files"]:
        assert (tmp_path / "py" / f["path"]).read_bytes() == (tmp_path / "cli" / f["path"]).read_bytes(), f["path"]
    with pytest.raises(ValueError, match=r"memory_gib: the memory budget must be more than 0"):
        Graph.load(graph).build(tmp_path / "bad", resolution=64, memory_gib=0)
    with pytest.raises(PlanetGraphError, match=r"memory budget of 1 MiB is below"):
        Graph.load(graph).build(tmp_path / "small", resolution=256, memory_gib=0.001)


def test_results_do_not_depend_on_threads(exports_graph):
    g = Graph.load(exports_graph)
    one = g.evaluate(resolution=N, threads=1)[4]
    two = g.evaluate(resolution=N, threads=2)[4]
    assert np.array_equal(one, two)


def test_display_nodes_return_what_they_show_and_bad_outputs_are_refused(exports_graph):
    g = Graph.load(exports_graph)
    shown = g.evaluate(resolution=16, outputs=[20, 4, (3, "out")])
    assert np.array_equal(shown[20], shown[4]), "an Export node gives the field it writes"
    assert shown[(3, "out")].shape == (6, 16, 16)
    with pytest.raises(ValueError, match=r"Noise #1 has no output 'colour'"):
        g.evaluate(resolution=16, outputs=["1:colour"])
    with pytest.raises(ValueError, match=r"there is no node #99"):
        g.evaluate(resolution=16, outputs=[99])
    with pytest.raises(ValueError, match=r"resolution must be an integer from 1 to 16384 \(got 0\)"):
        g.evaluate(resolution=0)
    with pytest.raises(ValueError, match=r"projection 'mercator'"):
        g.evaluate(resolution=16, projection="mercator")


def test_progress_is_reported_and_an_exception_in_it_cancels(exports_graph):
    g = Graph.load(exports_graph)
    seen = []
    g.evaluate(resolution=N, progress=lambda f, stage: seen.append((f, stage)))
    assert seen[-1] == (1.0, "done")
    assert all(0.0 <= f <= 1.0 for f, _ in seen)

    class Stop(Exception):
        pass

    def stop(f, stage):
        raise Stop()

    slow = Graph.load(exports_graph)
    slow.set(1, "octaves", 12)
    with pytest.raises(Stop):
        slow.evaluate(resolution=512, progress=stop)


def test_ctrl_c_cancels_an_evaluation(repo):
    g = Graph.load(repo / "graphs" / "default.ron")
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    t = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            g.evaluate(resolution=1024)
    finally:
        timer.cancel()
    assert time.monotonic() - t < 30, "the evaluation stopped soon after Ctrl+C"


def test_bad_arguments_are_value_errors_naming_the_argument(exports_graph, tmp_path):
    g = Graph.load(exports_graph)
    cases = [
        ("threads", lambda: g.evaluate(resolution=16, threads=0)),
        ("threads", lambda: g.evaluate(resolution=16, threads=-1)),
        ("resolution", lambda: g.evaluate(resolution=-5)),
        ("resolution", lambda: g.build(tmp_path / "never", resolution=-1)),
        ("threads", lambda: g.build(tmp_path / "never", resolution=16, threads=0)),
        ("tiles", lambda: g.build(tmp_path / "never", resolution=16, tiles=(-1, 3))),
        ("id", lambda: g.get(-3, "seed")),
        ("id", lambda: g.set(-3, "seed", 1)),
        ("id", lambda: g.params(2**40)),
        ("level", lambda: g.evaluate_tile(0, -64, 0, 0, 8)),
        ("column", lambda: g.evaluate_tile(0, 64, -1, 0, 8)),
        ("size", lambda: g.evaluate_tile(0, 64, 0, 0, 0)),
        ("whole_level", lambda: g.evaluate_tile(0, 64, 0, 0, 8, whole_level=-2)),
    ]
    for name, call in cases:
        with pytest.raises(ValueError, match=rf"^{name} must be an integer from"):
            call()
    with pytest.raises(ValueError, match=r"memory_gib"):
        g.build(tmp_path / "never", resolution=16, memory_gib=float("nan"))
    with pytest.raises(ValueError, match=r"frequency"):
        g.set(1, "frequency", float("nan"))
    assert not (tmp_path / "never").exists()
    assert g.reseed(-1) == 2 and g.get(1, "seed") == 3, "a negative offset counts back"


def test_graphs_pickle_and_reseed(exports_graph):
    g = Graph.load(exports_graph)
    h = pickle.loads(pickle.dumps(g))
    assert h.to_ron() == g.to_ron() and h.path == g.path
    before = g.evaluate(resolution=16)[4]
    assert h.reseed(0) == 2 and np.array_equal(h.evaluate(resolution=16)[4], before)
    h.reseed(7)
    assert h.get(1, "seed") == 11, "Noise #1's seed 4 plus 7"
    assert not np.array_equal(h.evaluate(resolution=16)[4], before)
    assert g.get(1, "seed") == 4, "copies are independent"


def test_saved_graph_reloads(exports_graph, tmp_path):
    g = Graph.load(exports_graph)
    g.set(1, "octaves", 3)
    g.save(tmp_path / "saved.ron")
    assert Graph.load(tmp_path / "saved.ron").get(1, "octaves") == 3
    assert g.path.endswith("saved.ron")


def test_a_tile_holds_the_planet_s_cells_and_a_finer_one_its_own_detail(repo):
    g = Graph.load(repo / "graphs" / "default.ron")
    planet = g.find("Planet")[0]
    whole = g.evaluate(resolution=64)[planet]
    tile = g.evaluate_tile("left", 64, 16, 8, 32, whole_level=64)[planet]
    assert tile.shape == (32, 32)
    # [face, row, column] as the faces arrays: the tile is that block of its face.
    left = planetgraph.FACES.index("left")
    assert np.array_equal(tile, whole[left, 8:40, 16:48])
    # A finer tile over the same ground: its own cells, with the Erosion filter's octaves.
    fine = g.evaluate_tile(left, 4096, 1024, 512, 64, whole_level=64)[planet]
    assert fine.shape == (64, 64) and np.isfinite(fine).all()
    with pytest.raises(ValueError, match="reaches beyond the face"):
        g.evaluate_tile(0, 64, 60, 0, 8)
    with pytest.raises(ValueError, match="not one of"):
        g.evaluate_tile("sideways", 64, 0, 0, 8)
    with pytest.raises(ValueError, match="above the maximum"):
        g.evaluate_tile(0, 1 << 23, 0, 0, 8)


IMPORT_ONLY = '(version: 3, nodes: [(id: 1, kind: ImportRaster, params: {"values": Choice("plain")})], links: [])'


def test_set_raster_reads_arrays_as_the_node_reads_files(exports_graph, tmp_path):
    source = Graph.load(exports_graph).evaluate(resolution=32, outputs=[4])[4]
    h = Graph.from_ron(IMPORT_ONLY)
    # Six faces in PlanetGraph's layout, as evaluate gives them: the same cells come back.
    h.set_raster(1, source, layout="faces")
    back = h.evaluate(resolution=32, outputs=[1])[1]
    assert np.allclose(back, source, atol=1e-3 * np.abs(source).max())
    # Pickling carries the array; a copy changed on its own leaves the original alone.
    p = pickle.loads(pickle.dumps(h))
    assert np.array_equal(p.evaluate(resolution=32, outputs=[1])[1], back)
    c = h.copy()
    c.set_raster(1, np.zeros((6, 8, 8), np.float32), layout="faces")
    assert np.array_equal(h.evaluate(resolution=32, outputs=[1])[1], back)
    # Saving writes the array beside the graph file, which then reads it from there.
    h.save(tmp_path / "imported.ron")
    assert (tmp_path / "imported.node1_0.r32").exists() and (tmp_path / "imported.node1_5.r32").exists()
    assert np.array_equal(Graph.load(tmp_path / "imported.ron").evaluate(resolution=32, outputs=[1])[1], back)
    # An equirectangular globe: a smooth field on the sphere comes back through the cells.
    H, W = 90, 180
    lat = (0.5 - (np.arange(H) + 0.5) / H) * np.pi
    lon = ((np.arange(W) + 0.5) / W - 0.5) * 2 * np.pi
    globe = (np.sin(lat)[:, None] + 0.3 * np.cos(lat)[:, None] * np.cos(lon)[None, :]).astype(np.float32)
    h.set_raster(1, globe)
    eq = h.evaluate(resolution=64, outputs=[1], projection="equirect", width=W)[1]
    assert np.abs(eq - globe).max() < 0.03


def test_set_raster_refuses_what_does_not_fit(exports_graph):
    h = Graph.from_ron(IMPORT_ONLY)
    with pytest.raises(ValueError, match="Import raster"):
        Graph.load(exports_graph).set_raster(4, np.zeros((4, 8), np.float32))
    with pytest.raises(ValueError, match="shape"):
        h.set_raster(1, np.zeros((5, 4, 4), np.float32), layout="faces")
    with pytest.raises(ValueError, match="infinit"):
        h.set_raster(1, np.full((4, 8), np.inf, np.float32))
    with pytest.raises(ValueError, match="bounds"):
        h.set_raster(1, np.zeros((4, 8), np.float32), layout="patch")
    with pytest.raises(ValueError, match="layout"):
        h.set_raster(1, np.zeros((4, 8), np.float32), layout="mercator")
    h.set_raster(1, np.ones((4, 8), np.float32), layout="patch", bounds=(10.0, 30.0, -5.0, 5.0))
    assert h.get(1, "layout") == "patch" and h.get(1, "west_deg") == 10.0
