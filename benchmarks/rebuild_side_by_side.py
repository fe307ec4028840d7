"""Does running two experiment notebooks side by side shorten a tiny rebuild? Both ways measured in one run.

The two notebooks run from an empty cache and data folder (a cold rebuild's situation), first one after the
other, then both at once on another empty pair of folders (optionally with `OMP_WAIT_POLICY=PASSIVE`, so idle torch threads sleep instead of
spinning). Prints the wall time of each way and whether the tables came out identical.

    python benchmarks/rebuild_side_by_side.py                       # 13_compmap_templates and 50_mac_closed_open
    python benchmarks/rebuild_side_by_side.py --notebooks 24_binding_table8 40_probes_compprompts --passive

Measured on a 2-core machine (docs/reproducibility.md, "Rebuild times"): 228 s one after the other, 243 s side by
side, 239 s side by side with passive waiting; identical tables.
"""
import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _common import load

ROOT = Path(__file__).resolve().parents[1]
VLCONCEPTS = str(Path(sys.executable).parent / "vlconcepts")


def rebuild(notebook: str, folder: Path, extra_env: dict) -> float:
    "Run one experiment notebook (tiny profile) on the cache, data and output folders under `folder`; its wall seconds."
    env = {**os.environ, "VLCONCEPTS_CACHE": str(folder / "cache"), "VLCONCEPTS_DATA": str(folder / "data"),
           "VLCONCEPTS_OUTPUT": str(folder / "out"), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "MPLBACKEND": "Agg", "VLCONCEPTS_PROGRESS": "0", **extra_env}
    start = time.perf_counter()
    done = subprocess.run([VLCONCEPTS, "rebuild", "--only", f"{notebook}*"], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode: sys.exit(f"{notebook} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return time.perf_counter() - start


def same_tables(a: Path, b: Path) -> bool:
    "Whether two output folders hold the same table files with the same bytes."
    names = sorted(p.name for p in (a / "tables").glob("*.csv"))
    return names == sorted(p.name for p in (b / "tables").glob("*.csv")) and \
        all(filecmp.cmp(a / "tables" / n, b / "tables" / n, shallow=False) for n in names)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebooks", nargs=2, default=["13_compmap_templates", "50_mac_closed_open"],
                        help="two experiment notebooks (file stems)")
    parser.add_argument("--passive", action="store_true", help="side by side with OMP_WAIT_POLICY=PASSIVE too")
    args = parser.parse_args()
    print(load())
    with tempfile.TemporaryDirectory(prefix="side-by-side-") as tmp:
        tmp = Path(tmp)
        serial = {nb: rebuild(nb, tmp / "serial", {}) for nb in args.notebooks}
        print(f"one after the other: {' + '.join(f'{s:.0f}' for s in serial.values())} = {sum(serial.values()):.0f} s")
        ways = [("side by side", {})] + ([("side by side, OMP_WAIT_POLICY=PASSIVE", {"OMP_WAIT_POLICY": "PASSIVE"})] if args.passive else [])
        for k, (label, env) in enumerate(ways):
            folder = tmp / f"parallel{k}"
            start = time.perf_counter()
            with ThreadPoolExecutor(2) as pool:
                each = list(pool.map(lambda nb: rebuild(nb, folder, env), args.notebooks))
            wall = time.perf_counter() - start
            identical = same_tables(tmp / "serial" / "out", folder / "out")
            print(f"{label}: {wall:.0f} s (each {', '.join(f'{s:.0f}' for s in each)} s); tables identical to the serial run: {identical}")
    print(load())


if __name__ == "__main__":
    main()
