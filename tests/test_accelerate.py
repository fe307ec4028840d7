"""Multi-process feature extraction and probe training (issue 19, item 3), with two CPU processes.

One `vlconcepts launch --multi_gpu --num_processes 2` (accelerate's launcher: torchrun, gloo, one thread each) runs
`accelerate_scripts/two_processes.py`, which extracts a cache entry, trains a small model at a global batch of 8 and
writes the halves of runs that are resumed across process counts; the tests compare what it wrote with one process.
`vlconcepts launch` is `accelerate launch` with torchvision made importable first: accelerate's command line imports
timm, which fails on this machine's CPU torch + CUDA torchvision wheel (`operator torchvision::nms does not exist`)."""
import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import torch

SCRIPTS = Path(__file__).parent / "accelerate_scripts"
sys.path.insert(0, str(SCRIPTS))
from common import CHUNK_SIZE, CONFIG, HALF, ITEMS, TEXTS, TokenRegression, fake_features, regression_data  # noqa: E402

from vlconcepts.cache import CacheKey, FeatureCache, cached_activations, cached_text_features  # noqa: E402
from vlconcepts.core import pick_device  # noqa: E402
from vlconcepts.probes import fit  # noqa: E402


def _no_error(folder: Path, section: str):
    "Fail with the traceback when a process of the two-process run failed in `section`."
    for error in sorted(folder.glob(f"error-{section}-rank*.txt")): pytest.fail(f"{error.name}:\n{error.read_text()[-4000:]}")


def _weights_close(a: dict, b: dict, atol: float = 1e-6):
    assert a.keys() == b.keys()
    for name in a: torch.testing.assert_close(a[name], b[name], rtol=0, atol=atol, msg=lambda m: f"{name}: {m}")


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory):
    "Launch the two-process script once (after writing the first half of a one-process run it resumes); its output folder."
    out = tmp_path_factory.mktemp("two_processes")
    inputs, labels = regression_data()
    fit(TokenRegression(), inputs, labels, CONFIG, out / "run-1to2", steps=HALF, device="cpu")
    env = {**os.environ, "OMP_NUM_THREADS": "1", "VLCONCEPTS_PROGRESS": "0", "VLCONCEPTS_CACHE": str(out / "default-cache"),
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONWARNINGS": "ignore",
           "TMPDIR": str(out)}  # torchrun leaves a `torchelastic_*` log folder in the temporary folder: keep it in the test's own
    command = [sys.executable, "-m", "vlconcepts.cli", "launch", "--multi_gpu", "--num_processes", "2", "--num_machines", "1",
               "--mixed_precision", "no", "--dynamo_backend", "no", str(SCRIPTS / "two_processes.py"), str(out)]
    run = subprocess.run(command, env=env, cwd=SCRIPTS, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, f"the two-process run failed:\n{run.stdout[-3000:]}\n{run.stderr[-6000:]}"
    return out


@pytest.mark.slow
def test_sharded_extraction_equals_one_process(two_processes, tmp_path):
    "Each process computes its own chunks (0, 2, 4, ... on rank 0), rank 0 merges one entry: equal to one process's, a hit afterwards."
    _no_error(two_processes, "extraction")
    ranks = [torch.load(two_processes / f"features-rank{r}.pt") for r in (0, 1)]
    calls = [json.loads((two_processes / f"calls-rank{r}.json").read_text()) for r in (0, 1)]
    single = FeatureCache(tmp_path / "one").compute(CacheKey("x", "y"), ITEMS, fake_features, chunk_size=CHUNK_SIZE)
    for seen in ranks: assert torch.equal(seen["features"], single) and torch.equal(seen["again"], single)
    chunks = [{chunk[0] // CHUNK_SIZE for chunk in c["first"]} for c in calls]
    assert chunks == [{0, 2, 4, 6, 8}, {1, 3, 5, 7, 9}]          # split by index, each chunk computed once
    assert calls[0]["second"] == calls[1]["second"] == []       # the second call is a hit in both processes
    entries = [p for p in (two_processes / "cache").glob("*/activations-fake-encoder-*")]
    assert len(entries) == 1 and sorted(p.name for p in entries[0].iterdir()) == ["meta.json", "result.pt"]
    counted, threads = [], torch.get_num_threads()
    read = lambda root: cached_activations("fake-encoder", lambda c: counted.append(1) or fake_features(c), ITEMS,
                                           chunk_size=CHUNK_SIZE, cache=FeatureCache(root))
    shutil.copytree(two_processes / "cache", tmp_path / "copy")
    try:
        torch.set_num_threads(1)                # the launched processes computed on one thread each (cache.compute_context)
        one = read(two_processes / "cache")
        assert torch.equal(one, single) and counted == []       # one process on one thread reads the two-process entry as a hit
        if pick_device("auto").type == "cpu":
            torch.set_num_threads(2)
            read(tmp_path / "copy")
            assert counted                                      # on two threads it is another entry: computed, not read
    finally: torch.set_num_threads(threads)


def test_sharded_text_features_of_a_real_model(two_processes, tmp_path):
    "toyclip:default's text features of 32 captions, each encoded by one of two processes, equal one process's."
    from vlconcepts.models import load_model
    _no_error(two_processes, "model")
    single = cached_text_features(load_model("toyclip:default", device="cpu"), TEXTS, "two-process test", chunk_size=8,
                                  cache=FeatureCache(tmp_path / "one"))
    for r in (0, 1): torch.testing.assert_close(torch.load(two_processes / f"text-rank{r}.pt"), single, rtol=0, atol=1e-6)
    encoded = [json.loads((two_processes / f"encoded-rank{r}.json").read_text()) for r in (0, 1)]
    assert encoded == [TEXTS[0:8] + TEXTS[16:24], TEXTS[8:16] + TEXTS[24:32]]   # chunks 0, 2 on rank 0; 1, 3 on rank 1


def test_two_processes_train_like_one_with_the_same_global_batch(two_processes, tmp_path):
    "Global batch 8 as 2 x 4 rows (rows with 1 to 7 tokens, AdamW warming up): the weights of one process at batch 8."
    _no_error(two_processes, "training")
    inputs, labels = regression_data()
    single = fit(TokenRegression(), inputs, labels, CONFIG, tmp_path / "one", device="cpu").state_dict()
    ranks = [torch.load(two_processes / f"probe-rank{r}.pt") for r in (0, 1)]
    _weights_close(ranks[0], ranks[1], atol=0)
    _weights_close(ranks[0], single)
    assert not torch.allclose(single["weight"], TokenRegression().weight, atol=1e-3)   # it did train


def test_a_run_resumes_across_process_counts(two_processes, tmp_path):
    "A checkpoint written by two processes resumes in one, and one written by one process resumes in two."
    _no_error(two_processes, "resume")
    inputs, labels = regression_data()
    single = fit(TokenRegression(), inputs, labels, CONFIG, tmp_path / "one", device="cpu").state_dict()
    two_then_one = fit(TokenRegression(), inputs, labels, CONFIG, two_processes / "run-2to1", device="cpu").state_dict()
    assert (two_processes / "run-2to1" / "step-0000003").is_dir()                 # resumed from the two-process checkpoint
    _weights_close(two_then_one, single)
    for r in (0, 1): _weights_close(torch.load(two_processes / f"resumed-rank{r}.pt"), single)


def test_gradient_accumulation_matches_one_larger_batch(tmp_path):
    "In one process, 2 micro-batches of 4 rows make the same steps as one batch of 8."
    inputs, labels = regression_data()
    whole = fit(TokenRegression(), inputs, labels, CONFIG, tmp_path / "batch8", device="cpu").state_dict()
    accumulated = fit(TokenRegression(), inputs, labels, replace(CONFIG, gradient_accumulation_steps=2), tmp_path / "micro4",
                      device="cpu").state_dict()
    _weights_close(accumulated, whole)
