"""Does the MM-Encoder want more training images? 50_mac_closed_open at two sizes of the synthetic MAC world, side by side.

    python benchmarks/mac_training_size.py [--sizes 1200 4800] [--out /tmp/mac_training_size] [--analyse-only]

Runs `nbs/experiments/50_mac_closed_open.ipynb` once per world size (`n_images`; 25% test, 60% training) through
`vlconcepts.cli.run_experiment`, every other parameter the tiny profile's, one torch thread each, two processes side by
side, published to `<out>/n<size>` (the committed tables are never touched), then prints from each run's `mac_table2_closed_seeds.csv` the closed-world Top1-P
of the MM-Encoder minus Troika's (per-seed differences, mean ± standard error) and minus zero-shot CLIP's, the reading of
docs/findings_notes.md ("A second candidate cause for mac.mm_encoder_best_closed", written before the runs), and each run's
`mac_fit_gap` table. At the tiny profile's 15 epochs a larger world also trains more steps.

Measured 2026-11-29 (benchmarks/measured/2026-11-29_mac_training_size.txt; the 1,200-image run repeats the committed
tables value for value): MM-Encoder minus Troika -4.22 ± 1.37 (1,200 images) -> -7.89 ± 1.13 (4,800); minus CLIP -3.78 ->
-9.72. Both fall beyond twice their combined standard error: the candidate cause is not supported.
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


def run(size: int, out: Path) -> str:
    "One run of the MAC notebook at `n_images=size` (`cli.run_experiment`, one torch thread), published to `out/n<size>`."
    result = run_experiment(NOTEBOOK, "tiny", "cpu", runs_dir=out / f"n{size}" / "runs", publish_to=out / f"n{size}",
                            threads=1, parameters={"n_images": size})
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
    parser.add_argument("--sizes", type=int, nargs=2, default=[1200, 4800])
    parser.add_argument("--out", type=Path, default=Path("/tmp/mac_training_size"))
    parser.add_argument("--analyse-only", action="store_true", help="read finished runs under --out")
    args = parser.parse_args(argv)
    if not args.analyse_only:   # one process per size: run_experiment sets its process's environment
        with ProcessPoolExecutor(2) as pool: statuses = dict(zip(args.sizes, pool.map(run, args.sizes, [args.out] * 2)))
        if any(v != "ok" for v in statuses.values()): raise SystemExit(f"a run failed: {statuses}")
    small, large = (differences(args.out / f"n{n}") for n in args.sizes)
    verdicts = []
    for key in ("vs Troika", "vs CLIP"):     # the page's rule (findings.verdict): the change against 2·sqrt(se² + se²)
        a, b = small[key], large[key]
        verdicts.append({HOLDS: "rises", FAILS: "falls"}.get(verdict(b, a, ">", min_gap=0.0), "within"))
        print(f"MM-Encoder {key}: {a.mean:.2f} ± {a.se:.2f} ({args.sizes[0]} images) -> {b.mean:.2f} ± {b.se:.2f} ({args.sizes[1]}); "
              f"change {b.mean - a.mean:+.2f}, threshold ±{2 * math.hypot(a.se, b.se):.2f}: {verdicts[-1]}")
    for n, d in zip(args.sizes, (small, large)):
        print(f"{n} images, Top1-P per seed: {d['per seed']}")
        print((args.out / f"n{n}" / "tables" / "mac_fit_gap.md").read_text().split("## Ours")[1].split("## Paper")[0].strip())
    print("reading:", "supported" if verdicts == ["rises", "rises"] else "not supported" if "falls" in verdicts else "inconclusive")


if __name__ == "__main__":
    main()
