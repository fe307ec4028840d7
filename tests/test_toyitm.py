"""ToyITM: a smoke training on the world (loss finite, resume is exact), the committed checkpoint meets its
held-out ITM bar on fresh renders, it scores through the model registry (and as a transformers ViLT folder
through `hf-vilt:`), and damaged or missing checkpoints are refused."""
import ast
import inspect
from dataclasses import asdict, fields
from pathlib import Path

import numpy as np
import pytest
import torch

from release_checks import check_missing_default_release, check_release_is_verified
from vlconcepts.cli import notebook_parameters
from vlconcepts.models import load_model
from vlconcepts.toyclip import autocast_dtype, eval_scenes
from vlconcepts.toyitm import (ToyITMConfig, default_checkpoint, evaluate_itm, itm_eval_pairs, load_toyitm, read_toyitm,
                               score_eval_pairs, toyitm_config, train_toyitm)

EXPERIMENT = Path(__file__).resolve().parents[1] / "nbs" / "experiments" / "05b_toyitm_training.ipynb"
UNSEEN_SEED = 7_000_003  # test scenes from a seed that training (seed 0) and the notebook's test (2024) never used
SMOKE = ToyITMConfig(model=toyitm_config(hidden_size=32, num_layers=1, num_heads=2, intermediate_size=64, image_size=32,
                                         patch_size=16),
                     steps=6, batch_size=8, lr=2e-3, warmup_steps=1, pool_size=24, pool_steps=3, checkpoint_every=2,
                     eval_every=3, eval_scenes=4)


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def test_smoke_training_on_the_world_resumes_exactly(tmp_path):
    whole = train_toyitm(SMOKE, tmp_path / "whole", device="cpu")
    losses = [h["loss"] for h in whole.history]
    assert len(losses) == 6 and np.isfinite(losses).all(), losses
    train_toyitm(SMOKE, tmp_path / "resumed", device="cpu", stop_at_step=4)      # "killed" after step 4
    assert read_toyitm(tmp_path / "resumed" / "last.pt")["step"] == 4
    resumed = train_toyitm(SMOKE, tmp_path / "resumed", device="cpu")
    assert [h["loss"] for h in resumed.history] == losses
    for (name, a), b in zip(whole.model.module.state_dict().items(), resumed.model.module.state_dict().values()):
        assert torch.equal(a, b), name
    again = train_toyitm(SMOKE, tmp_path / "whole", device="cpu")               # a finished run trains nothing
    assert again.step == 6 and [h["loss"] for h in again.history] == losses
    early = train_toyitm(ToyITMConfig(**{**asdict(SMOKE), "steps": 4, "schedule_steps": 6}), tmp_path / "early", device="cpu")
    assert [h["loss"] for h in early.history] == losses[:4]                      # stopping early on the same schedule = a prefix


@pytest.fixture(scope="module")
def default_results():
    model = load_model("toyitm:default", device="cpu")
    results = evaluate_itm(model, n_single=240, n_binding=80, n_relational=80, seed=UNSEEN_SEED, n_close_up=240, n_world=240)
    print({k: round(v, 3) for k, v in results.items()})
    return results


def test_default_checkpoint_meets_the_bar_on_unseen_close_ups(default_results):
    """Issue 10's bar, ≥ 85% binary match accuracy on fresh single-object scenes, in the close-up view (the attribute worlds' view,
    CompMap's). Met since the release of 2026-11-27 trained with plain CLEVR close-ups at half of its scenes (trial 3 of
    benchmarks/toyitm_release_trials.py: 0.956 +- 0.016 over seeds 0-2, colour 0.94, material 0.92); the release before it read 0.73."""
    assert default_results["close_up"] >= 0.85, default_results
    assert default_results["close_up_pairwise"] >= 0.85 and default_results["close_up_size"] >= 0.9, default_results


@pytest.mark.xfail(reason="toyitm:default (the world mixture plus plain CLEVR close-ups at half of the scenes, same-world easy "
                          "negatives, 8,000 steps) reads fresh close-ups at 0.738 (attribute world) and 0.674 (birds) binary against "
                          "one-word edits of the true captions (test seed 2024); below the 0.85 bar (seeds 0-2 of its settings: "
                          "0.725 +- 0.022 and 0.654 +- 0.028, benchmarks/measured/2026-11-27_toyitm_clevr_close_ups_half_release.txt; "
                          "the release before it 0.637 and 0.624), though the same model matches colour and material on plain CLEVR "
                          "close-ups at 0.94 and 0.92. Split by the edited word (tables/toyitm_world_edits.md) pattern edits are at chance (0.47, "
                          "0.54), wing colour 0.53, state, material and the other part colours 0.62-0.63, and a linear probe of "
                          "pattern and state on the last layer is near its chance too (part colours 0.19-0.36, chance 0.10-0.13); one-word-edit training pairs (trial 4) did not move it "
                          "(benchmarks/measured/2026-11-27_toyitm_clevr_close_ups_half_edit_release.txt), and 4x the steps lift them "
                          "only to 0.798 and 0.705 (seeds 0-1; benchmarks/measured/2026-11-29_cpu_toyitm_32k_release_recipe.jsonl), 4 layers instead of 2 to "
                          "0.731 and 0.643 (benchmarks/measured/2026-11-29_cpu_toyitm_8k_deep.jsonl), 8-px patches to 0.728 and 0.672 "
                          "(benchmarks/measured/2026-11-29_cpu_toyitm_8k_patch8.jsonl), twice the width to 0.607 and 0.578 "
                          "(benchmarks/measured/2026-11-29_cpu_toyitm_8k_wide.jsonl)", strict=True)
@pytest.mark.parametrize("world", ["attributes", "birds"])
def test_default_checkpoint_meets_the_bar_on_every_worlds_close_ups(default_results, world):
    "Issue 18's bar: ≥ 85% binary match on fresh close-ups of every world (a true caption vs its one-word edit)."
    assert default_results[f"world_{world}"] >= 0.85, default_results


@pytest.mark.xfail(reason="in the CLEVR view (one object of a few dozen pixels among 4,096) toyitm:default reaches 0.601 binary "
                          "accuracy at test seed 2024 (colour 0.68, size 0.69, shape and material near chance; the release before it "
                          "0.602, the CLEVR-only release 0.731): the 64-px render with 16-px patches and 8,000 CPU steps do not get it "
                          "to the bar; see nbs/experiments/05b_toyitm_training", strict=True)
def test_default_checkpoint_meets_the_bar_in_the_clevr_view(default_results):
    assert default_results["single"] >= 0.85, default_results


MEASURED_BELOW_BAR = {"world_attributes": 0.758, "world_birds": 0.683, "single": 0.598}  # this test's reading (240 each, seed 2024), 2026-12-01


def test_default_checkpoint_misses_its_bars_by_the_measured_amount_only(default_results):
    "The expected failures above are the measured ones: none of those accuracies reads more than 0.02 below what was recorded."
    fallen = {name: (round(default_results[name], 3), measured) for name, measured in MEASURED_BELOW_BAR.items()
              if default_results[name] < measured - 0.02}
    assert not fallen, fallen


def test_default_checkpoint_through_the_model_interface():
    "`match_scores` (every image × every text) agrees with the aligned-pair scores used for training and evaluation."
    model = load_model("toyitm:default", device="cpu")
    assert model.kind == "fusion" and model.spec == "toyitm:default"
    scenes, images = eval_scenes("single", 6, UNSEEN_SEED + 1, size=model.module.config.image_size)
    pairs = itm_eval_pairs("single", scenes, UNSEEN_SEED)[:8]
    true, false = score_eval_pairs(model, images, pairs)
    texts = sorted({t for _, t, _, _ in pairs} | {f for _, _, f, _ in pairs})
    grid = model.match_scores(images, texts)
    for (k, t, f, _), true_logit, false_logit in zip(pairs, true, false):
        assert abs(grid[k, texts.index(t)] - true_logit) < 1e-4 and abs(grid[k, texts.index(f)] - false_logit) < 1e-4
    with pytest.raises(Exception, match="fusion model"):
        model.encode_texts(["a red cube"])


def test_toyitm_saved_as_a_transformers_folder_loads_through_hf_vilt(tmp_path):
    "The real-weights path: the same model saved with `save_pretrained` scores identically as `hf-vilt:<dir>`."
    model = load_model("toyitm:default", device="cpu")
    model.module.save_pretrained(tmp_path / "vilt")
    model.processor.save_pretrained(tmp_path / "vilt")
    as_vilt = load_model(f"hf-vilt:{tmp_path / 'vilt'}", device="cpu")
    images = eval_scenes("binding", 3, UNSEEN_SEED + 2, size=model.module.config.image_size)[1]
    texts = ["a red cube", "a blue sphere and a gray cylinder", "a cube to the left of a sphere"]
    torch.testing.assert_close(as_vilt.match_scores(images, texts), model.match_scores(images, texts), rtol=1e-4, atol=1e-4)


def test_sha_mismatch_and_missing_files_are_refused(tmp_path):
    assert check_release_is_verified(tmp_path, *default_checkpoint(), load_toyitm, "toyitm").kind == "fusion"


def test_missing_default_checkpoint_is_a_clear_error(monkeypatch, tmp_path):
    import vlconcepts.toyitm as toyitm
    check_missing_default_release(monkeypatch, tmp_path, toyitm, "toyitm", "toyitm-default")


def test_a_changed_config_does_not_resume_silently(tmp_path):
    train_toyitm(SMOKE, tmp_path / "run", device="cpu", stop_at_step=2)
    other = ToyITMConfig(**{**asdict(SMOKE), "lr": 1e-3})
    with pytest.raises(Exception, match="different ToyITMConfig"):
        train_toyitm(other, tmp_path / "run", device="cpu")


def test_a_changed_checkpoint_is_neither_resumed_nor_exported(tmp_path):
    "A checkpoint whose bytes changed after its save (its digest beside it no longer matches) is refused by resume and export alike."
    from vlconcepts.core import ModelSpecError
    from vlconcepts.toyitm import export_release
    checkpoint = train_toyitm(SMOKE, tmp_path / "run", device="cpu", stop_at_step=2).checkpoint
    data = bytearray(checkpoint.read_bytes()); data[-200] ^= 0xFF; checkpoint.write_bytes(bytes(data))
    with pytest.raises(ModelSpecError, match="SHA-256 mismatch for ToyITM checkpoint"):
        train_toyitm(SMOKE, tmp_path / "run", device="cpu")
    with pytest.raises(ModelSpecError, match="SHA-256 mismatch for ToyITM checkpoint"):
        export_release(checkpoint, tmp_path / "release")
    assert not (tmp_path / "release").exists()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_toyitm_trains_with_mixed_precision_on_cuda_and_resumes(tmp_path):
    assert autocast_dtype(torch.device("cuda")) is not None
    whole = train_toyitm(SMOKE, tmp_path / "whole", device="cuda")
    losses = [h["loss"] for h in whole.history]
    assert np.isfinite(losses).all(), losses
    train_toyitm(SMOKE, tmp_path / "resumed", device="cuda", stop_at_step=4)
    resumed = train_toyitm(SMOKE, tmp_path / "resumed", device="cuda")
    np.testing.assert_allclose([h["loss"] for h in resumed.history], losses, rtol=1e-2)
    on_gpu, on_cpu = load_model("toyitm:default", device="cuda"), load_model("toyitm:default", device="cpu")
    images = eval_scenes("single", 4, UNSEEN_SEED, size=on_cpu.module.config.image_size)[1]
    texts = ["a red cube", "a large blue metal sphere"]
    assert (on_gpu.match_scores(images, texts) - on_cpu.match_scores(images, texts)).abs().max() < 0.1


def test_experiment_tiny_profile_is_the_library_defaults():
    "Papermill needs literal defaults in experiment 05b's parameters cell: they must be `ToyITMConfig()`'s and `toyitm_config()`'s."
    params = {name: ast.literal_eval(p["default"]) for name, p in notebook_parameters(EXPERIMENT).items()}
    config, model_defaults = ToyITMConfig(), inspect.signature(toyitm_config).parameters
    expected = {name: p.default for name, p in model_defaults.items() if name != "words"}
    expected.update({f"{kind}_caption_weight": weight for kind, weight in config.caption_kinds.items()})
    expected.update({f"{world}_world_weight": share for world, share in config.worlds.items()})
    expected.update({f.name: getattr(config, f.name) for f in fields(config)
                     if f.name not in ("model", "caption_kinds", "worlds", "object_counts", "field_probability", "weight_decay",
                                       "checkpoint_every", "render_version", "negatives_version")})   # not exposed by the experiment: the library's hold
    assert {name: params.get(name) for name in expected} == expected
    assert params["eval_every"] >= config.checkpoint_every      # the experiment checkpoints every min(50, eval_every) steps
