"""Feature-cache speed-up: first (cold) vs second (cached) extraction of image features.

Encodes a few hundred random images with `load_model("openclip:ViT-B-32@random")` (random init, no
download) through `vlconcepts.cache.cached_image_features`, twice, into a fresh cache folder,
and prints both wall times and the speed-up. The second run still fingerprints the images
(hashes every pixel) and reads the result from disk; that time is printed separately.

Then the price of verifying a hit: an entry of `--verify-rows` x 768 float32 rows (MIT-States
size by default, 155 MiB) is read 7 times both ways, interleaved so that machine load hits both
alike, and timed in CPU seconds of this process: `torch.load` of result.pt alone (a hit before checksums) and `FeatureCache.get` (load and
check every chunk's SHA-256, on `torch.get_num_threads()` threads). `--verify-only` skips the model.

    .venv/bin/python benchmarks/cache_speedup.py [--n-images 256] [--device auto] [--verify-rows 53000] [--verify-only]
"""
import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")

import torch

from vlconcepts.cache import (RESULT_NAME, CacheKey, FeatureCache, _load_tensor, cached_image_features, cache_size,
                               dataset_fingerprint, list_entries)
from vlconcepts.core import seed_everything, torch_generator
from vlconcepts.models import load_model


def timed(fn):
    "(result, seconds) of `fn()`, synchronising CUDA around it."
    if torch.cuda.is_available(): torch.cuda.synchronize()
    start = time.perf_counter()
    result = fn()
    if torch.cuda.is_available(): torch.cuda.synchronize()
    return result, time.perf_counter() - start


def verify_cost(n_rows: int, repeats: int = 7) -> tuple[float, float]:
    """Median CPU seconds (all threads; wall time is at the mercy of other jobs) of (torch.load of result.pt alone,
    FeatureCache.get with checksums) for an n_rows x 768 entry."""
    rows = torch.rand(n_rows, 768, generator=torch_generator(0))
    with tempfile.TemporaryDirectory() as tmp:
        cache, key = FeatureCache(tmp), CacheKey("activations:verify-benchmark", "key:verify-benchmark")
        cache.compute(key, rows, lambda chunk: chunk.clone())
        load, get = [], []
        for _ in range(repeats):
            start = time.process_time()
            _load_tensor(cache.entry_dir(key) / RESULT_NAME, n_rows)
            load.append(time.process_time() - start)
            start = time.process_time()
            got = cache.get(key)
            get.append(time.process_time() - start)
            assert torch.equal(got, rows), "the verified hit differs from what was stored"
    return sorted(load)[repeats // 2], sorted(get)[repeats // 2]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="openclip:ViT-B-32@random", help="model spec (random init unless it names weights)")
    parser.add_argument("--n-images", type=int, default=256, help="number of random 224x224 images")
    parser.add_argument("--batch-size", type=int, default=32, help="images per forward pass")
    parser.add_argument("--chunk-size", type=int, default=64, help="images per cache chunk file")
    parser.add_argument("--device", default="auto", help="auto | cpu | cuda")
    parser.add_argument("--cache-dir", default=None, help="cache root (default: a fresh temporary folder)")
    parser.add_argument("--verify-rows", type=int, default=53_000, help="rows of the entry whose checksum check is timed")
    parser.add_argument("--verify-only", action="store_true", help="only time the checksum check of a hit")
    args = parser.parse_args(argv)

    seed_everything(0)
    if not args.verify_only: time_extraction(args)
    load_s, get_s = verify_cost(args.verify_rows)
    print(f"hit of {args.verify_rows}x768 float32 ({args.verify_rows * 768 * 4 / 2**20:.0f} MiB), median CPU time of 7, "
          f"{torch.get_num_threads()} threads: load only {load_s:.3f} s, load + checksums {get_s:.3f} s "
          f"(+{get_s - load_s:.3f} s, {get_s / load_s:.2f}x)")


def time_extraction(args):
    "Cold then cached image features of random images through the model: prints both times and the speed-up."
    model = load_model(args.spec, device=args.device)
    images = torch.rand(args.n_images, 3, 224, 224, generator=torch_generator(0))
    with tempfile.TemporaryDirectory() as tmp:
        cache = FeatureCache(args.cache_dir or Path(tmp) / "cache")
        run = lambda: cached_image_features(model, images, batch_size=args.batch_size, chunk_size=args.chunk_size, cache=cache)
        first, first_s = timed(run)
        second, second_s = timed(run)
        _, fingerprint_s = timed(lambda: dataset_fingerprint(images))
        assert torch.equal(first, second), "the cached features differ from the computed ones"
        entry = list_entries(cache.root)[0]
        print(f"model {args.spec} on {getattr(model, 'device', args.device)}, "
              f"torch {torch.__version__}, {torch.get_num_threads()} CPU threads")
        print(f"{args.n_images} images 3x224x224, batch {args.batch_size}, chunk {args.chunk_size}: "
              f"features {tuple(first.shape)} {first.dtype}, cache entry {entry['status']}, {cache_size(cache.root) / 2**20:.2f} MiB")
        print(f"first run  (compute + save): {first_s:8.3f} s")
        print(f"second run (cache hit):      {second_s:8.3f} s   (of which fingerprinting the pixels: {fingerprint_s:.3f} s)")
        print(f"speed-up: {first_s / second_s:.1f}x")


if __name__ == "__main__":
    main()
