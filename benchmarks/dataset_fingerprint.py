"""What an image dataset's fingerprint costs now that it digests the images' contents: both sides in one run.

    python benchmarks/dataset_fingerprint.py [--files 11788] [--kib 20]
    python benchmarks/dataset_fingerprint.py --smoke      (200 files: wiring, not a measurement)

`ImageDataset.fingerprint` used to hash relative paths and byte sizes only (one `stat` per image), so an image replaced by
another of the same byte size kept the dataset's fingerprint and the cache served the old image's features. It now
hashes each image's contents (`cache.file_digests`), memoised under the cache folder by the file's size, times and inode.
This script writes `--files` files of `--kib` KiB of random bytes (CUB's 11,788 images by default, about the size of a
CUB JPEG) into a scratch folder whose times lie in the past, and times, in one process and a fresh cache folder:

- `sizes`: the old fingerprint, line for line (two `stat`s per file, the byte sizes hashed with the paths);
- `first`: the first content fingerprint (every file read and digested, the memo written);
- `second`: a second one on a new dataset object (every file `stat`ed, the memo read, no file read).

Each side is the best of `--repeats` timings, but `first`, which empties the memo before each repeat. The page cache is
warm for every side (the files were just written), so `first` measures hashing, not a cold disk.

Measured 2026-11-30 on the 2-core AMD EPYC (AVX2) host, quiet, best of 3 (record:
benchmarks/measured/2026-11-30_dataset_fingerprint.txt): 11,788 files of 20 KiB: old 0.365 s, first content
fingerprint 1.333 s, second 0.222 s (memo 1.56 MiB); 53,753 files (MIT-States' count): old 1.64 s, first 7.96 s,
second 1.42 s (memo 7.1 MiB). Reading every image once costs about 6 s per 50,000 images beside a feature extraction
that reads them all anyway; afterwards a fingerprint is as quick as before (one `stat` per file instead of two).
"""
import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load, peak_rss_gb  # noqa: E402

os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")


def best_of(repeats: int, fn, before=lambda: None) -> float:
    "The shortest of `repeats` wall times of `fn()`, `before()` run untimed ahead of each."
    best = float("inf")
    for _ in range(repeats):
        before()
        start = time.perf_counter(); fn(); best = min(best, time.perf_counter() - start)
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=11_788, help="images in the dataset (CUB: 11,788; MIT-States: 53,753)")
    parser.add_argument("--kib", type=int, default=20, help="KiB per image")
    parser.add_argument("--repeats", type=int, default=3, help="timings per side (the best is kept)")
    parser.add_argument("--smoke", action="store_true", help="200 files, one timing per side (wiring only)")
    args = parser.parse_args(argv)
    files, repeats = (200, 1) if args.smoke else (args.files, args.repeats)
    saved_cache = os.environ.get("VLCONCEPTS_CACHE")
    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as cache:
        os.environ["VLCONCEPTS_CACHE"] = cache        # a fresh cache folder for the memo (restored below)
        try: rows = measure(Path(data), Path(cache), files, args.kib, repeats)
        finally:
            if saved_cache is None: os.environ.pop("VLCONCEPTS_CACHE", None)
            else: os.environ["VLCONCEPTS_CACHE"] = saved_cache
    return rows


def measure(data: Path, cache: Path, files: int, kib: int, repeats: int) -> dict:
    "Seconds of each side for `files` files of `kib` KiB written under `data`, the memo under `cache`."
    from vlconcepts.cache import FILE_DIGESTS_DIR, FILE_SETTLE_SECONDS, dataset_fingerprint
    from vlconcepts.datasets import ImageDataset, _relative
    paths = [data / f"{i // 1000:03d}" / f"{i:06d}.jpg" for i in range(files)]
    for path in paths:
        path.parent.mkdir(exist_ok=True); path.write_bytes(os.urandom(kib * 1024))
    time.sleep(FILE_SETTLE_SECONDS + 0.5)             # the files count as settled: their digests are memoised
    dataset = lambda: ImageDataset("bench", data, paths, ["train"] * files, {"labels": ["a"]})
    def sizes():   # the old `ImageDataset.fingerprint`, line for line (before 2026-11-30)
        ds = dataset()
        sizes = [os.stat(p).st_size if os.path.exists(p) else -1 for p in ds.paths]
        return dataset_fingerprint(["image-dataset", ds.name, [_relative(p, ds.root) for p in ds.paths], sizes,
                                    list(ds.splits), ds._labels_for_fingerprint()])
    empty_memo = lambda: shutil.rmtree(cache / FILE_DIGESTS_DIR, ignore_errors=True)
    print(f"# dataset_fingerprint: {load()}; {files:,} files of {kib} KiB, best of {repeats}", flush=True)
    rows = {"sizes (the old fingerprint)": best_of(repeats, sizes),
            "first content fingerprint (reads every file)": best_of(repeats, lambda: dataset().fingerprint, empty_memo),
            "second content fingerprint (memo)": best_of(repeats, lambda: dataset().fingerprint)}
    for name, seconds in rows.items(): print(f"{name}: {seconds:.3f} s ({1e6 * seconds / files:.1f} µs per file)")
    memo = sum(p.stat().st_size for p in (cache / FILE_DIGESTS_DIR).iterdir())
    print(f"memo on disk: {memo / 2**20:.2f} MiB; peak RSS {peak_rss_gb():.2f} GB")
    return rows


if __name__ == "__main__":
    main()
