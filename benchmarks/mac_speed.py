"""Speed of MAC's multi-label metrics: vectorised and chunked versus one image at a time, same inputs, one run.

The open-world test of the paper: 5,143 images x 25,641 pairs (99 attributes x 259 objects, the
release's split-file vocabulary). Each image gets one object and 1-9 attributes drawn with the
release's attribute-count frequencies (spec §2.1); scores are Gaussian with the true pairs shifted
up by `--signal`, so true pairs sit at realistic ranks. `--decimals` rounds the scores to force ties
(the slow path of the deterministic tie rule).

    .venv/bin/python benchmarks/mac_speed.py                # 5,143 x 25,641
    .venv/bin/python benchmarks/mac_speed.py --decimals 2   # with many ties

Prints both wall and CPU times (on a loaded machine CPU time / threads is the better guide), the peak resident memory each implementation adds above the inputs (RSS
sampled every 5 ms)
and whether the results are identical (counts exactly; normalised coverage, a sum of exponentials,
to 1e-12). The load average is printed before and after: on a shared machine it moves the figures.
"""
from __future__ import annotations

import argparse
import os
import threading
import time

import numpy as np
import torch

from _common import load, peak_rss_gb  # benchmarks/_common.py
from vlconcepts.mac import METRIC_NAMES, multilabel_metrics, multilabel_metrics_per_image

ATTRIBUTE_COUNT_FREQUENCIES = {1: 1415, 2: 3761, 3: 5020, 4: 3439, 5: 1692, 6: 534, 7: 120, 8: 21, 9: 2}  # spec §2.1




def problem(n_images: int, n_attributes: int, n_objects: int, signal: float, decimals: int | None, seed: int = 0):
    "Scores [n, A*O] float32, multi-hot targets and the (attribute, object) pairs, attribute-major."
    rng = np.random.default_rng(seed)
    counts, weights = zip(*ATTRIBUTE_COUNT_FREQUENCIES.items())
    k = rng.choice(counts, size=n_images, p=np.array(weights) / sum(weights))
    targets = torch.zeros(n_images, n_attributes * n_objects, dtype=torch.bool)
    objs = rng.integers(n_objects, size=n_images)
    for i in range(n_images):
        attrs = rng.choice(n_attributes, size=min(k[i], n_attributes), replace=False)
        targets[i, torch.as_tensor(attrs * n_objects + objs[i])] = True
    scores = torch.from_numpy(rng.standard_normal((n_images, n_attributes * n_objects), dtype=np.float32))
    scores[targets] += signal                                  # in place: no second score-sized buffer
    if decimals is not None: scores = torch.round(scores, decimals=decimals)
    pairs = [(f"attr{a}", f"obj{o}") for a in range(n_attributes) for o in range(n_objects)]
    return scores, targets, pairs


def rss_gb() -> float:
    "Current resident set size of this process, in GB (Linux /proc)."
    with open("/proc/self/statm") as f: return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 30


def timed(fn, *args, **kwargs):
    "Result, wall and CPU seconds, and the peak memory the call adds above the RSS before it (GB; RSS sampled every 5 ms)."
    before, peak, done = rss_gb(), [0.0], threading.Event()
    def sample():
        while not done.wait(0.005): peak[0] = max(peak[0], rss_gb())
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start, cpu_start = time.perf_counter(), time.process_time()
    out = fn(*args, **kwargs)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    done.set(); sampler.join()
    return out, seconds, cpu, max(0.0, max(peak[0], rss_gb()) - before)


def identical(a: dict, b: dict) -> bool:
    "Counts equal exactly; normalised coverage within 1e-12."
    return all(abs(a[k] - b[k]) <= 1e-12 if k == "normalized_coverage" else a[k] == b[k] for k in METRIC_NAMES)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--images", type=int, default=5143)
    parser.add_argument("--attributes", type=int, default=99)
    parser.add_argument("--objects", type=int, default=259)
    parser.add_argument("--signal", type=float, default=2.5, help="shift of the true pairs' scores (in noise std)")
    parser.add_argument("--decimals", type=int, default=None, help="round scores to this many decimals (forces ties)")
    parser.add_argument("--chunk-size", type=int, default=256)
    parser.add_argument("--skip-reference", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    print(load())
    scores, targets, pairs = problem(args.images, args.attributes, args.objects, args.signal, args.decimals)
    print(f"{args.images:,} images x {len(pairs):,} pairs ({scores.numel() * 4 / 2 ** 30:.2f} GiB of scores), "
          f"{int(targets.sum()):,} true pairs, decimals={args.decimals}; RSS with the inputs {rss_gb():.2f} GB")
    fast, fast_s, fast_cpu, fast_gb = timed(multilabel_metrics, scores, targets, pairs, chunk_size=args.chunk_size)
    print(f"vectorised, chunked ({args.chunk_size} images): {fast_s:6.2f} s wall, {fast_cpu:6.2f} s CPU, +{fast_gb:.2f} GB above the inputs")
    if not args.skip_reference:
        slow, slow_s, slow_cpu, slow_gb = timed(multilabel_metrics_per_image, scores, targets, pairs)
        print(f"per image (sort each row):      {slow_s:6.2f} s wall, {slow_cpu:6.2f} s CPU, +{slow_gb:.2f} GB above the inputs  -> {slow_s / fast_s:.1f}x")
        print(f"identical results: {identical(fast, slow)}")
    print({k: round(v, 4) for k, v in fast.items()})
    print(f"peak RSS of the process (building the inputs included): {peak_rss_gb():.2f} GB; {load()}")


if __name__ == "__main__":
    main()
