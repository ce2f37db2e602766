"""Type stubs of planetgraph._native (the Rust part of the package)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
#: Graph file format version this library writes.
FORMAT_VERSION: int
#: Largest resolution accepted, in cells per cube-face edge.
MAX_RESOLUTION: int
#: Face names in the order of the first axis of per-face arrays.
FACES: Tuple[str, str, str, str, str, str]

class PlanetGraphError(Exception):
    """An evaluation or build failed; the message names the graph file and the node."""

class GraphFileError(PlanetGraphError):
    """A graph file or RON text could not be used; the message names the file and the line and
    column, or the node."""

def node_kinds() -> List[str]:
    """Every node kind's saved identifier, in menu order."""

def merge(shares: Sequence[Union[str, PathLike[str]]], out: Union[str, PathLike[str]]) -> Dict[str, Any]:
    """Joins the shares of a build (``Graph.build(..., tiles=(i, n))`` or ``planetgraph build
    --tiles i/n``) found in the folders ``shares`` into ``out``, as ``planetgraph merge`` does:
    checks that they are the shares of one build, each once and all of them, copies their files
    and writes the manifest; returns it. Raises PlanetGraphError naming what does not fit."""

#: ``progress(fraction, stage)``: fraction of the work done (0..1); stage ``"evaluating"``,
#: ``"writing"`` (builds) or ``"done"``. An exception raised here cancels the work.
Progress = Callable[[float, str], Any]
#: An output to evaluate: a node id (its first output; for display and output nodes without
#: outputs, what they show), ``"id:port"`` or ``(id, "port")``.
Output = Union[int, str, Tuple[int, str]]

class NodeInfo:
    """What a node is."""

    id: int
    """Stable id within the graph (``#id`` in messages)."""
    kind: str
    """The kind's saved identifier (``Noise``, ``PlateElevation``, ...)."""
    title: str
    """The user's name for the node, or the kind's label."""
    category: str
    """Menu category (``Sources``, ``Erosion``, ...)."""
    inputs: List[str]
    """Input port names, in order."""
    outputs: List[str]
    """Output port names, in order."""
    describe: str
    """``Kind #id``: how messages name the node."""

class ParamInfo:
    """One parameter of a node."""

    name: str
    """Saved name, as ``Graph.set`` takes it."""
    label: str
    """Label in the editor."""
    type: str
    """``float``, ``int``, ``bool``, ``seed``, ``choice``, ``set``, ``curve``, ``matrix``,
    ``colour``, ``gradient`` or ``text``."""
    unit: str
    """Unit of a float value (``km``, ``deg``, ``m``; empty when unitless)."""
    min: Optional[float]
    """Smallest allowed value of a float or int."""
    max: Optional[float]
    """Largest allowed value of a float or int (a text's longest length)."""
    options: List[str]
    """Option identifiers of a choice or set, in menu order."""
    tooltip: str
    """The editor's tooltip: what the parameter does, with its unit."""
    default: Any
    """Default value."""
    value: Any
    """Current value."""

class Graph:
    """A planet graph."""

    @staticmethod
    def load(path: Union[str, PathLike[str]]) -> Graph:
        """Loads a graph file (RON). Older format versions are brought up to date with a
        UserWarning per change. Raises GraphFileError naming the file and the line and column
        or the node."""
    @staticmethod
    def from_ron(text: str, name: str = "<string>") -> Graph:
        """Reads a graph from RON text; ``name`` stands for the file in messages."""
    def to_ron(self) -> str:
        """The graph as RON text, as the editor saves it."""
    def save(self, path: Union[str, PathLike[str]]) -> None:
        """Saves the graph atomically (a failure leaves any previous file whole)."""
    @property
    def path(self) -> str:
        """The file the graph came from (or the name given to ``from_ron``)."""
    def copy(self) -> Graph:
        """A copy that can be changed on its own."""
    def nodes(self) -> List[NodeInfo]:
        """Every node, in id order."""
    def node_info(self, id: int) -> NodeInfo:
        """One node. Raises ValueError if there is none with that id."""
    def find(self, kind_or_title: str) -> List[int]:
        """Ids of the nodes of a kind (``"Noise"`` or its label) or with that title."""
    def params(self, id: int) -> List[ParamInfo]:
        """The parameters of a node with types, units, ranges, options and values."""
    def get(self, id: int, name: str) -> Any:
        """The value of a parameter."""
    def set(self, id: int, name: str, value: Any) -> None:
        """Sets a parameter, checked as the editor and graph files check it; a value that does
        not fit raises ValueError naming the node and the parameter, and changes nothing.
        Floats and ints take numbers, choices an option identifier (or its label), seeds an int
        in 0..2**32-1, colours ``(r, g, b)`` in sRGB 0..1, curves ``[(x, y), ...]``, gradients
        ``[(position, r, g, b), ...]``, matrices a list of rows."""
    def set_raster(
        self,
        node: int,
        array: npt.NDArray[np.float32],
        layout: str = "globe",
        bounds: Optional[Tuple[float, float, float, float]] = None,
    ) -> None:
        """Sets an Import raster node to read ``array`` instead of a file: float32, 2-D (rows
        from the north, columns from the west) for ``layout`` ``"globe"`` (equirectangular,
        longitude -180..180) and ``"patch"`` (with ``bounds`` = west, east, south, north in
        degrees), or 6 x N x N for ``"faces"`` (PlanetGraph's face order and orientation) and
        ``"faces_gl"`` (OpenGL's +X..-Z). Values as the node's *Values* setting reads them
        (metres by default); NaN marks no data. The array is copied: pickling carries it, and
        ``save`` writes it beside the graph file (``STEM.nodeID.r32``). Raises ValueError for
        another node kind, a wrong shape, infinities or bounds without ``"patch"``."""
    def reseed(self, offset: int) -> int:
        """Adds ``offset`` to every seed (modulo 2**32): another planet of the same design.
        ``reseed(0)`` changes nothing. Returns how many seeds there are."""
    def evaluate(
        self,
        resolution: int = 256,
        outputs: Optional[Sequence[Output]] = None,
        threads: Optional[int] = None,
        progress: Optional[Progress] = None,
        projection: str = "faces",
        width: Optional[int] = None,
    ) -> Dict[Output, npt.NDArray[np.float32]]:
        """Evaluates the graph at ``resolution`` cells per cube-face edge and returns one float32
        array per requested output, keyed as requested (default: the Planet node's elevation
        in metres, keyed by its id).

        ``projection="faces"``: shape ``(6, N, N)`` for fields, ``(6, N, N, 3)`` for colours
        (linear RGB) and vectors; faces in ``FACES`` order, ``[face, row, column]`` as the
        "faces" exports lay them out. ``projection="equirect"``: ``(width // 2, width)`` or
        ``(width // 2, width, 3)``, north up, longitude 0 at the centre column, sampled exactly
        as the equirectangular exports are (``width`` defaults to ``4 * resolution``).

        The GIL is released while it runs; Ctrl+C cancels it (KeyboardInterrupt). ``threads``
        sets the worker threads (the result does not depend on it). A node that fails raises
        PlanetGraphError naming it."""
    def evaluate_tile(
        self,
        face: Union[int, str],
        level: int,
        column: int,
        row: int,
        size: int,
        outputs: Optional[Sequence[Output]] = None,
        whole_level: int = 1024,
        threads: Optional[int] = None,
        progress: Optional[Progress] = None,
    ) -> Dict[Output, npt.NDArray[np.float32]]:
        """Evaluates the graph on one tile: ``size`` x ``size`` cells of ``face`` (an index into
        ``FACES`` or its name) at ``level`` cells per face edge, from ``column`` and ``row``
        (any level, 16384 and beyond). Returns ``(size, size)`` arrays (``[row, column]``, as
        the faces arrays), ``(size, size, 3)`` for colours and vectors, keyed as ``evaluate``'s.

        Nodes that work cell by cell (noise, math, Detail, climate lookups, biomes, materials)
        run on the tile at its level, so a finer tile has real detail; nodes that need the
        whole planet (plates, erosion, drainage, precipitation, slope) run once on the whole
        planet at ``min(level, whole_level)`` and are sampled. At a level within
        ``whole_level`` the tile holds exactly what ``evaluate(resolution=level)`` gives its
        cells. A tile off its face, or a level above 2**22, raises ValueError."""
    def build(
        self,
        out_dir: Union[str, PathLike[str]],
        resolution: int = 512,
        threads: Optional[int] = None,
        progress: Optional[Progress] = None,
        tiles: Optional[Tuple[int, int]] = None,
        memory_gib: float = 4.0,
    ) -> Dict[str, Any]:
        """Builds the graph's exports and manifest.json into ``out_dir`` as
        ``planetgraph build`` does (the same bytes) and returns the manifest. With
        ``tiles=(i, n)``, only share i of n of the files and ``share_i_of_n.json`` instead of
        the manifest (``--tiles i/n``; join them with ``merge``); the manifest returned lists
        the share's files. A build whose memory estimate exceeds ``memory_gib`` GiB is tiled
        (``--memory``): the whole-planet nodes run at the finest level that fits, and the
        manifest's ``whole_planet_level`` says which."""
