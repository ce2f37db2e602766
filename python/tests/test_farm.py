"""planetgraph.farm on a local Ray (two CPUs, as on the CI machine)."""

import json

import pytest
import ray  # a test requirement: a missing Ray fails the tests, it does not skip them

from planetgraph import Graph
from planetgraph.farm import FarmError, build_many

N = 32


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def files_of(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    return {f["path"]: (folder / f["path"]).read_bytes() for f in manifest["files"]}


def test_build_many_builds_one_planet_per_variation(local_ray, exports_graph, tmp_path):
    g = Graph.load(exports_graph)
    states = []
    results = build_many(g, [0, 1, 2, {"seed": 3, "1.octaves": 4}], tmp_path / "farm", resolution=N, threads=1, progress=states.append)
    assert [r.index for r in results] == [0, 1, 2, 3] and all(r.ok for r in results)
    built = [files_of(tmp_path / "farm" / f"{i:03d}") for i in range(4)]
    # Variation 0 is the graph itself: the same bytes as a build on this machine.
    g.build(tmp_path / "here", resolution=N)
    assert built[0] == files_of(tmp_path / "here")
    # The others are other planets.
    names = sorted(built[0])
    for i in range(1, 4):
        assert sorted(built[i]) == names
        assert built[i]["elevation_faces_face0_front.r32"] != built[0]["elevation_faces_face0_front.r32"]
    # Variation 3 is planet 3 with 4 octaves: built here the same way, the same bytes.
    v3 = g.copy()
    v3.reseed(3)
    v3.set(1, "octaves", 4)
    v3.build(tmp_path / "v3", resolution=N)
    assert built[3] == files_of(tmp_path / "v3")
    assert states and all(s == (1.0, "done") for s in states[-1].values())


def test_shared_transfer_writes_in_place(local_ray, exports_graph, tmp_path):
    g = Graph.load(exports_graph)
    results = build_many(g, [5], tmp_path / "shared", resolution=N, transfer="shared")
    assert results[0].ok and (tmp_path / "shared" / "000" / "manifest.json").exists()


def test_bad_variations_are_refused_before_any_work(local_ray, exports_graph, tmp_path):
    g = Graph.load(exports_graph)
    with pytest.raises(ValueError, match=r"Noise #1: parameter 'octaves' = 50 is outside"):
        build_many(g, [0, {(1, "octaves"): 50}], tmp_path / "bad", resolution=N)
    assert not (tmp_path / "bad" / "000").exists()
    with pytest.raises(TypeError):
        build_many(g, ["seven"], tmp_path / "bad", resolution=N)


def test_a_failed_task_is_reported_with_its_message(local_ray, exports_graph, tmp_path):
    g = Graph.load(exports_graph)
    out = tmp_path / "blocked"
    out.mkdir()
    (out / "001").write_text("a file where the planet's folder should be")
    with pytest.raises(FarmError) as e:
        build_many(g, [0, 1], out, resolution=N, transfer="shared", retries=1)
    results = e.value.results
    assert results[0].ok and not results[1].ok
    assert "001" in results[1].error and "PlanetGraphError" in results[1].error
    assert "1 of 2 planets failed" in str(e.value)
    again = build_many(g, [0, 1], out, resolution=N, transfer="shared", raise_on_error=False)
    assert [r.ok for r in again] == [True, False]


def test_build_tiled_equals_a_single_build(local_ray, exports_graph, cli, tmp_path):
    import planetgraph.farm as farm

    cli("build", exports_graph, "--out", tmp_path / "cli", "--resolution", 1024)
    g = Graph.load(exports_graph)
    states = []
    manifest = farm.build_tiled(g, 1024, tmp_path / "tiled", shares=3, progress=states.append)
    assert sorted(p.name for p in (tmp_path / "tiled").iterdir()) == sorted(p.name for p in (tmp_path / "cli").iterdir())
    cli_manifest = json.loads((tmp_path / "cli" / "manifest.json").read_text())
    assert manifest["files"] == cli_manifest["files"]
    for f in manifest["files"]:
        assert (tmp_path / "tiled" / f["path"]).read_bytes() == (tmp_path / "cli" / f["path"]).read_bytes(), f["path"]
    assert set(states[-1]) == {0, 1, 2}


def test_shares_and_merge_from_python(exports_graph, tmp_path):
    import planetgraph

    g = Graph.load(exports_graph)
    for i in (1, 2):
        part = g.build(tmp_path / f"s{i}", resolution=N, tiles=(i, 2))
        assert part["files"] and (tmp_path / f"s{i}" / f"share_{i}_of_2.json").exists()
    whole = planetgraph.merge([tmp_path / "s1", tmp_path / "s2"], tmp_path / "m")
    assert whole["files"] == g.build(tmp_path / "one", resolution=N)["files"]
    with pytest.raises(ValueError, match=r"tiles '3/2': the share must be 1 to 2"):
        g.build(tmp_path / "x", resolution=N, tiles=(3, 2))
    with pytest.raises(planetgraph.PlanetGraphError, match=r"share 2/2 missing"):
        planetgraph.merge([tmp_path / "s1"], tmp_path / "m2")
