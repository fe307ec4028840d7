"""Generation time of the synthetic factor and caption datasets, for a few sizes.

Runs each exporter into a temporary folder (the same call `vlconcepts world export` makes)
and prints wall-clock and process CPU seconds, items per second, and the extrapolated time
of the full set where there is one (dSprites: 737,280 images; 3dshapes: 480,000; the
ControlledImCaps paper size: 600 pairs). CPU seconds are the honest figure on a shared
machine; wall seconds include waiting for the CPU.

    .venv/bin/python benchmarks/dataset_generation.py [--sizes 4096,32768] [--device cpu] [--only dsprites,3dshapes]
"""
import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")
os.environ.setdefault("VLCONCEPTS_LOGLEVEL", "WARNING")

from vlconcepts.caption_data import export_captions, export_controlled_imcaps
from vlconcepts.core import folder_size
from vlconcepts.factor_data import export_3dshapes, export_dsprites

FULL_SIZE = {"dsprites": 737_280, "3dshapes": 480_000, "controlled-imcaps": 600, "captions": None}
SCALE = {"dsprites": 1.0, "3dshapes": 1 / 16, "controlled-imcaps": 1 / 256, "captions": 1 / 4}   # of --sizes, per dataset


def run(name: str, n: int, device: str) -> tuple[float, float, int]:
    "(wall seconds, CPU seconds, bytes written) of one export of `n` items."
    exporters = {"dsprites": lambda out: export_dsprites(out, n=n, seed=0, device=device),
                 "3dshapes": lambda out: export_3dshapes(out, n=n, seed=0, device=device),
                 "controlled-imcaps": lambda out: export_controlled_imcaps(out, n=n, seed=0, device=device),
                 "captions": lambda out: export_captions(out, n=n, seed=0)}
    with tempfile.TemporaryDirectory() as folder:
        wall, cpu = time.perf_counter(), time.process_time()
        exporters[name](Path(folder))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        written = folder_size(folder)
    return wall, cpu, written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="4096,32768", help="comma-separated base sizes (scaled down for slower datasets)")
    parser.add_argument("--only", default="dsprites,3dshapes,controlled-imcaps,captions", help="datasets to time")
    parser.add_argument("--device", default="cpu", help="torch device for drawing/rendering")
    args = parser.parse_args(argv)
    import torch
    print(f"torch threads: {torch.get_num_threads()}, device: {args.device}")
    print(f"{'dataset':<18} {'n':>8} {'wall s':>8} {'CPU s':>8} {'items/CPU s':>12} {'MB':>8} {'full set (CPU)':>16}")
    for name in args.only.split(","):
        for base in (int(s) for s in args.sizes.split(",")):
            n = max(1, int(base * SCALE[name]))
            wall, cpu, written = run(name, n, args.device)
            full = FULL_SIZE[name]
            extrapolated = f"{cpu / n * full / 60:.1f} min" if full else "-"
            print(f"{name:<18} {n:>8} {wall:>8.1f} {cpu:>8.1f} {n / max(cpu, 1e-9):>12.1f} {written / 1e6:>8.1f} {extrapolated:>16}",
                  flush=True)


if __name__ == "__main__":
    main()
