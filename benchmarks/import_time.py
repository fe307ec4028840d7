"""What does importing vlconcepts cost a new Python process, with torchvision imported on first use and without?

    python benchmarks/import_time.py [--repeats 5]
    python benchmarks/import_time.py --smoke      (one timing per side: wiring, not a measurement)

Every notebook kernel, chapter test, smoke run and `vlconcepts` command starts a Python process that imports vlconcepts.
Until 6f508e5, `import vlconcepts.core` imported torchvision through `core.import_torchvision` (the guard for a CUDA
torchvision wheel beside CPU torch), and torchvision's operators import `torch._dynamo`. Now core installs a finder that
sends the first `import torchvision` through that guard, so a process that loads no model never pays for it. Both sides
run here in fresh interpreters, one after the other, best of `--repeats` wall times:

- `vlconcepts.core`, `vlconcepts.cli`: what such processes import now;
- the same followed by `import torchvision`: what every one of them paid before (and what a process that loads an
  open_clip or transformers model still pays, once);
- `torch` alone: the floor, since core needs torch.

Measured 2026-11-30 on the 2-core AMD EPYC (AVX2) host, quiet (record: benchmarks/measured/2026-11-30_import_time.txt).
"""
import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

SIDES = {"torch (the floor)": "import torch",
         "vlconcepts.core": "import vlconcepts.core",
         "vlconcepts.core + torchvision (before)": "import vlconcepts.core, torchvision",
         "vlconcepts.cli": "import vlconcepts.cli",
         "vlconcepts.cli + torchvision (before)": "import vlconcepts.cli, torchvision"}


def import_seconds(statement: str, repeats: int) -> float:
    "The best wall time of `repeats` fresh interpreters running `statement`."
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", statement], check=True)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="fresh interpreters per side (the best is kept)")
    parser.add_argument("--smoke", action="store_true", help="one interpreter per side (wiring only)")
    args = parser.parse_args(argv)
    repeats = 1 if args.smoke else args.repeats
    print(f"# import_time: {load()}; best of {repeats} fresh interpreters per side", flush=True)
    seconds = {}
    for side, statement in SIDES.items():
        seconds[side] = import_seconds(statement, repeats)
        print(f"{side:42s} {seconds[side]:6.2f} s", flush=True)
    for module in ("vlconcepts.core", "vlconcepts.cli"):
        print(f"{module}: {seconds[module + ' + torchvision (before)'] - seconds[module]:.2f} s saved per process that loads no model")
    return seconds


if __name__ == "__main__":
    main()
