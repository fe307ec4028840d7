"""The dataset chapters (binding_data, attribute_object_data, cub_data): the real MAC split files, exports read back by the loaders, missing and malformed files."""
import json
from pathlib import Path

import pytest
import torch

from vlconcepts.core import DatasetFormatError, DatasetNotFound, InputValidationError
from vlconcepts.datasets import read_scenes_json, verify_against_scenes
from vlconcepts.binding_data import (BINDING_OBJECT_HELD_OUT, BINDING_REL_HELD_OUT, binding_split, export_binding, load_binding,
                                     scene_true_labels)
from vlconcepts.attribute_object_data import (MAC_SPLIT_DIR, MIT_METADATA, MIT_SPLIT_DIR, export_mac, export_mit_states, load_mac,
                                              load_mit_states)
from vlconcepts.cub_data import export_cub, load_cub


# ---------------------------------------------------------------- the real MAC split files

def test_real_mac_split_files(shared_dir):
    root = shared_dir / "data" / "mac"
    if not (root / MAC_SPLIT_DIR / "train_pairs.txt").exists(): pytest.skip(f"MAC split files not found under {root}")
    mac = load_mac(root, split_files_only=True)
    assert (len(mac.attributes), len(mac.objects), len(mac.pairs)) == (99, 259, 7647)    # specs/probes_mac.md §2.1
    assert {s: len(p) for s, p in mac.split_pairs.items()} == {"train": 6791, "val": 1762, "test": 4381}
    assert (len(mac.unseen_pairs("val")), len(mac.unseen_pairs("test"))) == (208, 713)
    assert {s: len(c) for s, c in mac.split_compositions.items()} == {"train": 12150, "val": 895, "test": 3905}
    assert len(mac) == 0                                        # the release has no image metadata
    for attrs, obj in mac.split_compositions["train"][:500]: assert list(attrs) == sorted(attrs)
    assert mac.split_compositions["train"][0] == (("clean", "sandy", "sunny", "white"), "island")


# ---------------------------------------------------------------- exports read back

@pytest.mark.parametrize("task", ["single", "two", "rel"])
def test_binding_export_roundtrip(tmp_path, task):
    root = export_binding(tmp_path, task, n=24, seed=3, size=32)
    ds = load_binding(root, task)
    assert ds.image(0).size == (32, 32)
    assert verify_against_scenes(ds) >= len(ds)
    for (pos, *distractors), split in zip(ds.candidates, ds.splits):
        assert binding_split(pos) == split and len(distractors) == 4
    held_out = BINDING_REL_HELD_OUT if task == "rel" else BINDING_OBJECT_HELD_OUT
    assert set(ds.classes("val")) == set(held_out["val"])


def test_two_object_distractors_never_true(tmp_path):
    ds = load_binding(export_binding(tmp_path, "two", n=30, seed=5, size=24), "two")
    scenes = read_scenes_json(tmp_path / "two_object" / "scenes.json")
    for path, candidates in zip(ds.paths, ds.candidates):
        truth = scene_true_labels(scenes[path.name], "two")
        assert len(truth) == 2 and candidates[0] in truth and not truth & set(candidates[1:])


def test_attribute_object_and_cub_exports(tmp_path):
    ms = load_mit_states(export_mit_states(tmp_path / "ms", n=30, size=24))
    mac = load_mac(export_mac(tmp_path / "mac", n=30, size=24))
    cub = load_cub(export_cub(tmp_path, n=30, size=24))            # root holding CUB_200_2011/ and attributes.txt
    for ds in (ms, mac, cub): assert verify_against_scenes(ds) >= len(ds) == 30
    assert ms.unseen_pairs("test") and mac.unseen_pairs("val")
    assert load_cub(tmp_path / "CUB_200_2011").fingerprint == cub.fingerprint


def test_cli_world_export(tmp_path):
    from vlconcepts.cli import export_world
    root = export_world("binding-rel", tmp_path, n=8, seed=0, size=24)
    assert len(load_binding(root, "rel")) == 16


# ---------------------------------------------------------------- missing and malformed files

def test_missing_datasets_name_layout_and_source(tmp_path):
    for load, name in [(lambda: load_binding(tmp_path, "two"), "binding-two"), (lambda: load_mit_states(tmp_path), "mit-states"),
                       (lambda: load_cub(tmp_path), "CUB-200-2011"), (lambda: load_mac(tmp_path / "mac"), "mac")]:
        with pytest.raises(DatasetNotFound) as info: load()
        message = str(info.value)
        assert name in message and "Expected layout" in message and "world export" in message
    with pytest.raises(InputValidationError, match="Unknown binding task"): load_binding(tmp_path, "three")


def test_malformed_files_name_file_and_line(tmp_path):
    root = export_mac(tmp_path / "mac", n=6, size=16)
    (root / MAC_SPLIT_DIR / "test_pairs.txt").write_text("red cube\nlonely\n")
    with pytest.raises(DatasetFormatError, match=r"test_pairs.txt, line 2"): load_mac(root)
    (root / MAC_SPLIT_DIR / "test_pairs.txt").write_text("red cube\n")
    (root / "metadata_multi_attr_split_all.json").write_text('[{"image": "a.png", "attrs": [')
    with pytest.raises(DatasetFormatError, match="metadata_multi_attr_split_all.json, line 1"): load_mac(root)

    ms = export_mit_states(tmp_path / "ms", n=6, size=16)
    torch.save({"not": "a list"}, ms / MIT_METADATA)
    with pytest.raises(DatasetFormatError, match="expected a list"): load_mit_states(ms)
    (ms / MIT_SPLIT_DIR / "val_pairs.txt").write_text("red cube extra\n")
    with pytest.raises(DatasetFormatError, match="val_pairs.txt, line 1"): load_mit_states(ms)

    rel = export_binding(tmp_path / "b", "rel", n=4, size=16)
    (rel / "rel" / "gen.json").write_text(json.dumps({"x.png": {"pos": ["cube front"], "neg": []}}))
    with pytest.raises(DatasetFormatError, match="gen.json"): load_binding(rel, "rel")
    (rel / "rel" / "gen.json").write_text("{")
    with pytest.raises(DatasetFormatError, match="gen.json, line 1"): load_binding(rel, "rel")

    cub = export_cub(tmp_path / "c", n=6, size=16)
    labels = cub / "attributes" / "image_attribute_labels.txt"
    lines = labels.read_text().splitlines()
    lines[3] = lines[3] + " 0"                                  # a 6-field line, as in the real file: accepted
    labels.write_text("\n".join(lines) + "\n")
    assert load_cub(cub).attribute_present.shape == (6, 34)
    lines[5] = "1 2 yes 4 1.0"
    labels.write_text("\n".join(lines) + "\n")
    with pytest.raises(DatasetFormatError, match="image_attribute_labels.txt, line 6"): load_cub(cub)


# ---------------------------------------------------------------- truncated and binary files (issue 20 item 5)

def test_cub_truncated_attribute_labels_are_rejected(tmp_path):
    "Half the images missing from image_attribute_labels.txt used to load as all-zero annotations."
    cub = export_cub(tmp_path, n=6, size=16)
    labels = cub / "attributes" / "image_attribute_labels.txt"
    lines = labels.read_text().splitlines()
    labels.write_text("\n".join(lines[: len(lines) // 2]) + "\n")                 # images 4-6 cut off
    with pytest.raises(DatasetFormatError, match=r"image_attribute_labels.txt: 102 of 204 \(image, attribute\) lines are "
                                                 r"missing \(first: image id 4, attribute id 1\).*truncated"):
        load_cub(cub)
    labels.write_text("\n".join(lines[:-1]) + "\n")                                  # one line short
    with pytest.raises(DatasetFormatError, match=r"1 of 204 .*first: image id 6, attribute id 34"): load_cub(cub)


@pytest.mark.parametrize("name", ["images.txt", "train_test_split.txt", "attributes/image_attribute_labels.txt"])
def test_cub_binary_text_file_names_the_file(tmp_path, name):
    "A binary file where a text file belongs used to raise a raw UnicodeDecodeError."
    cub = export_cub(tmp_path, n=4, size=16)
    (cub / name).write_bytes(b"1 1\n" + bytes(range(128, 256)) * 4)
    with pytest.raises(DatasetFormatError, match=rf"{name.split('/')[-1]}: not a UTF-8 text file.*re-download"):
        load_cub(cub)


def test_truncated_image_names_the_path(tmp_path):
    from vlconcepts.core import DatasetFormatError
    cub = load_cub(export_cub(tmp_path, n=4, size=16))
    cub.paths[1].write_bytes(cub.paths[1].read_bytes()[:60])                    # a truncated PNG
    with pytest.raises(DatasetFormatError, match=rf"{cub.paths[1].name}.*unreadable or truncated image"): cub.image(1)
    cub.paths[2].write_bytes(b"not an image at all")
    with pytest.raises(DatasetFormatError, match=rf"{cub.paths[2].name}"): cub.image(2)


def test_every_registered_loader_is_a_load_function():
    "`DatasetEntry.loads` decorates the loader itself (a helper slipped between decorator and loader once took its place)."
    import vlconcepts.caption_data, vlconcepts.compmap, vlconcepts.factor_data  # noqa: F401  (they register their datasets)
    from vlconcepts.datasets import registered_datasets
    loaders = {name: entry.loader.__wrapped__.__name__ for name, entry in registered_datasets().items() if entry.loader is not None}
    assert loaders and all(n.startswith("load_") for n in loaders.values()), loaders
