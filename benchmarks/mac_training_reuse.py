"""MAC's fit-gap runs with and without Table 2's trained models, the same runs in one call.

`50_mac_closed_open` scores every trained method twice: on the test images (Tables 2-3) and on its own training images
(`tables/mac_fit_gap`). Until 2026-11-29 the second scoring trained every model again (12 trainings in the tiny profile);
`mac.trained_mac_model` now trains a config once and caches its learnt weights (`cache.cached_result`). This script runs,
in a scratch cache, with the tiny profile's settings of that notebook by default:

1. the test-split runs (`mac.run_seeds`: every method x seed, the trainings);
2. a copy of that cache, with the trained models removed (what the code before 2026-11-29 had at this point);
3. the train-split runs in the first cache (they read the trained models) and in the copy (they train again),

and prints the seconds of each and whether both train-split runs give identical scores (they must: same config, seed
and data). Run it on a quiet machine; the load average is printed before and after.

    python benchmarks/mac_training_reuse.py [--images 1200] [--epochs 15] [--seeds 0 1 2] [--threads 1]

Measured 2026-11-29 (benchmarks/measured/2026-11-29_cpu_mac_training_reuse.txt, one quiet thread): the test-split runs
110.6 s (12 trainings); the train-split runs 6.4 s reading the trained models against 113.6 s training them again, scores
identical: 107 s saved, 48% of these runs before. In a cold `make figures` 50_mac_closed_open took 257 s (348 s and 368 s
in the two cold rebuilds of the tree before it).
"""
from __future__ import annotations

import argparse
import os
import shutil
import time

import torch

from _common import load, peak_rss_gb  # benchmarks/_common.py
from vlconcepts.cache import clear
from vlconcepts.core import scratch_folder
from vlconcepts.mac import run_method, tiny_mac
from vlconcepts.models import load_model

METHODS = ["CLIP", "CoOp", "CSP", "Troika", "MM-Encoder"]


def timed_runs(split: str, clip, data, args) -> tuple[dict, float]:
    "Every method x seed scored on `split` (`mac.run_method`): {(method, seed): closed and open scores}, seconds."
    start, runs = time.perf_counter(), {}
    for method in METHODS:
        for seed in args.seeds:
            run = run_method(method, clip, data, epochs=args.epochs, lr_scale=args.lr_scale, batch_size=args.batch_size,
                             fusion_ffn=args.fusion_ffn, seed=seed, split=split, show_progress=False)
            runs[(method, seed)] = run["scores"]
            if run["config"].epochs == 0: break
    return runs, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--images", type=int, default=1200, help="images of the synthetic MAC world (the notebook's n_images)")
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--lr-scale", type=float, default=100.0)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--fusion-ffn", type=int, default=256)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--threads", type=int, default=1, help="torch threads (the tiny profile's kernels run on one)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    print(load())
    reusing, retraining = scratch_folder(prefix="mac_reuse_"), scratch_folder(prefix="mac_retrain_")
    os.environ["VLCONCEPTS_CACHE"] = str(reusing)
    data, clip = tiny_mac(args.images, 0, 64), load_model("toyclip:default", device="cpu")
    _, test_seconds = timed_runs("test", clip, data, args)
    shutil.rmtree(retraining); shutil.copytree(reusing, retraining)
    clear(retraining, what_pattern="mac-model")
    reused, reuse_seconds = timed_runs("train", clip, data, args)
    os.environ["VLCONCEPTS_CACHE"] = str(retraining)
    retrained, retrain_seconds = timed_runs("train", clip, data, args)
    same = reused.keys() == retrained.keys() and all(torch.equal(reused[k][w], retrained[k][w]) for k in reused for w in ("closed", "open"))
    n_trained = sum(m != "CLIP" for m, _ in reused)
    print(f"MAC world: {len(data)} images ({len(data.indices('train'))} train, {len(data.indices('test'))} test); methods {METHODS}; "
          f"seeds {args.seeds}; {args.epochs} epochs, lr x{args.lr_scale:g}, batch {args.batch_size}, FFN {args.fusion_ffn}; "
          f"{args.threads} torch thread(s)")
    rows = {f"test-split runs (Table 2, {n_trained} trainings)": test_seconds,
            "train-split runs reading the trained models (now)": reuse_seconds,
            "train-split runs training every model again (before)": retrain_seconds}
    for label, seconds in rows.items(): print(f"{label:<56}{seconds:8.1f} s")
    print(f"identical train-split scores: {same}; saved {retrain_seconds - reuse_seconds:.1f} s "
          f"({(retrain_seconds - reuse_seconds) / (test_seconds + retrain_seconds):.0%} of these runs before); peak RSS {peak_rss_gb():.2f} GB")
    print(load())
    if not same: raise SystemExit("the reused and the retrained models scored the training images differently")


if __name__ == "__main__":
    main()
