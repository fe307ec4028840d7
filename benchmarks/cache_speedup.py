"""Feature-cache speed-up: first (cold) vs second (cached) extraction of image features.

Encodes a few hundred random images with `load_model("openclip:ViT-B-32")` (random init, no
download) through `vlconcepts.cache.cached_image_features`, twice, into a fresh cache folder,
and prints both wall times and the speed-up. The second run still fingerprints the images
(hashes every pixel) and reads the result from disk; that time is printed separately.

    .venv/bin/python benchmarks/cache_speedup.py [--n-images 256] [--device auto]
"""
import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")

import torch

from vlconcepts.cache import FeatureCache, cached_image_features, cache_size, dataset_fingerprint, list_entries
from vlconcepts.core import seed_everything, torch_generator
from vlconcepts.models import load_model


def timed(fn):
    "(result, seconds) of `fn()`, synchronising CUDA around it."
    if torch.cuda.is_available(): torch.cuda.synchronize()
    start = time.perf_counter()
    result = fn()
    if torch.cuda.is_available(): torch.cuda.synchronize()
    return result, time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="openclip:ViT-B-32", help="model spec (random init unless it names weights)")
    parser.add_argument("--n-images", type=int, default=256, help="number of random 224x224 images")
    parser.add_argument("--batch-size", type=int, default=32, help="images per forward pass")
    parser.add_argument("--chunk-size", type=int, default=64, help="images per cache chunk file")
    parser.add_argument("--device", default="auto", help="auto | cpu | cuda")
    parser.add_argument("--cache-dir", default=None, help="cache root (default: a fresh temporary folder)")
    args = parser.parse_args(argv)

    seed_everything(0)
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
