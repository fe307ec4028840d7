"""Binding speed: the tiny profile's binding training (Tables 2-7 and 9) on cached features, against its 10-minute budget.

Reads the tiny defaults from the parameters cell of `nbs/experiments/21_binding_tables.ipynb` (world sizes, seeds, epochs,
CLIP-FT's seeds and epochs, learning rates), renders (or reuses) the three worlds, extracts ToyCLIP's image features once
(timed on their own), then runs `vlconcepts.binding.binding_tables` for each world into a fresh cache, so every model and
seed is trained (CLIP-FT and calibrated stacking included), and prints wall and CPU seconds per world beside the budget.
The load average is printed too: on a shared machine wall time is not the cost, CPU time (one thread) is closer to it.
`--skip-ft` leaves CLIP-FT out; `--ft-epoch` times one CLIP-FT epoch per world instead (CPU, and CUDA when present).

    .venv/bin/python benchmarks/binding_speed.py [--skip-ft] [--ft-epoch] [--scale 0.25]
"""
import argparse
import ast
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")

import torch

from vlconcepts.binding import (PAPER_HPARAMS, BindingSetup, binding_dataset, binding_inputs, binding_tables, binding_task,
                                make_model, train_binding)
from vlconcepts.cli import notebook_parameters
from vlconcepts.models import load_model

EXPERIMENT = Path(__file__).resolve().parents[1] / "nbs" / "experiments" / "21_binding_tables.ipynb"


def tiny_setup(device: str, scale: float = 1.0, skip_ft: bool = False) -> BindingSetup:
    "The `BindingSetup` of the experiment's tiny defaults (world sizes times `scale`)."
    p = {name: ast.literal_eval(q["default"]) for name, q in notebook_parameters(EXPERIMENT).items()}
    models = [m for m in p["models"] if not (skip_ft and m == "clip-ft")]
    return BindingSetup(profile="tiny", clip_model=p["clip_model"], source=p["source"],
                        fractions={t: f * scale for t, f in p["fractions"].items()}, world_seed=p["world_seed"],
                        image_size=p["image_size"], shuffle_seed=p["shuffle_seed"], models=models, n_seeds=p["n_seeds"],
                        epochs=p["epochs"], ft_seeds=p["ft_seeds"], ft_epochs=p["ft_epochs"], prompt=p["prompt"],
                        csp_lr=p["csp_lr"], cdsm_lr=p["cdsm_lr"], calib_seeds=p["calib_seeds"], device=device)


def clock(fn):
    "(result, wall seconds, CPU seconds of this process) of `fn()`."
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def clip_ft_epoch(data, clip_spec: str, device: str) -> float:
    "Wall seconds of one CLIP-FT training epoch (with its validation pass) on `device`."
    clip = load_model(clip_spec, device)
    model, inputs = make_model("clip-ft", data, clip), binding_inputs("clip-ft", data, clip)
    return clock(lambda: train_binding(model, inputs, data, epochs=1, device=device, **PAPER_HPARAMS["clip-ft"]))[1]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the tiny world sizes (e.g. 0.25 for a quick look)")
    parser.add_argument("--device", default="cpu", help="device for the runs (the budget is for the CPU)")
    parser.add_argument("--skip-ft", action="store_true", help="leave CLIP-FT out of the runs")
    parser.add_argument("--ft-epoch", action="store_true", help="only time one CLIP-FT epoch per world (CPU, and CUDA when present)")
    args = parser.parse_args(argv)
    setup = tiny_setup(args.device, args.scale, args.skip_ft)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} CPU threads, load average {os.getloadavg()[0]:.1f}")
    tasks = list(setup.fractions)
    datasets = {t: binding_task(binding_dataset(t, setup.source, setup.fraction(t), setup.world_seed, setup.image_size), 0)
                for t in tasks}
    if args.ft_epoch:
        for task, data in datasets.items():
            times = {d: clip_ft_epoch(data, setup.clip_model, d) for d in ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])}
            print(f"CLIP-FT, one epoch of binding-{task} ({len(data.indices('train'))} train samples): "
                  + "  ".join(f"{d}: {s:.1f} s" for d, s in times.items()))
        return
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["VLCONCEPTS_CACHE"] = tmp
        clip = load_model(setup.clip_model, args.device)
        _, wall, cpu = clock(lambda: [binding_inputs("add", d, clip) for d in datasets.values()])
        print(f"feature extraction, 3 worlds ({setup.clip_model}): {wall:.1f} s wall, {cpu:.1f} s CPU (once; cached afterwards)")
        total_wall = total_cpu = 0.0
        for task in tasks:
            _, wall, cpu = clock(lambda: binding_tables(task, clip, setup))
            total_wall, total_cpu = total_wall + wall, total_cpu + cpu
            print(f"  binding-{task}: {wall:.1f} s wall, {cpu:.1f} s CPU (load {os.getloadavg()[0]:.1f})")
        print(f"binding tables ({', '.join(setup.models)}; {setup.n_seeds} seeds x {setup.epochs} epochs, CLIP-FT "
              f"{setup.ft_seeds} x {setup.ft_epochs}) on cached features: {total_wall:.1f} s wall, {total_cpu:.1f} s CPU "
              f"vs target <= 600 s")


if __name__ == "__main__":
    main()
