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
