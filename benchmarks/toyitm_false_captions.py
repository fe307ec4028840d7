"""Does pairing a close-up's false caption as a one-word edit of its true caption make a better ToyITM? Release-length runs.

    python benchmarks/toyitm_false_captions.py train --pairing edit --seed 0 [--steps 8000] [--threads 1] [--out DIR]
                                               [--pool-size 1024] [--test-scale 1.0]   (smaller: a smoke run, not a measurement)
    python benchmarks/toyitm_false_captions.py report [--out DIR]

`train` trains one ToyITM with the release's settings (`toyitm.ToyITMConfig()`: the world mixture, 8,000 steps) except
`false_captions` and `seed`, in the cache folder the experiment notebook uses for that config
(`$VLCONCEPTS_CACHE/toyitm-runs/tiny-seed<seed>-<config digest>`, so a finished run is reused by `make figures`; a killed
one resumes). It then scores the run with `toyitm.evaluate_itm` on the experiment's test sizes and seed (400 close-ups,
400 CLEVR-view scenes, 400 close-ups of each of the attribute and bird worlds, 200 binding and 200 relational scenes,
test seed 2024) and writes `<out>/<pairing>-seed<seed>.json`. `report` prints every run and the mean ± sd per pairing.

The two pairings (`world_mixture.mixture_caption_pair`): `independent` (release 1) draws an attribute or bird close-up's
false caption on its own (its own words and template, one of them wrong); `edit` writes it as a one-word edit of the true
caption, as CLEVR's ITM pairs already are. Both arms are scored on the same pairs (the world rows: one-word edits).

The rule, fixed before the runs: adopt `edit` as the release's setting when its mean over seeds of the three ToyITM bar rows
(close-up mean of the four attributes, attribute-world close-ups, bird close-ups; binary) is higher than `independent`'s.
Findings are not looked at.

Measured 2026-11-25 on this 2-core CPU (one thread per run, about 520 s each; benchmarks/measured/2026-11-25_toyitm_false_captions.txt):
bar rows, mean over seeds 0 and 1: edit 0.638, independent 0.642, so the release keeps `independent`. Close-up colour:
edit 0.527 / 0.524, independent 0.515 / 0.740 (seed 1 matched colour from step 2,000 on): a seed lottery, not the pairing."""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

from vlconcepts.cache import dataset_fingerprint  # noqa: E402
from vlconcepts.core import atomic_write, cache_dir  # noqa: E402
from vlconcepts.toyitm import ToyITMConfig, evaluate_itm, itm_eval_fn, train_toyitm  # noqa: E402

BAR_ROWS = ("close_up", "world_attributes", "world_birds")  # the rows the ToyITM bar reads (binary)
ROWS = ("close_up_color", "close_up_shape", "close_up_material", "close_up_size", *BAR_ROWS, "single", "binding", "relational")
TEST_SIZES = dict(n_single=400, n_close_up=400, n_world=400, n_binding=200, n_relational=200, seed=2024)


def run_dir_of(config: ToyITMConfig) -> Path:
    "The experiment notebook's run folder for `config` in the tiny profile."
    return cache_dir() / "toyitm-runs" / f"tiny-seed{config.seed}-{dataset_fingerprint([config.to_json()])[:12]}"


def train_and_score(pairing: str, seed: int, steps: int, out: Path, pool_size: int = 1024, test_scale: float = 1.0) -> dict:
    "Train (or resume, or reuse) one run and write its held-out scores to `out/<pairing>-seed<seed>.json`."
    config = ToyITMConfig(seed=seed, steps=steps, false_captions=pairing, pool_size=pool_size)
    started = time.perf_counter()
    run = train_toyitm(config, run_dir_of(config), device="cpu", eval_fn=itm_eval_fn(config))
    scores = evaluate_itm(run.model, **{k: v if k == "seed" else max(2, round(v * test_scale)) for k, v in TEST_SIZES.items()})
    record = {"pairing": pairing, "seed": seed, "steps": run.step, "train_seconds": round(run.seconds, 1),
              "this_call_seconds": round(time.perf_counter() - started, 1), "threads": torch.get_num_threads(),
              "scores": {k: round(float(scores[k]), 4) for k in ROWS},
              "curve": [{k: round(v, 3) for k, v in r.items() if k == "step" or k.startswith("eval_")} for r in run.history if "eval_single" in r]}
    out.mkdir(parents=True, exist_ok=True)
    with atomic_write(out / f"{pairing}-seed{seed}.json", "w") as handle: handle.write(json.dumps(record, indent=1))
    return record


def report(out: Path) -> pd.DataFrame:
    "Every run's scores, and mean ± sd per pairing, with the decision the rule above gives."
    records = [json.loads(p.read_text()) for p in sorted(out.glob("*-seed*.json"))]
    if not records: raise SystemExit(f"No runs in {out}: run `train` first.")
    table = pd.DataFrame([{"pairing": r["pairing"], "seed": r["seed"], "steps": r["steps"], "train s": r["train_seconds"], **r["scores"]}
                          for r in records]).sort_values(["pairing", "seed"])
    print(table.to_string(index=False, float_format="%.3f"))
    summary = table.groupby("pairing")[list(ROWS)].agg(["mean", "std"])
    print("\nmean (sd) over seeds:")
    for pairing, row in summary.iterrows():
        print(f"  {pairing:12s} " + "  ".join(f"{k} {row[(k, 'mean')]:.3f} ({row[(k, 'std')]:.3f})" for k in ROWS))
    bar_mean = table.groupby("pairing")[list(BAR_ROWS)].mean().mean(axis=1)
    print("\nbar rows, mean over seeds and rows:", bar_mean.round(3).to_dict())
    if {"edit", "independent"} <= set(bar_mean.index):
        print("rule: adopt edit" if bar_mean["edit"] > bar_mean["independent"] else "rule: keep independent")
    return table


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("train", "report"))
    parser.add_argument("--pairing", choices=("edit", "independent"), default="edit")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=ToyITMConfig().steps)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path, default=cache_dir() / "toyitm-false-captions")
    parser.add_argument("--pool-size", type=int, default=ToyITMConfig().pool_size)
    parser.add_argument("--test-scale", type=float, default=1.0, help="scales the test sizes (1: the experiment's)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    if args.command == "report": return report(args.out)
    print(load())
    record = train_and_score(args.pairing, args.seed, args.steps, args.out, args.pool_size, args.test_scale)
    print(json.dumps({k: v for k, v in record.items() if k != "curve"}))
    return record


if __name__ == "__main__":
    main()
