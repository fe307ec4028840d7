"""Trained results are computed once: a second rebuild (or report) reuses them through `cache.cached_result`."""
import pandas as pd
import pytest

import vlconcepts.concept_learners as learners
import vlconcepts.purity as purity
from vlconcepts.cache import list_entries
from vlconcepts.concept_data import tabular_toy


def counting(monkeypatch, module, name):
    "Replace `module.name` by a wrapper that counts its calls; returns the list of calls."
    calls, original = [], getattr(module, name)
    def wrapper(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, wrapper)
    return calls


def test_table1_scores_each_trial_once_and_the_second_run_is_identical(monkeypatch):
    calls = counting(monkeypatch, purity, "table1_scores")
    settings = dict(n_samples=200, n_trials=2, metrics=["SAP", "MIG"], show_progress=False)
    first = purity.run_table1(**settings)
    assert len(calls) == 4                                    # 2 modes x 2 trials
    second = purity.run_table1(**settings)
    assert len(calls) == 4                                    # all read back
    pd.testing.assert_frame_equal(first, second)
    purity.run_table1(**{**settings, "n_trials": 3})
    assert len(calls) == 6                                    # only the new trial of each mode is scored


def test_a_cached_first_trial_gives_the_same_later_trials(monkeypatch, tmp_path):
    "The oracle of a mode comes from its trial 0 even when that trial is read from the cache."
    settings = dict(n_samples=120, metrics=["OIS"], show_progress=False, min_steps=5, epochs=1)
    full = purity.run_table1(n_trials=2, **settings)
    monkeypatch.setenv("VLCONCEPTS_CACHE", str(tmp_path / "other-cache"))
    purity.run_table1(n_trials=1, **settings)                 # trial 0 only, then trial 1 with trial 0 cached
    calls = counting(monkeypatch, purity, "table1_scores")
    pd.testing.assert_frame_equal(purity.run_table1(n_trials=2, **settings), full)
    assert len(calls) == 2                                    # trial 1 of each of the 2 modes; both trials 0 were read back


def test_train_and_score_trains_once_per_trial_and_setting(monkeypatch, one_torch_thread):
    calls = counting(monkeypatch, learners, "train_concept_learner")
    data = tabular_toy(0.0, n_train=120, n_test=60, seed=0)
    options = dict(trials=2, seed=0, nis_max_iter=20, epochs=1, device="cpu", show_progress=False)
    first = learners.train_and_score("cbm", data, **options)
    assert len(calls) == 2
    assert learners.train_and_score("cbm", data, **options) == first and len(calls) == 2
    learners.train_and_score("cbm", data, **{**options, "epochs": 2})
    assert len(calls) == 4                                    # another setting trains again
    assert {e["what"] for e in list_entries()} >= {"purity-learner-trial"}


def test_nis_draws_are_read_back_without_drawing_again(monkeypatch):
    empty = pd.DataFrame({"mode": [], "trial": [], "metric": [], "value": []})
    first = purity.table1_nis_draws(empty, 1, n_samples=100, show_progress=False)
    calls = counting(monkeypatch, purity, "table1_representations")
    again = purity.table1_nis_draws(empty, 1, n_samples=100, show_progress=False)
    assert not calls                                          # a cached draw renders no representation
    assert {m: v.tolist() for m, v in again.items()} == {m: v.tolist() for m, v in first.items()}


def test_capacity_sweep_reads_back_without_an_oracle_or_training(monkeypatch, one_torch_thread):
    data = tabular_toy(0.0, n_train=120, n_test=60, seed=0)
    options = dict(parts=["encoder"], trials=1, epochs=1, device="cpu", show_progress=False, probe_options={"min_steps": 5, "epochs": 1})
    first = learners.capacity_sweep(data, [4], **options)
    trained, oracles = counting(monkeypatch, learners, "train_concept_learner"), counting(monkeypatch, learners, "oracle_matrix")
    assert learners.capacity_sweep(data, [4], **options) == first
    assert not trained and not oracles                         # all read back: no CBM, no oracle probes


def test_a_read_back_trial_warns_as_its_computation_did(monkeypatch):
    "A warm rebuild says what the cold one said: Table 1's small-n AUC warning comes back with the cached trial."
    import warnings
    calls = counting(monkeypatch, purity, "table1_scores")
    settings = dict(n_samples=60, n_trials=1, metrics=["OIS"], show_progress=False)   # 12 test samples: AUCs are noise
    told = []
    for _ in range(2):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            purity.run_table1(**settings)
        told.append(sorted(str(w.message) for w in caught if "n is too small to estimate an AUC" in str(w.message)))
    assert len(calls) == 2                                    # computed once per mode, then read back
    assert told[0] and told[1] == told[0]                     # the second run warns as the first did


def test_warm_cold_warnings_benchmark_reads_and_compares_executed_copies(benchmark_script, tmp_path):
    "benchmarks/warm_cold_warnings.py counts the warnings an executed notebook shows and names those only one side shows."
    import json
    bench = benchmark_script("warm_cold_warnings")
    def executed(texts):
        cells = [{"cell_type": "code", "source": "", "outputs": [{"output_type": "stream", "name": "stderr", "text": t}]} for t in texts]
        path = tmp_path / f"nb{len(list(tmp_path.iterdir()))}.ipynb"
        path.write_text(json.dumps({"cells": cells}))
        return path
    cold = bench.warnings_shown(executed(["x.py:3: UserWarning: n is too small\n  warn()\n", "UserWarning: n is too small\n",
                                          "ConstantInputWarning: An input array is constant\n"]))
    assert cold[("UserWarning", "n is too small")] == 2 and len(cold) == 2
    warm = bench.warnings_shown(executed(["UserWarning: n is too small\n", "plain output, no warning\n"]))
    lines = bench.compare(cold, warm)
    assert len(lines) == 1 and "cold only (1x): ConstantInputWarning" in lines[0]
    assert bench.compare(cold, cold) == []
