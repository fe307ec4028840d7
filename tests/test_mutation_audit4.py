"""A fourth mutation audit (world_mixture, caption_data, captions, attribute_object_data, binding_data, cub_data, factor_data,
scenes, toyclip, toyitm, cli, models): each test kills a hand-made mutant that the older tests let through; its docstring
names the mutant (the mutants the old tests kill have no test here, but one that they kill only by chance). One test pins a real
bug the audit found (`load_mit_states` and a missing first image; fixed). Tiny inputs only: no training and almost no rendering."""
import json
import re

import numpy as np
import pytest

from vlconcepts.core import DatasetFormatError, DatasetNotFound, InputValidationError, ModelSpecError


# ---------------------------------------------------------------- world_mixture

def test_a_world_mixture_refuses_a_negative_share():
    "Kills: check_mixture tests only the sum (a negative share with a positive sum passes)."
    from vlconcepts.world_mixture import check_mixture
    with pytest.raises(InputValidationError, match="non-negative"):
        check_mixture({"clevr": 1.0, "birds": -0.5})


def _bird(**values):
    from vlconcepts.world_mixture import WorldScene
    bird = {"has_primary_color": "gray", "has_head_color": "red", "has_wing_color": "blue", "has_pattern": "striped",
            "has_shape": "egg", "has_size": "small", **values}
    return WorldScene("birds", None, {"bird": bird})


def _holds_of_bird(caption: str, bird: dict) -> bool:
    "Whether a `bird_caption` is true of `bird` (either of CUB's two prompt forms)."
    from vlconcepts.world_mixture import BIRD_ATTRIBUTE_TEMPLATE, BIRD_CLASS_TEMPLATE, BIRD_GROUP_WORDS, bird_class_words
    for group, words in BIRD_GROUP_WORDS.items():
        if caption.startswith(BIRD_ATTRIBUTE_TEMPLATE.format(words, "")):
            return caption == BIRD_ATTRIBUTE_TEMPLATE.format(words, bird[group])
    phrases, text = list(bird_class_words(bird).values()), caption[len(BIRD_CLASS_TEMPLATE.format("")):]
    subsets = (" ".join(p for k, p in enumerate(phrases) if mask >> k & 1) for mask in range(1, 2 ** len(phrases)))
    return text in set(subsets)


def test_a_swapped_bird_caption_is_false_of_the_bird():
    "Kills: bird_caption(swap=True) may leave the swapped group out of a class caption (which is then true)."
    from vlconcepts.world_mixture import bird_caption
    ws = _bird()
    assert _holds_of_bird(bird_caption(ws, np.random.default_rng(0)), ws.info["bird"])      # the check itself
    for seed in range(120):
        caption = bird_caption(ws, np.random.default_rng(seed), swap=True)
        assert not _holds_of_bird(caption, ws.info["bird"]), (seed, caption)


def test_an_imcaps_world_scene_keeps_its_own_true_caption():
    "Kills: sample_world_scene('imcaps') stores the other image's caption as the scene's true one."
    from vlconcepts.caption_data import imcaps_caption_holds
    from vlconcepts.world_mixture import sample_world_scene
    rng = np.random.default_rng(3)
    for _ in range(6):
        ws = sample_world_scene("imcaps", rng)
        assert imcaps_caption_holds(ws.scene, ws.info["caption"]) and not imcaps_caption_holds(ws.scene, ws.info["false"])


def test_attribute_close_ups_set_between_one_and_all_five_kinds():
    """Kills: _attribute_scene's kind count drawn from 1..4 (never all five MAC kinds). The old tests kill it only by
    chance (a tie of the committed ToyITM's scores on the changed images, test_tiny_vocabulary): this checks it directly."""
    from vlconcepts.world_mixture import sample_world_scene
    rng = np.random.default_rng(0)
    counts = {len(sample_world_scene("attributes", rng).info["attrs"]) for _ in range(150)}
    assert counts == {1, 2, 3, 4, 5}


# ---------------------------------------------------------------- caption_data

@pytest.mark.parametrize("x, side", [(0.3, "left"), (0.45, None), (0.55, None), (0.7, "right")])
def test_image_side_leaves_a_margin_around_the_centre(monkeypatch, x, side):
    "Kills: image_side's left test uses 0.5 + margin (a centred object is 'on the left')."
    from vlconcepts import caption_data
    monkeypatch.setattr(caption_data, "project_to_pixels", lambda scene, size: [[x, 0.5]])
    assert caption_data.image_side(None, 0) == side


def test_negated_clauses_of_the_corpus_are_true_of_their_scenes():
    "Kills: 'a cube that is not on the left' evaluated as 'on the left' (== for !=)."
    from vlconcepts.caption_data import caption_corpus, imcaps_caption_holds
    corpus = caption_corpus(80, seed=2, kinds=("negated-clause",), weights=None)
    assert any(c.endswith(("not on the left", "not on the right")) for c, _ in corpus)
    for caption, scene in corpus: assert imcaps_caption_holds(scene, caption), caption


def test_differing_words_refuses_captions_of_different_lengths():
    "Kills: differing_words without its length check (zip drops the longer caption's tail)."
    from vlconcepts.caption_data import differing_words
    with pytest.raises(InputValidationError, match="exactly one word"):
        differing_words("a red cube", "a blue cube floating")


def test_caption_corpus_never_draws_a_kind_without_weight():
    "Kills: caption_corpus gives a kind missing from `weights` the weight 1 instead of 0."
    from vlconcepts.captions import NUMBER_WORDS
    from vlconcepts.caption_data import caption_corpus
    captions = [c for c, _ in caption_corpus(25, seed=0, kinds=("single", "counting"), weights={"single": 1.0})]
    assert not any(c.split()[0] in NUMBER_WORDS for c in captions), captions


def test_reporting_bias_records_pair_each_caption_with_its_image(tmp_path):
    "Kills: the reporting_bias conversion swaps caption_0 and caption_1 against image_0 and image_1."
    from vlconcepts.caption_data import read_pair_records
    options = ["a dog before jumping", "a dog after jumping"]
    file = tmp_path / "temporal.json"
    file.write_text(json.dumps([{"filename": "b.jpg", "caption_options": options, "gold_index": 1},
                                {"filename": "a.jpg", "caption_options": options, "gold_index": 0}]))
    (record,) = read_pair_records(file)
    assert (record["image_0"], record["caption_0"], record["image_1"], record["caption_1"]) == \
        ("a.jpg", options[0], "b.jpg", options[1])


# ---------------------------------------------------------------- captions

def _scene(*objects, vocab=None):
    "A scene of resting objects given as (shape, color, x, y)."
    from vlconcepts.scenes import CLEVR_VOCAB, Scene, resting_object
    vocab = vocab or CLEVR_VOCAB
    return Scene([resting_object(vocab, shape=s, color=c, material="rubber", size="small", x=x, y=y) for s, c, x, y in objects],
                 vocab=vocab)


def test_a_counting_caption_holds_only_for_the_exact_count():
    "Kills: caption_holds counts with >= (two red cubes make 'one red cube' true)."
    from vlconcepts.captions import caption_holds
    scene = _scene(("cube", "red", -2.0, 0.0), ("cube", "red", 2.0, 0.0))
    assert caption_holds(scene, "two red cubes") and not caption_holds(scene, "one red cube")


def test_a_phrase_with_two_words_of_one_attribute_is_refused():
    "Kills: _parse_phrase without its 'two <attribute> words' check ('a red blue cube' parses as a blue cube)."
    from vlconcepts.captions import caption_holds
    with pytest.raises(InputValidationError, match="two color words"):
        caption_holds(_scene(("cube", "blue", 0.0, 0.0)), "a red blue cube")


# ---------------------------------------------------------------- scenes

def test_relation_holds_refuses_the_index_one_past_the_end():
    "Kills: relation_holds checks obj <= n (index n slips through to an IndexError)."
    from vlconcepts.scenes import relation_holds
    scene = _scene(("cube", "red", -2.0, 0.0), ("sphere", "blue", 2.0, 0.0))
    with pytest.raises(InputValidationError, match="out of range"): relation_holds(scene, 0, "left", 2)
    with pytest.raises(InputValidationError, match="out of range"): relation_holds(scene, 2, "left", 0)


def test_extending_a_vocabulary_keeps_its_states():
    "Kills: Vocabulary.extend replaces the states of the vocabulary it extends instead of adding to them."
    from vlconcepts.scenes import EXTENDED_VOCAB
    bigger = EXTENDED_VOCAB.extend(colors={"pink": (255, 192, 203)})
    assert set(bigger.states) == set(EXTENDED_VOCAB.states) and "pink" in bigger.colors


def test_an_object_count_range_includes_its_upper_end():
    "Kills: n_objects=(low, high) drawn with an exclusive upper bound (never `high` objects)."
    from vlconcepts.scenes import place_scene
    assert {len(place_scene(seed, (1, 3)).objects) for seed in range(40)} == {1, 2, 3}


def test_an_unknown_state_in_a_spec_names_the_spec():
    "Kills: _check_specs without its state check (a later, vaguer error from the object check instead)."
    from vlconcepts.scenes import EXTENDED_VOCAB, place_scene
    with pytest.raises(InputValidationError, match=re.escape("object_specs[0]['state'] = 'melted'")):
        place_scene(0, 1, EXTENDED_VOCAB, object_specs=[{"state": "melted"}])


# ---------------------------------------------------------------- attribute_object_data

def test_a_small_closed_world_still_covers_every_object():
    "Kills: draw_closed_world without the step that gives every object a pair."
    from vlconcepts.attribute_object_data import ATTRIBUTE_KINDS, WORLD_OBJECTS, draw_closed_world
    for seed in range(20):
        closed = draw_closed_world(np.random.default_rng(seed), fraction=0.01)
        assert {o for _, o in closed} == set(WORLD_OBJECTS) and {a for a, _ in closed} == set(ATTRIBUTE_KINDS)


def test_mit_states_loader_skips_images_of_pairs_in_no_split_file(tmp_path):
    "Kills: load_mit_states keeps images whose (attr, obj) pair no split file lists (TMN drops them)."
    import shutil
    import torch
    from vlconcepts.attribute_object_data import MIT_ATTRIBUTES, MIT_METADATA, WORLD_OBJECTS, export_mit_states, load_mit_states
    root = export_mit_states(tmp_path / "ms", n=6, size=8)
    before = load_mit_states(root)
    outside = next((a, o) for a in MIT_ATTRIBUTES for o in WORLD_OBJECTS if (a, o) not in set(before.pairs))
    metadata = torch.load(root / MIT_METADATA, weights_only=True)
    (root / "images" / "extra").mkdir()
    shutil.copy(before.paths[0], root / "images" / "extra" / "x.png")
    metadata.append({"image": "extra/x.png", "attr": outside[0], "obj": outside[1], "set": "train"})
    torch.save(metadata, root / MIT_METADATA)
    after = load_mit_states(root)
    assert len(after) == len(before) and outside not in [(a[0], o) for a, o in zip(after.attrs, after.objs)]


def test_mit_states_drop_keeps_the_others_when_the_first_image_is_missing(tmp_path):
    """Found by the audit (a real bug, fixed): load_mit_states took the image-naming convention from the first metadata record
    only, so a missing first image made every image of an underscore tree 'missing' and missing_images='drop' refused them all."""
    import torch
    from vlconcepts.attribute_object_data import MIT_METADATA, export_mit_states, load_mit_states
    root = export_mit_states(tmp_path / "ms", n=6, size=8)
    for folder in list((root / "images").iterdir()): folder.rename(folder.with_name(folder.name.replace(" ", "_")))  # 'attr_obj/'
    assert len(load_mit_states(root)) == 6                                      # the underscore convention is understood
    first = torch.load(root / MIT_METADATA, weights_only=True)[0]["image"]       # 'attr obj/000000.png'
    (root / "images" / first.replace(" ", "_")).unlink()
    assert len(load_mit_states(root, missing_images="drop")) == 5


def test_mit_states_plan_draws_each_split_from_its_own_pairs():
    "Kills: plan_mit_states draws the test images from the val pairs (a split leak the loader cannot see)."
    from vlconcepts.attribute_object_data import plan_mit_states
    pairs, plan = plan_mit_states(120, seed=1)
    assert {p["split"] for p in plan} == {"train", "val", "test"}
    for p in plan: assert (p["attr"], p["obj"]) in set(pairs[p["split"]]), p


def test_attributes_hold_checks_the_object_shape():
    "Kills: attributes_hold ignores the shape (a red cube 'shows' red sphere)."
    from vlconcepts.attribute_object_data import attributes_hold
    red_cube = {"shape": "cube", "color": "red", "material": "rubber", "size": "small"}
    assert attributes_hold(red_cube, ["red"], "cube") and not attributes_hold(red_cube, ["red"], "sphere")


# ---------------------------------------------------------------- binding_data

@pytest.mark.parametrize("other", ["red sphere", "blue cube"])
def test_two_object_distractors_need_two_colours_and_two_shapes(other):
    "Kills: two_object_distractors refuses only a pair that shares both colour and shape (or -> and)."
    from vlconcepts.binding_data import two_object_distractors
    with pytest.raises(InputValidationError, match="different colours and shapes"):
        two_object_distractors("red cube", other, np.random.default_rng(0))


def test_a_binding_csv_row_with_an_empty_label_is_refused(tmp_path):
    "Kills: _read_binding_csv checks only the file name for emptiness (an empty distractor loads)."
    from vlconcepts.binding_data import CSV_COLUMNS, load_binding
    folder = tmp_path / "single_object"
    folder.mkdir()
    for name, row in (("train.csv", "a.png,red cube,blue cube,gray cube,red sphere,"), ("val.csv", ""), ("test.csv", "")):
        (folder / name).write_text(",".join(CSV_COLUMNS) + "\n" + row + ("\n" if row else ""))
    with pytest.raises(DatasetFormatError, match=r"train\.csv, line 2.*empty field"):
        load_binding(tmp_path, "single")


# ---------------------------------------------------------------- cub_data

def test_cub_annotations_mark_nothing_present_when_not_visible():
    "Kills: annotate_cub marks the true value present at certainty 1 ('not visible')."
    from vlconcepts.cub_data import CUB_GROUPS, annotate_cub, cub_classes
    bird, seen_one = cub_classes(1, np.random.default_rng(0))[0], False
    for seed in range(40):
        rows, start = annotate_cub(bird, np.random.default_rng(seed)), 0
        for values in CUB_GROUPS.values():
            group = rows[start:start + len(values)]
            start += len(values)
            if group[0][1] == 1: seen_one = True; assert all(present == 0 for present, _ in group), group
    assert seen_one


def test_cub_classes_give_head_and_wing_colours_unlike_the_body():
    "Kills: cub_classes skips a class only when both the head and the wing share the body colour (or -> and)."
    from vlconcepts.cub_data import cub_classes
    for c in cub_classes(60, np.random.default_rng(1)):
        assert c["has_head_color"] != c["has_primary_color"] and c["has_wing_color"] != c["has_primary_color"], c


def test_cub_loader_refuses_a_certainty_outside_1_to_4(tmp_path):
    "Kills: image_attribute_labels.txt accepts any certainty (5 loads as a certainty)."
    from vlconcepts.cub_data import export_cub, load_cub
    cub = export_cub(tmp_path, n=2, size=8)
    labels = cub / "attributes" / "image_attribute_labels.txt"
    lines = labels.read_text().splitlines()
    img, attr, present, _, time = lines[4].split()
    lines[4] = f"{img} {attr} {present} 5 {time}"
    labels.write_text("\n".join(lines) + "\n")
    with pytest.raises(DatasetFormatError, match="image_attribute_labels.txt, line 5"): load_cub(cub)


# ---------------------------------------------------------------- factor_data

def test_select_indices_takes_the_whole_grid_when_asked():
    "Kills: select_indices refuses n equal to the size of the grid (n >= len(pool))."
    from vlconcepts.factor_data import select_indices
    np.testing.assert_array_equal(select_indices(("a", "b"), (2, 3), n=6, seed=1), np.arange(6))


def test_classes_of_indices_refuses_the_index_past_the_end():
    "Kills: classes_of_indices checks max > total (index `total` raises numpy's ValueError, not ours)."
    from vlconcepts.factor_data import classes_of_indices
    with pytest.raises(InputValidationError, match=r"\[0, 6\)"): classes_of_indices([0, 6], (2, 3))


def test_a_dsprites_heart_points_down_and_posy_moves_it_down():
    "Kills: draw_dsprites measures dy downwards (hearts drawn upside down; rotations turn the other way)."
    from vlconcepts.factor_data import draw_dsprites, dsprites_values_of_classes
    classes = np.array([[0, 2, 5, 0, 16, 8], [0, 2, 5, 0, 16, 24]])           # hearts, posY class 8 then 24
    high, low = draw_dsprites(dsprites_values_of_classes(classes))
    rows = np.nonzero(high)[0]                                                # the row of every sprite pixel
    assert rows.mean() < np.nonzero(low)[0].mean()                            # a larger posY is lower in the image (row-major)
    assert rows.mean() < (rows.min() + rows.max()) / 2 - 1                    # its mass above the box's middle: lobes up, point down


# ---------------------------------------------------------------- toyclip

def test_weight_table_refuses_a_negative_weight():
    "Kills: weight_table tests only that the weights' sum is positive."
    from vlconcepts.toyclip import weight_table
    with pytest.raises(InputValidationError, match="non-negative"): weight_table("t", {"a": 2.0, "b": -1.0})


def test_weighted_choice_follows_the_weights():
    "Kills: weighted_choice draws uniformly (ignoring the weights)."
    from vlconcepts.toyclip import weighted_choice
    rng = np.random.default_rng(0)
    assert {weighted_choice({"a": 1.0, "b": 0.0}, rng) for _ in range(40)} == {"a"}


def test_negated_world_captions_always_name_a_colour():
    "Kills: world_captioner without the rule that a negated caption names the colour."
    from vlconcepts.scenes import CLEVR_VOCAB, place_scene
    from vlconcepts.toyclip import world_captioner
    captioner, colours = world_captioner({"negated": 1.0}), set(CLEVR_VOCAB.colors)
    for seed in range(40):
        caption = captioner(place_scene(seed, (1, 3)), np.random.default_rng(seed))
        assert caption.startswith("no ") and set(caption.split()) & colours, caption


def test_training_config_refuses_theme_fractions_over_one():
    "Kills: TrainingConfig accepts themed_fraction + material_themed_fraction > 1."
    from vlconcepts.toyclip import TrainingConfig
    with pytest.raises(InputValidationError, match="at most 1"): TrainingConfig(themed_fraction=0.7, material_themed_fraction=0.5)


def test_a_resnet_toyclip_needs_a_multiple_of_32_pixels():
    "Kills: toyclip_config checks the ResNet image size against 16 instead of 32."
    from vlconcepts.toyclip import toyclip_config
    with pytest.raises(InputValidationError, match="multiple of 32"): toyclip_config(image_size=48)


# ---------------------------------------------------------------- toyitm

def test_toyitm_schedule_may_equal_the_steps():
    "Kills: ToyITMConfig refuses schedule_steps == steps (<= for <)."
    from vlconcepts.toyitm import ToyITMConfig
    assert ToyITMConfig(model={}, steps=10, schedule_steps=10).schedule_steps == 10
    with pytest.raises(InputValidationError, match="schedule_steps"): ToyITMConfig(model={}, steps=10, schedule_steps=9)


def test_toyitm_tokenizer_refuses_words_with_capitals():
    "Kills: toyitm_tokenizer without its lower-case check."
    from vlconcepts.toyitm import toyitm_tokenizer
    with pytest.raises(InputValidationError, match="lower-case"): toyitm_tokenizer(["Red"])


def test_easy_negative_donors_come_from_the_same_world():
    "Kills: same_world_donors permutes over the whole batch (a donor of another world gives its grammar away)."
    from vlconcepts.toyitm import same_world_donors
    from vlconcepts.world_mixture import WorldScene
    scenes = [WorldScene(w, None) for w in ["clevr", "birds", "attributes"] * 5 + ["birds"] * 3]
    for seed in range(10):
        donors = same_world_donors(scenes, np.random.default_rng(seed))
        assert all(scenes[d].world == s.world for s, d in zip(scenes, donors))


def test_a_bird_caption_is_surely_false_of_a_close_up():
    "Kills: surely_false treats only a non-bird caption under a bird as surely false (not the reverse)."
    from vlconcepts.attribute_object_data import attribute_world_vocab, object_spec
    from vlconcepts.toyitm import surely_false
    from vlconcepts.world_mixture import WorldScene, close_up
    cube = WorldScene("attributes", close_up(np.random.default_rng(0), attribute_world_vocab(), object_spec(["red"], "cube")))
    assert surely_false(cube, _bird(), "the bird is red headed")


# ---------------------------------------------------------------- cli

def test_kernel_threads_are_capped_by_omp_num_threads(monkeypatch):
    "Kills: kernel_threads takes the max of the cores and $OMP_NUM_THREADS (a shared machine's share ignored)."
    from vlconcepts import cli
    monkeypatch.setattr(cli.os, "cpu_count", lambda: 8)
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert cli.kernel_threads("paper") == 2 and cli.kernel_threads("paper", jobs=8) == 1 and cli.kernel_threads("tiny") == 1


def test_default_jobs_are_at_most_four(monkeypatch):
    "Kills: default_jobs without the MAX_DEFAULT_JOBS cap (64 cores: 64 kernels at once)."
    from vlconcepts import cli
    monkeypatch.setattr(cli.os, "cpu_count", lambda: 64)
    assert cli.default_jobs("tiny") == cli.MAX_DEFAULT_JOBS == 4 and cli.default_jobs("paper") == 1


def test_the_smoke_profile_reads_its_overrides(tmp_path):
    "Kills: profile_overrides returns {} for smoke as for tiny (the smoke YAML ignored)."
    from vlconcepts.cli import profile_overrides
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "01_x.smoke.yaml").write_text("steps: 3\n")
    assert profile_overrides(tmp_path / "01_x.ipynb", "smoke") == {"steps": 3}
    assert profile_overrides(tmp_path / "01_x.ipynb", "tiny") == {}


def test_only_matches_a_notebook_by_its_stem(tmp_path):
    "Kills: experiment_notebooks matches --only on the file name only (`--only 30_purity` finds nothing)."
    from vlconcepts.cli import experiment_notebooks
    for name in ("30_purity.ipynb", "31_learners.ipynb"): (tmp_path / name).write_text("{}")
    assert [p.name for p in experiment_notebooks(tmp_path, "30_purity")] == ["30_purity.ipynb"]


def test_cache_clear_what_removes_only_the_matching_entries(tmp_path, monkeypatch, capsys):
    "Kills: `cache clear` passes --spec as the content pattern and --what as the spec pattern."
    import torch
    from vlconcepts import cache
    from vlconcepts.cli import main
    monkeypatch.setenv("VLCONCEPTS_CACHE", str(tmp_path / "c"))
    monkeypatch.setenv("VLCONCEPTS_PROGRESS", "0")
    for name in ("a", "b"): cache.cached_activations(name, lambda chunk: torch.ones(len(chunk), 4), [0, 1], dataset_key="t")
    assert main(["cache", "clear", "--what", "activations:a"]) == 0
    assert [e["what"] for e in cache.list_entries()] == ["activations:b"]
    assert main(["cache", "clear", "--spec", "no-model"]) == 0
    assert cache.list_entries() == []


def test_lenses_wait_for_the_galleries_but_not_for_the_toy_trainings():
    "Kills: rebuild_prerequisites counts 05_* notebooks as galleries (every lens waits for the toy model trainings)."
    from vlconcepts.cli import rebuild_prerequisites
    needs = rebuild_prerequisites(["03_world.ipynb", "05_toyclip.ipynb", "10_compmap.ipynb", "70_report.ipynb"])
    assert needs["10_compmap.ipynb"] == ["03_world.ipynb"] and needs["05_toyclip.ipynb"] == ["03_world.ipynb"]


# ---------------------------------------------------------------- models

def test_a_spec_with_an_empty_rest_is_malformed():
    "Kills: parse_spec accepts 'prefix:' with nothing (or only spaces) after the colon."
    from vlconcepts.models import parse_spec
    with pytest.raises(ModelSpecError, match="Malformed"): parse_spec("toyclip:  ")


def test_did_you_mean_never_suggests_the_name_itself():
    "Kills: did_you_mean without the filter that drops the name it was given."
    from vlconcepts.models import did_you_mean
    assert did_you_mean("openclip", ["openclip", "hf-clip"]) == ""
    assert did_you_mean("OpenCLIP", ["openclip", "hf-clip"]) == " Did you mean 'openclip'?"


def test_a_backend_prefix_may_not_contain_a_colon():
    "Kills: register_backend without its ':' check (a spec could never reach such a prefix)."
    from vlconcepts.models import register_backend
    with pytest.raises(ModelSpecError, match="without ':'"): register_backend("my:clip")
