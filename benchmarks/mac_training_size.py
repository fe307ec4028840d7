"""Does the MM-Encoder want more training images? 50_mac_closed_open at two sizes of the synthetic MAC world, side by side.

    python benchmarks/mac_training_size.py [--sizes 1200 4800] [--out /tmp/mac_training_size] [--analyse-only]

Runs `nbs/experiments/50_mac_closed_open.ipynb` with papermill once per world size (`n_images`; 25% test, 60% training),
every other parameter the tiny profile's, one torch thread each, outputs redirected to `<out>/n<size>` (`VLCONCEPTS_OUTPUT`:
the committed tables are never touched), then prints from each run's `mac_table2_closed_seeds.csv` the closed-world Top1-P
of the MM-Encoder minus Troika's (per-seed differences, mean ± standard error) and minus zero-shot CLIP's, the reading of
docs/findings_notes.md ("A second candidate cause for mac.mm_encoder_best_closed", written before the runs), and each run's
`mac_fit_gap` table. At the tiny profile's 15 epochs a larger world also trains more steps.

Measured 2026-11-29 (benchmarks/measured/2026-11-29_mac_training_size.txt; the 1,200-image run repeats the committed
tables value for value): MM-Encoder minus Troika -4.22 ± 1.37 (1,200 images) -> -7.89 ± 1.13 (4,800); minus CLIP -3.78 ->
-9.72. Both fall beyond twice their combined standard error: the candidate cause is not supported.
"""
import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "nbs" / "experiments" / "50_mac_closed_open.ipynb"


def run(size: int, out: Path) -> int:
    "One papermill run of the MAC notebook at `n_images=size`, outputs under `out/n<size>`; returns the exit code."
    folder = out / f"n{size}"
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "VLCONCEPTS_OUTPUT": str(folder), "VLCONCEPTS_PROFILE": "tiny", "VLCONCEPTS_PROGRESS": "0",
           "MPLBACKEND": "Agg", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    command = [sys.executable, "-m", "papermill", str(NOTEBOOK), str(folder / "run.ipynb"), "-k", "python3",
               "-p", "n_images", str(size), "-p", "device", "cpu", "--cwd", str(NOTEBOOK.parent)]
    with open(folder / "log.txt", "w") as log: return subprocess.run(command, env=env, stdout=log, stderr=subprocess.STDOUT).returncode


def differences(folder: Path) -> dict:
    "Closed-world Top1-P of the MM-Encoder minus Troika (per seed) and minus zero-shot CLIP, with standard errors."
    table = pd.read_csv(folder / "tables" / "mac_table2_closed_seeds.csv")
    values = table.query("world == 'closed' and metric == 'top1_precision'").pivot_table(index="seed", columns="method", values="value")
    vs_troika, mm = values["MM-Encoder"] - values["Troika"], values["MM-Encoder"]
    se = lambda v: float(v.std(ddof=1) / np.sqrt(len(v)))
    return {"vs Troika": (float(vs_troika.mean()), se(vs_troika)), "vs CLIP": (float(mm.mean() - values["CLIP"].dropna().iloc[0]), se(mm)),
            "per seed": values.round(2).to_dict("list")}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=[1200, 4800])
    parser.add_argument("--out", type=Path, default=Path("/tmp/mac_training_size"))
    parser.add_argument("--analyse-only", action="store_true", help="read finished runs under --out")
    args = parser.parse_args(argv)
    if not args.analyse_only:
        with ThreadPoolExecutor(2) as pool: codes = list(pool.map(lambda n: run(n, args.out), args.sizes))
        if any(codes): raise SystemExit(f"a run failed ({dict(zip(args.sizes, codes))}); see {args.out}/n<size>/log.txt")
    small, large = (differences(args.out / f"n{n}") for n in args.sizes)
    verdicts = []
    for key in ("vs Troika", "vs CLIP"):
        (a, sa), (b, sb) = small[key], large[key]
        threshold = 2 * float(np.hypot(sa, sb))
        verdicts.append("rises" if b - a > threshold else "falls" if b - a < -threshold else "within")
        print(f"MM-Encoder {key}: {a:.2f} ± {sa:.2f} ({args.sizes[0]} images) -> {b:.2f} ± {sb:.2f} ({args.sizes[1]}); change {b - a:+.2f}, threshold ±{threshold:.2f}: {verdicts[-1]}")
    for n, d in zip(args.sizes, (small, large)):
        print(f"{n} images, Top1-P per seed: {d['per seed']}")
        print((args.out / f"n{n}" / "tables" / "mac_fit_gap.md").read_text().split("## Ours")[1].split("## Paper")[0].strip())
    print("reading:", "supported" if verdicts == ["rises", "rises"] else "not supported" if "falls" in verdicts else "inconclusive")


if __name__ == "__main__":
    main()
