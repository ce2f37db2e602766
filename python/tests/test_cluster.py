"""planetgraph.farm on a Ray cluster of two nodes (Ray's own multi-node test cluster: a head and
a worker node, each with its raylet, object store and one CPU, on this machine). Files travel
back from the worker node through Ray's object store, as on a cluster without shared storage."""

import json
from pathlib import Path

import pytest
import ray
from ray.cluster_utils import Cluster

from planetgraph import Graph
from planetgraph.farm import build_many, build_tiled

STORE = 150 * 1024 * 1024  # bytes of object store per node


@pytest.fixture(scope="module")
def two_nodes():
    if ray.is_initialized():
        ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "object_store_memory": STORE, "include_dashboard": False})
    cluster.add_node(num_cpus=1, object_store_memory=STORE)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    assert len([n for n in ray.nodes() if n["Alive"]]) == 2
    yield cluster
    ray.shutdown()
    cluster.shutdown()


@pytest.fixture(scope="module")
def tiled_graph():
    """The exports graph with a Blur (a whole-planet node) before the Add."""
    return Path(__file__).resolve().parent / "data" / "tiled.ron"


def files_of(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    return {f["path"]: (folder / f["path"]).read_bytes() for f in manifest["files"]}


def test_planets_are_spread_over_both_nodes(two_nodes, exports_graph, tmp_path):
    # At 256 a planet takes long enough that Ray does not hand the next one to the same worker.
    g = Graph.load(exports_graph)
    results = build_many(g, [0, 1, 2, 3], tmp_path / "farm", resolution=256)
    assert all(r.ok for r in results)
    assert len({r.node for r in results}) == 2, [r.node for r in results]
    g.build(tmp_path / "here", resolution=256)
    assert files_of(tmp_path / "farm" / "000") == files_of(tmp_path / "here")


def test_a_tiled_build_in_shares_over_the_cluster_equals_one_machine_s(two_nodes, tiled_graph, cli, tmp_path):
    # At 0.3 GiB the 1024 build is above its budget: each share runs the Blur at 512 (the
    # finest level whose whole-planet nodes fit) and evaluates only the tiles its files read
    # and its part of the rest for the data ranges.
    run = cli("build", tiled_graph, "--out", tmp_path / "cli", "--resolution", 1024, "--memory", 0.3)
    assert "tiled build" in run.stdout + run.stderr
    manifest = build_tiled(Graph.load(tiled_graph), 1024, tmp_path / "cluster", shares=3, memory_gib=0.3)
    assert manifest["whole_planet_level"] == 512
    cli_files = files_of(tmp_path / "cli")
    assert sorted(cli_files) == sorted(files_of(tmp_path / "cluster"))
    for name, data in cli_files.items():
        assert (tmp_path / "cluster" / name).read_bytes() == data, name
    assert json.loads((tmp_path / "cli" / "manifest.json").read_text())["files"] == manifest["files"]
