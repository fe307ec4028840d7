"""`vlconcepts report`: lens applicability per model kind, the chance-to-oracle scale, paired tests, the page's determinism,
the skipped lenses of a fusion and a text-only model, and the command end to end (smoke sizes, a throw-away cache)."""
import math

import numpy as np
import pandas as pd
import pytest

from vlconcepts.cache import list_entries
from vlconcepts.core import InputValidationError
from vlconcepts.report import (LENSES, Axis, LensResult, ModelReport, lens_plan, mcnemar_test, normalised, paired_tests, report_model,
                               report_page, report_settings, without_timings)

SMOKE = {"compmap_images": 150, "compmap_epochs": 2, "oracle_epochs": 2, "compmap_seeds": [1123], "binding_seeds": 0,
         "binding_fractions": {"single": 0.002, "two": 0.002, "rel": 0.002}, "probe_per_cell": 1, "probe_seeds": [0],
         "probe": {"n_captions": 300, "steps": 4, "autoencoder_steps": 4, "batch_size": 32, "d_model": 32, "d_ff": 64, "n_layers": 1,
                   "n_heads": 2, "checkpoint_every": 4, "num_beams": 2, "max_length": 16},
         "imcaps_pairs": 12, "n_boot": 50, "mac_images": 60}


@pytest.mark.parametrize("kind, runs", [("dual", set(LENSES)), ("fusion", {"compmap", "controlled_imcaps", "purity"}), ("text", {"probes"})])
def test_lens_applicability_per_kind(kind, runs):
    plan = lens_plan(kind)
    assert {lens for lens, why in plan.items() if why is None} == runs
    assert all(isinstance(why, str) and len(why) > 20 for lens, why in plan.items() if lens not in runs)   # a reason, not a flag


def test_unknown_kind_is_an_input_error():
    with pytest.raises(InputValidationError, match="Unknown model kind"): lens_plan("encoder")


@pytest.mark.parametrize("score, chance, oracle, expected", [(20, 20, 100, 0.0), (100, 20, 100, 1.0), (60, 20, 100, 0.5),
                                                             (12.5, 25, 100, -1 / 6), (0.0, 0.6, 0.0, 1.0), (0.3, 0.6, 0.0, 0.5)])
def test_normalisation_chance_zero_oracle_one(score, chance, oracle, expected):
    assert normalised(score, chance, oracle) == pytest.approx(expected)
    assert Axis("x", score, chance, oracle).normalised == pytest.approx(expected)


def test_normalisation_without_a_scale_is_an_error():
    with pytest.raises(InputValidationError, match="no length"): normalised(1.0, 3.0, 3.0)
    assert math.isnan(normalised(float("nan"), 0.0, 1.0))


def test_mcnemar_on_hand_made_outcomes():
    a = np.array([1] * 10 + [0] * 5 + [1] * 5)
    b = np.array([0] * 10 + [0] * 5 + [1] * 5)           # a alone right on 10 items, b alone on none
    found = mcnemar_test(a, b)
    assert (found["only a"], found["only b"], found["n"]) == (10, 0, 20)
    assert found["p"] == pytest.approx(2 * 0.5 ** 10)
    assert mcnemar_test(a, a)["p"] == 1.0


def _report(label, correct, text):
    frame = pd.DataFrame({"model": label, "pair": range(len(text)), "type": "adjective", "text": text, "image": text, "group": 0})
    lenses = {"binding": LensResult("binding", {"two objects: zero-shot": 100 * np.mean(correct)},
                                    [Axis("Binding: two objects (zero-shot)", 100 * np.mean(correct), 20.0, 100.0)],
                                    {"binding two objects (zero-shot, gen)": np.asarray(correct, bool)}, "hand-made"),
              "controlled_imcaps": LensResult("controlled_imcaps", {}, [], {"controlled_imcaps": frame})}
    return ModelReport(label, label, "dual", lenses, {"mac": "not asked for"}, {"binding": 1.0})


def test_paired_tests_on_hand_made_data():
    a, b = _report("A", [1] * 12 + [0] * 8, [1] * 8), _report("B", [0] * 20, [0] * 7 + [1])
    tests = paired_tests([a, b]).set_index(["lens", "compared"])
    binding = tests.loc[("Concept binding", "binding two objects (zero-shot, gen)")]
    assert binding["test"] == "McNemar (exact)" and binding["p"] == pytest.approx(2 * 0.5 ** 12)
    assert binding["significant (p < 0.05)"] == "yes"
    text = tests.loc[("ControlledImCaps", "text score (all pairs)")]
    assert text["test"] == "Wilcoxon signed-rank" and text["items that differ"] == 7 and text["p"] < 0.05
    assert tests.loc[("CompMap", "–"), "note"] == "ran for neither"
    with pytest.raises(InputValidationError, match="share a label"): paired_tests([a, _report("A", [1] * 20, [1] * 8)])


def test_page_is_the_same_up_to_timings():
    a, b = _report("A", [1] * 12 + [0] * 8, [1] * 8), _report("B", [0] * 20, [0] * 7 + [1])
    first = report_page([a, b], report_settings(), figure="a.png")
    a.seconds, b.seconds = {"binding": 123.0}, {"binding": 0.1}
    second = report_page([a, b], report_settings(), figure="a.png")
    assert first != second and without_timings(first) == without_timings(second)
    assert "skipped MAC: not asked for" in first and "McNemar" in first


@pytest.mark.slow
def test_report_twice_gives_the_same_page_and_extracts_nothing_the_second_time(one_torch_thread):
    settings = report_settings(SMOKE, device="cpu")
    first = report_model("toyclip:default", settings)
    assert set(first.lenses) == set(LENSES) and not first.skipped
    entries = {e["path"] for e in list_entries()}
    second = report_model("toyclip:default", settings)
    assert {e["path"] for e in list_entries()} == entries, "the second report wrote new cache entries"
    assert without_timings(report_page([first], settings)) == without_timings(report_page([second], settings))


@pytest.mark.slow
@pytest.mark.parametrize("spec, runs", [("toyitm:default", {"controlled_imcaps"}), ("sbert:packaged-minilm", {"probes"})])
def test_fusion_and_text_pages_name_what_they_skipped(spec, runs, one_torch_thread):
    report = report_model(spec, report_settings(SMOKE, device="cpu"), only=["controlled_imcaps", "probes"])
    assert set(report.lenses) == runs
    page = report_page([report], report_settings(SMOKE))
    for lens in ("binding", "mac"):
        assert report.skipped[lens] == lens_plan(report.kind)[lens] and report.skipped[lens] in page


@pytest.mark.slow
def test_report_command_writes_page_figure_and_html(tmp_path, monkeypatch):
    "Given a relative --out (the caller's folder), every file lands there, none in nbs/experiments where the kernel runs."
    from vlconcepts.cli import experiments_dir, main
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "reports"
    assert main(["report", "sbert:packaged-minilm", "--profile", "smoke", "--device", "cpu", "--out", "reports"]) == 0
    assert not (experiments_dir() / "reports").exists()          # where the kernel's staging copies went before 2026-12-01
    page = (out / "sbert-packaged-minilm.md").read_text()
    assert "skipped CompMap" in page and "Recovery probes" in page
    assert (out / "sbert-packaged-minilm.png").stat().st_size > 0 and (out / "sbert-packaged-minilm.html").stat().st_size > 0


def test_report_command_checks_settings_before_running(tmp_path, capsys):
    from vlconcepts.cli import main
    assert main(["report", "toyclip:default", "--set", "colour=red", "--out", str(tmp_path)]) == 2
    assert "Unknown report setting" in capsys.readouterr().err
