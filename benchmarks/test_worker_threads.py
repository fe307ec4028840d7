"""Do two pytest workers side by side slow each other down by oversubscribing the cores? Times the suite's two longest
tests alone and side by side, with and without one share of the cores per worker.

    python benchmarks/test_worker_threads.py [--tests NODEID NODEID] [--threads N]

`make test` runs the suite on one pytest-xdist worker per core. Its two longest tests (the `dry-small` rebuild of
`tests/test_cli.py` and the `04h_dry_worlds` chapter) run torch on every core when left alone: the rebuild's kernel gets
`cores // jobs` threads (`cli.kernel_threads`), the chapter's kernel torch's default. Measured fresh-clone suites on one
quiet 2-core host took 1,663 s and 912 s with nothing changed between them, and those two tests took 329 s / 208 s in
the slow run against 138 s / 117 s in the fast one: as if they sometimes ran side by side, each on both cores.

Each test runs in its own `python -m pytest` process (as an xdist worker would), three ways, one after the other:
1. alone, one after the other, with the environment as it is (the ideal: no neighbour);
2. side by side, the environment as it is (`make test` before this script);
3. side by side, each process with `OMP_NUM_THREADS=MKL_NUM_THREADS=--threads` (default: cores // 2, the share of one of
   two workers); `cli.kernel_threads` then caps the rebuild's kernel at that share too.
It prints each test's wall seconds and the wall of each way. Run it on a quiet machine; it takes about 10 minutes on 2 cores."""
import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LONGEST = ("tests/test_cli.py::test_a_dry_rebuild_labels_its_outputs_and_keeps_them_apart",
           "tests/test_notebooks.py::test_library_notebook[04h_dry_worlds]")


def start(test: str, threads: int | None) -> tuple[subprocess.Popen, float]:
    "One pytest process for `test` (quiet, offline), with `threads` as its OMP/MKL share when given."
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "VLCONCEPTS_PROGRESS": "0", "MPLBACKEND": "Agg"}
    for key in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        if threads: env[key] = str(threads)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", test]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), time.perf_counter()


def finish(process: subprocess.Popen, started: float, test: str) -> float:
    "Wait for `process`; its wall seconds (raises with its output when the test failed)."
    output, _ = process.communicate()
    seconds = time.perf_counter() - started
    if process.returncode != 0: raise SystemExit(f"{test} failed:\n{output[-3000:]}")
    return seconds


def side_by_side(tests, threads: int | None) -> dict:
    "Every test at once; wall seconds per test (each timed to its own end) and of the whole."
    began = time.perf_counter()
    running = {test: start(test, threads) for test in tests}
    waiters = {test: threading.Thread(target=lambda t=test: seconds.__setitem__(t, finish(*running[t], t))) for test in tests}
    seconds = {}
    for waiter in waiters.values(): waiter.start()
    for waiter in waiters.values(): waiter.join()
    if set(seconds) != set(tests): raise SystemExit(f"tests failed side by side: {sorted(set(tests) - set(seconds))}")
    return {**seconds, "wall": time.perf_counter() - began}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", nargs="+", default=list(LONGEST))
    parser.add_argument("--threads", type=int, default=max(1, (os.cpu_count() or 1) // 2))
    args = parser.parse_args(argv)
    print(load(), flush=True)
    alone = {}
    for test in args.tests: alone[test] = finish(*start(test, None), test)
    ways = {"alone, one after the other": {**alone, "wall": sum(alone.values())},
            "side by side, environment as it is": side_by_side(args.tests, None),
            f"side by side, OMP/MKL_NUM_THREADS={args.threads} each": side_by_side(args.tests, args.threads)}
    for way, seconds in ways.items():
        print(f"{way}: wall {seconds['wall']:.1f} s; " + "; ".join(f"{t.split('::')[-1]} {seconds[t]:.1f} s" for t in args.tests), flush=True)
    print(load())
    return ways


if __name__ == "__main__":
    main()
