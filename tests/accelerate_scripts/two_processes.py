"""Run by `tests/test_accelerate.py` under `vlconcepts launch --multi_gpu --num_processes 2` (two CPU processes, gloo):
sharded extraction into a shared cache, probe training at a global batch of 8, and the halves of runs resumed
across process counts. Every process writes what it saw under OUT as `<what>-rank<r>.pt` / `.json`; a section
that raises writes `error-<section>-rank<r>.txt` (its traceback) and the script goes on, so each test reports
its own failure."""
import json
import sys
import traceback
from pathlib import Path

import torch
from accelerate import PartialState

from common import CHUNK_SIZE, CONFIG, HALF, ITEMS, TEXTS, TokenRegression, fake_features, regression_data
from vlconcepts.cache import FeatureCache, cached_activations, cached_text_features
from vlconcepts.probes import fit

out = Path(sys.argv[1])
state = PartialState(cpu=True)                          # the gloo group the launcher asked for (the library would also start it)
assert state.num_processes == 2, f"expected two processes, got {state.num_processes}"
rank = state.process_index
cache = FeatureCache(out / "cache")


def section(name):
    "Run the decorated function now; on an exception, write its traceback to error-<name>-rank<r>.txt and go on."
    def run(function):
        try: function()
        except Exception: (out / f"error-{name}-rank{rank}.txt").write_text(traceback.format_exc())
    return run


@section("extraction")
def extraction():
    calls = []
    def counting(chunk):
        calls.append([int(x) for x in chunk])
        return fake_features(chunk)
    features = cached_activations("fake-encoder", counting, ITEMS, chunk_size=CHUNK_SIZE, cache=cache)
    first_calls = list(calls)
    again = cached_activations("fake-encoder", counting, ITEMS, chunk_size=CHUNK_SIZE, cache=cache)   # a hit
    torch.save({"features": features, "again": again}, out / f"features-rank{rank}.pt")
    (out / f"calls-rank{rank}.json").write_text(json.dumps({"first": first_calls, "second": calls[len(first_calls):]}))


@section("model")
def model_features():
    from vlconcepts.models import load_model
    model, encoded = load_model("toyclip:default", device="cpu"), []
    encode_texts = model.encode_texts
    def counting(texts, **kwargs):
        encoded.extend(texts)
        return encode_texts(texts, **kwargs)
    model.encode_texts = counting
    text = cached_text_features(model, TEXTS, "two-process test", chunk_size=8, cache=FeatureCache(out / "model-cache"))
    torch.save(text, out / f"text-rank{rank}.pt")
    (out / f"encoded-rank{rank}.json").write_text(json.dumps(encoded))


inputs, labels = regression_data()


@section("training")
def training():
    model = fit(TokenRegression(), inputs, labels, CONFIG, out / "run-2proc", device="cpu")
    torch.save(model.state_dict(), out / f"probe-rank{rank}.pt")


@section("resume")
def resume():
    fit(TokenRegression(), inputs, labels, CONFIG, out / "run-2to1", steps=HALF, device="cpu")       # resumed in 1 process
    resumed = fit(TokenRegression(), inputs, labels, CONFIG, out / "run-1to2", device="cpu")          # started in 1 process
    torch.save(resumed.state_dict(), out / f"resumed-rank{rank}.pt")
