"""A fifth mutation audit (render, dry_worlds, concept_data, core): each test kills a hand-made mutant that the older tests
and the notebooks' own tests let through; its docstring names the mutant (the mutants the old tests kill have no test here,
but four that they kill only by chance: three that only the measured accuracies of the committed ToyCLIP checkpoint notice,
one that a notebook kills through an unrelated import-order error). Three tests pin two real bugs the audit found, both
fixed (a fractional render size or supersample passed int(); a small λ-grid could get an empty training split). Tiny inputs only: no training, renders of at most 64 pixels, and the
only exports are a dozen dSprites images and the three binding tasks at the smallest dry size."""
import json
import os

import numpy as np
import pytest

from vlconcepts.core import InputValidationError


# ---------------------------------------------------------------- render

@pytest.mark.parametrize("seed", range(6))
def test_clevr_pixel_coords_are_column_then_row(seed):
    "Kills: scene_to_clevr writes pixel_coords as [y, x, depth] (CLEVR's order: x from the left, then y from the top)."
    from vlconcepts.render import render_object_ids, sample_scene, scene_to_clevr
    scene = sample_scene(seed, 1)
    rows, cols = (render_object_ids([scene], 32)[0] == 0).nonzero(as_tuple=True)
    x, y, depth = scene_to_clevr(scene, 0, "CLEVR_train_000000.png", "train", 32)["objects"][0]["pixel_coords"]
    assert abs(x - (cols.float().mean() + 0.5)) < 1.5 and abs(y - (rows.float().mean() + 0.5)) < 1.5 and depth > 0


def test_sample_scenes_refuses_more_per_scene_specs_than_scenes():
    "Kills: sample_scenes checks the per-scene object_specs only for too few lists (a third list for two scenes is dropped silently)."
    from vlconcepts.render import sample_scenes
    specs = [[{"color": "red"}], [{"color": "blue"}], [{"color": "green"}]]
    with pytest.raises(InputValidationError, match="per-scene lists but n_scenes=2"):
        sample_scenes(0, 2, 1, object_specs=specs, min_visible_pixels=0)


def test_every_object_of_a_sampled_scene_is_visible():
    """Kills: sample_scene accepts a placement when its *most* visible object has CLEVR's minimum of pixels (`.max()`), and
    sample_scenes checks every scene of a batch against the first scene's objects (its count offset never moves). Crowded
    scenes (6-8 objects) make the first placements of seeds 2-4 hide an object (3, 10 and 1 pixels at 64 px)."""
    from vlconcepts.render import clevr_min_visible_pixels, sample_scene, sample_scenes, visible_pixels
    minimum = clevr_min_visible_pixels(64)
    for scene in [sample_scene(seed, (6, 8)) for seed in range(2, 5)] + sample_scenes(0, 6, (6, 8)):
        assert visible_pixels(scene, 64).min() >= minimum


def test_supersampling_averages_the_finer_render():
    "Kills: render_scenes pools supersampled rays with max_pool2d (bright edges, not the mean of the supersample² rays)."
    import torch
    from vlconcepts.render import render_scenes, sample_scene
    scenes = [sample_scene(seed, (2, 3), min_visible_pixels=0) for seed in range(2)]
    fine = render_scenes(scenes, 16)
    assert torch.allclose(render_scenes(scenes, 8, supersample=2), torch.nn.functional.avg_pool2d(fine, 2), atol=1e-6)


def _lone_extended(**attributes):
    from vlconcepts.scenes import EXTENDED_VOCAB, Scene, resting_object
    obj = resting_object(EXTENDED_VOCAB, shape="sphere", color="gray", material="rubber", size="large", **attributes)
    return Scene([obj], vocab=EXTENDED_VOCAB)


def test_a_shiny_object_shows_a_highlight():
    "Kills: _pack_scenes leaves a state's gloss out of the specular weight (a 'shiny' rubber sphere looks like a plain one)."
    from vlconcepts.render import render_object_ids, render_scenes
    plain, shiny = render_scenes([_lone_extended(), _lone_extended(state="shiny")], 64)
    on_object = render_object_ids([_lone_extended()], 64)[0] == 0
    assert float((shiny - plain).amax(0)[on_object].max()) > 0.3


def test_a_dark_object_is_drawn_darker():
    "Kills: _shade_albedo drops a state's brightness (a 'dark' object, brightness 0.45, is drawn as bright as a plain one)."
    from vlconcepts.render import render_object_ids, render_scenes
    plain, dark = render_scenes([_lone_extended(), _lone_extended(state="dark")], 32)
    on_object = render_object_ids([_lone_extended()], 32)[0] == 0
    assert float(dark[:, on_object].mean()) < 0.6 * float(plain[:, on_object].mean())


def test_an_unrotated_bar_lies_along_the_world_x_axis():
    """Kills: _pack_scenes stores an object's rotation as (sin, cos) instead of (cos, sin) (rotation θ drawn as 90° - θ).
    A cube stretched along its own x axis (a state scaling it 2 x 0.5 x 1) must cover what a row of cubes placed along the
    world's x axis covers at rotation 0, and what a row along y covers at rotation 90."""
    from vlconcepts.render import render_object_ids
    from vlconcepts.scenes import CLEVR_VOCAB, Scene, StateEffect, resting_object
    vocab = CLEVR_VOCAB.extend(states={"long": StateEffect(scale=(2.0, 0.5, 1.0))})
    cube = lambda **attributes: resting_object(vocab, shape="cube", color="red", material="rubber", **attributes)
    mask = lambda objects: render_object_ids([Scene(objects, vocab=vocab)], 64)[0] >= 0
    iou = lambda a, b: float((a & b).sum() / (a | b).sum())
    along_x = mask([cube(size="small", x=x) for x in (-0.7, 0.0, 0.7)])
    along_y = mask([cube(size="small", y=y) for y in (-0.7, 0.0, 0.7)])
    bar_0, bar_90 = (mask([cube(size="large", state="long", rotation=r)]) for r in (0, 90))
    assert iou(bar_0, along_x) > iou(bar_0, along_y) + 0.1 and iou(bar_90, along_y) > iou(bar_90, along_x) + 0.1


def test_a_cone_fits_inside_the_cylinder_of_its_size():
    """Kills: _hit_cone's (radius / height)² is 0.5, not 0.25 (a cone wider than its base circle, bulging out of its extent).
    A unit cone (base radius 1 at the bottom, apex at the top) lies inside the unit cylinder and covers about half of it."""
    from vlconcepts.render import render_object_ids
    from vlconcepts.scenes import EXTENDED_VOCAB, Scene, resting_object
    mask = lambda shape: render_object_ids([Scene([resting_object(EXTENDED_VOCAB, shape=shape, color="red", material="rubber",
                                                                  size="large")], vocab=EXTENDED_VOCAB)], 64)[0] == 0
    cone, cylinder = mask("cone"), mask("cylinder")
    assert int((cone & ~cylinder).sum()) == 0 and 0.35 < cone.sum() / cylinder.sum() < 0.7


# ---------------------------------------------------------------- dry_worlds

def test_a_dry_export_draws_the_factor_releases_at_64_pixels(tmp_path, monkeypatch):
    "Kills: export_dry_data draws dSprites and 3dshapes at the profile's image_size (the releases are 64 px in every profile)."
    from vlconcepts import dry_worlds
    from vlconcepts.factor_data import load_dsprites
    monkeypatch.setitem(dry_worlds.MINIMUM_SIZES, "dsprites", 12)                 # 12 images, not the 6,400 a purity run needs
    root = dry_worlds.export_dry_data(tmp_path / "dry", fraction=1e-5, image_size=32, only=["dsprites"])
    images = load_dsprites(root / "dsprites").images
    assert images.shape == (12, 64, 64)


def test_a_dry_export_writes_every_binding_task(tmp_path):
    "Kills: _exported asks the clip-binding dataset's marker for each binding task (written for one task, it skips the others)."
    from vlconcepts.dry_worlds import BINDING_MARKERS, export_dry_data
    root = export_dry_data(tmp_path / "dry", fraction=1e-5, image_size=16, only=list(BINDING_MARKERS))
    assert all((root / "clip-binding" / marker).is_file() for marker in BINDING_MARKERS.values())


@pytest.mark.parametrize("fraction", ["0", "5", "-0.5"])
def test_a_dry_fraction_outside_0_1_is_refused(monkeypatch, fraction):
    "Kills: dry_settings no longer checks $VLCONCEPTS_DRY_FRACTION's range (5 or 0 is accepted and fails later, or writes 5x the release)."
    from vlconcepts.dry_worlds import dry_settings
    monkeypatch.setenv("VLCONCEPTS_DRY_FRACTION", fraction)
    with pytest.raises(InputValidationError, match=r"\(0, 1\]"):
        dry_settings("dry-small")


def test_dry_and_dry_small_at_one_fraction_get_trees_of_their_own(monkeypatch):
    """Kills: dry_data_root names its folder by fraction and seed only (dry at 224 px and dry-small at 64 px share a tree at
    the same $VLCONCEPTS_DRY_FRACTION, and the second is refused: 'other settings')."""
    from vlconcepts.dry_worlds import dry_data_root
    monkeypatch.setenv("VLCONCEPTS_DRY_FRACTION", "0.5")
    big, small = dry_data_root("dry", eager=False), dry_data_root("dry-small", eager=False)
    assert big != small
    assert [json.loads((root / "dry.json").read_text())["image_size"] for root in (big, small)] == [224, 64]


# ---------------------------------------------------------------- concept_data

def _tiny_concept_data(**changes):
    import torch
    from vlconcepts.concept_data import ConceptDataset
    fields = dict(name="tiny", x_train=torch.zeros(2, 3), c_train=torch.tensor([[0, 1], [1, 0]]), y_train=torch.tensor([0, 1]),
                  x_test=torch.zeros(1, 3), c_test=torch.tensor([[1, 1]]), y_test=torch.tensor([1]), concept_names=("a", "b"),
                  n_classes=2)
    return ConceptDataset(**{**fields, **changes})


def test_a_concept_dataset_refuses_a_task_label_equal_to_n_classes():
    "Kills: _check_split tests the labels with `y.max() > n_classes` (label n_classes, one past the last class, passes)."
    import torch
    _tiny_concept_data()                                                                  # the check itself
    with pytest.raises(InputValidationError, match=r"task labels must lie in \[0, 2\)"):
        _tiny_concept_data(y_train=torch.tensor([0, 2]))


def test_a_concept_dataset_refuses_train_and_test_features_of_different_widths():
    "Kills: ConceptDataset compares x_train.shape[2:] with x_test.shape[2:] (a tabular set's feature count is never compared)."
    import torch
    with pytest.raises(InputValidationError, match="different shapes"):
        _tiny_concept_data(x_test=torch.zeros(1, 4))


def test_tabular_toy_features_are_sin_plus_v_and_cos_plus_v():
    "Kills: the TabularToy features drop the `+ v` of cos(v) + v (spec: sin(v_i) + v_i, cos(v_i) + v_i, then sum v_i²)."
    from vlconcepts.concept_data import _correlated_normal, tabular_toy_arrays
    x, c, y = tabular_toy_arrays(50, delta=0.3, seed=4)
    v = _correlated_normal(np.random.default_rng(4), 50, 3, 0.3)                      # the draw tabular_toy_arrays makes
    expected = np.stack([f for i in range(3) for f in (np.sin(v[:, i]) + v[:, i], np.cos(v[:, i]) + v[:, i])] + [(v ** 2).sum(1)], 1)
    np.testing.assert_allclose(x, expected.astype(np.float32), rtol=1e-6)
    np.testing.assert_array_equal(c, (v > 0).astype(np.int64))


def test_the_3dshapes_task_reads_floor_and_wall_unless_the_shape_is_a_cube_or_cylinder():
    """Kills: _shapes3d_task branches on `c_shape == 1` (cube/cylinder get the floor/wall classes 0-3). Docstring: if the
    shape is not in the first two, 2·c_floor + c_wall; else 4 + binary(c_object, c_scale, c_orientation)."""
    from vlconcepts.concept_data import SHAPES3D_SPEC
    concepts = np.array([[1, 1, 0, 0, 0, 0],        # a sphere or capsule (shape class 2-3): floor and wall
                         [0, 1, 1, 1, 0, 0],
                         [0, 0, 1, 1, 1, 1],        # a cube or cylinder: object hue, scale, orientation
                         [1, 1, 0, 0, 1, 1]])
    assert SHAPES3D_SPEC.concepts(np.array([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 3, 0]]))[:, 4].tolist() == [1, 0]
    assert SHAPES3D_SPEC.task(concepts).tolist() == [3, 1, 11, 5]


def test_colour_images_keep_their_rows_and_columns():
    "Kills: _images_to_tensor permutes (n, H, W, C) images with (0, 3, 2, 1) (a 3dshapes image comes out transposed)."
    import torch
    from vlconcepts.concept_data import SHAPES3D_SPEC, factor_concept_dataset
    image = (np.arange(4 * 4 * 3).reshape(4, 4, 3) * 5).astype(np.uint8)          # no symmetry: rows differ from columns
    data = factor_concept_dataset(np.stack([image] * 12), np.zeros((12, 6), np.int64), SHAPES3D_SPEC, 0)
    expected = torch.as_tensor(image).permute(2, 0, 1).float() / 255
    assert torch.equal(data.x_train[0], expected) and torch.equal(data.x_test[0], expected)


def test_spurious_colour_fills_the_background_not_the_sprite():
    "Kills: spurious_background multiplies the class colour by x instead of 1 - x (the sprite is coloured, the background stays black)."
    import torch
    from vlconcepts.concept_data import spurious_background
    x = torch.zeros(2, 1, 4, 4); x[:, :, 1:3, 1:3] = 1.0                          # a white square sprite on black
    colours = torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    data = _tiny_concept_data(x_train=x, x_test=x[:1])
    out = spurious_background(data, 1.0, colours=colours).x_train                   # every training image coloured
    for k, label in enumerate(data.y_train.tolist()):
        assert torch.equal(out[k, :, 0, 0], colours[label])                      # background: the class colour
        assert torch.equal(out[k, :, 1, 1], torch.ones(3))                       # sprite: still white


def test_hold_out_validation_keeps_each_training_label_with_its_input():
    "Kills: hold_out_validation keeps y_train[:-n_val] (not y_train[n_val:]) beside x_train[n_val:] and c_train[n_val:]."
    import torch
    from vlconcepts.concept_data import hold_out_validation, tabular_toy
    toy = tabular_toy(0.0, n_train=40, n_test=5, seed=2)
    train, (x_val, c_val, y_val) = hold_out_validation(toy, 0.25)
    for got, full in ((train.x_train, toy.x_train), (train.c_train, toy.c_train), (train.y_train, toy.y_train)):
        assert torch.equal(got, full[10:])
    assert torch.equal(y_val, toy.y_train[:10])


@pytest.mark.parametrize("lam", [3, 4])
def test_a_procedural_concept_dataset_holds_n_max_images(tmp_path, lam):
    """Kills: _export_size asks for n_max / kept images (no 20% margin): about half the time fewer than n_max of them fall
    in the λ-grid, and concept_image_dataset returns fewer than the n_max asked for (the mutant gives 37-38 of 40 at λ=3, 4)."""
    from vlconcepts.concept_data import concept_image_dataset
    for seed in range(4):
        data = concept_image_dataset("dsprites", lam, n_max=40, image_size=8, seed=seed, export_dir=tmp_path)
        assert len(data.x_train) + len(data.x_test) == 40, (lam, seed)


# ---------------------------------------------------------------- core

def test_a_seed_may_use_all_32_bits():
    "Kills: check_seed's upper bound 2**31 (NumPy and PYTHONHASHSEED take any seed below 2**32; the docstring says [0, 2**32))."
    from vlconcepts.core import check_seed
    assert [check_seed(s) for s in (0, 2**31, 2**32 - 1, np.uint32(2**32 - 1))] == [0, 2**31, 2**32 - 1, 2**32 - 1]
    with pytest.raises(InputValidationError, match=r"\[0, 2\*\*32\)"):
        check_seed(2**32)


def test_quiet_root_logger_never_lowers_the_root_level():
    "Kills: quiet_root_logger sets the root level to `level` (a root logger at CRITICAL is made chattier, ERROR, inside the block)."
    import logging
    from vlconcepts.core import quiet_root_logger
    root = logging.getLogger()
    before = root.level
    try:
        root.setLevel(logging.CRITICAL)
        with quiet_root_logger(logging.ERROR): assert root.level == logging.CRITICAL
        assert root.level == logging.CRITICAL
    finally: root.setLevel(before)


def test_a_statistic_of_zero_items_keeps_its_plural():
    "Kills: StatisticDifference singularises its name for any found count below 2 (found 0 prints '0 test image')."
    from vlconcepts.core import StatisticDifference
    assert str(StatisticDifference("test images", 12_995, 0)) == "0 test images, the published release has 12,995"
    assert str(StatisticDifference("classes", 200, 1)) == "1 class, the published release has 200"


def test_own_data_that_changed_at_the_same_root_warns_again():
    """Kills: record_own_data warns only the first time a (dataset, root) is read (data changed in place since, e.g. more
    images dropped, are recorded silently), not each time what it read there differs from the record."""
    import warnings
    from vlconcepts.core import OwnDataWarning, own_data, record_own_data
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        record_own_data("mit-states", "MIT-States", "/data/mine", [("test images", 12_995, 1_200)])
        record_own_data("mit-states", "MIT-States", "/data/mine", [("test images", 12_995, 1_200)])    # the same: quiet
        changed = record_own_data("mit-states", "MIT-States", "/data/mine", [("test images", 12_995, 900)])
    assert [type(w.message) for w in caught] == [OwnDataWarning, OwnDataWarning]
    assert "900 test images" in str(caught[1].message) and own_data() == [changed]


def test_two_roots_of_one_dataset_are_one_published_release():
    "Kills: own_data_note counts records, not dataset titles, for its plural (two folders of MIT-States are 'published releases')."
    from vlconcepts.core import OwnData, StatisticDifference, own_data_note
    records = [OwnData("mit-states", "MIT-States", root, (StatisticDifference("test images", 12_995, n),))
               for root, n in (("/data/a", 1_200), ("/data/b", 900))]
    caption, heading = own_data_note(records)
    assert heading == "## Paper (on the published MIT-States release, not on these data)"
    assert "not its published release. The paper's numbers below are on the published release, not" in caption


def test_a_paper_number_with_a_typographic_minus_is_negative(tmp_path, monkeypatch):
    "Kills: paper_table(numeric=True) no longer reads the paper's typographic minus '−' (U+2212) as '-' (−1.5 becomes NaN)."
    from vlconcepts import core
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "sources.json").write_text('{"t": {"source": "Demo, Table 1", "index": ["method"]}}')
    (tmp_path / "demo" / "t.csv").write_text("method,delta\nA,\u22121.5\nB,+2.0\nC,\u2013\n", encoding="utf-8")
    monkeypatch.setattr(core, "PAPER_NUMBERS", tmp_path)
    table = core.paper_table("demo", "t", numeric=True)
    assert table.loc["A", "delta"] == -1.5 and table.loc["B", "delta"] == 2.0 and np.isnan(table.loc["C", "delta"])
    assert core.paper_table("demo", "t").loc["A", "delta"] == "\u22121.5"                  # printed as the paper prints it


def test_atomic_writes_leave_a_live_writers_temporary_file(tmp_path):
    """Kills: _remove_orphan_temps removes every other process's temporary file of the path, not only a killed writer's
    (a second process writing the same file at the same time loses its half-written file)."""
    from vlconcepts.core import _writer_tag, atomic_write
    host = _writer_tag().rsplit("-", 1)[0]
    live, dead = (tmp_path / f".a.txt.{host}-{pid}.x1.tmp" for pid in (os.getppid(), 999_999_999))
    live.write_text("another writer, still running"); dead.write_text("a killed writer's leftover")
    with atomic_write(tmp_path / "a.txt", "w") as f: f.write("done")
    assert live.exists() and not dead.exists() and (tmp_path / "a.txt").read_text() == "done"


def test_atomic_writes_get_the_mode_of_a_plainly_created_file(tmp_path):
    "Kills: _umask_mode returns 0o600 (outputs written atomically are hidden from the group and others whatever the umask)."
    from vlconcepts.core import atomic_path, atomic_write
    previous = os.umask(0o022)
    try:
        with open(tmp_path / "plain.txt", "w") as f: f.write("x")
        with atomic_write(tmp_path / "atomic.txt", "w") as f: f.write("x")
        with atomic_path(tmp_path / "array.npy") as tmp: np.save(tmp, np.arange(3))
    finally: os.umask(previous)
    modes = [(tmp_path / name).stat().st_mode & 0o777 for name in ("plain.txt", "atomic.txt", "array.npy")]
    assert modes == [0o644] * 3


# ---------------------------------------------------------------- real bugs the audit found (fixed; each test failed before its fix)

@pytest.mark.parametrize("arguments", [dict(size=8, supersample=1.5), dict(size=2.5)])
def test_render_scenes_refuses_a_fractional_size_or_supersample(arguments):
    "Was a bug: render_scenes' checks truncated with int(), so a fractional supersample or size passed them (fixed in 03b_render)."
    from vlconcepts.render import render_scenes, sample_scene
    scenes = [sample_scene(0, 1, min_visible_pixels=0)]
    with pytest.raises(InputValidationError):
        render_scenes(scenes, **arguments)


def test_a_factor_concept_dataset_never_has_an_empty_training_split():
    "Was a bug: factor_concept_dataset(test_fraction=0.96) on the 10 images of a small λ-grid put all 10 in the test split (fixed in 04f)."
    from vlconcepts.concept_data import DSPRITES_SPEC, factor_concept_dataset
    from vlconcepts.core import DatasetFormatError
    try: data = factor_concept_dataset(np.zeros((10, 8, 8), np.uint8), np.zeros((10, 5), np.int64), DSPRITES_SPEC, test_fraction=0.96)
    except (InputValidationError, DatasetFormatError): return                         # refused: fine
    assert len(data.x_train) > 0, data
