"""Binding speed: training the 7 non-fine-tuned models x 3 worlds x 5 seeds on cached features, and CLIP-FT per epoch.

Renders (or reuses) the three binding worlds at the tiny profile's sizes, extracts ToyCLIP's image features once
(timed on their own), then runs every (model, seed) of CLIP, CSP, Add, Mult, Conv, TL and RF into a fresh cache, so
everything is trained, and prints the total beside the 10-minute target. Then one CLIP-FT epoch per world on the CPU
and, when CUDA is present, on the GPU (mixed precision), side by side.

    .venv/bin/python benchmarks/binding_speed.py [--seeds 5] [--epochs 20] [--ft-epochs 1] [--skip-ft]
"""
import argparse
import os
import tempfile
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")

import torch

from vlconcepts.binding import binding_dataset, binding_inputs, binding_task, make_model, run_binding, train_binding
from vlconcepts.models import load_model

from cache_speedup import timed  # the benchmarks' timer (this folder is on sys.path when a script runs)

TINY_FRACTIONS = {"single": 0.15, "two": 0.04, "rel": 0.03}   # the parameters cells of nbs/experiments/2[123]_binding_*
FEATURE_MODELS = ("clip", "csp", "add", "mult", "conv", "tl", "rf")
TINY_HPARAMS = {"csp": {"lr": 1e-3}, **{k: {"lr": 5e-3} for k in ("add", "mult", "conv", "tl", "rf")}}  # the notebooks' tiny rates


def clip_ft_epoch(task_data, clip_spec: str, device: str) -> float:
    "Seconds of one CLIP-FT training epoch (with its validation pass) on `device`."
    clip = load_model(clip_spec, device)
    model = make_model("clip-ft", task_data, clip)
    inputs = binding_inputs("clip-ft", task_data, clip)
    _, seconds = timed(lambda: train_binding(model, inputs, task_data, epochs=1, lr=1e-7, eps=1e-6, device=device))
    return seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip", default="toyclip:default", help="CLIP model spec")
    parser.add_argument("--seeds", type=int, default=5, help="seeds per trained model")
    parser.add_argument("--epochs", type=int, default=20, help="epochs per run")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the tiny fractions (e.g. 0.25 for a quick look)")
    parser.add_argument("--device", default="cpu", help="device for the 7-model runs (the budget is for the CPU)")
    parser.add_argument("--skip-ft", action="store_true", help="skip the CLIP-FT epoch timings")
    args = parser.parse_args(argv)

    print(f"torch {torch.__version__}, {torch.get_num_threads()} CPU threads, load average {os.getloadavg()[0]:.1f}")
    datasets = {}
    for task, fraction in TINY_FRACTIONS.items():
        (world, seconds) = timed(lambda: binding_dataset(task, "synthetic", fraction * args.scale, 0, 64))
        datasets[task] = binding_task(world, 0)
        print(f"binding-{task}: {world.split_counts()} samples, {len(datasets[task].image_paths)} images (render/read {seconds:.1f} s)")

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["VLCONCEPTS_CACHE"] = tmp
        clip = load_model(args.clip, args.device)
        _, extract = timed(lambda: [binding_inputs("add", d, clip) for d in datasets.values()])
        print(f"feature extraction, 3 worlds ({args.clip}, {args.device}): {extract:.1f} s (once; cached afterwards)")
        per_task = {}
        for task, data in datasets.items():
            _, per_task[task] = timed(lambda: run_binding(data, clip, FEATURE_MODELS, range(args.seeds), args.epochs, args.device,
                                                            hparams_for=TINY_HPARAMS))
            print(f"  {task}: 7 models x {args.seeds} seeds x {args.epochs} epochs in {per_task[task]:.1f} s")
        total = sum(per_task.values())
        print(f"7 non-fine-tuned models x 3 worlds x {args.seeds} seeds on cached features: {total:.1f} s "
              f"({total / 60:.1f} min)  vs target <= 10 min")

    if not args.skip_ft:
        devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
        for task, data in datasets.items():
            times = {d: clip_ft_epoch(data, args.clip, d) for d in devices}
            cells = "  ".join(f"{d}: {s:.1f} s" for d, s in times.items())
            print(f"CLIP-FT, one epoch of binding-{task} ({len(data.indices('train'))} train samples): {cells}"
                  + ("" if "cuda" in times else "  (no CUDA here)"))


if __name__ == "__main__":
    main()
