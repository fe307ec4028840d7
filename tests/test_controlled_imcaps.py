"""ControlledImCaps-style evaluation: Winoground scores on hand-built tensors (ties fail), summaries, Wilcoxon,
the EM link and instance check, and the user pairs JSON format with its errors."""
import json

import numpy as np
import pandas as pd
import pytest
import torch
from PIL import Image

from vlconcepts.compprompts import compprompts
from vlconcepts.controlled_imcaps import (category_summary, compare_models, em_by_category,
                                          em_link_table, instance_check, load_user_pairs, pair_scores, score_frame)
from vlconcepts.core import DatasetFormatError, InputValidationError


def test_winoground_scores_with_ties():
    sim = torch.tensor([[[2., 1.], [1., 2.]],      # perfect
                        [[1., 1.], [1., 1.]],      # all tied: every score fails
                        [[2., 2.], [1., 3.]],      # caption 0 ties across images: image score fails, text holds
                        [[2., 1.], [2., 3.]],      # image 0 ties across captions: text score fails, image holds
                        [[1., 2.], [2., 1.]]])     # inverted
    scores = pair_scores(sim)
    assert scores["text"].tolist() == [True, False, True, False, False]
    assert scores["image"].tolist() == [True, False, False, True, False]
    assert scores["group"].tolist() == [True, False, False, False, False]
    with pytest.raises(InputValidationError, match="shape"): pair_scores(np.zeros((2, 3, 2)))


def test_summary_comparison_link_and_instance_check():
    rng = torch.Generator().manual_seed(0)
    perfect = torch.tensor([[[1., 0.], [0., 1.]]]).repeat(40, 1, 1)
    types = ["verb-1"] * 20 + ["adjective"] * 20
    frame = pd.concat([score_frame(perfect, types, "perfect"), score_frame(torch.rand(40, 2, 2, generator=rng), types, "random")])
    summary = category_summary(frame, n_boot=200)
    best = summary.query("model == 'perfect' and score == 'group'")
    assert (best["mean"] == 100).all() and (best["low"] == 100).all()
    assert set(summary.type) == {"verb-1", "adjective", "all"}
    tests = compare_models(frame, "perfect", "random").set_index(["type", "score"])
    assert tests.loc[("all", "group"), "wilcoxon p"] < 1e-4
    prompts = compprompts(per_cell=10)
    em = em_by_category(prompts, prompts.cic_category.eq("verb-1"))
    assert em["verb-1"] == 100 and em["adjective"] == 0
    table = em_link_table(em, summary, "perfect")
    assert list(table.columns[:3]) == ["type", "EM on CompPrompts", "CIC image score"]
    assert table.loc["Verb 1-obj", "CIC image score"] == 100
    check = instance_check(frame, np.arange(40) < 10, "random")
    assert check["pairs"].tolist() == [30, 10]
    from vlconcepts.core import paper_table
    assert set(paper_table("probes", "table4_7_9").index.get_level_values("table")) == {"Table 4", "Table 7", "Table 8", "Table 9"}


@pytest.fixture
def coco(tmp_path):
    (tmp_path / "val2017").mkdir()
    for name in ("a.jpg", "b.jpg"): Image.new("RGB", (4, 4)).save(tmp_path / "val2017" / name)
    return tmp_path


RECORD = {"type": "spatial-2", "image_0": "val2017/a.jpg", "caption_0": "a person to the left of a horse",
          "image_1": "val2017/b.jpg", "caption_1": "a person to the right of a horse"}


def _write(tmp_path, content):
    path = tmp_path / "pairs.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def test_user_pairs_json(coco, tmp_path):
    pairs = load_user_pairs(_write(tmp_path, {"pairs": [RECORD]}), image_root=coco)
    assert pairs.types == ["spatial-2"] and pairs.words == [("left", "right")]
    assert pairs.image_files[0] == (coco / "val2017/a.jpg", coco / "val2017/b.jpg")


def test_user_pairs_in_the_public_temporal_json_format(coco, tmp_path):
    "44_probes_imcaps source=<file>: the reporting_bias temporal.json records (two per pair) were rejected ('expected an object')."
    records = [{"filename": "val2017/b.jpg", "caption_options": ["A person after opening an umbrella", "A person before opening an umbrella"],
                "gold_index": 1},
               {"filename": "val2017/a.jpg", "caption_options": ["A person after opening an umbrella", "A person before opening an umbrella"],
                "gold_index": 0}]
    path = tmp_path / "temporal.json"
    path.write_text(json.dumps(records))
    pairs = load_user_pairs(path, image_root=coco)
    assert pairs.types == ["temporal"] and pairs.words == [("after", "before")]
    assert pairs.image_files[0] == (coco / "val2017/a.jpg", coco / "val2017/b.jpg")


@pytest.mark.parametrize("content, message", [
    ("[1, 2", "not valid JSON"),
    ({"records": []}, "key 'pairs' is missing"),
    ({"pairs": []}, "'pairs' is empty"),
    ({"pairs": ["x"]}, "is a str, not an object"),
    ({"pairs": [{**RECORD, "type": "count"}]}, "is not one of"),
    ({"pairs": [{**RECORD, "caption_0": 3}]}, "must be non-empty strings"),
    ({"pairs": [{k: v for k, v in RECORD.items() if k != "image_1"}]}, "lacks key(s) ['image_1']"),
    ({"pairs": [{**RECORD, "caption_1": "a horse to the right of a person"}]}, "exactly one word"),
    ({"pairs": [{**RECORD, "image_1": "val2017/missing.jpg"}]}, "not found under"),
])
def test_malformed_user_pairs_are_clear_errors(coco, tmp_path, content, message):
    with pytest.raises(DatasetFormatError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(").replace(")", r"\)")):
        load_user_pairs(_write(tmp_path, content), image_root=coco)
