"""Rendering throughput of `vlconcepts.worlds.render_scenes` (the batched torch ray caster).

Prints scenes/s at 64×64 and 224×224 with 1 and 3 objects, on the CPU (torch's default
thread count, or --threads) and, when available, on CUDA. Scenes are sampled once
(placement and visibility checks are not timed); each figure is one warm-up call, then the
best of --repeats timed calls of `render_scenes` on --scenes scenes (packing, ray casting,
shading, shadows and the copy back to the CPU included). The load average is printed
too: the CPU may be shared, and a busy machine lowers the CPU figures.

    .venv/bin/python benchmarks/render_throughput.py [--scenes 256] [--repeats 3] [--threads N] [--device cpu|cuda|all]

Target (issue): at least 200 scenes/s at 64×64 with 3 objects on a 2-core CPU.
"""
import argparse
import os
import time

os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")

import torch

from vlconcepts.render import render_scenes, sample_scenes


def scenes_per_second(scenes, size: int, device: str, repeats: int) -> float:
    "Scenes/s of `render_scenes(scenes, size, device)`: one warm-up call, then the best of `repeats` timed calls."
    render_scenes(scenes, size, device=device)
    best = float("inf")
    for _ in range(repeats):
        if device.startswith("cuda"): torch.cuda.synchronize()
        start = time.perf_counter()
        render_scenes(scenes, size, device=device)
        if device.startswith("cuda"): torch.cuda.synchronize()
        best = min(best, time.perf_counter() - start)
    return len(scenes) / best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=256, help="scenes per timed call")
    parser.add_argument("--repeats", type=int, default=3, help="timed calls per figure (the best is reported)")
    parser.add_argument("--threads", type=int, default=None, help="torch CPU threads (default: torch's choice)")
    parser.add_argument("--device", default="all", choices=["cpu", "cuda", "all"])
    args = parser.parse_args()
    if args.threads: torch.set_num_threads(args.threads)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} CPU threads, os.cpu_count()={os.cpu_count()}, "
          f"load average before: {tuple(round(x, 2) for x in os.getloadavg())}")
    scenes = {n: sample_scenes(n, args.scenes, n_objects=n) for n in (1, 3)}
    devices = {"cpu": ["cpu"], "cuda": ["cuda"], "all": ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])}[args.device]
    for device in devices:
        name = torch.cuda.get_device_name(0) if device == "cuda" else "CPU"
        for size in (64, 224):
            for n_objects in (1, 3):
                rate = scenes_per_second(scenes[n_objects], size, device, args.repeats)
                print(f"render_scenes on {device} ({name}): {size}x{size}, {n_objects} object(s): {rate:8.1f} scenes/s")
    if args.device == "all" and not torch.cuda.is_available(): print("CUDA not available: no GPU figure.")
    print(f"load average after: {tuple(round(x, 2) for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
