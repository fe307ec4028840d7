"""Memory of fingerprinting a large in-memory dataset: hashing a copy of its bytes (before) against a view (now), in one run.

    python benchmarks/fingerprint_memory.py [--gib 1.0]
    python benchmarks/fingerprint_memory.py --smoke      (8 MiB: wiring, not a measurement)

`cache.dataset_fingerprint` hashes arrays and tensors by their raw bytes. It used to take them with `.tobytes()`, a full
copy: fingerprinting 3dshapes at the release's size (480,000 images, 5.9 GB, `factor_data.load_3dshapes`) or dSprites
(3.0 GB) held the images twice at the peak. It now hashes a view of the same bytes (`cache._array_bytes`,
`cache._tensor_bytes`), and the digests are the same. Each side runs in a fresh interpreter on a `--gib` uint8 array shaped
like 64-px RGB images (and on a float32 tensor of the same size): the rise of the process's peak resident memory (ru_maxrss)
from after the data were made to after the hash, the wall time of the hash, and the digest.

Measured 2026-11-30 on the 2-core AMD EPYC (AVX2) host, quiet, 1 GiB (record:
benchmarks/measured/2026-11-30_fingerprint_memory.txt): array: peak rise 1,024 MiB before, 0 MiB now, 3.98 s and 1.83 s;
float32 tensor: 1,025 MiB and 1 MiB, 3.88 s and 2.08 s; the same digests. At 3dshapes' release size the copy was 5.9 GB.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

WORKER = r'''
import json, resource, sys, time
import numpy as np, torch
from vlconcepts.cache import _Hasher, dataset_fingerprint
side, kind, n_bytes = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = np.random.default_rng(0)
if kind == "array": data = rng.integers(0, 256, size=(n_bytes // (64 * 64 * 3), 64, 64, 3), dtype=np.uint8)
else: data = torch.from_numpy(rng.random(n_bytes // 4 // 4096 * 4096, dtype=np.float32)).reshape(-1, 64, 64)
rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10          # MiB
before, start = rss(), time.perf_counter()
if side == "copy (before)":      # the old code path, line for line
    hasher = _Hasher()
    if kind == "tensor":
        hasher.add("tensor", f"{tuple(data.shape)}|{data.dtype}".encode())
        hasher.add("bytes", data.detach().cpu().contiguous().reshape(-1).view(torch.uint8).numpy().tobytes())
    else:
        hasher.add("ndarray", f"{data.shape}|{data.dtype.str}".encode())
        hasher.add("bytes", np.ascontiguousarray(data).tobytes())
    digest = hasher.hexdigest()
else: digest = dataset_fingerprint(data)
seconds = time.perf_counter() - start
print(json.dumps({"side": side, "data": kind, "data_mib": round((data.nbytes if kind == "array" else data.numel() * 4) / 2**20, 1),
                  "peak_rise_mib": round(rss() - before, 1), "seconds": round(seconds, 3), "digest": digest}))
'''


def side(name: str, kind: str, n_bytes: int) -> dict:
    "One side's record, from a fresh interpreter."
    out = subprocess.run([sys.executable, "-c", WORKER, name, kind, str(n_bytes)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gib", type=float, default=1.0, help="GiB of uint8 image data")
    parser.add_argument("--smoke", action="store_true", help="8 MiB (wiring only)")
    args = parser.parse_args(argv)
    n_bytes = 8 * 2**20 if args.smoke else int(args.gib * 2**30)
    print(f"# fingerprint_memory: {load()}; {n_bytes / 2**30:.3f} GiB of 64-px RGB images", flush=True)
    rows = []
    for kind in ("array", "tensor"):
        pair = [side(name, kind, n_bytes) for name in ("copy (before)", "view (now)")]
        for row in pair: print(json.dumps(row), flush=True)
        same = "same digest" if pair[0]["digest"] == pair[1]["digest"] else "DIGESTS DIFFER"
        print(f"{kind}: peak rise {pair[0]['peak_rise_mib']:.0f} MiB before, {pair[1]['peak_rise_mib']:.0f} MiB now; "
              f"{pair[0]['seconds']:.2f} s and {pair[1]['seconds']:.2f} s; {same}", flush=True)
        rows += pair
    return rows


if __name__ == "__main__":
    main()
