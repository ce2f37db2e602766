"""Planet builds on Ray, on a laptop or a cluster: many planets at once (:func:`build_many`, one
task per planet), or one planet's files written by several machines (:func:`build_tiled`, one
task per share, then merged).

Ray schedules the tasks (``ray.init()`` on one machine; ``ray start --head`` and ``ray start
--address=HEAD:6379`` on each machine of a cluster, or KubeRay; then ``ray.init(address="auto")``
in the script). If Ray is not initialised, the first task starts a local Ray.

Files come back in one of two ways (``transfer``):

- ``"return"`` (default): each task builds into a temporary folder on its worker and returns the
  files' bytes; the driver writes them under ``out_dir``. Works on any cluster; the driver must
  hold every planet's files in memory while it writes them, one planet at a time.
- ``"shared"``: each task writes straight into ``out_dir``, which must be the same path on every
  machine (NFS, a shared volume); nothing large travels through Ray.

A task that fails for a reason outside the graph (a worker lost, out of memory, a disk error) is
run again up to ``retries`` times; a variation that does not fit the graph (an unknown node or
parameter, a value out of range) is refused before anything is submitted.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ._native import MAX_RESOLUTION, Graph, PlanetGraphError, merge

#: A variation: an int (added to every seed, see ``Graph.reseed``) or a mapping from
#: ``"seed"``, ``(node_id, "param")`` or ``"node_id.param"`` to a value.
Variation = Union[int, Mapping[Any, Any]]

#: ``progress(states)``: for each task index, ``(fraction 0..1, stage)`` with stage
#: ``"queued"``, ``"evaluating"``, ``"writing"``, ``"done"`` or ``"failed"``.
ProgressCallback = Callable[[Dict[int, Tuple[float, str]]], None]


@dataclasses.dataclass
class TaskResult:
    """How one planet of a farm build went."""

    index: int
    """Position of the variation in the list given."""
    variation: Any
    """The variation itself."""
    out_dir: str
    """Folder of this planet's files and manifest.json."""
    manifest: Optional[dict] = None
    """The build's manifest (as written to manifest.json), or None if it failed."""
    error: Optional[str] = None
    """The failure's message (naming the graph and the node), or None."""
    node: Optional[str] = None
    """The Ray node (its id) whose worker built it, or None if it failed."""

    @property
    def ok(self) -> bool:
        """Whether the planet was built."""
        return self.error is None


class FarmError(PlanetGraphError):
    """Some planets of a farm build failed after their retries; ``results`` holds every task's
    outcome (the others' files are written)."""

    def __init__(self, message: str, results: List[TaskResult]):
        super().__init__(message)
        self.results = results


def apply_variation(graph: Graph, variation: Variation) -> Graph:
    """A copy of ``graph`` with ``variation`` applied (checked as ``Graph.set`` checks values)."""
    g = graph.copy()
    if isinstance(variation, bool) or not isinstance(variation, (int, Mapping)):
        raise TypeError(f"a variation is an int (a seed offset) or a mapping of parameters, not {type(variation).__name__}")
    if isinstance(variation, int):
        g.reseed(variation % 2**32)
        return g
    for key, value in variation.items():
        if key == "seed":
            g.reseed(int(value) % 2**32)
            continue
        if isinstance(key, tuple) and len(key) == 2:
            node, param = key
        elif isinstance(key, str) and "." in key:
            node_text, param = key.split(".", 1)
            try:
                node = int(node_text)
            except ValueError:
                raise ValueError(f"{graph.path}: variation key '{key}' must be 'node_id.param'") from None
        else:
            raise ValueError(f"{graph.path}: variation key {key!r} must be 'seed', (node_id, 'param') or 'node_id.param'")
        g.set(int(node), str(param), value)
    return g


def _ray():
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError("planetgraph.farm needs Ray: pip install 'planetgraph[farm]' (or pip install ray)") from e
    return ray


def _write_file(path: Path, data: bytes) -> None:
    """Writes ``data`` beside ``path`` and renames it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _build_task(ron: str, name: str, variation: Variation, resolution: int, threads: int, dest: str, transfer: str, board: Any, index: int, tiles: Optional[Tuple[int, int]] = None, memory_gib: float = 4.0):
    """One planet, or one share of a planet's files, on a Ray worker: the manifest (the share's
    files), the files' bytes when they travel back, and the id of the node it ran on."""
    node = _ray().get_runtime_context().get_node_id()
    graph = apply_variation(Graph.from_ron(ron, name), variation)
    last = [0.0]

    def report(fraction: float, stage: str) -> None:
        now = time.monotonic()
        if board is not None and (now - last[0] > 0.5 or stage == "done"):
            last[0] = now
            board.report.remote(index, fraction, stage)

    if transfer == "shared":
        return graph.build(dest, resolution=resolution, threads=threads, progress=report, tiles=tiles, memory_gib=memory_gib), None, node
    with tempfile.TemporaryDirectory(prefix="planetgraph-") as tmp:
        manifest = graph.build(tmp, resolution=resolution, threads=threads, progress=report, tiles=tiles, memory_gib=memory_gib)
        files = {}
        for root, _dirs, names in os.walk(tmp):
            for n in names:
                p = Path(root) / n
                files[str(p.relative_to(tmp))] = p.read_bytes()
        return manifest, files, node


class _Board:
    """Progress of every task, reported by the tasks and read by the driver."""

    def __init__(self) -> None:
        self.states: Dict[int, Tuple[float, str]] = {}

    def report(self, index: int, fraction: float, stage: str) -> None:
        self.states[index] = (float(fraction), stage)

    def snapshot(self) -> Dict[int, Tuple[float, str]]:
        return dict(self.states)


def _message(err: BaseException) -> str:
    """The planetgraph message inside a Ray task error (without Ray's traceback)."""
    cause = getattr(err, "cause", None)
    if isinstance(cause, BaseException):
        return f"{type(cause).__name__}: {cause}"
    return f"{type(err).__name__}: {err}"


def build_many(
    graph: Graph,
    variations: Sequence[Variation],
    out_dir: Union[str, os.PathLike],
    *,
    resolution: int = 512,
    threads: int = 1,
    retries: int = 2,
    transfer: str = "return",
    progress: Optional[ProgressCallback] = None,
    raise_on_error: bool = True,
) -> List[TaskResult]:
    """Builds one planet per variation, each a Ray task, into ``out_dir/000``, ``out_dir/001``, ...
    (the exports and manifest.json that ``planetgraph build`` writes).

    Each task runs on ``threads`` threads and asks Ray for as many CPUs, so Ray runs as many
    planets at once as the cluster's CPUs allow (the result does not depend on it). Returns one
    :class:`TaskResult` per variation, in order; if any failed after ``retries`` more attempts, raises
    :class:`FarmError` (holding the results) unless ``raise_on_error`` is False.
    """
    _check_options(resolution, threads, transfer)
    variations = list(variations)
    # Refuse variations that do not fit the graph before any work starts.
    for v in variations:
        apply_variation(graph, v)
    out = Path(out_dir)
    jobs = [(TaskResult(index=i, variation=v, out_dir=str(out / f"{i:03d}")), v, None) for i, v in enumerate(variations)]
    ordered = _run(graph, jobs, resolution, threads, retries, transfer, progress)
    failed = [r for r in ordered if not r.ok]
    if failed and raise_on_error:
        lines = "; ".join(f"planet {r.index} ({r.variation!r}): {r.error}" for r in failed)
        raise FarmError(f"{len(failed)} of {len(ordered)} planets failed: {lines}", ordered)
    return ordered


def _check_options(resolution: int, threads: int, transfer: str) -> None:
    if transfer not in ("return", "shared"):
        raise ValueError(f"transfer must be 'return' or 'shared', not {transfer!r}")
    if not 1 <= resolution <= MAX_RESOLUTION:
        raise ValueError(f"resolution {resolution} is outside 1..{MAX_RESOLUTION} cells per face edge")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")


def _run(graph: Graph, jobs, resolution: int, threads: int, retries: int, transfer: str, progress: Optional[ProgressCallback], memory_gib: float = 4.0) -> List[TaskResult]:
    """Runs one Ray task per job ``(result, variation, tiles)`` and fills in the results; the
    files of a task go to its ``result.out_dir``."""
    ray = _ray()
    ron, name = graph.to_ron(), graph.path
    # SPREAD: tasks go to the nodes with the most room first, so a cluster's machines share the
    # planets (and their memory) instead of the driver's node filling up first.
    task = ray.remote(num_cpus=threads, max_retries=retries, retry_exceptions=[OSError, MemoryError], scheduling_strategy="SPREAD")(_build_task)
    board = ray.remote(num_cpus=0)(_Board).remote() if progress is not None else None
    pending = {}
    for r, v, tiles in jobs:
        ref = task.remote(ron, name, v, resolution, threads, str(Path(r.out_dir).resolve()), transfer, board, r.index, tiles, memory_gib)
        pending[ref] = r
    finished: Dict[int, Tuple[float, str]] = {}
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
        for ref in done:
            r = pending.pop(ref)
            try:
                manifest, files, node = ray.get(ref)
                if files is not None:
                    for rel, data in files.items():
                        _write_file(Path(r.out_dir) / rel, data)
                r.manifest = manifest
                r.node = node
                finished[r.index] = (1.0, "done")
            except Exception as e:  # noqa: BLE001 - every task failure is reported, not raised here
                r.error = _message(e)
                finished[r.index] = (0.0, "failed")
        if progress is not None:
            states = {r.index: (0.0, "queued") for r, _, _ in jobs}
            states.update(ray.get(board.snapshot.remote()))
            states.update(finished)
            progress(states)
    return [r for r, _, _ in jobs]


def build_tiled(
    graph: Graph,
    resolution: int,
    out_dir: Union[str, os.PathLike],
    *,
    shares: int,
    threads: int = 1,
    retries: int = 2,
    transfer: str = "return",
    progress: Optional[ProgressCallback] = None,
    memory_gib: float = 4.0,
) -> dict:
    """Builds one planet as ``shares`` Ray tasks, each writing its share of the files
    (``planetgraph build --tiles I/N``), then merges them in ``out_dir`` (``planetgraph
    merge``): the same files, byte for byte, and manifest as a build on one machine. Returns the
    manifest; raises :class:`FarmError` if a share failed after its retries (nothing is merged).

    A build whose memory estimate fits ``memory_gib`` (GiB per worker) is evaluated whole by
    every share (the shares split the writing of the files, not the evaluation); above it the
    build is tiled (``--memory``) and each share evaluates only the tiles its files read and its
    part of the rest for the data ranges (which the merge joins), plus the whole-planet nodes at
    the cap the budget allows (the manifest's ``whole_planet_level``).
    """
    _check_options(resolution, threads, transfer)
    if not 1 <= shares <= 10000:
        raise ValueError(f"shares must be 1 to 10000, not {shares}")
    out = Path(out_dir)
    jobs = [(TaskResult(index=i, variation=0, out_dir=str(out)), 0, (i + 1, shares)) for i in range(shares)]
    results = _run(graph, jobs, resolution, threads, retries, transfer, progress, memory_gib)
    failed = [r for r in results if not r.ok]
    if failed:
        lines = "; ".join(f"share {r.index + 1}/{shares}: {r.error}" for r in failed)
        raise FarmError(f"{len(failed)} of {shares} shares failed, nothing was merged: {lines}", results)
    return merge([out], out)
