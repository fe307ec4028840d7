"""Does a warm rebuild warn as the cold one did? Every experiment notebook, run twice on one cache, side by side.

Runs each experiment notebook (`vlconcepts.cli.experiment_notebooks`) in a profile (default `smoke`) into an empty
cache, then again on the cache the first run filled, and prints, per notebook, the distinct warnings each executed copy
shows (`SomethingWarning: message`, read from its stream outputs) with how often: `same` when both runs show the same
distinct warnings, else the warnings only one of them shows. A warning that only the cold run shows is one the cache
swallowed: the number read back no longer carries its caveat (found 2026-12-02 for purity's small-test-split AUC
warning, which `cache.cached_result` now keeps with its result).

    .venv/bin/python benchmarks/warm_cold_warnings.py OUT_DIR [--profile smoke] [--only '3*']   # runs both sides
    .venv/bin/python benchmarks/warm_cold_warnings.py OUT_DIR --compare-only                # re-reads OUT_DIR/{cold,warm}/runs

OUT_DIR gets the cache, the data folder and both runs' executed copies; nothing is written anywhere else.
"""
import argparse
import fnmatch
import json
import os
import re
from collections import Counter
from pathlib import Path

WARNING = re.compile(r"\b(\w+Warning): ([^\n]{0,160})")


def warnings_shown(executed: Path) -> Counter:
    "How often each (category, message start) appears in the stream outputs of an executed notebook."
    shown = Counter()
    for cell in json.loads(executed.read_text())["cells"]:
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                shown.update(WARNING.findall("".join(output.get("text", ""))))
    return shown


def compare(cold: Counter, warm: Counter) -> list[str]:
    "Lines saying which distinct warnings only one side shows; [] when both show the same ones."
    return ([f"  cold only ({cold[w]}x): {w[0]}: {w[1][:110]}" for w in cold if w not in warm]
            + [f"  warm only ({warm[w]}x): {w[0]}: {w[1][:110]}" for w in warm if w not in cold])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--profile", default="smoke")
    parser.add_argument("--only", default="*", help="only the notebooks whose name matches this glob, e.g. '3*'")
    parser.add_argument("--compare-only", action="store_true", help="compare the executed copies already in OUT")
    args = parser.parse_args()
    for name, folder in (("VLCONCEPTS_CACHE", "cache"), ("VLCONCEPTS_DATA", "data")):
        os.environ[name] = str(args.out / folder)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")
    from _common import load
    from vlconcepts.cli import experiment_notebooks, experiments_dir, run_experiment
    notebooks = [nb for nb in experiment_notebooks(experiments_dir()) if fnmatch.fnmatch(nb.name, args.only)]
    print(f"profile {args.profile}, {len(notebooks)} notebooks, {load()}")
    differ = 0
    for notebook in notebooks:
        shown = {}
        for side in ("cold", "warm"):
            executed = args.out / side / "runs" / notebook.name
            if not args.compare_only:
                result = run_experiment(notebook, profile=args.profile, device="cpu", runs_dir=args.out / side / "runs",
                                        publish_to=args.out / side / "published")
                if result.status != "ok": raise SystemExit(f"{notebook.name} ({side}) failed: {result.error}")
            shown[side] = warnings_shown(executed)
        lines = compare(shown["cold"], shown["warm"])
        differ += bool(lines)
        print(f"{notebook.stem}: cold {sum(shown['cold'].values())} warnings ({len(shown['cold'])} distinct), warm "
              f"{sum(shown['warm'].values())} ({len(shown['warm'])} distinct): {'different' if lines else 'same'}", flush=True)
        for line in lines: print(line)
    print(f"{differ} of {len(notebooks)} notebooks show other warnings warm than cold")


if __name__ == "__main__":
    main()
