"""vlconcepts.attribute_object_data, the synthetic MAC world: a closed world of about 30% of the attribute x object pairs,
as the release's (7,647 of 25,641), held-out pairs only in val/test, determinism per seed, the full-world option."""
import numpy as np
import pytest

from vlconcepts.attribute_object_data import (ATTRIBUTE_KINDS, MAC_SPLIT_DIR, WORLD_OBJECTS, draw_closed_world, export_mac,
                                              hold_out_pairs, load_mac, plan_mac)
from vlconcepts.core import InputValidationError

N_PAIRS = len(ATTRIBUTE_KINDS) * len(WORLD_OBJECTS)


def plan_pairs(plan):
    "Split -> the (attribute, object) pairs its images show."
    return {s: {(a, p["obj"]) for p in plan if p["split"] == s for a in p["attrs"]} for s in ("train", "val", "test")}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_closed_world_is_thirty_percent_and_covers_every_primitive(seed):
    pairs = plan_pairs(plan_mac(600, seed))
    closed = set().union(*pairs.values())
    assert len(closed) / N_PAIRS == pytest.approx(0.3, abs=0.01)
    assert {a for a, _ in pairs["train"]} == set(ATTRIBUTE_KINDS) and {o for _, o in pairs["train"]} == set(WORLD_OBJECTS)
    unseen = closed - pairs["train"]                          # the release: 856 of 7,647 closed-world pairs (11%)
    assert 0.1 <= len(unseen) / len(closed) <= 0.2
    assert pairs["test"] - pairs["train"] and pairs["val"] - pairs["train"]


def test_held_out_pairs_keep_a_training_pair_for_every_primitive():
    rng = np.random.default_rng(5)
    closed = draw_closed_world(rng)
    for fraction in (0.15, 0.5, 0.9):
        held = set(hold_out_pairs(closed, np.random.default_rng(0), fraction))
        train = set(closed) - held
        assert {a for a, _ in train} == set(ATTRIBUTE_KINDS) and {o for _, o in train} == set(WORLD_OBJECTS)


def test_full_world_option_and_bad_fractions():
    assert len(set().union(*plan_pairs(plan_mac(600, 0, closed_fraction=1.0)).values())) == N_PAIRS
    with pytest.raises(InputValidationError, match="closed_fraction"): plan_mac(10, 0, closed_fraction=1.5)
    with pytest.raises(InputValidationError, match="holds out no pair"): plan_mac(10, 0, held_out_fraction=0.0)


def test_export_closed_world_as_the_release_lays_it_out(tmp_path):
    "The split files hold only closed-world pairs; every test pair is in the closed world (their union), some are unseen."
    data = load_mac(export_mac(tmp_path / "a", n=120, seed=4, size=16))
    assert len(data.pairs) == round(0.3 * N_PAIRS) and len(data.attributes) * len(data.objects) == N_PAIRS
    assert set(data.split_pairs["test"]) <= set(data.pairs) and data.unseen_pairs("test")
    outside = {(a, o) for a in data.attributes for o in data.objects} - set(data.pairs)
    assert len(outside) == N_PAIRS - len(data.pairs)
    assert not any(p in outside for i in range(len(data)) for p in data.image_pairs(i))   # no image shows an open-only pair


def test_export_is_deterministic_per_seed(tmp_path):
    a, b, c = (export_mac(tmp_path / name, n=30, seed=seed, size=16) for name, seed in (("a", 7), ("b", 7), ("c", 8)))
    for split in ("train", "val", "test"):
        name = f"{MAC_SPLIT_DIR}/{split}_pairs.txt"
        assert (a / name).read_bytes() == (b / name).read_bytes()
    assert load_mac(a).fingerprint == load_mac(b).fingerprint != load_mac(c).fingerprint
    assert draw_closed_world(np.random.default_rng(7)) == draw_closed_world(np.random.default_rng(7)) != \
        draw_closed_world(np.random.default_rng(8))


# ---------------------------------------------------------------- the MAC loader on missing and torch-saved metadata (issue 19)

def test_mac_without_metadata_fails_naming_it_and_where_to_get_it(tmp_path):
    from vlconcepts.core import DatasetNotFound
    root = export_mac(tmp_path / "mac", n=6, size=16)
    (root / "metadata_multi_attr_split_all.json").unlink()
    with pytest.raises(DatasetNotFound, match="MAC image metadata") as info: load_mac(root)
    assert "metadata_multi_attr_split_all.t7" in str(info.value) and "github.com/xs1317/MAC" in str(info.value)
    only_splits = load_mac(root, split_files_only=True)                     # asked for explicitly: the label space alone
    assert len(only_splits) == 0 and only_splits.pairs


def test_mac_missing_images_fail_or_are_dropped_when_asked(tmp_path, caplog):
    from vlconcepts.core import DatasetNotFound
    root = export_mac(tmp_path / "mac", n=6, size=16)
    full = load_mac(root)
    full.paths[2].unlink()
    with pytest.raises(DatasetNotFound, match="1 of the 6 that metadata_multi_attr_split_all.json names are missing"): load_mac(root)
    kept = load_mac(root, missing_images="drop")
    assert len(kept) == 5 and full.paths[2] not in kept.paths and "1 of 6 images" in caplog.text
    for p in kept.paths: p.unlink()
    with pytest.raises(DatasetNotFound, match="6 of the 6"): load_mac(root, missing_images="drop")   # none left: never 0 images


@pytest.mark.parametrize("legacy", [False, True], ids=["torch.save zip format", "pre-1.6 torch.save format"])
def test_mac_t7_metadata_as_the_release_writes_it(tmp_path, legacy):
    "The release's composition_dataset.py reads metadata_multi_attr_split_all.t7 with torch.load: a torch.save'd list of dicts."
    import json
    import torch
    root = export_mac(tmp_path / "mac", n=12, seed=3, size=16)
    from_json = load_mac(root)
    records = json.loads((root / "metadata_multi_attr_split_all.json").read_text())
    records.append({"image": "gone.png", "attrs": ["red"], "obj": "cube", "set": "NA"})      # NA records are dropped, as the release does
    records.append({"image": "gone2.png", "attrs": [], "obj": "cube", "set": "train"})      # so are records without attributes
    (root / "metadata_multi_attr_split_all.json").unlink()
    torch.save(records, root / "metadata_multi_attr_split_all.t7", _use_new_zipfile_serialization=not legacy)
    from_t7 = load_mac(root)
    assert (from_t7.paths, from_t7.splits, from_t7.attrs, from_t7.objs) == (from_json.paths, from_json.splits, from_json.attrs, from_json.objs)
    assert from_t7.fingerprint == from_json.fingerprint
