"""Bad dataset input through the real exporters and the console entry point: user data is never replaced by an export,
and loaders refuse split files, split names and files that would give an empty or mislabelled dataset."""
import warnings

import pytest
import torch

from vlconcepts.attribute_object_data import MIT_METADATA, MIT_SPLIT_DIR, load_mit_states
from vlconcepts.cli import main
from vlconcepts.core import DatasetFormatError
from vlconcepts.datasets import EXPORT_RECORD


def test_world_export_never_replaces_the_users_files(tmp_path, capsys):
    "The audit's reproduction: `vlconcepts world export mit-states --out <folder with the user's MIT-States>` deleted it."
    out = tmp_path / "mit-states"
    (out / "images" / "real_download").mkdir(parents=True); (out / MIT_SPLIT_DIR).mkdir()
    (out / "images" / "real_download" / "img_0001.jpg").write_text("precious")
    (out / MIT_SPLIT_DIR / "train_pairs.txt").write_text("ancient dog\n")
    assert main(["world", "export", "mit-states", "--out", str(out), "--n", "5", "--size", "16"]) != 0
    error = capsys.readouterr().err
    assert f"would replace {MIT_SPLIT_DIR}/, images/, which no vlconcepts export wrote there" in error and "Nothing was changed" in error
    assert (out / "images" / "real_download" / "img_0001.jpg").read_text() == "precious"
    assert (out / MIT_SPLIT_DIR / "train_pairs.txt").read_text() == "ancient dog\n"
    assert sorted(p.name for p in out.iterdir()) == [MIT_SPLIT_DIR, "images"]          # no staging folder, no partial export


def test_world_export_again_into_its_own_folder(tmp_path):
    "A folder an export wrote is exported into again (another n): the new export replaces the old one entirely."
    out = tmp_path / "mit-states"
    for n in (8, 5):
        assert main(["world", "export", "mit-states", "--out", str(out), "--n", str(n), "--size", "16"]) == 0
    assert len(load_mit_states(out)) == 5 and len(list((out / "images").rglob("*.png"))) == 5
    assert (out / EXPORT_RECORD).is_file()


@pytest.fixture
def mit_states(tmp_path):
    assert main(["world", "export", "mit-states", "--out", str(tmp_path / "m"), "--n", "40", "--size", "16"]) == 0
    return tmp_path / "m"


def test_mit_states_split_files_that_match_no_image(mit_states):
    for split in ("train", "val", "test"): (mit_states / MIT_SPLIT_DIR / f"{split}_pairs.txt").write_text("foo bar\n")
    with pytest.raises(DatasetFormatError, match="matched the split files .*train_pairs.txt.* list pairs such as 'foo bar', "
                                                 "the metadata labels images such as '"):
        load_mit_states(mit_states)


def test_mit_states_split_names_are_checked_at_load_time(mit_states):
    metadata = torch.load(mit_states / MIT_METADATA, weights_only=True)
    torch.save([{**m, "set": "validation" if m["set"] == "val" else m["set"]} for m in metadata], mit_states / MIT_METADATA)
    with warnings.catch_warnings(), pytest.raises(DatasetFormatError, match="has set 'validation'; a set must be one of train, val, test"):
        warnings.simplefilter("ignore")
        load_mit_states(mit_states)


@pytest.mark.parametrize("task", ["single", "rel"])
def test_a_partial_binding_download_is_named_when_read(tmp_path, task):
    "Binding images a label file names but the folder lacks failed only at feature extraction; now at load time, or are dropped."
    from vlconcepts.binding_data import export_binding, load_binding
    from vlconcepts.core import DatasetNotFound
    root = export_binding(tmp_path, task, n=12, seed=0, size=16)
    whole = load_binding(root, task)
    gone = whole.paths[-1]; gone.unlink()
    with pytest.raises(DatasetNotFound, match=rf"of the \d+ that {'gen.json' if task == 'rel' else 'test.csv'} names are missing, first {gone}"):
        load_binding(root, task)
    kept = load_binding(root, task, missing_images="drop")
    assert gone not in kept.paths and set(kept.paths) == set(whole.paths) - {gone}
    assert [c for p, c in zip(whole.paths, whole.candidates) if p != gone] == kept.candidates   # labels stay with their images


def test_a_partial_cub_download_is_named_when_read(tmp_path):
    "CUB images images.txt names but the folder lacks: an error at load time, or dropped with every column of theirs."
    from vlconcepts.core import DatasetNotFound
    from vlconcepts.cub_data import export_cub, load_cub
    whole = load_cub(export_cub(tmp_path, n=6, size=16))
    whole.paths[2].unlink()
    with pytest.raises(DatasetNotFound, match="1 of the 6 that images.txt names are missing"): load_cub(tmp_path)
    kept = load_cub(tmp_path, missing_images="drop")
    keep = [0, 1, 3, 4, 5]
    assert kept.image_ids == [whole.image_ids[i] for i in keep] and kept.splits == [whole.splits[i] for i in keep]
    assert (kept.labels == whole.labels[keep]).all() and (kept.attribute_present == whole.attribute_present[keep]).all()
    assert (kept.attribute_certainty == whole.attribute_certainty[keep]).all()
