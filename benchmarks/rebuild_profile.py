"""Where a rebuild's time goes: seconds per `vlconcepts` function, read from a py-spy sampling of `vlconcepts rebuild`.

py-spy is not a dependency (`pip install py-spy` into any folder); sample a whole rebuild, every kernel included:

    py-spy record --subprocesses -r 10 --format raw -o rebuild.raw -- .venv/bin/vlconcepts rebuild --profile tiny
    python benchmarks/rebuild_profile.py rebuild.raw [--top 40] [--rate 10]

Prints (1) the seconds each `vlconcepts` function was on a sampled stack (inclusive: a function's callees count too;
each function counted once per stack), (2) the same per kernel process for the `--processes` largest, and (3) the leaf
frames that used the most time anywhere (torch's backward, a Linear's forward...). py-spy leaves out the threads it sees
idle, but some waits still show (a kernel's event loop, its output watchers: `EpollSelector.select`, `_watch_pipe_fd`),
so the per-process totals overstate work; the library functions' rows are work. A kernel process is named by its pid:
its largest library function says which notebook it ran.

Measured 2026-11-29 (benchmarks/measured/2026-11-29_rebuild_profile.txt): a cold rebuild of 1518a31, AVX-512 host.
"""
from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict

FRAME = re.compile(r"(?P<name>.*) \((?P<file>.*?):\d+\)$")


def read_samples(path: str):
    "Yield (kernel process, frames, count) per line of py-spy's raw format ('frame;frame;... count')."
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            frames = stack.split(";")
            processes = [frame.split(":")[0] for frame in frames if frame.startswith("process ")]
            yield (processes[-1] if processes else "?"), frames, int(count)


def library_function(frame: str) -> str | None:
    "'name (module.py)' of a frame inside the vlconcepts package, else None."
    match = FRAME.match(frame)
    if not match or "vlconcepts/" not in match["file"]: return None
    return f"{match['name']} ({match['file'].split('vlconcepts/')[-1]})"


def profile(path: str) -> tuple[Counter, dict, Counter, Counter]:
    "Inclusive samples per library function, the same per process, samples per leaf frame and per process."
    inclusive, by_process, leaves, processes = Counter(), defaultdict(Counter), Counter(), Counter()
    for process, frames, count in read_samples(path):
        processes[process] += count
        leaves[frames[-1]] += count
        for name in {library_function(f) for f in frames} - {None}:
            inclusive[name] += count
            by_process[process][name] += count
    return inclusive, by_process, leaves, processes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("raw", help="py-spy's --format raw output")
    parser.add_argument("--rate", type=float, default=10.0, help="samples per second given to py-spy (-r)")
    parser.add_argument("--top", type=int, default=40, help="rows per list")
    parser.add_argument("--processes", type=int, default=10, help="kernel processes broken down")
    args = parser.parse_args()
    inclusive, by_process, leaves, processes = profile(args.raw)
    seconds = lambda n: f"{n / args.rate:8.1f} s"
    print(f"{sum(processes.values()) / args.rate:.0f} s sampled in {len(processes)} processes")
    print("\n== vlconcepts functions, inclusive")
    for name, n in inclusive.most_common(args.top): print(seconds(n), name)
    for process, n in processes.most_common(args.processes):
        print(f"\n== {process}: {n / args.rate:.0f} s; its largest library functions")
        for name, m in by_process[process].most_common(8): print(seconds(m), name)
    print("\n== leaf frames")
    for frame, n in leaves.most_common(args.top // 2): print(seconds(n), frame)


if __name__ == "__main__":
    main()
