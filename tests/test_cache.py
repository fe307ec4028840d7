"""Fault cases of the feature cache that need a real process: SIGKILL midway and resume; the `cache` CLI commands."""
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import torch

from vlconcepts import cache as fc

N_ITEMS, CHUNK_SIZE = 40, 4  # 10 chunks

# The child process: a slow, per-item computation through the cache, logging every chunk it starts.
CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    import torch
    from vlconcepts.cache import FeatureCache, CacheKey, dataset_fingerprint

    root, log = Path(sys.argv[1]), Path(sys.argv[2])
    items = list(range({n}))

    def slow_squares(chunk):
        with open(log, "a") as f: f.write(f"{{chunk[0]}}\\n")
        time.sleep(0.4)
        x = torch.tensor(chunk, dtype=torch.float64)
        return torch.stack([x, x ** 2], dim=1)

    FeatureCache(root).compute(CacheKey("activations:slow", dataset_fingerprint(items)), items, slow_squares, chunk_size={c})
    print("finished")
""").format(n=N_ITEMS, c=CHUNK_SIZE)


def expected(items):
    x = torch.tensor(items, dtype=torch.float64)
    return torch.stack([x, x ** 2], dim=1)


def test_sigkill_midway_then_resume_recomputes_only_missing_chunks(tmp_path):
    root, log = tmp_path / "cache", tmp_path / "chunks.log"
    items = list(range(N_ITEMS))
    key = fc.CacheKey("activations:slow", fc.dataset_fingerprint(items),
                      context=fc.compute_context(threads=1))   # the child's key: it runs on one thread
    chunks_dir = fc.FeatureCache(root).entry_dir(key) / "chunks"
    env = {**os.environ, "VLCONCEPTS_PROGRESS": "0", "OMP_NUM_THREADS": "1"}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(root), str(log)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 120
        while len(list(chunks_dir.glob("chunk-*.pt"))) < 3:
            assert child.poll() is None, f"the child ended early: {child.communicate()}"
            assert time.time() < deadline, "the child wrote no chunks within 120 s"
            time.sleep(0.05)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None: child.kill(); child.wait()
    assert child.returncode == -signal.SIGKILL

    finished = sorted(int(p.stem.split("-")[1]) for p in chunks_dir.glob("chunk-*.pt"))
    n_chunks = N_ITEMS // CHUNK_SIZE
    assert 3 <= len(finished) < n_chunks, finished
    assert finished == list(range(len(finished)))  # chunks are written in order
    assert fc.FeatureCache(root).get(key) is None  # partial: not a hit
    assert [e["status"] for e in fc.list_entries(root)] == ["partial"]

    computed = []
    def counting_squares(chunk):
        computed.append(chunk[0] // CHUNK_SIZE)
        return expected(list(chunk))
    result = fc.FeatureCache(root).compute(key, items, counting_squares, chunk_size=CHUNK_SIZE)

    assert computed == [i for i in range(n_chunks) if i not in finished]  # finished chunks were not recomputed
    assert torch.equal(result, expected(items))
    assert not chunks_dir.exists()  # chunk files (and stray temporary files of the killed write) are gone
    assert [e["status"] for e in fc.list_entries(root)] == ["complete"]

    computed.clear()
    assert torch.equal(fc.FeatureCache(root).compute(key, items, counting_squares, chunk_size=CHUNK_SIZE), result)
    assert computed == []  # a hit


def test_truncated_chunk_after_kill_is_recomputed(tmp_path):
    items = list(range(12))
    cache = fc.FeatureCache(tmp_path)
    key = fc.CacheKey("activations:squares", fc.dataset_fingerprint(items))
    calls = []

    def crash_on_third(chunk):
        calls.append(chunk[0])
        if len(calls) == 3: raise KeyboardInterrupt
        return expected(list(chunk))

    with pytest.raises(KeyboardInterrupt): cache.compute(key, items, crash_on_third, chunk_size=4)
    chunk = cache.entry_dir(key) / "chunks" / "chunk-000000.pt"
    chunk.write_bytes(chunk.read_bytes()[: chunk.stat().st_size // 2])
    calls.clear()
    assert torch.equal(cache.compute(key, items, lambda c: calls.append(c[0]) or expected(list(c)), chunk_size=4),
                       expected(items))
    assert calls == [0, 8]  # the truncated chunk 0 and the never-written chunk 2; chunk 1 was kept


def test_cli_cache_ls_and_clear(tmp_path, capsys):
    from vlconcepts.cli import main
    root = Path(os.environ["VLCONCEPTS_CACHE"])  # the per-test folder set by conftest
    fc.cached_activations("squares", lambda c: expected(list(c)), list(range(6)), chunk_size=4)
    fc.cached_activations("cubes", lambda c: expected(list(c)) ** 3, list(range(6)), chunk_size=4)
    assert main(["cache", "ls"]) == 0
    listing = capsys.readouterr().out
    assert "activations:squares" in listing and "activations:cubes" in listing and "2 entries" in listing
    assert main(["cache", "clear", "--what", "activations:sq*"]) == 0
    assert "removed 1 entries" in capsys.readouterr().out
    assert [e["what"] for e in fc.list_entries(root)] == ["activations:cubes"]
    assert main(["cache", "clear"]) == 0
    assert fc.list_entries(root) == [] and fc.cache_size(root) == 0


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_feature_cache_on_cuda_is_a_hit_the_second_time(tmp_path):
    from vlconcepts.models import load_model, save_tiny_model
    model = load_model(save_tiny_model("openclip", tmp_path / "tiny"), device="cuda")
    images = torch.rand(10, 3, 32, 32, generator=torch.Generator().manual_seed(0))
    cache = fc.FeatureCache(tmp_path / "cache")
    first = fc.cached_image_features(model, images, cache=cache, chunk_size=4)
    model.encode_images = None                      # a cache hit must not call the encoder
    second = fc.cached_image_features(model, images, cache=cache, chunk_size=4)
    assert torch.equal(first, second) and first.device.type == "cpu"


def _counting(calls):
    "A compute_chunk returning `expected` rows and recording each chunk's first item."
    return lambda chunk: calls.append(chunk[0]) or expected(list(chunk))


def test_bytes_changed_in_place_are_detected_and_only_that_chunk_recomputed(tmp_path):
    "Issue 20 item 4: bytes of result.pt changed on disk were served as a hit (max error 12,279)."
    items, cache, calls = list(range(12)), fc.FeatureCache(tmp_path), []
    key = fc.CacheKey("activations:squares", fc.dataset_fingerprint(items))
    good = cache.compute(key, items, _counting(calls), chunk_size=4)
    result = cache.entry_dir(key) / "result.pt"
    raw = bytearray(result.read_bytes())
    at = bytes(raw).find(good[5].numpy().tobytes())                 # row 5 (chunk 1) inside the uncompressed storage
    assert at > 0
    raw[at:at + 8] = torch.tensor([12_279.0], dtype=torch.float64).numpy().tobytes()
    result.write_bytes(bytes(raw))
    assert not torch.equal(torch.load(result, weights_only=True), good)   # the file still loads, with a wrong value
    with pytest.warns(RuntimeWarning, match=r"1 of 3 chunks of result.pt changed on disk.*rows 4-7"):
        assert cache.get(key) is None
    calls.clear()
    with pytest.warns(RuntimeWarning, match="changed on disk"):
        assert torch.equal(cache.compute(key, items, _counting(calls), chunk_size=4), good)
    assert calls == [4]                                                      # only chunk 1
    assert torch.equal(cache.get(key), good)


def test_same_shape_result_swapped_in_is_not_served(tmp_path):
    items, cache, calls = list(range(8)), fc.FeatureCache(tmp_path), []
    key = fc.CacheKey("activations:squares", fc.dataset_fingerprint(items))
    other = fc.CacheKey("activations:other", fc.dataset_fingerprint(items))
    good = cache.compute(key, items, _counting(calls), chunk_size=4)
    cache.compute(other, items, lambda c: expected(list(c)) + 1, chunk_size=4)
    (cache.entry_dir(key) / "result.pt").write_bytes((cache.entry_dir(other) / "result.pt").read_bytes())
    calls.clear()
    with pytest.warns(RuntimeWarning, match="2 of 2 chunks of result.pt changed"):
        assert torch.equal(cache.compute(key, items, _counting(calls), chunk_size=4), good)
    assert calls == [0, 4]


def test_changed_or_moved_chunk_file_is_recomputed_on_resume(tmp_path):
    items, cache, calls = list(range(12)), fc.FeatureCache(tmp_path), []
    key = fc.CacheKey("activations:squares", fc.dataset_fingerprint(items))
    def crash_on_third(chunk):
        calls.append(chunk[0])
        if len(calls) == 3: raise KeyboardInterrupt
        return expected(list(chunk))
    with pytest.raises(KeyboardInterrupt): cache.compute(key, items, crash_on_third, chunk_size=4)
    chunks = cache.entry_dir(key) / "chunks"
    (chunks / "chunk-000001.pt").write_bytes((chunks / "chunk-000000.pt").read_bytes())   # same shape, wrong rows
    calls.clear()
    with pytest.warns(RuntimeWarning, match=r"chunk-000001.pt is changed since it was written"):
        assert torch.equal(cache.compute(key, items, _counting(calls), chunk_size=4), expected(items))
    assert calls == [4, 8]


def test_entry_without_checksums_is_recomputed(tmp_path):
    "An entry written before checksums existed cannot be verified: it is recomputed once, with a warning."
    import json
    items, cache, calls = list(range(8)), fc.FeatureCache(tmp_path), []
    key = fc.CacheKey("activations:squares", fc.dataset_fingerprint(items))
    good = cache.compute(key, items, _counting(calls), chunk_size=4)
    meta_path = cache.entry_dir(key) / "meta.json"
    meta = json.loads(meta_path.read_text()); meta.pop("chunk_sha256"); meta_path.write_text(json.dumps(meta))
    calls.clear()
    with pytest.warns(RuntimeWarning, match="no chunk checksums"):
        assert torch.equal(cache.compute(key, items, _counting(calls), chunk_size=4), good)
    assert calls == [0, 4] and "chunk_sha256" in json.loads(meta_path.read_text())


def test_dataset_fingerprint_benchmark_smoke(benchmark_script, capsys, tmp_path, monkeypatch):
    "benchmarks/dataset_fingerprint.py: the three sides run, the memo is written, and the caller's cache folder is restored."
    monkeypatch.setenv("VLCONCEPTS_CACHE", str(tmp_path))
    rows = benchmark_script("dataset_fingerprint").main(["--smoke"])
    assert len(rows) == 3 and all(seconds > 0 for seconds in rows.values())
    out = capsys.readouterr().out
    assert "200 files of 20 KiB" in out and "memo on disk" in out
    assert os.environ["VLCONCEPTS_CACHE"] == str(tmp_path) and not any(tmp_path.iterdir())   # nothing written to the caller's cache


def test_fingerprint_memory_benchmark_smoke(benchmark_script, capsys):
    "benchmarks/fingerprint_memory.py: both sides run for an array and a tensor, and the view gives the copy's digest."
    rows = benchmark_script("fingerprint_memory").main(["--smoke"])
    assert [(r["data"], r["side"]) for r in rows] == [(k, s) for k in ("array", "tensor") for s in ("copy (before)", "view (now)")]
    assert rows[0]["digest"] == rows[1]["digest"] and rows[2]["digest"] == rows[3]["digest"]
    assert capsys.readouterr().out.count("same digest") == 2


def test_a_result_computed_on_a_full_disk_is_returned_not_lost(tmp_path, monkeypatch):
    "cached_result: when keeping the value fails (no space left), the caller still gets it, with a warning; nothing is cached."
    import errno
    import vlconcepts.cache as cache_module
    def disk_full(*args, **kwargs): raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(cache_module, "atomic_write", disk_full)
    with pytest.warns(RuntimeWarning, match="was computed but could not be kept"):
        assert cache_module.cached_result("full", lambda: {"m": 1}, {"x": 1}, cache=cache_module.FeatureCache(tmp_path)) == {"m": 1}
    monkeypatch.undo()
    calls = []
    assert cache_module.cached_result("full", lambda: calls.append(1) or {"m": 1}, {"x": 1}, cache=cache_module.FeatureCache(tmp_path)) == {"m": 1}
    assert calls == [1]                                                  # it was not kept: computed again
