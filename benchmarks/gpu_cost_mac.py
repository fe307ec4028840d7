"""GPU cost of the MAC lens's paper profile (notebooks 50_mac_closed_open, 51_mac_branch_ablation, 52_mac_qualitative).

What is measured, on `device`, with the library's own code and the paper architecture `openclip:ViT-L-14@random`
(random weights: the speed does not depend on them):

- **image-token extraction**: `VLModel.encode_image_tokens` on random 224 px images at batch 64 (the batch
  `mac.image_tokens` -> `cache.cached_image_tokens` uses); images/s of the model interface, without JPEG decoding.
- **training**, one row per distinct trained configuration of the three notebooks (CoOp, CSP, Troika, MM-Encoder, the
  MM-Encoder without patch tokens, CoOp a;o, CoOp a;o;c): the config `run_method` builds
  (`mac_config(name).scaled(epochs, lr_scale, None, fusion_ffn)` with the paper yaml's values, i.e. each method's own
  batch), `build_model`, then `train_mac_model` for 2 warm-up steps and 6 timed steps on synthetic cached tokens of
  ViT-L/14's real shapes (class [768], patches [256, 768], float32 on the CPU as the cache returns them) over a label
  space of MAC's real size (99 attributes x 259 objects = 25,641 open-world pairs, 7,647 closed-world pairs of which
  6,791 are training pairs).
- **scoring**: `score_pairs` of test images in the closed (7,647) and the open (25,641) world with one model per
  scoring-cost class (CLIP, CoOp and CSP with the same branches encode the same prompts; Troika adds its traction;
  the MM-Encoder scores 358 primitive prompts); whole batches of `score_pairs`' own batch rule.

The estimate: est_gpu_h = paper_units x seconds / measured_units / 3600, where paper_units counts the images the
workload processes over the three notebooks of the paper profile, as `run_method` caches them: a run (method config,
seed, use_patches, model, dataset, split) computed by one notebook is a cache hit in a later one (the rebuild runs them
in order with one cache). Training: 11,101 train images x the config's epochs (40) per training run; scoring: 5,143
test images per run (both worlds); extraction: 18,217 images once (cached per model weights and images).
MAC split sizes: the v1 release's 18,217 images split 11,101 / 1,973 / 5,143 (train / val / test) as given in
`../shared/specs/probes_mac.md` §2.1 (marked UNVERIFIED there; the total is `vlconcepts.dry_worlds.RELEASE_SIZES`);
the pair counts are that spec's split-file counts. What is not measured: JPEG decoding, the cache's disk I/O, the
metrics and the bias sweep (CPU), and the host RAM the cached tokens take (18,217 x 257 x 768 float32 = 14 GB).

    .venv/bin/python benchmarks/gpu_cost_mac.py [--device cuda] [--smoke]

`--smoke` (or `measure(smoke=True)`) runs the same code path on the CPU in a few seconds: a tiny random open_clip
model, a 6 x 5 label space, 1 warm-up and 1 timed step; its paper_units are still the paper's, its seconds are not.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import traceback
from dataclasses import asdict, dataclass, replace
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")

import numpy as np
import torch
import yaml

from vlconcepts.mac import LabelSpace, MacConfig, MacTrainingData, build_model, mac_config, score_pairs, train_mac_model
from vlconcepts.models import TINY_OPENCLIP_ARCH, load_model

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = ("50_mac_closed_open", "51_mac_branch_ablation", "52_mac_qualitative")
PAPER_ARCHITECTURE = "openclip:ViT-L-14@random"
SMOKE_ARCHITECTURE = f"openclip:{TINY_OPENCLIP_ARCH}@random"

# MAC v1 (specs/probes_mac.md §2.1; image split sizes UNVERIFIED there, their total = dry_worlds.RELEASE_SIZES["mac"])
MAC_IMAGES, MAC_TRAIN_IMAGES, MAC_TEST_IMAGES = 18_217, 11_101, 5_143
MAC_ATTRIBUTES, MAC_OBJECTS, MAC_CLOSED_PAIRS, MAC_TRAIN_PAIRS = 99, 259, 7_647, 6_791
ATTRIBUTES_PER_IMAGE = {1: 1415, 2: 3761, 3: 5020, 4: 3439, 5: 1692, 6: 534, 7: 120, 8: 21, 9: 2}  # spec §2.1 frequencies

EXTRACTION_BATCH = 64          # cached_image_tokens' batch


@dataclass(frozen=True)
class Setting:
    "The sizes one measurement runs at: the paper's, or the smoke test's tiny ones."
    architecture: str
    n_attributes: int
    n_objects: int
    n_closed_pairs: int
    n_train_pairs: int
    warmup_steps: int
    timed_steps: int
    extraction_batches: int    # timed batches of EXTRACTION_BATCH images
    max_score_images: int      # cap on the test images scored per class


PAPER_SETTING = Setting(PAPER_ARCHITECTURE, MAC_ATTRIBUTES, MAC_OBJECTS, MAC_CLOSED_PAIRS, MAC_TRAIN_PAIRS,
                        warmup_steps=2, timed_steps=6, extraction_batches=8, max_score_images=256)
SMOKE_SETTING = Setting(SMOKE_ARCHITECTURE, 6, 5, 15, 12, warmup_steps=1, timed_steps=1, extraction_batches=1,
                        max_score_images=4)


# --- what the paper profile runs -------------------------------------------------------------------------------------

def notebook_parameters(notebook: str, profile: str = "paper") -> dict:
    "The notebook's `parameters` cell defaults, overridden by `profiles/<notebook>.<profile>.yaml` (what papermill passes)."
    cells = json.loads((REPO / "nbs" / "experiments" / f"{notebook}.ipynb").read_text())["cells"]
    source = next("".join(c["source"]) for c in cells if "parameters" in c.get("metadata", {}).get("tags", []))
    values: dict = {}
    exec(compile(source, f"{notebook}:parameters", "exec"), {}, values)
    values = {k: v for k, v in values.items() if not k.startswith("__")}
    overrides = yaml.safe_load((REPO / "nbs" / "experiments" / "profiles" / f"{notebook}.{profile}.yaml").read_text()) or {}
    return {**values, **overrides}


@dataclass(frozen=True)
class MacRun:
    "One `run_method` call of a notebook: its method name, the config it trains and where a cached copy comes from."
    notebook: str
    name: str
    config: MacConfig
    cache_key: str             # what `run_method`'s cached_activations key holds (config, model, dataset, split)
    computed: bool             # False: a cache hit of an earlier notebook's identical run

    @property
    def trained(self) -> bool: return self.config.epochs > 0


def run_config(name: str, params: dict, seed: int, use_patches: bool = True) -> MacConfig:
    "The config `run_method` builds from a notebook's parameters (batch_size 0 -> None: each method's own batch)."
    scaled = mac_config(name).scaled(params["epochs"], params["lr_scale"], params["batch_size"] or None, params["fusion_ffn"])
    return replace(scaled, seed=int(seed), use_patches=use_patches)


def notebook_calls(params: dict) -> list[tuple[str, str, int, bool]]:
    "(notebook, method name, seed, use_patches) of every `run_method` call, in the order the notebooks make them."
    calls = []
    def run_seeds(notebook, names, seeds, use_patches=True):      # run_seeds: an untrained method runs once
        for name in names:
            for seed in seeds:
                calls.append((notebook, name, int(seed), use_patches))
                if mac_config(name).epochs == 0: break
    closed_open = params["50_mac_closed_open"]
    run_seeds("50_mac_closed_open", closed_open["methods"], closed_open["seeds"])
    run_seeds("50_mac_closed_open", ["MM-Encoder"], closed_open["seeds"], use_patches=False)   # the patch-token ablation
    branches = params["51_mac_branch_ablation"]
    run_seeds("51_mac_branch_ablation", [f"{m}{s}" for m in branches["models"] for s in ("", " a;o", " a;o;c")], branches["seeds"])
    qualitative = params["52_mac_qualitative"]
    calls.append(("52_mac_qualitative", qualitative["method"], int(qualitative["seed"]), True))
    return calls


def paper_runs(profile: str = "paper") -> list[MacRun]:
    "Every MAC run of the profile's three notebooks, with the repeats of an identical run marked as cache hits."
    params = {nb: notebook_parameters(nb, profile) for nb in NOTEBOOKS}
    runs, seen = [], set()
    for notebook, name, seed, use_patches in notebook_calls(params):
        config, p = run_config(name, params[notebook], seed, use_patches), params[notebook]
        key = json.dumps([name, asdict(config), p["model_spec"], p["dataset"], "test"], sort_keys=True)
        runs.append(MacRun(notebook, name, config, key, key not in seen))
        seen.add(key)
    return runs


def scoring_class(config: MacConfig) -> str:
    "Runs whose `score_pairs` costs the same: prompt models by branch set (+ traction), the MM-Encoder by patch use."
    if config.method == "mm-encoder": return "MM-Encoder" + ("" if config.use_patches else " (class token only)")
    if config.traction_layers: return f"Troika-style traction, branches {config.branches}"
    return f"prompts (CLIP/CoOp/CSP), branches {config.branches}"


def training_label(run: MacRun) -> str:
    "A training group's name: the method name, plus the patch-token ablation."
    return run.name + ("" if run.config.use_patches else " (class token only)")


def describe_runs(runs: list[MacRun]) -> str:
    "'50_mac_closed_open: CoOp (seed 0); ...' of computed runs, then the cache hits."
    def listing(chosen): return "; ".join(f"{r.notebook}: {r.name}{'' if r.config.use_patches else ' without patches'} "
                                          f"(seed {r.config.seed})" for r in chosen)
    hits = [r for r in runs if not r.computed]
    return listing([r for r in runs if r.computed]) + (f"; cache hits, not counted: {listing(hits)}" if hits else "")


# --- synthetic inputs of the real shapes -------------------------------------------------------------------------------

def synthetic_spaces(setting: Setting, seed: int = 0) -> dict[str, LabelSpace]:
    "Open-world, closed-world and training-pair `LabelSpace`s of the setting's sizes (random closed world, every primitive in training)."
    attributes = [f"attribute{k}" for k in range(setting.n_attributes)]
    objects = [f"object{k}" for k in range(setting.n_objects)]
    every = [(a, o) for a in attributes for o in objects]                                  # attribute-major, as label_space
    rng = np.random.default_rng(seed)
    covering = {(attributes[k], objects[k % len(objects)]) for k in range(len(attributes))}
    covering |= {(attributes[k % len(attributes)], objects[k]) for k in range(len(objects))}
    rest = [p for p in (every[i] for i in rng.permutation(len(every))) if p not in covering]
    train = covering | set(rest[:setting.n_train_pairs - len(covering)])
    closed = train | set([p for p in rest if p not in train][:setting.n_closed_pairs - len(train)])
    def space(world, pairs): return LabelSpace(world, attributes, objects, pairs, torch.tensor([p in train for p in pairs]))
    return {"open": space("open", every), "closed": space("closed", [p for p in every if p in closed]),
            "train": space("train", sorted(train))}


def synthetic_tokens(n: int, n_patches: int, dim: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    "Random raw class [n, dim] and patch [n, n_patches, dim] tokens (float32, CPU: what the token cache returns)."
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(n, dim, generator=generator), torch.randn(n, n_patches, dim, generator=generator)


def synthetic_training_data(train: LabelSpace, n: int, n_patches: int, dim: int, seed: int = 0) -> MacTrainingData:
    "`n` images with one object and 1-9 attributes (MAC's frequencies) whose pairs are training pairs, and random tokens."
    rng = np.random.default_rng(seed)
    attributes_of = {}
    for a, o in train.pairs: attributes_of.setdefault(o, []).append(a)
    objects = sorted(attributes_of, key=train.objects.index)
    counts, weights = zip(*ATTRIBUTES_PER_IMAGE.items())
    attr_index, pair_index = {a: k for k, a in enumerate(train.attributes)}, {p: k for k, p in enumerate(train.pairs)}
    attr_targets, pair_targets = torch.zeros(n, len(train.attributes)), torch.zeros(n, len(train))
    obj_targets = torch.empty(n, dtype=torch.long)
    for i in range(n):
        obj = objects[rng.integers(len(objects))]
        k = min(int(rng.choice(counts, p=np.array(weights) / sum(weights))), len(attributes_of[obj]))
        for a in rng.choice(attributes_of[obj], size=k, replace=False):
            attr_targets[i, attr_index[a]] = pair_targets[i, pair_index[(a, obj)]] = 1.0
        obj_targets[i] = train.objects.index(obj)
    cls, patches = synthetic_tokens(n, n_patches, dim, seed)
    return MacTrainingData(cls, patches, attr_targets, obj_targets, pair_targets, train)


def image_slice(data: MacTrainingData, start: int, stop: int) -> MacTrainingData:
    "The images start:stop of `data` (same training pairs)."
    return replace(data, cls=data.cls[start:stop], patches=data.patches[start:stop], attr_targets=data.attr_targets[start:stop],
                   obj_targets=data.obj_targets[start:stop], pair_targets=data.pair_targets[start:stop])


# --- timing ------------------------------------------------------------------------------------------------------------

def synchronize(device: str) -> None:
    "Wait for the device's queued work (CUDA), so the clock reads finished work."
    if torch.device(device).type == "cuda": torch.cuda.synchronize()


def reset_peak_memory(device: str) -> None:
    "Start a new peak-memory window (CUDA only)."
    if torch.device(device).type == "cuda": torch.cuda.reset_peak_memory_stats()


def peak_memory_gib(device: str) -> float:
    "Peak GPU memory allocated since the last reset, GiB (resident CLIP weights included); 0.0 off CUDA."
    return torch.cuda.max_memory_allocated() / 2 ** 30 if torch.device(device).type == "cuda" else 0.0


def free_memory(device: str) -> None:
    "Return cached blocks after a workload (or a failed one) so the next starts clean."
    if torch.device(device).type == "cuda": torch.cuda.empty_cache()


def timed(device: str, work) -> float:
    "Seconds `work()` takes, synchronised on both sides."
    synchronize(device)
    start = time.perf_counter()
    work()
    synchronize(device)
    return time.perf_counter() - start


def time_extraction(vl_model, device: str, setting: Setting) -> tuple[int, float, tuple[int, int]]:
    "(images, seconds, (patches, dim)) of `encode_image_tokens` at batch 64 on random images of the model's input size, after a warm-up batch."
    size = vl_model.preprocess_cfg["size"]
    size = size if isinstance(size, int) else max(size)
    pixels = torch.rand(EXTRACTION_BATCH, 3, size, size, generator=torch.Generator().manual_seed(0))
    cls, patches = vl_model.encode_image_tokens(pixels, batch_size=EXTRACTION_BATCH, normalize=False)   # warm-up
    images = pixels.repeat(setting.extraction_batches, 1, 1, 1)
    seconds = timed(device, lambda: vl_model.encode_image_tokens(images, batch_size=EXTRACTION_BATCH, normalize=False))
    return len(images), seconds, tuple(patches.shape[1:])


def time_training(model, data: MacTrainingData, device: str, setting: Setting) -> tuple[int, float]:
    "(images, seconds) of `train_mac_model` over `timed_steps` batches, after `warmup_steps` batches on other images."
    batch = model.config.batch_size
    warmup = setting.warmup_steps * batch
    train_mac_model(model, image_slice(data, 0, warmup), show_progress=False)
    timed_images = image_slice(data, warmup, warmup + setting.timed_steps * batch)
    return len(timed_images.cls), timed(device, lambda: train_mac_model(model, timed_images, show_progress=False))


def whole_batch_images(model, spaces: dict[str, LabelSpace], dim: int, cap: int, batch_size: int = 256,
                       max_elements: int = 2 ** 26) -> int:
    "Test images filling whole `score_pairs` batches in both worlds (its default batch rule: a traction model holds [b, P, d] per batch)."
    if getattr(model, "traction", None) is None: return min(cap, batch_size)
    sizes = [max(1, min(batch_size, max_elements // (len(spaces[w]) * dim))) for w in ("closed", "open")]
    return min(cap, math.lcm(*sizes))


def time_scoring(model, spaces: dict[str, LabelSpace], n_patches: int, dim: int, device: str, setting: Setting) -> tuple[int, float]:
    "(images, seconds) of `score_pairs` over the closed then the open world, as `run_method` scores a split, after a 1-image warm-up."
    n = whole_batch_images(model, spaces, dim, setting.max_score_images)
    cls, patches = synthetic_tokens(n, n_patches, dim, seed=1)
    for world in ("closed", "open"): score_pairs(model, cls[:1], patches[:1], spaces[world])
    return n, timed(device, lambda: [score_pairs(model, cls, patches, spaces[w]) for w in ("closed", "open")])


# --- rows --------------------------------------------------------------------------------------------------------------

def result_row(notebook: str, workload: str, measured_units: int, seconds: float, peak_gpu_gib: float, paper_units: int,
               paper_units_source: str) -> dict:
    "One result row; est_gpu_h = paper_units x seconds per image / 3600 (NaN when the measurement failed)."
    per_image = seconds / measured_units if measured_units else float("nan")
    return {"notebook": notebook, "workload": workload, "unit": "image", "measured_units": int(measured_units),
            "seconds": float(seconds), "peak_gpu_gib": float(peak_gpu_gib), "paper_units": int(paper_units),
            "paper_units_source": paper_units_source, "est_gpu_h": float(paper_units * per_image / 3600)}


def failed_row(notebook: str, workload: str, error: BaseException, device: str, paper_units: int, source: str, smoke: bool) -> dict:
    "The row of a workload that failed at this size (e.g. out of memory): NaN seconds and the error in its description; smoke re-raises."
    traceback.print_exc(file=sys.stderr)
    if smoke and not isinstance(error, torch.cuda.OutOfMemoryError): raise error
    peak = peak_memory_gib(device)
    free_memory(device)
    return result_row(notebook, f"{workload} -- FAILED: {type(error).__name__}: {str(error)[:300]}", 0, float("nan"), peak,
                      paper_units, source)


def notebooks_of(runs: list[MacRun]) -> str:
    "The notebooks that compute `runs`, comma-separated, in order."
    return ", ".join(dict.fromkeys(r.notebook for r in runs if r.computed))


def extraction_row(vl_model, device: str, setting: Setting, smoke: bool) -> tuple[dict, tuple[int, int]]:
    "The image-token extraction row and the token shape (patches, dim) it found ((256, 768) for ViT-L/14 at 224 px)."
    workload = (f"image-token extraction (encode_image_tokens, raw, the model interface's autocast) of {setting.architecture}, "
                f"batch {EXTRACTION_BATCH}, random images")
    source = (f"{MAC_IMAGES:,} MAC images x 1: every MAC run of 50/51/52 reads image_tokens(clip, data), cached per model weights and "
              "images, so the first notebook extracts and the rest hit the cache")
    reset_peak_memory(device)
    try:
        images, seconds, shape = time_extraction(vl_model, device, setting)
    except Exception as error:                                   # ViT-L/14's shape at 224 px, so the other rows still run
        return failed_row("50_mac_closed_open", workload, error, device, MAC_IMAGES, source, smoke), (256, 768)
    return result_row("50_mac_closed_open", f"{workload} ({images} images timed)", images, seconds, peak_memory_gib(device),
                      MAC_IMAGES, source), shape


def training_paper_units(group: list[MacRun]) -> tuple[int, str]:
    "(train images x epochs summed over the group's computed runs, the formula in words)."
    computed = [r for r in group if r.computed]
    units = sum(MAC_TRAIN_IMAGES * r.config.epochs for r in computed)
    epochs = sorted({r.config.epochs for r in computed})
    seeds = sorted({r.config.seed for r in computed})
    return units, (f"{MAC_TRAIN_IMAGES:,} train images (MAC v1, specs/probes_mac.md §2.1) x {'/'.join(map(str, epochs))} epochs "
                   f"(paper yaml, MacConfig.scaled) x {len(seeds)} seed(s) {seeds} x {len(computed)} run(s) = {units:,}; "
                   f"runs: {describe_runs(group)}")


def scoring_paper_units(group: list[MacRun]) -> tuple[int, str]:
    "(test images x computed runs of this scoring class, the formula in words)."
    computed = [r for r in group if r.computed]
    units = MAC_TEST_IMAGES * len(computed)
    return units, (f"{MAC_TEST_IMAGES:,} test images (MAC v1) x {len(computed)} run(s) = {units:,}, each image scored in the closed "
                   f"({MAC_CLOSED_PAIRS:,}) and open ({MAC_ATTRIBUTES * MAC_OBJECTS:,}) world; runs: {describe_runs(group)}")


def config_summary(config: MacConfig) -> str:
    "batch, epochs, branches and the size-setting options of a config, for the workload text."
    extra = f", fusion_ffn {config.fusion_ffn}, {config.fusion_layers} layers" if config.fusion_layers else ""
    extra += f", traction {config.traction_layers} layers, adapter {config.adapter_dim}" if config.traction_layers else ""
    extra += "" if config.use_patches else ", class token only"
    return f"branches {config.branches}, batch {config.batch_size}{extra}"


def method_rows(config: MacConfig, label: str, train_group: list[MacRun] | None, score_group: list[MacRun] | None,
                vl_model, spaces: dict[str, LabelSpace], token_shape: tuple[int, int], device: str, setting: Setting,
                smoke: bool) -> list[dict]:
    "The training row (if `train_group`) and the scoring row (if `score_group`) of one model built from `config`."
    n_patches, dim = token_shape
    shapes = f"{setting.architecture} tokens [1+{n_patches}, {dim}], {len(spaces['train']):,} training pairs"
    rows, model = [], None
    if train_group:
        units, source = training_paper_units(train_group)
        notebook = notebooks_of(train_group)
        workload = f"train {label} ({config_summary(config)}) with train_mac_model on {shapes}"
        reset_peak_memory(device)
        try:
            batch = config.batch_size
            data = synthetic_training_data(spaces["train"], (setting.warmup_steps + setting.timed_steps) * batch, n_patches, dim)
            model = build_model(replace(config, epochs=1), vl_model, spaces["train"].attributes, spaces["train"].objects)
            images, seconds = time_training(model, data, device, setting)
            rows.append(result_row(notebook, f"{workload}; {setting.timed_steps} timed steps after {setting.warmup_steps} warm-up",
                                   images, seconds, peak_memory_gib(device), units, source))
        except Exception as error:
            rows.append(failed_row(notebook, workload, error, device, units, source, smoke))
            model = None
    if score_group:
        units, source = scoring_paper_units(score_group)
        notebook = notebooks_of(score_group)
        workload = (f"score_pairs test images, closed ({len(spaces['closed']):,}) + open ({len(spaces['open']):,}) world: "
                    f"{scoring_class(config)} (measured with {label}, {config_summary(config)}) on {shapes}")
        reset_peak_memory(device)
        try:
            if model is None:
                model = build_model(config, vl_model, spaces["train"].attributes, spaces["train"].objects)
            images, seconds = time_scoring(model, spaces, n_patches, dim, device, setting)
            rows.append(result_row(notebook, f"{workload}; {images} images timed after a 1-image warm-up", images, seconds,
                                   peak_memory_gib(device), units, source))
        except Exception as error:
            rows.append(failed_row(notebook, workload, error, device, units, source, smoke))
    del model
    free_memory(device)
    return rows


def grouped(runs: list[MacRun], key) -> dict[str, list[MacRun]]:
    "Runs grouped by `key(run)`, groups in first-appearance order."
    groups: dict[str, list[MacRun]] = {}
    for run in runs: groups.setdefault(key(run), []).append(run)
    return groups


def measure(device: str = "cuda", smoke: bool = False) -> list[dict]:
    "Rows of per-image cost and the paper-profile estimate of every MAC GPU workload (see the module docstring)."
    setting = SMOKE_SETTING if smoke else PAPER_SETTING
    runs = paper_runs("paper")
    vl_model = load_model(setting.architecture, device=device)
    rows = []
    row, token_shape = extraction_row(vl_model, device, setting, smoke)
    rows.append(row)
    spaces = synthetic_spaces(setting)
    training_groups = grouped([r for r in runs if r.trained], training_label)
    scoring_groups = grouped(runs, lambda r: scoring_class(r.config))
    measured_classes = set()
    for label, group in training_groups.items():
        if not any(r.computed for r in group): continue
        config = next(r.config for r in group if r.computed)
        score_class = scoring_class(config)
        score_group = scoring_groups[score_class] if score_class not in measured_classes else None
        if score_group is not None and not any(r.computed for r in score_group): score_group = None
        measured_classes.add(score_class)
        rows += method_rows(config, label, group, score_group, vl_model, spaces, token_shape, device, setting, smoke)
    for score_class, group in scoring_groups.items():          # classes no trained run represents (e.g. CLIP only)
        if score_class in measured_classes or not any(r.computed for r in group): continue
        rows += method_rows(group[0].config, group[0].name, None, group, vl_model, spaces, token_shape, device, setting, smoke)
    return rows


def main() -> None:
    "Print the rows (JSON, one per line) and a per-notebook total of the estimate."
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--smoke", action="store_true", help="tiny model and label space on this device (use with --device cpu)")
    args = parser.parse_args()
    start = time.perf_counter()
    rows = measure(args.device, smoke=args.smoke)
    for row in rows: print(json.dumps(row))
    total = sum(r["est_gpu_h"] for r in rows if not math.isnan(r["est_gpu_h"]))
    failed = [r["workload"] for r in rows if math.isnan(r["seconds"])]
    print(f"estimated GPU hours, all rows: {total:.2f}; failed rows: {len(failed)}; measured in {time.perf_counter() - start:.0f} s "
          f"on {args.device}{' (smoke: tiny sizes, not an estimate)' if args.smoke else ''}")


if __name__ == "__main__":
    main()
