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
