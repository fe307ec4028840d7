"""ControlledImCaps-like pairs and the CC3M-style caption corpus: CLI exports, truth of captions, loaders and bad files."""
import json

import numpy as np
import pytest

from vlconcepts.caption_data import (CC3M_TRAIN_FILE, IMCAPS_TYPES, differing_words, imcaps_caption_holds,
                                     load_captions, load_controlled_imcaps, make_imcaps_pair)
from vlconcepts.cli import export_world
from vlconcepts.core import DatasetFormatError, DatasetNotFound


def test_controlled_imcaps_export_round_trips_and_captions_are_discriminative(tmp_path):
    path = export_world("controlled-imcaps", tmp_path, n=12, seed=5, size=32)
    pairs = load_controlled_imcaps(path)
    assert len(pairs) == 12 and pairs.types == list(IMCAPS_TYPES) * 2
    rng = np.random.default_rng(5)
    for k, kind in enumerate(pairs.types):
        pair = make_imcaps_pair(rng, kind)                    # the export's draws, regenerated
        assert pair.captions == pairs.captions[k]
        assert pairs.words[k] == differing_words(*pairs.captions[k])
        for i in range(2):
            assert imcaps_caption_holds(pair.scenes[i], pairs.captions[k][i])
            assert not imcaps_caption_holds(pair.scenes[1 - i], pairs.captions[k][i])
    scenes = json.loads((tmp_path / "scenes.json").read_text())["scenes"]
    assert len(scenes) == 24 and scenes[0]["image_filename"] == "images/CIC_0000_0.png"


def test_caption_corpus_is_cc3m_tsv(tmp_path):
    path = export_world("captions", tmp_path, n=50, seed=1)
    assert path.name == CC3M_TRAIN_FILE
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 50 and all(len(line.split("\t")) == 2 for line in lines)
    corpus = load_captions(tmp_path)
    assert corpus.captions == [line.split("\t")[0] for line in lines]
    assert load_captions(export_world("captions", tmp_path / "again", n=50, seed=1)).fingerprint == corpus.fingerprint


def test_missing_and_malformed_caption_data(tmp_path, monkeypatch):
    monkeypatch.setenv("VLCONCEPTS_DATA", str(tmp_path))
    with pytest.raises(DatasetNotFound, match="ControlledImCaps"):
        load_controlled_imcaps()
    with pytest.raises(DatasetNotFound, match="CC3M"):
        load_captions()
    (tmp_path / "controlled-imcaps").mkdir()
    (tmp_path / "controlled-imcaps" / "pairs.json").write_text(json.dumps({"pairs": [{"image_0": "a.png"}]}))
    with pytest.raises(DatasetFormatError, match="pair 0 lacks key 'image_1'"):
        load_controlled_imcaps()
    (tmp_path / "cc3m").mkdir()
    (tmp_path / "cc3m" / CC3M_TRAIN_FILE).write_text("a cube\turl\textra\n")
    with pytest.raises(DatasetFormatError, match="line 1"):
        load_captions()


def test_caption_corpus_mix_makes_negations_counts_and_two_objects_rare():
    from vlconcepts.caption_data import CAPTION_CORPUS_MIX, caption_corpus, construction_shares
    shares = construction_shares([c for c, _ in caption_corpus(1500, seed=4)])["share (%)"]
    assert shares["negation"] < 4 and shares["multiples"] < 5 and shares["two or more objects"] < 20
    uniform = construction_shares([c for c, _ in caption_corpus(600, seed=4, weights=None)])["share (%)"]
    assert uniform["negation"] > 10                                           # 2 of 12 kinds negate when drawn uniformly
    assert abs(sum(CAPTION_CORPUS_MIX.values()) - 1) < 1e-9
    hand = construction_shares(["a red cube", "no red cube", "a cube that is not red", "two cubes", "a man walking a dog"])
    assert hand["captions"].to_dict() == {"negation": 2, "multiples": 1, "two or more objects": 1}
