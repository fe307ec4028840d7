"""The recovery probe with and without the ControlledImCaps pairs' captions in its training text: 44_probes_imcaps both ways.

    python benchmarks/probes_imcaps_hold_out.py [--work /tmp/probes_hold_out]       # runs the notebook twice (~10 min each, 2 cores)
    python benchmarks/probes_imcaps_hold_out.py --compare BASE_TABLES HELD_TABLES    # prints two finished runs side by side

The world caption corpus the tiny probe trains on can write the ControlledImCaps constructions, and 284 of the 600 pair
captions `44_probes_imcaps` decodes were among its training captions (`benchmarks/probes_pair_caption_overlap.py`).
`ProbeConfig.imcaps_pairs` (300 in the tiny profile since 2026-12-01) holds the evaluated pairs' captions out. This runs
the notebook in the tiny profile with `probe: {imcaps_pairs: 0}` (before) and `probe: {imcaps_pairs: 300}` (now) on one
empty cache under --work (the committed tables are never touched: each side writes to its own $VLCONCEPTS_OUTPUT),
then prints the EM and instance tables of both and every findings row that reads them, judged on the committed tables
with each side's 44 tables swapped in. The probes train, so the numbers are this host's (seeds 0-2).

Measured: benchmarks/measured/2026-12-01_probes_imcaps_hold_out.txt.
"""
import argparse, os, shutil, subprocess, sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
SIDES = {"before (imcaps_pairs 0)": "probe: {imcaps_pairs: 0}", "now (imcaps_pairs 300)": "probe: {imcaps_pairs: 300}"}


def run_side(work: Path, name: str, overrides: str) -> Path:
    "Run 44_probes_imcaps once with `overrides`; return its tables folder."
    out = work / name.split()[0]
    env = {**os.environ, "VLCONCEPTS_CACHE": str(work / "cache"), "VLCONCEPTS_DATA": str(work / "data"), "VLCONCEPTS_OUTPUT": str(out),
           "VLCONCEPTS_PROFILE": "tiny", "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "papermill", str(ROOT / "nbs/experiments/44_probes_imcaps.ipynb"), str(out / "44.ipynb"),
                    "-k", "python3", "-p", "profile", "tiny", "-y", overrides, "--cwd", str(ROOT / "nbs/experiments")], env=env, check=True)
    return out / "tables"


def compare(folders: dict):
    "Print both sides' EM link and instance tables, and the findings rows they move."
    from vlconcepts.findings import assess_findings
    for table, columns in (("probes_imcaps_em_link", ["prompt type", "EM on CompPrompts", "EM on pair captions"]),
                           ("probes_imcaps_instance", ["reconstruction", "pairs", "image score zero %"])):
        sides = [pd.read_csv(f / f"{table}.csv")[columns].set_index(columns[0]).round(1).add_suffix(f" | {n.split()[0]}") for n, f in folders.items()]
        print(f"\n{table}\n" + pd.concat(sides, axis=1).to_string())
    pages = {}
    for name, folder in folders.items():
        merged = Path(f"/tmp/probes_hold_out_findings_{name.split()[0]}")
        shutil.rmtree(merged, ignore_errors=True); shutil.copytree(ROOT / "tables", merged)
        for f in folder.glob("probes_imcaps_*"): shutil.copy(f, merged / f.name)
        pages[name] = assess_findings(folder=merged)
    (a, pa), (b, pb) = pages.items()
    print("\nfindings rows that read the 44 tables (committed tables otherwise):")
    for i in pa.index:
        if "probes_imcaps" in pa.loc[i, "tables"]:
            print(f"{i}: {pa.loc[i, 'holds?']} ({pa.loc[i, 'margin']}) -> {pb.loc[i, 'holds?']} ({pb.loc[i, 'margin']})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/probes_hold_out"), help="cache, data and both sides' outputs")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BASE_TABLES", "HELD_TABLES"), help="two finished runs' tables folders")
    args = parser.parse_args()
    folders = (dict(zip(SIDES, args.compare)) if args.compare
               else {name: run_side(args.work, name, overrides) for name, overrides in SIDES.items()})
    compare(folders)
