"""Speed of the CZSL bias sweep at open-world MIT-States scale: `vlconcepts.czsl` versus the straightforward way.

The case: 12,995 test images x 28,175 attribute-object pairs (115 x 245, the open world), float32 scores
from a seeded generator, 1,262 seen (training) pairs, half the images of seen pairs and half of 800
unseen ones, the true pair's score raised so the sweep has a real curve. Both sides run top-1, 2 and 3
at equal settings (czsl protocol, no label mask):

* `vlconcepts.czsl.bias_sweeps(topks=(1, 2, 3))`: one chunked pass keeps each image's target score
  and its k best seen and unseen competitors; every bias then costs O(n k).
* `vlconcepts.czsl.reference_bias_sweep` for k = 1, 2, 3: per bias, a full biased copy of the scores
  and a full `topk` over every column (the way czsl's `Evaluator` does it).

Prints both wall times, the ratio, the peak memory of our side (process peak RSS, read before the
reference runs, and the part above the scores matrix itself; on CUDA the allocator's peak), and
checks that both give identical biases and accuracies. Also three separate `bias_sweep` calls.

    .venv/bin/python benchmarks/czsl_speed.py                  # CPU, full size (the reference takes minutes)
    .venv/bin/python benchmarks/czsl_speed.py --device cuda    # when a GPU is lent
    .venv/bin/python benchmarks/czsl_speed.py --n-images 2000  # quick

The load average is printed before and after: on a shared machine it changes the figures a lot.
"""
from __future__ import annotations

import argparse
import os
import time

import torch

from _common import load, peak_rss_gb  # benchmarks/_common.py
from vlconcepts.czsl import bias_sweep, bias_sweeps, reference_bias_sweep




def open_world_case(n_images: int, n_labels: int, n_seen: int, n_unseen_in_split: int, seed: int, device: str):
    "Seeded float32 scores [n_images, n_labels], true labels (half seen, half unseen pairs) and the seen mask."
    g = torch.Generator().manual_seed(seed)
    seen = torch.zeros(n_labels, dtype=torch.bool)
    seen[torch.randperm(n_labels, generator=g)[:n_seen]] = True
    seen_idx, unseen_idx = seen.nonzero().flatten(), (~seen).nonzero().flatten()
    unseen_idx = unseen_idx[torch.randperm(len(unseen_idx), generator=g)[:n_unseen_in_split]]
    pick_seen = torch.rand(n_images, generator=g) < 0.5
    labels = torch.where(pick_seen, seen_idx[torch.randint(len(seen_idx), (n_images,), generator=g)],
                         unseen_idx[torch.randint(len(unseen_idx), (n_images,), generator=g)])
    scores = torch.randn(n_images, n_labels, generator=g)               # float32, generated in place: no float64 copy
    scores[torch.arange(n_images), labels] += 2.5
    return scores.to(device), labels.to(device), seen.to(device)


def timed(fn, device: str):
    "(seconds, result) of fn(), synchronising CUDA around it."
    if device.startswith("cuda"): torch.cuda.synchronize()
    start = time.perf_counter()
    result = fn()
    if device.startswith("cuda"): torch.cuda.synchronize()
    return time.perf_counter() - start, result


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n-images", type=int, default=12995)
    p.add_argument("--n-labels", type=int, default=28175)
    p.add_argument("--n-seen", type=int, default=1262, help="training pairs (MIT-States: 1,262)")
    p.add_argument("--n-unseen-in-split", type=int, default=800, help="unseen pairs that have test images")
    p.add_argument("--topks", type=int, nargs="+", default=[1, 2, 3])
    p.add_argument("--device", default="cpu", help="cpu, cuda or auto")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--skip-reference", action="store_true", help="time only vlconcepts.czsl")
    args = p.parse_args()
    device = ("cuda" if torch.cuda.is_available() else "cpu") if args.device == "auto" else args.device
    os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")

    scores, labels, seen = open_world_case(args.n_images, args.n_labels, args.n_seen, args.n_unseen_in_split, args.seed, device)
    matrix_gb = scores.numel() * scores.element_size() / 2**30
    rss_with_scores = peak_rss_gb()
    print(f"== CZSL sweep, {args.n_images} images x {args.n_labels} labels float32 ({matrix_gb:.2f} GB), top-{args.topks}, "
          f"device {device}, torch threads {torch.get_num_threads()} ==  [{load()}]", flush=True)
    if device.startswith("cuda"): torch.cuda.reset_peak_memory_stats()

    ours_s, ours = timed(lambda: bias_sweeps(scores, labels, seen, topks=args.topks), device)
    ours_peak = peak_rss_gb()
    print(f"vlconcepts.czsl.bias_sweeps (one pass): {ours_s:.2f} s; peak RSS {ours_peak:.2f} GB "
          f"({ours_peak - rss_with_scores:+.2f} GB over the process holding the scores)", flush=True)
    if device.startswith("cuda"):
        print(f"  CUDA peak allocated {torch.cuda.max_memory_allocated() / 2**30:.2f} GB (scores {matrix_gb:.2f} GB)")
    separate_s, _ = timed(lambda: [bias_sweep(scores, labels, seen, topk=k) for k in args.topks], device)
    print(f"vlconcepts.czsl.bias_sweep, one call per k: {separate_s:.2f} s", flush=True)
    for k, r in ours.items():
        print(f"  top-{k}: {len(r.biases)} biases, AUC {100 * r.auc:.3f}, best seen {100 * r.best_seen:.2f}, "
              f"best unseen {100 * r.best_unseen:.2f}, best HM {100 * r.best_hm:.2f}")
    if args.skip_reference: return

    reference_s, reference = timed(lambda: {k: reference_bias_sweep(scores, labels, seen, topk=k) for k in args.topks}, device)
    print(f"reference (per-bias full topk over all columns): {reference_s:.2f} s; process peak RSS now {peak_rss_gb():.2f} GB",
          flush=True)
    print(f"ratio reference / ours: {reference_s / ours_s:.1f}x", flush=True)
    agree = all(ours[k].to_dict() == reference[k].to_dict() for k in args.topks)
    for k in args.topks:
        if ours[k].to_dict() != reference[k].to_dict():
            o, r = ours[k], reference[k]
            print(f"  top-{k} DIFFERS: biases equal {list(o.biases) == list(r.biases)}, "
                  f"seen equal {list(o.seen_accs) == list(r.seen_accs)}, unseen equal {list(o.unseen_accs) == list(r.unseen_accs)}")
    print(f"identical biases and accuracies (top-{args.topks}): {agree}  [{load()}]")


if __name__ == "__main__":
    main()
