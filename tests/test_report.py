"""`vlconcepts report`: lens applicability per model kind, the chance-to-oracle scale, paired tests, the page's determinism,
the skipped lenses of a fusion and a text-only model, and the command end to end (smoke sizes, a throw-away cache)."""
import math
import re

import numpy as np
import pandas as pd
import pytest

from vlconcepts.cache import list_entries
from vlconcepts.core import InputValidationError
from vlconcepts.report import (LENS_TITLES, LENSES, Axis, LensResult, ModelReport, lens_plan, mcnemar_test, normalised, page_failures,
                               paired_tests, report_model, report_page, report_settings, without_timings)

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
def test_report_command_writes_page_figure_and_html(tmp_path, monkeypatch, capsys):
    """Given a relative --out (the caller's folder), every file lands there, none in nbs/experiments where the kernel runs;
    the console shows each lens start and finish (`cli.KernelLogEcho`)."""
    from vlconcepts.cli import experiments_dir, main
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "reports"
    assert main(["report", "sbert:packaged-minilm", "--profile", "smoke", "--device", "cpu", "--out", "reports"]) == 0
    assert not (experiments_dir() / "reports").exists()          # where the kernel's staging copies went before 2026-12-01
    page = (out / "sbert-packaged-minilm.md").read_text()
    assert "skipped CompMap" in page and "Recovery probes" in page
    assert (out / "sbert-packaged-minilm.png").stat().st_size > 0 and (out / "sbert-packaged-minilm.html").stat().st_size > 0
    console = capsys.readouterr().out
    assert re.search(r"INFO vlconcepts.report: .*: probes started", console), console
    assert re.search(r"INFO vlconcepts.report: .*: probes done in \d+ s", console), console
    assert "%|" not in console                                                # no progress bar of the kernel's


def test_report_command_checks_settings_before_running(tmp_path, capsys):
    from vlconcepts.cli import main
    assert main(["report", "toyclip:default", "--set", "colour=red", "--out", str(tmp_path)]) == 2
    assert "Unknown report setting" in capsys.readouterr().err


def _broken_backends(monkeypatch):
    "Register 'test-hook-raises' (a dual encoder whose feature hooks raise a two-line error) and 'test-no-load', for this test only."
    import torch
    from vlconcepts import models
    monkeypatch.setattr(models, "_BACKENDS", dict(models._BACKENDS))

    class HookRaises(models.DualEncoderModel):
        def _image_features(self, pixels): raise RuntimeError("the hook raised\n(its second line)")
        def _text_features(self, texts): raise RuntimeError("the hook raised\n(its second line)")

    models.register_backend("test-hook-raises")(lambda rest, device: HookRaises(torch.nn.Identity(), f"test-hook-raises:{rest}", device))
    models.register_backend("test-no-load")(lambda rest, device: 1 / 0)


def test_a_failing_lens_is_a_named_failure_with_keep_going(monkeypatch, one_torch_thread):
    _broken_backends(monkeypatch)
    settings = report_settings(SMOKE, device="cpu")
    with pytest.raises(Exception, match="the hook raised"): report_model("test-hook-raises:x", settings, only=["controlled_imcaps"])
    going = report_settings({**SMOKE, "keep_going": True}, device="cpu")
    failed = report_model("test-hook-raises:x", going, only=["controlled_imcaps"])
    assert failed.failed == {"controlled_imcaps": "RuntimeError: the hook raised"} and not failed.lenses
    unloaded = report_model("test-no-load:x", going)
    assert unloaded.kind == "not loaded" and set(unloaded.failed) == set(LENSES) and "division by zero" in unloaded.failed["mac"]
    page = report_page([failed, unloaded], going)
    assert page_failures(page) == ["test-hook-raises:x (`test-hook-raises:x`): ControlledImCaps: RuntimeError: the hook raised",
                                   "test-no-load:x (`test-no-load:x`): " + ", ".join(LENS_TITLES[l] for l in LENSES) + ": "
                                   + unloaded.failed["mac"]]
    assert "skipped ControlledImCaps: FAILED: RuntimeError: the hook raised" in page


@pytest.mark.slow
def test_report_command_with_one_failing_model_writes_the_others_page_and_exits_1(tmp_path, monkeypatch, capsys):
    "One model whose backend's hook raises: the other model's results are on the page, the failure is named there and by the exit status."
    from vlconcepts import models
    from vlconcepts.cli import main
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(models.PLUGINS_VARIABLE, "")                         # `--plugin` sets it: restored after the test
    monkeypatch.setattr(models, "_BACKENDS", dict(models._BACKENDS))
    monkeypatch.setattr(models, "_PLUGINS", dict(models._PLUGINS))
    (tmp_path / "my_models.py").write_text(
        "import torch\nfrom vlconcepts.models import DualEncoderModel, register_backend\n"
        "class HookRaises(DualEncoderModel):\n"
        "    def _image_features(self, pixels): raise RuntimeError('my hook raised\\nsecond line')\n"
        "    def _text_features(self, texts): raise RuntimeError('my hook raised\\nsecond line')\n"
        "@register_backend('my-broken')\ndef load(rest, device): return HookRaises(torch.nn.Identity(), f'my-broken:{rest}', device)\n")
    status = main(["report", "sbert:packaged-minilm", "my-broken:x", "--profile", "smoke", "--device", "cpu", "--out", "reports",
                   "--plugin", "my_models.py"])
    err = capsys.readouterr().err
    assert status == 1 and "lenses failed on 1 of its 2 model(s)" in err and "my-broken:x" in err and "RuntimeError: my hook raised" in err, err
    page = (tmp_path / "reports" / "sbert-packaged-minilm_vs_my-broken-x.md").read_text()
    assert page_failures(page) == ["my-broken:x (`my-broken:x`): CompMap, Concept binding, Recovery probes, ControlledImCaps, "
                                   "MAC, Concept purity: RuntimeError: my hook raised"]       # MAC's zero-shot CLIP reads the hooks too
    assert "| Recovery probes | EM (average over cells)" in page          # the good model's results are written
    assert (tmp_path / "reports" / "sbert-packaged-minilm_vs_my-broken-x.html").stat().st_size > 0


@pytest.mark.parametrize("setting, value", [("world_seed", 2**32), ("purity_seed", 2**32), ("compmap_seeds", [1123, 2**32]),
                                            ("probe_seeds", [2**40]), ("world_seed", -1)])
def test_a_seed_past_numpys_range_is_refused_before_the_kernel(setting, value):
    with pytest.raises(InputValidationError, match=re.escape(f"{setting}=") + r".*in \[0, 2\*\*32\)"): report_settings({setting: value})
    assert report_settings({setting: 2**32 - 1 if setting.endswith("seed") else [2**32 - 1]})   # the range's last seed


def test_a_tuple_setting_asks_for_a_list():
    with pytest.raises(InputValidationError, match=re.escape("compmap_seeds=1123 (wants a list, e.g. [1123])")):
        report_settings({"compmap_seeds": 1123})


def test_one_string_where_a_list_belongs_is_refused():
    from vlconcepts.report import report_name
    with pytest.raises(InputValidationError, match="got one string 'toyclip:default'"): report_name("toyclip:default")
    with pytest.raises(InputValidationError, match="got one string 'mac'"): report_model("toyclip:default", report_settings(), only="mac")


def test_study_b_names_the_binding_worlds_it_lacks_before_loading_a_model():
    from dataclasses import replace
    from vlconcepts.report import binding_recovery_rows
    settings = replace(report_settings(), binding_fractions={"single": 0.15})
    with pytest.raises(InputValidationError, match=re.escape("lacks ['two', 'rel']")):
        binding_recovery_rows("no-such-backend:x", "X", settings)     # an unknown backend: the worlds are checked first
