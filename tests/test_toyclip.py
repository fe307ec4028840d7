"""ToyCLIP: a smoke training on the world (loss falls, resume is exact), the committed checkpoint meets its accuracy
bars on fresh renders, and damaged or missing checkpoints are refused."""
import ast
import json
import inspect
from dataclasses import fields
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch

from release_checks import check_missing_default_release, check_release_is_verified
from vlconcepts.cli import notebook_parameters
from vlconcepts.models import load_model
from vlconcepts.toyclip import (COLOR_SHAPE_LABELS, missed_bars, TrainingConfig, autocast_dtype, caption, default_checkpoint, eval_scenes,
                                evaluate_zero_shot, load_toyclip_checkpoint, missed_world_bars, PART_COLOUR_KINDS, part_colour_probe, read_checkpoint,
                                toyclip_config, train_toyclip, world_recognition, WORLD_CAPTION_KINDS)
from vlconcepts.render import render_scenes, sample_scenes

EXPERIMENT = Path(__file__).resolve().parents[1] / "nbs" / "experiments" / "05_toyclip_training.ipynb"

UNSEEN_SEED = 7_000_003  # test scenes from a seed that training (seed 0) and the notebook's test (2024) never used
SMOKE = TrainingConfig(model=toyclip_config(image_size=32, vision_width=8, vision_layers=1, text_width=32, text_layers=1,
                                            embed_dim=16, context_length=24),
                       steps=6, batch_size=16, lr=2e-3, warmup_steps=1, pool_size=40, pool_steps=3, checkpoint_every=2,
                       eval_every=3)


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def test_smoke_training_on_the_world_resumes_exactly(tmp_path):
    whole = train_toyclip(SMOKE, tmp_path / "whole", device="cpu")
    losses = [h["loss"] for h in whole.history]
    assert np.mean(losses[-2:]) < np.mean(losses[:2]), losses
    train_toyclip(SMOKE, tmp_path / "resumed", device="cpu", stop_at_step=4)
    assert read_checkpoint(tmp_path / "resumed" / "last.pt")["step"] == 4
    resumed = train_toyclip(SMOKE, tmp_path / "resumed", device="cpu")
    assert [h["loss"] for h in resumed.history] == losses
    for (name, a), b in zip(whole.model.state_dict().items(), resumed.model.state_dict().values()):
        assert torch.equal(a, b), name


def test_hard_negatives_keep_the_batch_of_the_default_recipe():
    "With `hard_negatives` the default recipe's batches (world pool, themes, captions) are the batches without: only negatives are added."
    from dataclasses import replace
    from vlconcepts.toyclip import _world_defaults, create_toyclip, render_world_pool, training_rows
    config = TrainingConfig(model=SMOKE.model, pool_size=64, batch_size=16)
    pool, tokenizer = render_world_pool(config, 0), create_toyclip(SMOKE.model)[1]
    _, captioner, theme_fn = _world_defaults(config, "cpu", None, None, "world")     # the world's captions and themed batches
    added = 0
    for kind in ("edit", "part-swap"):
        for t in range(6):
            index, captions, tokens = training_rows(pool, t, config, tokenizer, captioner, theme_fn)
            index_, captions_, tokens_ = training_rows(pool, t, replace(config, hard_negatives=kind), tokenizer, captioner, theme_fn)
            assert torch.equal(index_, index) and captions_ == captions and torch.equal(tokens_[:len(captions)], tokens)
            added += len(tokens_) - len(captions)
    assert added > 0


@pytest.fixture(scope="module")
def default_world_recognition():
    "toyclip:default's zero-shot recognition per (world, attribute kind) on 300 unseen close-ups of each world."
    model = load_model("toyclip:default", device="cpu")
    recognition = world_recognition(model.module, model.tokenizer, n=300, seed=UNSEEN_SEED)
    print({f"{w}/{k}": round(v, 3) for (w, k), v in recognition.items()})
    return recognition


def test_default_checkpoint_meets_the_accuracy_bars():
    "The committed checkpoint reaches `toyclip.ACCURACY_BARS` on unseen scenes."
    model = load_model("toyclip:default", device="cpu")
    results = evaluate_zero_shot(model.module, model.tokenizer, n_single=480, n_binding=40, n_relational=40, seed=UNSEEN_SEED)
    print({k: round(v, 3) for k, v in results.items() if k != "confusion"})
    assert not missed_bars(results), missed_bars(results)


@pytest.mark.xfail(reason="measured on toyclip:default (world mixture, render version 3, 2,000 steps, test seed 2024): attributes "
                          "colour 0.95, shape 0.86, material 0.79, size 1.00, pattern 0.80, state 0.64; birds body colour 0.42, head "
                          "0.40, wing 0.20, pattern 0.78, shape 0.97, size 1.00; mean 0.73. 90-93% of the birds' part-colour errors "
                          "name a colour the bird shows on another part (27% if random: tables/toyclip_part_binding.md), a binding "
                          "failure. On a lent H100 (benchmarks/tiny_model_scaling.py, seed 0) 4x the steps lifts every attribute kind to "
                          ">= 0.81 but leaves the part colours at 0.30 / 0.63 / 0.22 (mean 0.81), while the same image tower trained "
                          "supervised reads them at >= 0.955; 4x the steps does not fit the 15-min training budget on this CPU. Part-swap "
                          "twins as hard negatives at the release's 2,000 steps read them at 0.50 / 0.47 / 0.23, as the same birds "
                          "drawn at random do (0.44 / 0.53 / 0.20; benchmarks/measured/2026-11-27_cpu_part_swap_arms.jsonl); text-only "
                          "hard negatives (TrainingConfig.hard_negatives, seeds 0-2 on a lent H100) leave the mean at 0.731 / 0.724 against "
                          "0.730 (benchmarks/measured/2026-11-27_h100_toyclip_negatives.jsonl; measured before the edits had a generator of their "
                          "own, when the batches' true captions changed too; not re-measured); a text tower and embedding twice as wide "
                          "0.742, the part colours unmoved (benchmarks/measured/2026-11-27_h100_toyclip_width.jsonl); a 5,000-step text "
                          "phase with the birds at half the scenes (TrainingConfig.text_steps, seeds 0-2 on this CPU) 0.775, body / head / "
                          "wing 0.53 / 0.65 / 0.23, at about 18 min of training in all (15.5 with its cheaper options) against a 15-min budget "
                          "(benchmarks/measured/2026-11-28_cpu_toyclip_text_phase.jsonl)", strict=True)
def test_default_checkpoint_meets_the_world_bars(default_world_recognition):
    "Issue 18's bars in every tiny world: each (world, attribute kind) ≥ 0.80 and their mean ≥ 0.90 on unseen close-ups."
    assert not missed_world_bars(default_world_recognition), missed_world_bars(default_world_recognition)


MEASURED_WORLD_RECOGNITION = {  # this test's own reading of toyclip:default (300 close-ups per world, test seed 2024), 2026-12-01
    ("attributes", "color"): 0.957, ("attributes", "shape"): 0.843, ("attributes", "material"): 0.763,
    ("attributes", "size"): 0.993, ("attributes", "pattern"): 0.845, ("attributes", "state"): 0.621,
    ("birds", "has_primary_color"): 0.41, ("birds", "has_head_color"): 0.387, ("birds", "has_wing_color"): 0.22,
    ("birds", "has_pattern"): 0.8, ("birds", "has_shape"): 0.98, ("birds", "has_size"): 1.0}


def test_default_checkpoint_misses_the_world_bars_by_the_measured_amount_only(default_world_recognition):
    "The expected failure above is the measured one: no kind reads more than 0.02 below what was recorded (a regression fails here)."
    assert set(default_world_recognition) == set(MEASURED_WORLD_RECOGNITION)
    fallen = {kind: (round(value, 3), MEASURED_WORLD_RECOGNITION[kind]) for kind, value in default_world_recognition.items()
              if value < MEASURED_WORLD_RECOGNITION[kind] - 0.02}
    assert not fallen, fallen


def test_default_checkpoint_through_the_model_interface():
    "The VLModel path (open_clip preprocessing of raw pixels, `similarity`) classifies as well as the direct one."
    model = load_model("toyclip:default", device="cpu")
    scenes, images = eval_scenes("single", 96, UNSEEN_SEED + 1, size=model.preprocess_cfg["size"][0]
                                 if isinstance(model.preprocess_cfg["size"], (tuple, list)) else model.preprocess_cfg["size"])
    scores = model.similarity(images, [caption(label) for label in COLOR_SHAPE_LABELS])
    truth = torch.tensor([COLOR_SHAPE_LABELS.index(f"{s.objects[0].color} {s.objects[0].shape}") for s in scenes])
    assert (scores.argmax(dim=1) == truth).float().mean() >= 0.85  # a sanity bound on 96 scenes; the bars are ACCURACY_BARS (above)


def test_sha_mismatch_and_missing_files_are_refused(tmp_path):
    model, _, state = check_release_is_verified(tmp_path, *default_checkpoint(), load_toyclip_checkpoint, "toyclip")
    assert state["format"] == "toyclip-release" and not model.training


def test_missing_default_checkpoint_is_a_clear_error(monkeypatch, tmp_path):
    import vlconcepts.toyclip as toyclip
    check_missing_default_release(monkeypatch, tmp_path, toyclip, "toyclip", "toyclip-default")


def test_experiment_tiny_profile_is_the_library_defaults():
    "Papermill needs literal defaults in experiment 05's parameters cell: they must be `TrainingConfig()`'s, `toyclip_config()`'s and `evaluate_zero_shot`'s."
    params = {name: ast.literal_eval(p["default"]) for name, p in notebook_parameters(EXPERIMENT).items()}
    config, model_defaults = TrainingConfig(), inspect.signature(toyclip_config).parameters
    evaluation = inspect.signature(evaluate_zero_shot).parameters
    by_table = {"object_counts": {"1": "one_object_weight", "2": "two_object_weight", "3": "three_object_weight"},
                "caption_kinds": {k: f"{k.replace('-', '_')}_caption_weight" for k in WORLD_CAPTION_KINDS},
                "worlds": {w: f"{w}_world_weight" for w in ("clevr", "attributes", "birds", "imcaps")}}
    expected = {name: p.default for name, p in model_defaults.items()}
    for field_ in fields(config):
        if field_.name in by_table:
            assert set(getattr(config, field_.name)) <= set(by_table[field_.name]), field_.name
            expected.update({name: getattr(config, field_.name).get(k, 0.0) for k, name in by_table[field_.name].items()})  # absent: 0
        elif field_.name not in ("model", "checkpoint_every", "render_version"): expected[field_.name] = getattr(config, field_.name)
    expected.update(test_seed=evaluation["seed"].default, n_test_single=evaluation["n_single"].default,
                    n_test_binding=evaluation["n_binding"].default, n_test_relational=evaluation["n_relational"].default,
                    n_probe_train=inspect.signature(part_colour_probe).parameters["n_train"].default)
    not_parameters = {"weight_decay", "head_width"}                 # the experiment does not expose these: the library default holds
    assert {name: params.get(name) for name in expected if name not in not_parameters} == \
           {name: value for name, value in expected.items() if name not in not_parameters}
    assert toyclip_config(**{name: params[name] for name in model_defaults if name in params}) == config.model
    assert params["eval_every"] == config.checkpoint_every          # the experiment checkpoints at each evaluation


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_toyclip_features_on_cuda_match_cpu():
    "Autocast on CUDA changes the features only by the autocast dtype's rounding."
    images = render_scenes(sample_scenes(5, 8, n_objects=1), 64)
    texts = ["a red cube", "a large blue metal sphere", "a cylinder behind a cube"]
    on_cpu, on_gpu = load_model("toyclip:default", device="cpu"), load_model("toyclip:default", device="cuda")
    assert on_cpu.fingerprint == on_gpu.fingerprint
    for cpu_features, gpu_features in ((on_cpu.encode_images(images), on_gpu.encode_images(images)),
                                       (on_cpu.encode_texts(texts), on_gpu.encode_texts(texts))):
        assert gpu_features.device.type == "cpu" and gpu_features.dtype == torch.float32
        cosine = torch.nn.functional.cosine_similarity(cpu_features, gpu_features, dim=1)
        assert cosine.min() > 0.995, cosine
    assert (on_cpu.similarity(images, texts).argmax(1) == on_gpu.similarity(images, texts).argmax(1)).float().mean() >= 0.75


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_toyclip_trains_with_mixed_precision_on_cuda_and_resumes(tmp_path):
    assert autocast_dtype(torch.device("cuda")) is not None
    whole = train_toyclip(SMOKE, tmp_path / "whole", device="cuda")
    losses = [h["loss"] for h in whole.history]
    assert np.isfinite(losses).all() and np.mean(losses[-2:]) < np.mean(losses[:2]), losses
    train_toyclip(SMOKE, tmp_path / "resumed", device="cuda", stop_at_step=4)
    assert read_checkpoint(tmp_path / "resumed" / "last.pt")["step"] == 4
    resumed = train_toyclip(SMOKE, tmp_path / "resumed", device="cuda")
    np.testing.assert_allclose([h["loss"] for h in resumed.history], losses, rtol=1e-2)


def test_tiny_model_scaling_smoke(benchmark_script, tmp_path):
    "benchmarks/tiny_model_scaling.py --smoke: each family of arms trains, is scored and appended at once; no budget left runs none."
    script = benchmark_script("tiny_model_scaling")
    arms = ["clip-2k", "itm-8k", "birds-supervised-64px"]
    rows = script.main(["--smoke", "--device", "cpu", "--arms", ",".join(arms), "--out", str(tmp_path / "a")])
    assert [r["arm"] for r in rows] == arms
    assert 0 <= rows[0]["mean"] <= 1 and "birds/has_wing_color" in rows[0]
    assert {"close_up", "world_attributes", "world_birds"} <= set(rows[1]) and rows[1]["seed"] == 0
    assert {"edits/attributes/pattern", "edits/birds/wing colour"} <= set(rows[1]), "the world rows split by the edited word"
    assert {f"birds/{k}" for k in ("has_primary_color", "has_head_color", "has_wing_color")} <= set(rows[2])
    assert len((tmp_path / "a" / "scaling.jsonl").read_text().splitlines()) == 3
    assert script.main(["--smoke", "--device", "cpu", "--arms", "clip-2k", "--budget-s", "0", "--out", str(tmp_path / "b")]) == []
    with pytest.raises(SystemExit): script.main(["--arms", "clip-3k", "--out", str(tmp_path / "c")])


def test_tiny_model_scaling_itm_arm_trains_at_its_seed(benchmark_script, tmp_path):
    "A ToyITM arm trains at `--seed` in its own run folder, and its world rows' edit split covers the pairs of those rows."
    script = benchmark_script("tiny_model_scaling")
    rows = script.main(["--smoke", "--device", "cpu", "--arms", "itm-32k", "--seed", "2", "--out", str(tmp_path / "a"),
                        "--runs-dir", str(tmp_path / "runs")])
    assert rows[0]["seed"] == 2 and (tmp_path / "runs" / "itm-32k-seed2").is_dir()
    assert not (tmp_path / "runs" / "itm-32k").exists()
    kinds = [k for k in rows[0] if k.startswith("edits/attributes/")]
    assert kinds and all(0 <= rows[0][k] <= 1 for k in kinds)
    assert {"single", "binding", "relational"} <= set(rows[0])
    again = script.main(["--smoke", "--device", "cpu", "--arms", "itm-32k", "--seed", "2", "--reuse", "--out", str(tmp_path / "b"),
                         "--runs-dir", str(tmp_path / "runs")])            # scores the finished run again: same numbers
    timing = ("wall_s", "train_s")
    assert {k: v for k, v in again[0].items() if k not in timing} == {k: v for k, v in rows[0].items() if k not in timing}
    with pytest.raises(SystemExit, match="no finished run"):
        script.main(["--smoke", "--device", "cpu", "--arms", "itm-32k", "--seed", "3", "--reuse", "--out", str(tmp_path / "c"),
                     "--runs-dir", str(tmp_path / "runs")])


def test_tiny_model_scaling_negatives_arm_trains_with_its_negatives(benchmark_script, tmp_path):
    "A hard-negatives arm trains on the world mixture with NegCLIP's loss, at the seed asked for, and says so in its checkpoint."
    script = benchmark_script("tiny_model_scaling")
    rows = script.main(["--smoke", "--device", "cpu", "--arms", "clip-2k-part-swap-negatives", "--seed", "3",
                        "--out", str(tmp_path / "a"), "--runs-dir", str(tmp_path / "runs")])
    assert rows[0]["seed"] == 3 and 0 <= rows[0]["mean"] <= 1
    state = read_checkpoint(tmp_path / "runs" / "clip-2k-part-swap-negatives-seed3" / "last.pt")
    stored = TrainingConfig.from_json(state["training_config_json"])
    assert (stored.hard_negatives, stored.seed) == ("part-swap", 3)
    assert np.isfinite([h["loss"] for h in json.loads(state["history_json"])]).all()


def test_tiny_model_scaling_three_phase_arm(benchmark_script, tmp_path):
    "The three-phase arm trains joint, text and joint steps after it (cut for --smoke) and reports the ties, probes and CLEVR accuracies."
    script = benchmark_script("tiny_model_scaling")
    rows = script.main(["--smoke", "--device", "cpu", "--arms", "clip-three-phases", "--out", str(tmp_path / "a"),
                        "--runs-dir", str(tmp_path / "runs")])
    state = read_checkpoint(tmp_path / "runs" / "clip-three-phases-seed0" / "last.pt")
    stored = TrainingConfig.from_json(state["training_config_json"])
    assert (stored.text_steps, stored.joint_steps_after_text, stored.text_token_embedding) == (4, 3, False)
    phases = [h.get("phase") for h in json.loads(state["history_json"])]
    assert phases == [None] * stored.steps + ["text"] * 4 + ["joint after text"] * 3
    assert isinstance(rows[0]["cub_attribute_ties"], int) and 0 <= rows[0]["probe/has_wing_color"] <= 1
    assert 0 <= rows[0]["clevr/color_shape"] <= 1 and -1 <= rows[0]["part_prompt_cosine"] <= 1
    # --reuse scores the finished run as it stands: the same scores, the checkpoint untouched
    before = (tmp_path / "runs" / "clip-three-phases-seed0" / "last.pt").read_bytes()
    again = script.main(["--smoke", "--device", "cpu", "--arms", "clip-three-phases", "--out", str(tmp_path / "b"),
                         "--runs-dir", str(tmp_path / "runs"), "--reuse"])
    assert {k: v for k, v in again[0].items() if k not in ("wall_s", "train_s")} == {k: v for k, v in rows[0].items() if k not in ("wall_s", "train_s")}
    assert (tmp_path / "runs" / "clip-three-phases-seed0" / "last.pt").read_bytes() == before
    paused = tmp_path / "paused" / "clip-three-phases-seed0"  # a run paused before its end is refused, not trained on
    paused.mkdir(parents=True)
    state = read_checkpoint(tmp_path / "runs" / "clip-three-phases-seed0" / "last.pt")
    torch.save({**state, "step": state["step"] - 1}, paused / "last.pt")
    with pytest.raises(SystemExit, match="stopped at step"):
        script.main(["--smoke", "--device", "cpu", "--arms", "clip-three-phases", "--out", str(tmp_path / "d"),
                     "--runs-dir", str(paused.parent), "--reuse"])
    with pytest.raises(SystemExit, match="no finished run of clip-2k seed 0"):  # a control with --phase-scores needs its run
        script.main(["--smoke", "--device", "cpu", "--arms", "clip-2k", "--out", str(tmp_path / "c"),
                     "--runs-dir", str(tmp_path / "runs"), "--reuse", "--phase-scores"])


def test_tiny_model_scaling_part_swap_batches(benchmark_script):
    "The part-swap arms' pool: each twin differs from its bird in exactly two part colours (still a valid bird); a part-swap batch holds whole pairs, named apart by their captions."
    script = benchmark_script("tiny_model_scaling")
    config = TrainingConfig(model=SMOKE.model, pool_size=160, batch_size=16)
    pool = script.part_swap_pool(config, 0, "cpu")
    assert len(pool.pairs) >= 4 and len(pool.images) == len(pool.scenes) == pool.pairs.max() + 1
    for a, b in pool.pairs:
        bird, twin = pool.scenes[a].info["bird"], pool.scenes[b].info["bird"]
        changed = {k for k in PART_COLOUR_KINDS if bird[k] != twin[k]}
        assert changed == set(pool.scenes[a].info["swapped"]) and len(changed) == 2
        assert sorted(bird[k] for k in PART_COLOUR_KINDS) == sorted(twin[k] for k in PART_COLOUR_KINDS)
        assert twin["has_primary_color"] not in (twin["has_head_color"], twin["has_wing_color"])
        rng = np.random.default_rng(0)
        assert script.part_colour_caption(pool.scenes[a], rng) != script.part_colour_caption(pool.scenes[b], np.random.default_rng(0))
    assert script.part_swap_twin({**pool.scenes[0].info.get("bird", {}), "has_primary_color": "red", "has_head_color": "blue",
                                  "has_wing_color": "blue"}, np.random.default_rng(0)) is None  # head = wing: no valid swap
    themed = [script.bird_batch_theme("part-swaps")(pool, np.random.default_rng(s), config) for s in range(60)]
    bird_batches = [among for among, captioner in themed if captioner is script.part_colour_caption]
    assert 0 < len(bird_batches) < 30  # about PART_SWAP_FRACTION of the steps
    pairs = {tuple(p) for p in pool.pairs.tolist()}
    assert all({tuple(b) for b in np.asarray(among).reshape(-1, 2).tolist()} <= pairs for among in bird_batches)


def test_tiny_model_scaling_bird_only_arms(benchmark_script, tmp_path):
    "The bird-only arms train on birds alone; the every-part arm's captions name all three part colours (and refuse other worlds)."
    script = benchmark_script("tiny_model_scaling")
    pool = script.render_world_pool(TrainingConfig(model=SMOKE.model, pool_size=24, worlds={"birds": 1.0}), 0)
    assert {ws.world for ws in pool.scenes} == {"birds"}
    for k, ws in enumerate(pool.scenes):
        caption, bird = script.every_part_captioner(ws, np.random.default_rng(k)), ws.info["bird"]
        assert caption.startswith("the bird is ") and f"{bird['has_head_color']} headed" in caption
        assert f"{bird['has_wing_color']} winged" in caption and bird["has_primary_color"] in caption.split()
    with pytest.raises(ValueError, match="birds only"):
        script.every_part_captioner(script.WorldScene("clevr", pool.scenes[0].scene), np.random.default_rng(0))
    mixed = script.CAPTIONERS["every-part-birds"](TrainingConfig())  # the mixture arm: birds as above or in the prompt form
    forms = [mixed(pool.scenes[0], np.random.default_rng(k)) for k in range(40)]
    assert {f.split(" whose ")[0] if " whose " in f else "class" for f in forms} == {"a photo of bird", "class"}
    assert all("headed" in f and "winged" in f for f in forms if not f.startswith("a photo of bird whose"))
    clevr = script.WorldScene("clevr", pool.scenes[0].scene)
    assert mixed(clevr, np.random.default_rng(5)) == script.mixture_captioner(script.world_captioner(TrainingConfig().caption_kinds))(clevr, np.random.default_rng(5))
    script.main(["--smoke", "--device", "cpu", "--arms", "clip-2k-birds-every-part", "--out", str(tmp_path / "a"),
                 "--runs-dir", str(tmp_path / "runs")])
    stored = TrainingConfig.from_json(read_checkpoint(tmp_path / "runs" / "clip-2k-birds-every-part-seed0" / "last.pt")["training_config_json"])
    assert stored.worlds == {"birds": 1.0}


def test_bird_part_pixels(benchmark_script):
    "benchmarks/bird_part_pixels.py: recolouring a part changes that part only, and every part shows pixels on some birds."
    script = benchmark_script("bird_part_pixels")
    rng = np.random.default_rng(0)
    scenes = [script.sample_world_scene("birds", rng).scene for _ in range(6)]
    wing = script.recoloured(scenes[0], "wing").objects[0]
    assert wing.parts["wing"] != scenes[0].objects[0].parts["wing"] and wing.parts["head"] == scenes[0].objects[0].parts["head"]
    assert script.recoloured(scenes[0], "body").objects[0].parts == scenes[0].objects[0].parts
    counts = script.part_pixels(scenes, size=32)
    assert set(counts) == {"body", "head", "wing"} and all(len(c) == 6 and (c >= 0).all() and c.sum() > 0 for c in counts.values())
    assert (counts["body"] > 0).all()


def test_toyclip_locked_image_smoke(benchmark_script, tmp_path):
    "benchmarks/toyclip_locked_image.py --smoke: both arms train from the release and are scored; the locked arm leaves the image tower as shipped."
    script = benchmark_script("toyclip_locked_image")
    rows = script.main(["--smoke", "--release", "--device", "cpu", "--out", str(tmp_path)])
    assert [r["arm"] for r in rows] == ["release", "joint", "locked-image"]
    assert all(0 <= r["mean"] <= 1 and -1 <= r["part_prompt_cosine"] <= 1 and "birds/has_head_color" in r for r in rows)
    assert len((tmp_path / "locked_image.jsonl").read_text().splitlines()) == 3
    shipped = load_model("toyclip:default", device="cpu").module
    config = script.replace(script.TrainingConfig(seed=100, steps=3), **{k: v for k, v in script.SMOKE.items() if k != "n_test"})
    for arm, image_tower_moves in (("locked-image", False), ("joint", True)):
        model, _, _ = script.continue_release(arm, config, torch.device("cpu"))
        moved = [k for k, v in model.visual.state_dict().items() if not torch.equal(v, shipped.visual.state_dict()[k])]
        assert bool(moved) == image_tower_moves, (arm, moved[:3])
        assert not torch.equal(model.text_projection, shipped.text_projection)
    birds = script.main(["--smoke", "--arms", "locked-image", "--worlds", "birds=1", "--device", "cpu", "--out", str(tmp_path / "birds")])
    assert birds[0]["worlds"] == {"birds": 1.0}
    probed = script.main(["--smoke", "--arms", "joint", "--start", "toyclip:default", "--probe", "--device", "cpu", "--out", str(tmp_path / "probe")])
    assert probed[0]["start"] == "toyclip:default"
    assert all(0 <= probed[0][f"probe/{k}"] <= 1 for k in script.PART_COLOUR_KINDS)
    with pytest.raises(SystemExit): script.main(["--arms", "frozen", "--out", str(tmp_path)])


def test_toyclip_text_phase_smoke(benchmark_script, tmp_path):
    "benchmarks/toyclip_text_phase.py --smoke: the library's text phase continues the release, scored on the way and at the test seed."
    script = benchmark_script("toyclip_text_phase")
    rows = script.main(["--smoke", "--worlds", "birds=0.5,clevr=0.5", "--out", str(tmp_path), "--export", str(tmp_path / "release")])
    cheaper = script.main(["--smoke", "--pool-steps", "3", "--freeze-token-embedding", "--out", str(tmp_path / "cheaper")])
    assert all(r["text_pool_steps"] == 3 and r["text_token_embedding"] is False for r in cheaper)
    assert [(r["step"], r["eval_seed"]) for r in rows] == [(0, 7), (2, 7), (4, 7), (4, 2024)]
    assert all(r["worlds"] == {"birds": 0.5, "clevr": 0.5} and 0 <= r["mean"] <= 1 and r["cub_attribute_ties"] >= 0 for r in rows)
    assert len((tmp_path / "text_phase.jsonl").read_text().splitlines()) == 4
    continued, shipped = load_model(f"toyclip:{tmp_path}/release/toyclip-text-phase.pt"), load_model("toyclip:default")
    texts = ["a photo of bird whose head color is red", "a red cube"]
    assert not torch.allclose(continued.encode_texts(texts), shipped.encode_texts(texts))   # the text side moved
    images = torch.rand(2, 3, 64, 64)
    assert torch.allclose(continued.encode_images(images), shipped.encode_images(images))  # the image tower did not


@pytest.mark.slow
def test_isa_emulation_smoke(benchmark_script):
    "benchmarks/isa_emulation.py --smoke: each side runs in its own interpreter; the capped one reports AVX2 kernels; weight digests."
    script = benchmark_script("isa_emulation")
    rows = script.main(["--smoke"])
    assert set(rows) == {"native", "capped at AVX2"} and list(script.SIDES)[:2] == list(rows)     # the smoke run's two sides
    assert rows["capped at AVX2"]["capability"] in ("AVX2", "DEFAULT") and script.SIDES["capped at AVX2, MKL CBWR"]["MKL_CBWR"] == "AVX2"
    assert all(r["toyclip_step_s"] > 0 and r["toyitm_step_s"] > 0 for r in rows.values())
    assert all(len(r[f"{m}_weights"]) == 16 for r in rows.values() for m in ("toyclip", "toyitm"))
    if rows["native"]["capability"] == "AVX2":   # an AVX2 host: the cap changes no kernel, so not a bit of the weights
        assert rows["native"]["toyclip_weights"] == rows["capped at AVX2"]["toyclip_weights"]


def test_toyclip_wing_layers(benchmark_script, one_torch_thread):
    "benchmarks/toyclip_wing_layers.py: each stage's features are its 2 x 2 pooled map; the smoke run probes every stage; the reading's three branches."
    script = benchmark_script("toyclip_wing_layers")
    clip = load_model("toyclip:default").module
    images = torch.rand(3, 3, 64, 64)
    width = {"layer4": clip.visual.layer4[-1].conv3.out_channels, "layer1": clip.visual.layer1[-1].conv3.out_channels}
    for stage, channels in width.items():
        features = script.StageReader(clip, stage).encode_image(images)
        assert features.shape == (3, 4 * channels) and torch.allclose(features.norm(dim=-1), torch.ones(3))
    native = script.StageReader(clip, "layer3", grid=None).encode_image(images)              # 4 x 4 at 64 px
    assert native.shape == (3, 16 * clip.visual.layer3[-1].conv3.out_channels)
    embedding = script.StageReader(clip, "image embedding").encode_image(images)
    assert torch.allclose(embedding, clip.encode_image(images, normalize=True))
    table = script.main(["--smoke"])
    assert list(table.index) == list(script.STAGES) and ((table >= 0) & (table <= 1)).all().all()
    wing = lambda layer4, embedding, layer2=0.5: pd.DataFrame({"has_wing_color": {"stem": 0.3, "layer1": 0.4, "layer2": layer2, "layer3": 0.5,
                                                                                  "layer4": layer4, "image embedding": embedding}})
    assert script.reading(wing(0.60, 0.35)).startswith("lost in the attention pool")
    assert script.reading(wing(0.50, 0.35)).startswith("between")
    assert script.reading(wing(0.40, 0.35)).endswith("deepest stage at 0.80 or more: none")
    assert script.reading(wing(0.40, 0.35, layer2=0.85)).endswith("deepest stage at 0.80 or more: layer2")
    assert script.native_reading(wing(0.40, 0.35, layer2=0.85)).startswith("lost at layer3")      # the second arm's reading
    assert script.native_reading(wing(0.90, 0.35)).startswith("lost at image embedding")
    assert script.native_reading(wing(0.40, 0.35)) == "never read at 0.80"
    assert script.control_reading(wing(0.85, 0.95)).startswith("the release's trunk does not compute it")   # the control's reading
    assert script.control_reading(wing(0.60, 0.95)).startswith("the probes cannot tell")
    supervised = script.load_tower("birds-supervised-64px", smoke=True)                  # the control's tower, a few steps
    assert script.StageReader(supervised, "layer4").encode_image(images).shape == (3, 4 * width["layer4"])
