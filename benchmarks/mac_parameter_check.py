"""Does the MM-Encoder's place in MAC Table 2 move with one parameter? 50_mac_closed_open at two values of it, side by side.

    python benchmarks/mac_parameter_check.py [--parameter n_images --values 1200 4800] [--out /tmp/mac_check] [--analyse-only]
    python benchmarks/mac_parameter_check.py --parameter lr_scale --values 100 10

Runs `nbs/experiments/50_mac_closed_open.ipynb` once per value of one papermill parameter through
`vlconcepts.cli.run_experiment`, every other parameter the tiny profile's, one torch thread each, two processes side by
side, published to `<out>/<parameter>-<value>` (the committed tables are never touched), then prints from each run's
`mac_table2_closed_seeds.csv` the closed-world Top1-P of the MM-Encoder minus Troika's (per-seed differences, mean ±
standard error) and minus zero-shot CLIP's, the reading written in docs/findings_notes.md before each check (both
differences rise from the first value to the second beyond twice their combined standard error: supported; either falls
beyond it: not supported; otherwise inconclusive), and each run's `mac_fit_gap` table.

Measured:
- 2026-11-29, `--parameter n_images --values 1200 4800` (the training-set size; record
  benchmarks/measured/2026-11-29_mac_training_size.txt, run under this script's first name, mac_training_size.py; the
  1,200-image run repeats the committed tables value for value): MM-Encoder minus Troika -4.22 ± 1.37 -> -7.89 ± 1.13;
  minus CLIP -3.78 -> -9.72. Both fall beyond twice their combined standard error: not supported. At the tiny profile's
  15 epochs a larger world also trains more steps.
- 2026-11-29, `--parameter lr_scale --values 100 10` (the learning-rate scale every method shares; record
  benchmarks/measured/2026-11-29_mac_learning_rate.txt): MM-Encoder minus Troika -4.22 ± 1.37 -> -1.00 ± 0.69; minus
  CLIP -3.78 -> -1.00. Both rise beyond twice their combined standard error: supported (the MM-Encoder is still not best
  at lr_scale 10, and CoOp falls from 80.9 to 71.1 there).
"""
import argparse
import math
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

from vlconcepts.cli import run_experiment
from vlconcepts.findings import FAILS, HOLDS, Measure, verdict
from vlconcepts.stats import seed_spread

NOTEBOOK = Path(__file__).resolve().parent.parent / "nbs" / "experiments" / "50_mac_closed_open.ipynb"


def number(text: str) -> int | float:
    "A parameter value as the notebook's parameters cell types it: '1200' -> 1200, '10' -> 10, '0.5' -> 0.5."
    return int(text) if text.lstrip("-").isdigit() else float(text)


def run(parameter: str, value, out: Path) -> str:
    "One run of the MAC notebook with `parameter=value` (`cli.run_experiment`, one torch thread), published to `out/<parameter>-<value>`."
    folder = out / f"{parameter}-{value}"
    result = run_experiment(NOTEBOOK, "tiny", "cpu", runs_dir=folder / "runs", publish_to=folder, threads=1, parameters={parameter: value})
    return result.status if result.status == "ok" else f"{result.status}: {result.error}"


def differences(folder: Path) -> dict:
    "Closed-world Top1-P of the MM-Encoder minus Troika (per seed) and minus zero-shot CLIP, as findings `Measure`s."
    table = pd.read_csv(folder / "tables" / "mac_table2_closed_seeds.csv")
    values = table.query("world == 'closed' and metric == 'top1_precision'").pivot_table(index="seed", columns="method", values="value")
    vs_troika, mm = seed_spread(values["MM-Encoder"] - values["Troika"]), seed_spread(values["MM-Encoder"])
    clip = float(values["CLIP"].dropna().iloc[0])                                # zero-shot: one run, no spread
    return {"vs Troika": Measure(vs_troika[0], vs_troika[1], vs_troika[2]), "vs CLIP": Measure(mm[0] - clip, mm[1], mm[2]),
            "per seed": values.round(2).to_dict("list")}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parameter", default="n_images", help="a papermill parameter of 50_mac_closed_open")
    parser.add_argument("--values", type=number, nargs=2, default=[1200, 4800], help="its value in the first run, then the second")
    parser.add_argument("--out", type=Path, default=Path("/tmp/mac_check"))
    parser.add_argument("--analyse-only", action="store_true", help="read finished runs under --out")
    args = parser.parse_args(argv)
    name, values = args.parameter, args.values
    if not args.analyse_only:   # one process per value: run_experiment sets its process's environment
        with ProcessPoolExecutor(2) as pool: statuses = dict(zip(values, pool.map(run, [name] * 2, values, [args.out] * 2)))
        if any(v != "ok" for v in statuses.values()): raise SystemExit(f"a run failed: {statuses}")
    first, second = (differences(args.out / f"{name}-{v}") for v in values)
    verdicts = []
    for key in ("vs Troika", "vs CLIP"):     # the page's rule (findings.verdict): the change against 2·sqrt(se² + se²)
        a, b = first[key], second[key]
        verdicts.append({HOLDS: "rises", FAILS: "falls"}.get(verdict(b, a, ">", min_gap=0.0), "within"))
        print(f"MM-Encoder {key}: {a.mean:.2f} ± {a.se:.2f} ({name} {values[0]}) -> {b.mean:.2f} ± {b.se:.2f} ({name} {values[1]}); "
              f"change {b.mean - a.mean:+.2f}, threshold ±{2 * math.hypot(a.se, b.se):.2f}: {verdicts[-1]}")
    for v, d in zip(values, (first, second)):
        print(f"{name} {v}, Top1-P per seed: {d['per seed']}")
        print((args.out / f"{name}-{v}" / "tables" / "mac_fit_gap.md").read_text().split("## Ours")[1].split("## Paper")[0].strip())
    print("reading:", "supported" if verdicts == ["rises", "rises"] else "not supported" if "falls" in verdicts else "inconclusive")


if __name__ == "__main__":
    main()
