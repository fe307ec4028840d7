"""How long does the whole test suite take at one commit against another? CI's own run (`bash .ci/run`) in a fresh clone of
each, one after the other on the same machine, both sides printed at the end.

    python benchmarks/suite_ab.py BEFORE AFTER [--shared ../shared] [--top 15] [--work DIR]

Each side: `git clone` of this repository into `DIR/<rev>/main` (`DIR`: a new temporary folder unless given), `../shared`
linked beside it as CI has it, `git checkout <rev>`, then `bash .ci/run` (which runs `make test`: `make install`, then
pytest with the Makefile's workers) with pytest's `--durations` on. Printed per side: pytest's summary line, the wall of
the whole run (with `make install`), the load average before it; then the `--top` tests whose durations moved most.
Run-to-run spread on one host is large (fresh clones of the same tree have taken 1,000-1,186 s on this 2-core host kind),
so read a difference against it, and run the script on a quiet machine: it takes two suite runs (about 25-45 min)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DURATION = re.compile(r"^([0-9.]+)s (call|setup|teardown)\s+(\S+)$")


def run_side(rev: str, work: Path, shared: Path) -> dict:
    "Clone, check out `rev` and run CI there; its summary line, wall seconds and per-test durations."
    folder = work / rev
    folder.mkdir(parents=True, exist_ok=False)
    subprocess.run(["git", "clone", "-q", str(ROOT), str(folder / "main")], check=True)
    (folder / "shared").symlink_to(shared.resolve())
    subprocess.run(["git", "checkout", "-q", rev], cwd=folder / "main", check=True)
    before, started = load(), time.perf_counter()
    env = {**os.environ, "PYTEST_ADDOPTS": "--durations=0 --durations-min=1"}
    done = subprocess.run(["bash", ".ci/run"], cwd=folder / "main", env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    (folder / "ci.log").write_text(done.stdout + done.stderr)
    summary, durations = read_ci_output(done.stdout)
    return {"rev": rev, "summary": summary or f"no pytest summary (exit {done.returncode})", "wall": wall, "load": before,
            "returncode": done.returncode, "durations": durations}


def read_ci_output(text: str) -> tuple[str | None, dict[str, float]]:
    "pytest's summary line (None when there is none) and its `--durations` lines as {'<test id> (<phase>)': seconds}."
    lines = text.splitlines()
    summary = next((l.strip("= ") for l in reversed(lines) if re.search(r"\d+ (passed|failed)", l)), None)
    durations = {f"{m[3]} ({m[2]})": float(m[1]) for line in lines if (m := DURATION.match(line.strip()))}
    return summary, durations


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revs", nargs=2, metavar="REV", help="the two commits, before and after")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared", help="the ../shared folder CI has beside the clone")
    parser.add_argument("--top", type=int, default=15, help="tests whose durations moved most, printed")
    parser.add_argument("--work", type=Path, help="where the clones go (default: a new temporary folder, kept)")
    args = parser.parse_args(argv)
    if not args.shared.is_dir(): parser.error(f"no shared folder at {args.shared}: pass --shared PATH")
    for rev in args.revs:
        if subprocess.run(["git", "rev-parse", "--verify", "-q", f"{rev}^{{commit}}"], cwd=ROOT, capture_output=True).returncode:
            parser.error(f"{rev!r} is not a commit of {ROOT}")
    work = args.work or Path(tempfile.mkdtemp(prefix="suite-ab-"))
    sides = [run_side(rev, work, args.shared) for rev in args.revs]
    for side in sides:
        print(f"{side['rev']}: {side['summary']}; {side['wall']:.1f} s with make install (exit {side['returncode']}; before it: {side['load']})")
    a, b = (s["durations"] for s in sides)
    moved = sorted(set(a) | set(b), key=lambda t: -abs(b.get(t, 0.0) - a.get(t, 0.0)))[:args.top]
    print(f"\ntests whose durations moved most (seconds; under 1 s counts as 0), {args.revs[0]} -> {args.revs[1]}:")
    for test in moved: print(f"  {a.get(test, 0.0):7.1f} -> {b.get(test, 0.0):7.1f}  {test}")
    print(f"\nlogs: {work}/<rev>/ci.log")
    return sides


if __name__ == "__main__":
    main()
