"""The dry-run time and memory table (issue 19): every experiment notebook in a dry profile, one at a time, with its wall
time, the peak resident memory of its kernel (and children) and the peak GPU memory in use.

    python benchmarks/dry_run.py --profile dry --device cuda              # the full-size table on a GPU machine
    python benchmarks/dry_run.py --profile dry-small --device cpu         # the same at ~1 %, on a CPU

It exports the profile's synthetic data once (vlconcepts.dry_worlds: the real layouts at the real sizes, or 1 % for
dry-small; VLCONCEPTS_DRY_FRACTION overrides), points $VLCONCEPTS_DATA at it, runs each notebook with
vlconcepts.cli.run_experiment (outputs under --out, default results/<profile>/) and writes
<out>/tables/dry_run_resources.md and .csv. GPU memory is sampled with nvidia-smi every --interval seconds (the whole
device, CUDA context included; 0 without nvidia-smi); CPU memory is the summed RSS of the kernel's process tree."""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402


class PeakSampler(threading.Thread):
    "Samples, every `interval` s until stopped, the RSS of this process's children (the kernels) and the GPU memory in use."
    def __init__(self, interval: float = 0.5):
        super().__init__(daemon=True)
        self.interval, self.stop_event = interval, threading.Event()
        self.peak_rss, self.peak_gpu, self.nvidia_smi = 0, 0, shutil.which("nvidia-smi")

    def gpu_used(self) -> int:
        if not self.nvidia_smi: return 0
        try:
            out = subprocess.run([self.nvidia_smi, "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
                                 capture_output=True, text=True, timeout=10).stdout
            return sum(int(line) for line in out.split() if line.strip().isdigit()) * 2**20   # MiB -> bytes, all GPUs
        except (subprocess.SubprocessError, ValueError): return 0

    def run(self):
        me = psutil.Process()
        while not self.stop_event.is_set():
            rss = 0
            for child in me.children(recursive=True):
                try: rss += child.memory_info().rss
                except psutil.Error: pass
            self.peak_rss, self.peak_gpu = max(self.peak_rss, rss), max(self.peak_gpu, self.gpu_used())
            self.stop_event.wait(self.interval)

    def stop(self):
        self.stop_event.set()
        self.join()


def write_table(rows: list[dict], out: Path, profile: str, device: str, data: Path, note: str) -> Path:
    "The table as CSV and Markdown under out/tables, with a caption naming the profile, data, device and load."
    tables = out / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    fields = ["notebook", "status", "wall_s", "peak_rss_gib", "peak_gpu_gib"]
    with open(tables / "dry_run_resources.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    total = sum(r["wall_s"] for r in rows)
    lines = ["# dry_run_resources\n",
             f"Dry run: random weights. Profile {profile} on {device}: the papers' architectures with random weights on "
             f"synthetic data in the real layouts ({note}). Wall time, peak RSS of the notebook's kernel and peak GPU memory "
             f"in use (nvidia-smi, whole device) per notebook; {len(rows)} notebooks, {total / 3600:.2f} h in all. {load()}.\n",
             "| notebook | status | wall (s) | peak RSS (GiB) | peak GPU (GiB) |", "|---|---|---:|---:|---:|"]
    lines += [f"| {r['notebook']} | {r['status']} | {r['wall_s']:.1f} | {r['peak_rss_gib']:.2f} | {r['peak_gpu_gib']:.2f} |" for r in rows]
    lines.append(f"| **all** | {sum(r['status'] == 'ok' for r in rows)} ok | {total:.1f} | "
                 f"{max([r['peak_rss_gib'] for r in rows] + [0]):.2f} | {max([r['peak_gpu_gib'] for r in rows] + [0]):.2f} |")
    path = tables / "dry_run_resources.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="dry", choices=["dry", "dry-small"])
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N (checked once before any notebook)")
    parser.add_argument("--only", default=None, help="glob on the notebook names (default: every experiment notebook)")
    parser.add_argument("--data", default=None, help="root of the synthetic data tree (default: under $VLCONCEPTS_CACHE/dry-data)")
    parser.add_argument("--out", default=None, help="outputs and the table (default: results/<profile>/)")
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between memory samples")
    parser.add_argument("--timeout", type=int, default=None, help="per-cell timeout in seconds (default: none)")
    args = parser.parse_args(argv)

    from vlconcepts.cli import experiment_notebooks, experiments_dir, run_experiment
    from vlconcepts.core import output_root, pick_device, repo_root
    from vlconcepts.dry_worlds import dry_settings, use_dry_data
    pick_device(args.device)
    start = time.time()
    data = use_dry_data(args.profile, Path(args.data) if args.data else None, eager=True)   # every dataset now: no export in a notebook's time
    settings = dry_settings(args.profile)
    print(f"[{args.profile}] data at {data} (fraction {settings['fraction']:g}, {settings['image_size']} px) "
          f"in {time.time() - start:.0f} s; {load()}", flush=True)
    out = Path(args.out) if args.out else output_root(args.profile, repo_root())
    runs = out / "runs"
    rows = []
    note = f"fraction {settings['fraction']:g} of the release sizes, images at {settings['image_size']} px"
    for notebook in experiment_notebooks(experiments_dir(), args.only):
        sampler = PeakSampler(args.interval)
        sampler.start()
        result = run_experiment(notebook, args.profile, args.device, runs_dir=runs, publish_to=out, timeout=args.timeout)
        sampler.stop()
        rows.append({"notebook": notebook.stem, "status": result.status, "wall_s": round(result.seconds, 1),
                     "peak_rss_gib": round(sampler.peak_rss / 2**30, 2), "peak_gpu_gib": round(sampler.peak_gpu / 2**30, 2)})
        print(f"[{args.profile}] {notebook.stem}: {result.status} in {result.seconds:.0f} s, RSS {rows[-1]['peak_rss_gib']} GiB, "
              f"GPU {rows[-1]['peak_gpu_gib']} GiB" + (f"\n    {result.error}" if result.error else ""), flush=True)
        write_table(rows, out, args.profile, args.device, data, note)   # after every notebook: a run cut short keeps its rows
    print(write_table(rows, out, args.profile, args.device, data, note).read_text())
    return 0 if all(r["status"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
