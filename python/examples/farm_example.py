"""Builds several variations of a planet graph on Ray, one task per planet.

On one machine:     python python/examples/farm_example.py graphs/default.ron farm_out --count 8
On a cluster:       ray start --head                      (on the head machine)
                    ray start --address=HEAD_IP:6379      (on every other machine)
                    RAY_ADDRESS=auto python python/examples/farm_example.py graphs/default.ron \\
                        /shared/farm_out --count 64 --resolution 1024 --transfer shared
Each planet goes to OUT/000, OUT/001, ...: the files and manifest.json of `planetgraph build`.
"""

import argparse
import os
import sys

import ray

import planetgraph
from planetgraph.farm import FarmError, build_many


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("graph")
    p.add_argument("out")
    p.add_argument("--count", type=int, default=4, help="planets: seed offsets 0..count-1")
    p.add_argument("--resolution", type=int, default=512, help="cells per cube-face edge")
    p.add_argument("--threads", type=int, default=1, help="threads (and Ray CPUs) per planet")
    p.add_argument("--transfer", choices=["return", "shared"], default="return", help="files back through Ray, or written to a path every machine shares")
    args = p.parse_args()

    # RAY_ADDRESS=auto joins a running cluster; without it Ray starts on this machine.
    ray.init(address=os.environ.get("RAY_ADDRESS"))
    graph = planetgraph.Graph.load(args.graph)

    def show(states):
        done = sum(1 for _, stage in states.values() if stage in ("done", "failed"))
        mean = sum(f for f, _ in states.values()) / max(len(states), 1)
        print(f"\r{done}/{len(states)} planets, {mean:.0%}", end="", file=sys.stderr, flush=True)

    try:
        results = build_many(graph, range(args.count), args.out, resolution=args.resolution, threads=args.threads, transfer=args.transfer, progress=show)
    except FarmError as e:
        print(f"\n{e}", file=sys.stderr)
        return 1
    print(file=sys.stderr)
    for r in results:
        print(f"{r.out_dir}: {len(r.manifest['files'])} files, built on node {r.node[:8]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
