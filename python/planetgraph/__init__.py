"""PlanetGraph from Python: load planet graphs, read and set their parameters, evaluate them
into numpy arrays and build their exports exactly as the ``planetgraph`` command does.

>>> import planetgraph
>>> g = planetgraph.Graph.load("graphs/default.ron")
>>> elevation = g.evaluate(resolution=256)[g.find("Planet")[0]]   # 6 x 256 x 256 float32, metres

Builds of many planets, and builds spread over a cluster, are in :mod:`planetgraph.farm` (Ray).
"""

from ._native import (
    FACES,
    FORMAT_VERSION,
    MAX_RESOLUTION,
    Graph,
    GraphFileError,
    NodeInfo,
    ParamInfo,
    PlanetGraphError,
    __version__,
    merge,
    node_kinds,
)

__all__ = [
    "FACES",
    "FORMAT_VERSION",
    "MAX_RESOLUTION",
    "Graph",
    "GraphFileError",
    "NodeInfo",
    "ParamInfo",
    "PlanetGraphError",
    "__version__",
    "merge",
    "node_kinds",
]
