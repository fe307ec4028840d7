"""GPU cost of the binding lens's trained models in the paper profile (`nbs/experiments/21_binding_tables.ipynb`).

What it measures. The paper profile of notebook 21 trains, on each of the three binding worlds (single object, two
objects, relations), CLIP-FT (both CLIP towers fine-tuned), CSP (one soft token per concept, pushed through the frozen
text tower) and five CDSMs (Add, Mult, Conv, TL, RF, on cached CLIP image features), each for several seeds and
epochs at `vlconcepts.binding.PAPER_BATCH_SIZE`, on ViT-L/14. This script runs the library's own training loop,
`vlconcepts.binding.train_binding`, on models built by `vlconcepts.binding.make_model` from
`openclip:ViT-L-14@random` (the paper's architecture with random weights: the cost does not depend on the weights),
with the paper's optimiser settings (`PAPER_HPARAMS`, the learning rates from the paper profile's YAML), on a
synthetic `BindingTask` of the relational world's vocabulary (every world has 24 composable labels, so the per-step
cost is the same in the three worlds) whose inputs are random pixels at the model's input side (CLIP-FT) or random
unit-norm image features (CSP, Add). A forward pre-hook on the model stamps the clock (after
`torch.cuda.synchronize()` on CUDA) as each training step begins; the first steps are warm-up, the next ones are
timed, and a last step only closes the timed window. Peak GPU memory is `torch.cuda.max_memory_allocated()` over
the whole `train_binding` call (steps, the end-of-epoch validation pass and the best-epoch copy of the weights).
A fourth row times CLIP-FT's forward-only scoring (`score_candidates`), which `train_binding` runs on the
validation split after every epoch and `binding_scores` runs on every sample after training.

How the estimate is formed. One unit is one image passed through the model (a training sample's image, or an image
scored). `paper_units` is what the paper profile processes in the whole notebook, computed from the notebook's
parameters (its defaults overridden by `profiles/21_binding_tables.paper.yaml`) and the release's split sizes
(the paper's Table 1, `vlconcepts.core.paper_table("binding", "table1")`): train samples per world x epochs x
seeds, summed over the worlds (plus, for CSP, calibrated stacking's retraining on ~90% of the single-object train
split). The estimate is `est_gpu_h = paper_units x seconds / measured_units / 3600`. It leaves out what is not a
trained model's step: loading data, decoding the release's PNGs (CLIP-FT reads pixels, not cached features),
extracting the frozen CLIP features once per world, zero-shot CLIP, and the CDSMs other than Add (about as cheap).

    .venv/bin/python benchmarks/gpu_cost_binding.py [--device cuda] [--smoke]

`--smoke` runs every code path on a tiny random open_clip (CPU, under a minute); its timings mean nothing.
"""
import argparse
import ast
import gc
import inspect
import math
import os
import sys
import time
import traceback
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")

import numpy as np
import torch
import torch.nn.functional as F

from vlconcepts.binding import (PAPER_BATCH_SIZE, PAPER_HPARAMS, SAMPLES_PER_IMAGE, TABLE1_ROWS, BindingTask,
                                binding_vocab, calibrated_stacking, make_model, score_candidates, train_binding)
from vlconcepts.cli import notebook_parameters, profile_overrides
from vlconcepts.core import paper_table
from vlconcepts.models import TINY_OPENCLIP_ARCH, load_model

NOTEBOOK = "21_binding_tables"
EXPERIMENT = Path(__file__).resolve().parents[1] / "nbs" / "experiments" / f"{NOTEBOOK}.ipynb"
PAPER_ARCHITECTURE = "openclip:ViT-L-14@random"
SMOKE_ARCHITECTURE = f"openclip:{TINY_OPENCLIP_ARCH}@random"
MEASURED_TASK = "rel"          # the world with the most train samples; all three have 24 labels, so the same step cost
FULL_RUN = {"batch_size": PAPER_BATCH_SIZE, "warmup_steps": 2, "timed_steps": 5, "scoring_calls": 2}
SMOKE_RUN = {"batch_size": 2, "warmup_steps": 1, "timed_steps": 1, "scoring_calls": 1}
SMOKE_SCORING_BATCH = 4


# --- what the paper profile runs ------------------------------------------------------------------------------------

def paper_parameters() -> dict:
    "Notebook 21's parameters in the paper profile: its parameters cell's defaults overridden by the paper YAML."
    defaults = {name: ast.literal_eval(p["default"]) for name, p in notebook_parameters(EXPERIMENT).items()}
    return {**defaults, **profile_overrides(EXPERIMENT, "paper")}


def release_examples(params: dict, split: str) -> dict[str, int]:
    "Samples of `split` ('train', 'val' or 'gen') per world of the paper profile: the release's sizes (the paper's Table 1)."
    if params["source"] == "synthetic":
        raise ValueError("the paper profile is expected to read the release; this script has no sizes for rendered worlds")
    table = paper_table("binding", "table1", numeric=True)
    return {task: int(table.loc[TABLE1_ROWS[task], f"{split} examples"]) for task in params["tasks"]}


def calibration_train_samples(train_samples: int, task: str) -> int:
    "Train samples left by `seen_split` (calibrated stacking): it holds out `seen_fraction` of the train images."
    fraction = inspect.signature(calibrated_stacking).parameters["seen_fraction"].default
    per_image = SAMPLES_PER_IMAGE[task]
    held_images = max(1, round(fraction * (train_samples // per_image)))
    return train_samples - held_images * per_image


def clip_ft_training_units(params: dict) -> tuple[int, str]:
    "Images CLIP-FT trains on in the notebook (ft_seeds x ft_epochs x train samples, summed over worlds), and how."
    train = release_examples(params, "train")
    units = params["ft_seeds"] * params["ft_epochs"] * sum(train.values())
    return units, (f"{params['ft_seeds']} ft_seeds x {params['ft_epochs']} ft_epochs x "
                   f"({' + '.join(f'{n} {t}' for t, n in train.items())}) train samples (Table 1; one image each)")


def seeded_training_units(params: dict) -> tuple[int, str]:
    "Images a model of the main tables trains on: n_seeds x epochs x train samples, summed over the worlds, and how."
    train = release_examples(params, "train")
    return params["n_seeds"] * params["epochs"] * sum(train.values()), (
        f"{params['n_seeds']} n_seeds x {params['epochs']} epochs x ({' + '.join(f'{n} {t}' for t, n in train.items())}) train samples")


def csp_training_units(params: dict) -> tuple[int, str]:
    "Images CSP trains on: `seeded_training_units`, plus calibrated stacking's runs (single)."
    train = release_examples(params, "train")
    units, source = seeded_training_units(params)
    if "single" in train and params["calib_seeds"] > 0:   # Table 9: CSP retrained on ~90% of the single-object train split
        kept = calibration_train_samples(train["single"], "single")
        units += params["calib_seeds"] * params["epochs"] * kept
        source += f" + {params['calib_seeds']} calib_seeds x {params['epochs']} epochs x {kept} single train samples (90%)"
    return units, source


def cdsm_training_units(params: dict) -> tuple[int, str]:
    "Images one CDSM (e.g. Add) trains on: `seeded_training_units` (the five CDSMs: five times as many)."
    units, source = seeded_training_units(params)
    return units, source + ", one CDSM (x5 for all of them)"


def clip_ft_scoring_units(params: dict) -> tuple[int, str]:
    "Images CLIP-FT scores: per seed, the val images after each epoch and every image once after training."
    val, train, gen = (release_examples(params, s) for s in ("val", "train", "gen"))
    per_seed = {t: (params["ft_epochs"] * val[t] + train[t] + val[t] + gen[t]) // SAMPLES_PER_IMAGE[t] for t in val}
    units = params["ft_seeds"] * sum(per_seed.values())
    return units, (f"{params['ft_seeds']} ft_seeds x sum over worlds of (ft_epochs {params['ft_epochs']} x val + "
                   f"train + val + gen samples) / samples per image {SAMPLES_PER_IMAGE} = {per_seed} images per seed "
                   "(an image's samples assumed to share a scoring batch)")


# --- synthetic inputs of the right shapes ---------------------------------------------------------------------------

def synthetic_task(task: str, n_train: int, n_val: int, n_images: int, seed: int = 0) -> BindingTask:
    "A `BindingTask` of `task`'s real vocabulary with random candidates: `n_train` train, `n_val` val samples over `n_images` images."
    data = binding_vocab(task)
    generator = torch.Generator().manual_seed(seed)
    n = n_train + n_val
    data.candidates = torch.stack([torch.randperm(len(data.labels), generator=generator)[:5] for _ in range(n)])
    data.target = torch.randint(0, 5, (n,), generator=generator)
    data.splits = np.array(["train"] * n_train + ["val"] * n_val)
    data.image_index = torch.arange(n) % n_images
    data.fingerprint = f"synthetic-{task}-{n}-seed{seed}"
    return data


def random_pixels(n_images: int, side: int, seed: int = 0) -> torch.Tensor:
    "`[n, 3, side, side]` CPU pixels in [0, 1], as `ImagePixels` hands CLIP-FT decoded images."
    return torch.rand(n_images, 3, side, side, generator=torch.Generator().manual_seed(seed))


def random_features(n_images: int, dim: int, device: str, seed: int = 0) -> torch.Tensor:
    "`[n, dim]` unit-norm image features on `device`, as `binding_scores` hands CSP and the CDSMs the cached ones."
    return F.normalize(torch.randn(n_images, dim, generator=torch.Generator().manual_seed(seed)), dim=-1).to(device)


def input_side(clip) -> int:
    "The square input side of `clip`'s image preprocessing (224 for ViT-L/14)."
    size = clip.preprocess_cfg["size"]
    return int(size if isinstance(size, int) else size[0])


# --- timing ---------------------------------------------------------------------------------------------------------

def synchronize(device: str):
    "Wait for `device`'s queued work (CUDA only) so the clock reads finished work."
    if torch.device(device).type == "cuda": torch.cuda.synchronize(device)


def reset_peak_memory(device: str):
    "Forget the peak GPU memory so far (CUDA only)."
    if torch.device(device).type == "cuda": torch.cuda.reset_peak_memory_stats(device)


def peak_memory_gib(device: str) -> float:
    "Peak GPU memory allocated since the last reset, GiB (0.0 off CUDA)."
    return torch.cuda.max_memory_allocated(device) / 2**30 if torch.device(device).type == "cuda" else 0.0


def free_memory(device: str):
    "Release what the previous workload left in the allocator."
    gc.collect()
    if torch.device(device).type == "cuda": torch.cuda.empty_cache()


class StepClock:
    "Synchronised clock readings taken as each training step's forward pass begins (a forward pre-hook on the model)."
    def __init__(self, model: torch.nn.Module, device: str):
        self.device, self.stamps = device, []
        self.handle = model.register_forward_pre_hook(self._stamp)

    def _stamp(self, module, args):
        synchronize(self.device)
        self.stamps.append(time.perf_counter())

    def seconds(self, first_step: int, steps: int) -> float:
        "Wall seconds of `steps` steps from step `first_step` (0-based): from its start to the start of the step after."
        return self.stamps[first_step + steps] - self.stamps[first_step]

    def remove(self): self.handle.remove()


def time_training(kind: str, clip, inputs, data: BindingTask, params: dict, run: dict, device: str) -> tuple[int, float, float]:
    "(images timed, seconds, peak GiB) of `run`'s steps of `train_binding` on `kind`, one epoch over `data`'s train split."
    model = make_model(kind, data, clip, prompt=params["prompt"])
    hparams = {**PAPER_HPARAMS[kind], "lr": params["csp_lr"] if kind == "csp" else
               PAPER_HPARAMS[kind]["lr"] if kind == "clip-ft" else params["cdsm_lr"]}
    clock = StepClock(model, device)
    try:
        reset_peak_memory(device)
        train_binding(model, inputs, data, seed=0, epochs=1, batch_size=run["batch_size"], device=device,
                      desc=f"{kind} cost", **hparams)
        synchronize(device)
        seconds = clock.seconds(run["warmup_steps"], run["timed_steps"])
        return run["timed_steps"] * run["batch_size"], seconds, peak_memory_gib(device)
    finally:
        clock.remove()
        del model


def time_scoring(clip, pixels, data: BindingTask, params: dict, run: dict, batch_size: int, device: str) -> tuple[int, float, float]:
    "(images timed, seconds, peak GiB) of CLIP-FT's forward-only `score_candidates` over `data`'s val split."
    model = make_model("clip-ft", data, clip, prompt=params["prompt"]).to(device)
    try:
        indices = data.indices("val")
        reset_peak_memory(device)
        score_candidates(model, pixels, data, indices, batch_size=batch_size)   # warm-up
        synchronize(device)
        start = time.perf_counter()
        for _ in range(run["scoring_calls"]):
            score_candidates(model, pixels, data, indices, batch_size=batch_size)
        synchronize(device)
        seconds = time.perf_counter() - start
        images = run["scoring_calls"] * len(torch.unique(data.image_index[indices]))
        return images, seconds, peak_memory_gib(device)
    finally:
        del model


# --- rows -----------------------------------------------------------------------------------------------------------

def cost_row(workload: str, measured_units: int, seconds: float, peak_gpu_gib: float, paper_units: int, source: str) -> dict:
    "One result row; `est_gpu_h` scales the timed seconds per image to the paper profile's images."
    per_unit = seconds / measured_units if measured_units else float("nan")
    return {"notebook": NOTEBOOK, "workload": workload, "unit": "image", "measured_units": int(measured_units),
            "seconds": float(seconds), "peak_gpu_gib": float(peak_gpu_gib), "paper_units": int(paper_units),
            "paper_units_source": source, "est_gpu_h": float(paper_units * per_unit / 3600)}


def measured_row(workload: str, timer, paper: tuple[int, str], device: str) -> dict:
    "The row of `timer()` -> (images, seconds, peak GiB); a failure (e.g. out of memory) becomes a row that says so, seconds NaN."
    try:
        images, seconds, peak = timer()
        return cost_row(workload, images, seconds, peak, *paper)
    except Exception as error:   # reported in the row and on stderr, not hidden
        traceback.print_exc(file=sys.stderr)
        peak = peak_memory_gib(device)
        message = " ".join(str(error).split())[:300]
        return cost_row(f"{workload} -- FAILED ({type(error).__name__}: {message})", 0, float("nan"), peak, *paper)
    finally:
        free_memory(device)


def measure(device: str = "cuda", smoke: bool = False) -> list[dict]:
    "Rows of per-image cost and the paper-profile estimate for CLIP-FT, CSP, Add and CLIP-FT's scoring passes on `device`."
    params = paper_parameters()
    run = SMOKE_RUN if smoke else FULL_RUN
    architecture = SMOKE_ARCHITECTURE if smoke else PAPER_ARCHITECTURE
    scoring_batch = SMOKE_SCORING_BATCH if smoke else inspect.signature(score_candidates).parameters["batch_size"].default
    clip = load_model(architecture, device=device)
    where = f"{torch.cuda.get_device_name(device)}" if torch.device(device).type == "cuda" else device
    label = f"{architecture}{' [smoke: tiny architecture, timings meaningless]' if smoke else ''}, {where}"

    n_train = (run["warmup_steps"] + run["timed_steps"] + 1) * run["batch_size"]   # the last step closes the timed window
    n_images = max(n_train, scoring_batch)
    train_data = synthetic_task(MEASURED_TASK, n_train, 1, n_images)
    scoring_data = synthetic_task(MEASURED_TASK, 1, scoring_batch, n_images)
    pixels = random_pixels(n_images, input_side(clip))
    features = random_features(n_images, int(clip.embed_dim), device)
    steps = f"{run['timed_steps']} timed steps after {run['warmup_steps']} warm-up, batch {run['batch_size']}"
    rows = [
        measured_row(f"CLIP-FT training (all of {architecture} trainable, pixels {input_side(clip)}px), {steps}; {label}",
                     lambda: time_training("clip-ft", clip, pixels, train_data, params, run, device),
                     clip_ft_training_units(params), device),
        measured_row(f"CSP training (soft tokens through the frozen text tower of {architecture}), {steps}; {label}",
                     lambda: time_training("csp", clip, features, train_data, params, run, device),
                     csp_training_units(params), device),
        measured_row(f"Add (CDSM) training on cached image features (dim {clip.embed_dim}), {steps}; {label}",
                     lambda: time_training("add", clip, features, train_data, params, run, device),
                     cdsm_training_units(params), device),
        measured_row(f"CLIP-FT scoring passes (score_candidates, forward only, batch {scoring_batch}, "
                     f"{run['scoring_calls']} timed after 1 warm-up); {label}",
                     lambda: time_scoring(clip, pixels, scoring_data, params, run, scoring_batch, device),
                     clip_ft_scoring_units(params), device),
    ]
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda", help="where to measure (default cuda)")
    parser.add_argument("--smoke", action="store_true", help="tiny architecture, batch 2, one timed step (CPU check)")
    args = parser.parse_args(argv)
    rows = measure(args.device, smoke=args.smoke)
    for row in rows:
        print(row)
    total = sum(r["est_gpu_h"] for r in rows if not math.isnan(r["est_gpu_h"]))
    print(f"total estimate over the rows that ran: {total:.2f} GPU-hours")


if __name__ == "__main__":
    main()
