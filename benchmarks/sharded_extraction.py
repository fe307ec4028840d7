"""Sharded feature extraction: one process vs N processes, the same cache entry, in one run.

Encodes `--n-images` random images (seeded) with `--spec` (default `toyclip:default`, the tiny profile's CLIP)
through `vlconcepts.cache.cached_image_features` into a fresh cache folder: first in one process, then in
`--processes` processes started with `torchrun --standalone` (this script again, with `--worker`), where each
process computes every N-th chunk and rank 0 merges them (`vlconcepts.cache`, "Sharded extraction"). Prints, for
both sides, the launch's wall time (process start, imports and model loading included) and the extraction's own
wall time (rank 0's `cached_image_features` call, merge included) and the CPU seconds of the busiest process
(wall times on a shared machine move with the other jobs; CPU seconds much less), checks that both entries hold the same
features, and prints the load. On CPU each process uses `--threads` torch threads (default 1), so N processes
use N times the cores of one; on GPUs (`--device cuda`, N GPUs) each process takes its own GPU.

    .venv/bin/python benchmarks/sharded_extraction.py [--n-images 1024] [--chunk-size 64] [--processes 2]
        [--spec toyclip:default] [--device cpu] [--threads 1]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")

import torch

from _common import load


def images(n: int) -> torch.Tensor:
    "`n` seeded random RGB images in [0, 1] at the tiny profile's 64 x 64 pixels."
    return torch.rand(n, 3, 64, 64, generator=torch.Generator().manual_seed(0))


def extract(args, out: Path) -> dict:
    "Load the model and extract the entry into `out/cache`; rank 0 writes the features and the extraction's wall time."
    from vlconcepts.cache import FeatureCache, cached_image_features, distributed_world
    from vlconcepts.models import load_model
    torch.set_num_threads(args.threads)
    world = distributed_world()                 # first: under a launcher this also selects each process's GPU
    model = load_model(args.spec, device=args.device)
    pixels = images(args.n_images)
    start, cpu = time.perf_counter(), time.process_time()
    features = cached_image_features(model, pixels, dataset_key=f"sharded-benchmark-{args.n_images}", batch_size=args.chunk_size,
                                     chunk_size=args.chunk_size, cache=FeatureCache(out / "cache"))
    timing = {"extraction_s": time.perf_counter() - start, "cpu_s": time.process_time() - cpu}
    if world.rank == 0: torch.save(features, out / "features.pt")
    (out / f"timing-rank{world.rank}.json").write_text(json.dumps(timing))
    return timing


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-images", type=int, default=1024)
    parser.add_argument("--chunk-size", type=int, default=64)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--spec", default="toyclip:default")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--worker", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        extract(args, args.worker)
        return
    options = ["--n-images", str(args.n_images), "--chunk-size", str(args.chunk_size), "--spec", args.spec,
               "--device", args.device, "--threads", str(args.threads)]
    env = {**os.environ, "OMP_NUM_THREADS": str(args.threads)}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1, args.processes):
            out = Path(tmp) / f"{n}-processes"
            out.mkdir()
            launcher = [sys.executable] if n == 1 else [sys.executable, "-m", "torch.distributed.run", "--standalone",
                                                         "--nproc_per_node", str(n)]
            start = time.perf_counter()
            subprocess.run(launcher + [str(Path(__file__).resolve()), *options, "--worker", str(out)], env=env, check=True,
                           cwd=Path(__file__).parent)
            launch = time.perf_counter() - start
            timings = [json.loads((out / f"timing-rank{r}.json").read_text()) for r in range(n)]
            rows.append((n, launch, timings[0]["extraction_s"], max(t["cpu_s"] for t in timings), torch.load(out / "features.pt")))
    same = torch.equal(rows[0][-1], rows[1][-1])
    print(f"sharded extraction: {args.n_images} images of 64x64 through {args.spec} on {args.device}, chunks of "
          f"{args.chunk_size}, {args.threads} torch thread(s) per process")
    print(f"{'processes':>9}  {'launch wall s':>13}  {'extraction wall s':>17}  {'images/s':>8}  {'busiest process CPU s':>21}")
    for n, launch, seconds, cpu, _ in rows:
        print(f"{n:>9}  {launch:>13.1f}  {seconds:>17.1f}  {args.n_images / seconds:>8.0f}  {cpu:>21.1f}")
    print(f"speed-up of the extraction: {rows[0][2] / rows[1][2]:.2f}x in wall time, {rows[0][3] / rows[1][3]:.2f}x in the busiest "
          f"process's CPU time (less sensitive to other jobs); the two entries' features are {'identical' if same else 'DIFFERENT'}")
    print(load())


if __name__ == "__main__":
    main()
