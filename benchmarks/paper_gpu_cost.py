"""What the paper profile costs on one GPU, measured piece by piece (issue 19): each heavy workload of the paper profile runs
for a few steady-state steps through the library's own code, on the papers' architectures with random weights (the weights
do not change the cost) at the paper's batch sizes, and the measured seconds per unit are multiplied by the units the
paper profile processes (images, image-prompt pairs, captions, optimiser steps) to estimate its GPU hours.

    python benchmarks/paper_gpu_cost.py --device cuda [--out results/dry] [--only probes,encoders,fusion,binding,mac]
    python benchmarks/paper_gpu_cost.py --device cpu --smoke           # the same code paths with tiny models, on a CPU

Why pieces and not the whole: the full paper profile is days of GPU time (this script says how many), and a session's
lent GPU is 30 minutes. Peak GPU memory is `torch.cuda.max_memory_allocated` of each piece at the paper's batch, which is
what decides whether it fits (80 GB on an H100); time per unit is steady state (warm-up steps excluded).

Workloads here: the recovery probes' T5-large decoder and the proof-of-concept autoencoder (41, 44), image and caption
encoding (the feature cache every lens reads), and the fusion models' image-prompt pairs (CompMap 10, 11). Binding
(21) and MAC (50-52) training come from `gpu_cost_binding.py` and `gpu_cost_mac.py` beside this file. Writes
`<out>/tables/paper_gpu_cost.{md,csv}`: one row per workload with unit cost, peak memory and estimated GPU hours."""
import argparse
import csv
import math
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")
import torch  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

MIT_STATES_IMAGES, MIT_STATES_PRIMITIVES = 53_753, 115 + 245  # TMN metadata: images; attributes + objects (CompMap's prompts)
CUB_IMAGES, CUB_ATTRIBUTES = 11_788, 312                       # images.txt; attributes.txt (an upper bound: CompMap keeps the denoised ones)
CC3M_CAPTIONS = 3_318_333                                      # Train_GCC-training.tsv
BINDING_IMAGES = 3 * 30_000                                    # single, two, rel (dry_worlds.RELEASE_SIZES; unverified)
T5_LARGE = dict(vocab_size=32_128, d_model=1024, d_kv=64, d_ff=4096, num_layers=24, num_heads=16, feed_forward_proj="relu")
T5_SMOKE = dict(vocab_size=500, d_model=32, d_kv=8, d_ff=64, num_layers=1, num_heads=4, feed_forward_proj="relu")


def synchronize(device: str):
    "Wait for the GPU's queued work (no-op on a CPU), so the wall clock covers it."
    if str(device).startswith("cuda"): torch.cuda.synchronize()


def reset_peak(device: str):
    if str(device).startswith("cuda"): torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()


def peak_gib(device: str) -> float:
    return torch.cuda.max_memory_allocated() / 2**30 if str(device).startswith("cuda") else 0.0


def is_out_of_memory(error: BaseException) -> bool:
    return isinstance(error, torch.cuda.OutOfMemoryError) or "out of memory" in str(error).lower()


def row(notebook, workload, unit, measured_units, seconds, peak, paper_units, source) -> dict:
    "One table row; the estimate is paper_units x seconds per measured unit (nan when the piece did not run)."
    per_unit = seconds / measured_units if measured_units and not math.isnan(seconds) else float("nan")
    return {"notebook": notebook, "workload": workload, "unit": unit, "measured_units": measured_units,
            "seconds": round(seconds, 6), "peak_gpu_gib": round(peak, 2), "paper_units": paper_units,
            "paper_units_source": source, "est_gpu_h": round(paper_units * per_unit / 3600, 2)}


def t5(sizes: dict):
    "A randomly initialised T5ForConditionalGeneration of `sizes` (T5-large's: the paper's decoder)."
    from transformers import T5Config, T5ForConditionalGeneration
    torch.manual_seed(0)
    return T5ForConditionalGeneration(T5Config(**sizes, dropout_rate=0.0, tie_word_embeddings=True, pad_token_id=0,
                                               eos_token_id=1, decoder_start_token_id=0))


def timed_fit(model, inputs, labels, config, device, steps: int, warmup: int = 1) -> tuple[float, float]:
    "`probes.fit` for `steps` steps; (seconds of steps warmup+1..steps-1, peak GiB). The last step's checkpoint is left out."
    from vlconcepts.probes import fit
    stamps = []
    reset_peak(device)
    with tempfile.TemporaryDirectory() as run_dir:
        fit(model, inputs, labels, config, run_dir, steps=steps, device=device,
            on_step=lambda step, loss: (synchronize(device), stamps.append(time.perf_counter())))
    return stamps[steps - 2] - stamps[warmup - 1], peak_gib(device)   # on_step runs after a step's checkpoint, so stop at steps-1


def probe_rows(device: str, smoke: bool):
    """T5-large probe (decoder on one 768-d vector) and autoencoder steps at the paper's batch 512 x 64 tokens, fp32 and bf16:
    per precision, the fewest micro-batches that fit. Each attempt builds its model afresh (nothing carries over an
    out-of-memory error); an attempt that fails otherwise is a row naming the error, its traceback on stderr."""
    from vlconcepts.probes import PAPER_PROBE_CONFIG, PooledT5Autoencoder, VectorConditionedT5
    from dataclasses import replace
    sizes, batch, length, steps = (T5_SMOKE, 8, 8, 4) if smoke else (T5_LARGE, PAPER_PROBE_CONFIG.batch_size, PAPER_PROBE_CONFIG.max_length, 5)
    generator = torch.Generator().manual_seed(0)
    n_rows = batch * (steps + 1)
    labels = torch.randint(2, sizes["vocab_size"], (n_rows, length), generator=generator)  # every caption at max_length: the worst case
    encoders = 5                                     # ViT-B/32, ViT-L/14, NegCLIP, RoBERTa-CLIP, MPNet (41's paper yaml)
    for name, build, inputs, paper_steps in (
            ("probe: T5-large decoder on a 768-d vector", lambda: VectorConditionedT5(t5(sizes), 768),
             torch.randn(n_rows, 768, generator=generator), encoders * PAPER_PROBE_CONFIG.steps),
            ("autoencoder: T5-large encoder + decoder", lambda: PooledT5Autoencoder(t5(sizes)), labels.clone(),
             PAPER_PROBE_CONFIG.autoencoder_steps)):
        for precision in ("no", "bf16"):
            for accumulation in (1, 2, 4, 8):
                config = replace(PAPER_PROBE_CONFIG, decoder="tiny", batch_size=batch, max_length=length, mixed_precision=precision,
                                 gradient_accumulation_steps=accumulation, checkpoint_every=10_000)
                what = f"{name}, batch {batch} x {length} tokens, {'fp32' if precision == 'no' else 'bf16'}, {accumulation} micro-batch(es)"
                source = (f"{encoders} encoders x {PAPER_PROBE_CONFIG.steps:,} steps (41; 44 reuses 41's probes)" if "probe" in name
                          else f"{PAPER_PROBE_CONFIG.autoencoder_steps:,} steps (41)")
                model = build()
                try:
                    seconds, peak = timed_fit(model, inputs, labels, config, device, steps)
                    yield row("41_probes_em", what, "step", steps - 2, seconds, peak, paper_steps, source)
                    break                            # the fewest micro-batches that fit, per precision
                except RuntimeError as error:
                    out_of_memory = is_out_of_memory(error)
                    if not out_of_memory: traceback.print_exc()
                    failure = "OUT OF MEMORY" if out_of_memory else f"FAILED: {type(error).__name__}: {str(error).splitlines()[0][:160]}"
                    yield row("41_probes_em", f"{what}: {failure}", "step", 0, float("nan"), peak_gib(device), paper_steps, source)
                    if not out_of_memory: break
                finally:
                    del model; reset_peak(device)


def rate(function, units: int, device: str, repeats: int = 3) -> tuple[float, float]:
    "(seconds for `repeats` calls of `function` after one warm-up, peak GiB); each call processes `units` units."
    reset_peak(device)
    function(); synchronize(device)
    start = time.perf_counter()
    for _ in range(repeats): function()
    synchronize(device)
    return time.perf_counter() - start, peak_gib(device)


def encoder_rows(device: str, smoke: bool):
    "Image encoding (the feature cache's extraction) per paper model, and caption encoding of the probes' CC3M corpus."
    from vlconcepts.models import load_model
    batch = 8 if smoke else 256
    images = {  # spec -> (image side, notebooks, images the paper profile encodes once (the cache shares them), where from)
        "openclip:ViT-B-32@random": (224, "06, 10-14, 70-72", MIT_STATES_IMAGES + CUB_IMAGES, "MIT-States + CUB images"),
        "openclip:RN50@random": (224, "14, 71, 72", MIT_STATES_IMAGES, "MIT-States images"),
        "openclip:RN101@random": (224, "14, 71, 72", MIT_STATES_IMAGES, "MIT-States images"),
        "openclip:ViT-L-14-336@random": (336, "14, 71, 72", MIT_STATES_IMAGES, "MIT-States images"),
        "openclip:ViT-L-14@random": (224, "21, 24", BINDING_IMAGES, "binding: 3 tasks x 30,000 images"),
    }
    if smoke: images = {"openclip:ViT-B-32@random": images["openclip:ViT-B-32@random"]}
    for spec, (side, notebooks, units, source) in images.items():
        model = load_model(spec, device=device)
        pixels = torch.rand(batch, 3, side, side, generator=torch.Generator().manual_seed(0))
        seconds, peak = rate(lambda: model.encode_images(pixels, batch_size=batch), batch, device)
        yield row(notebooks, f"encode images: {spec}, batch {batch}, {side} px", "image", 3 * batch, seconds, peak, units, source)
        del model
    captions = [f"a photo of a red dog sitting on the grass next to {k} wooden chairs in a garden" for k in range(batch)]  # CC3M-like length
    texts = {"openclip:ViT-B-32@random": "ViT-B/32 and NegCLIP (the same text tower)", "openclip:ViT-L-14@random": "ViT-L/14",
             "sbert:sentence-transformers/all-mpnet-base-v2@random": "MPNet (also the cost of RoBERTa-CLIP's RoBERTa-base tower)"}
    if smoke: texts = {"openclip:ViT-B-32@random": texts["openclip:ViT-B-32@random"]}
    for spec, covers in texts.items():
        model = load_model(spec, device=device)
        copies = 2 if spec.startswith("openclip:ViT-B-32") or "mpnet" in spec else 1
        seconds, peak = rate(lambda: model.encode_texts(captions), len(captions), device)
        yield row("41, 44", f"encode captions: {spec}, batch {len(captions)}", "caption", 3 * len(captions), seconds, peak,
                  copies * CC3M_CAPTIONS, f"{copies} x CC3M's {CC3M_CAPTIONS:,} captions ({covers})")
        del model


def fusion_rows(device: str, smoke: bool):
    "Image-prompt pairs per second of the fusion models' matching heads (CompMap's concept activations for ViLT and BLIP-ITM)."
    from vlconcepts.models import load_model
    specs = ["hf-vilt:dandelin/vilt-b32-finetuned-coco@random", "hf-blip-itm:Salesforce/blip-itm-base-coco@random"]
    n_images, prompts = (2, ["this is red", "this is a cube"]) if smoke else (16, [f"this is concept {k}" for k in range(64)])
    units = MIT_STATES_IMAGES * MIT_STATES_PRIMITIVES + CUB_IMAGES * CUB_ATTRIBUTES
    for spec in specs[:1] if smoke else specs:
        model = load_model(spec, device=device)
        pixels = torch.rand(n_images, 3, 384, 384, generator=torch.Generator().manual_seed(0))
        seconds, peak = rate(lambda: model.match_scores(pixels, prompts, batch_size=len(prompts) * 4), n_images * len(prompts), device)
        yield row("10, 11", f"match image-prompt pairs: {spec}, {len(prompts) * 4} pairs per pass", "pair",
                  3 * n_images * len(prompts), seconds, peak, units,
                  f"MIT-States {MIT_STATES_IMAGES:,} images x {MIT_STATES_PRIMITIVES} primitives + CUB {CUB_IMAGES:,} x {CUB_ATTRIBUTES} attributes")
        del model


def lens_rows(name: str, device: str, smoke: bool):
    "Rows of `gpu_cost_<name>.py` beside this file."
    import importlib
    yield from importlib.import_module(f"gpu_cost_{name}").measure(device, smoke=smoke)


PARTS = {"probes": probe_rows, "encoders": encoder_rows, "fusion": fusion_rows,
         "binding": lambda d, s: lens_rows("binding", d, s), "mac": lambda d, s: lens_rows("mac", d, s)}


def write_table(rows: list[dict], out: Path, device: str, smoke: bool) -> Path:
    "CSV and Markdown under `out/tables`, with a caption naming the device, the load and what the estimate assumes."
    tables = out / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    with open(tables / "paper_gpu_cost.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader(); writer.writerows(rows)
    name = torch.cuda.get_device_name(0) if device.startswith("cuda") else "CPU"
    lines = ["# paper_gpu_cost\n", f"Dry run: random weights. {'Smoke sizes, not the papers. ' if smoke else ''}Unit costs of the paper "
             f"profile's heavy workloads on {name} ({device}), the papers' architectures at the paper's batch sizes, through "
             f"vlconcepts' own code; estimated GPU hours = paper units x seconds per unit. Peak = torch.cuda.max_memory_allocated. "
             f"torch {torch.__version__}. {load()}.\n",
             "| notebook | workload | s per unit | peak GPU (GiB) | paper units | est. GPU h |", "|---|---|---:|---:|---|---:|"]
    for r in rows:
        per_unit = r["seconds"] / r["measured_units"] if r["measured_units"] else float("nan")
        lines.append(f"| {r['notebook']} | {r['workload']} | {per_unit:.4g} | {r['peak_gpu_gib']:.2f} | "
                     f"{r['paper_units']:,} {r['unit']}s ({r['paper_units_source']}) | {r['est_gpu_h']:.2f} |")
    path = tables / "paper_gpu_cost.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--smoke", action="store_true", help="tiny models and batches: checks the code paths on a CPU")
    parser.add_argument("--only", default=",".join(PARTS), help=f"comma-separated parts of {list(PARTS)}")
    parser.add_argument("--out", default=None, help="folder for tables/paper_gpu_cost.* (default results/dry, or results/smoke with --smoke)")
    args = parser.parse_args(argv)
    from vlconcepts.core import pick_device
    device = str(pick_device(args.device))
    out = Path(args.out or f"results/{'smoke' if args.smoke else 'dry'}")
    rows = []
    for part in args.only.split(","):
        if part not in PARTS: parser.error(f"unknown part {part!r}; choose from {list(PARTS)}")
        start = time.perf_counter()
        try:
            for measured in PARTS[part](device, args.smoke):
                rows.append(measured)
                write_table(rows, out, device, args.smoke)  # after every row: a run cut short (or an error) keeps what it measured
        except Exception as error:                          # a broken part is a row that says so, not a lost table
            traceback.print_exc()
            rows.append(row(part, f"{part} FAILED: {type(error).__name__}: {str(error).splitlines()[0][:200]}", "unit", 0,
                            float("nan"), 0.0, 0, "not measured"))
        print(f"[{part}] {time.perf_counter() - start:.0f} s", flush=True)
    print(write_table(rows, out, device, args.smoke).read_text())
    total = sum(r["est_gpu_h"] for r in rows if not math.isnan(r["est_gpu_h"]) and "OUT OF MEMORY" not in r["workload"])
    print(f"sum of the estimates (every row; alternatives of one workload counted each): {total:.1f} GPU h")
    return 0


if __name__ == "__main__":
    sys.exit(main())
