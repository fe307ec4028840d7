"CompMap: hand-worked checks of the prompt builders, interventions, denoising, group softmax and weight metrics, the per-seed\nlong tables, captions, the transcribed paper tables, and clear errors."
import math

import numpy as np
import pytest
import torch

import pandas as pd

import vlconcepts.compmap as compmap
from vlconcepts.compmap import (CLIP_TEMPLATES, CZSL_COLUMNS, CUB_COLUMNS, CompositionModel, alignment_accuracy, caption_spec,
                                compmap_dataset, cub_attribute_prompt, cub_class_prompt, denoise_class_attributes,
                                departures_from_paper, few_shot_tasks, fill_prompts, group_softmax, interpretability_gap_rows,
                                intervene, load_word_vectors, seed_rows, topk_hits, word_vectors)
from vlconcepts.core import DatasetNotFound, InputValidationError, paper_table, paper_tables


@pytest.mark.parametrize("name, prompt", [
    ("has_bill_shape::needle", "a photo of bird whose bill shape is needle"),
    ("has_size::very_small_(3_-_5_in)", "a photo of bird whose size is very small (3 - 5 in)"),
    ("has_shape::upright-perching_water-like", "a photo of bird whose shape is upright-perching water-like"),
    ("has_upper_tail_color::grey", "a photo of bird whose upper tail color is grey"),
])
def test_cub_attribute_prompts(name, prompt):
    assert cub_attribute_prompt(name) == prompt


def test_class_and_mit_prompts():
    assert cub_class_prompt("200.Common_Yellowthroat") == "the bird is common yellowthroat"
    assert fill_prompts(["ripe", "ripe apple"], "this is {}") == [["this is ripe", "this is ripe apple"]]
    assert fill_prompts(["apple"], CLIP_TEMPLATES)[2] == ["a origami apple"]
    with pytest.raises(InputValidationError, match="exactly one"):
        fill_prompts(["apple"], "a {} and a {}")


def test_interventions_by_hand():
    acts = torch.tensor([[0.0, 3.0, 4.0], [1.0, 1.0, 1.0]])
    truth = torch.tensor([[1, 0, 0], [0, 0, 1]])
    assert torch.equal(intervene(acts, truth, "full"), truth.float())
    assert torch.allclose(intervene(acts, truth, "partial"), torch.tensor([[1.0, 3.0, 4.0], [1.0, 1.0, 1.0]]))
    s = 1 / math.sqrt(3)
    assert torch.allclose(intervene(acts, truth, "partial", l2_normalize=True), torch.tensor([[1.0, 0.6, 0.8], [s, s, 1.0]]))
    with pytest.raises(InputValidationError, match="shape"):
        intervene(acts, truth[:, :2], "full")


def test_denoising_rules_by_hand():
    labels = np.array([0, 0, 0, 1])
    present = np.array([[1, 0], [1, 1], [0, 0], [0, 1]])
    certainty = np.array([[4, 1], [4, 4], [1, 1], [2, 4]])
    classes, kept = denoise_class_attributes(labels, present, certainty)          # mode: > half of all images
    assert classes.tolist() == [[1, 0], [0, 1]] and kept.all()
    # koh, training images 0-2 and 3: class 0 attr 1 counts images 1 (present) and 0/2 are 'absent, not visible' -> 1 of 1
    classes, kept = denoise_class_attributes(labels, present, certainty, rule="koh", is_train=[1, 1, 1, 1], min_classes=1)
    assert classes.tolist() == [[1, 1], [0, 1]] and kept.tolist() == [True, True]
    _, kept = denoise_class_attributes(labels, present, certainty, rule="koh", is_train=[1, 1, 1, 1], min_classes=2)
    assert kept.tolist() == [False, True]


def test_group_softmax_by_hand():
    out = group_softmax(torch.tensor([[0.0, math.log(3.0), 7.0]]), ["g", "g", "h"])
    assert torch.allclose(out, torch.tensor([[0.25, 0.75, 1.0]]))


def test_weight_metrics_by_hand():
    weights = np.array([[3.0, 1.0, 2.0], [0.0, 1.0, 2.0]])
    truth = np.array([[1, 1, 0], [0, 1, 1]])
    assert topk_hits(weights, truth).tolist() == [[True, False, False], [False, True, True]]
    acc = alignment_accuracy(weights, truth)
    assert acc["Acc-Instance"] == 75.0 and acc["Acc-Class"] == 50.0
    assert math.isclose(acc["random"], 200 / 3)


def test_composition_model_weights_are_its_linear_map():
    torch.manual_seed(0)
    model = CompositionModel(np.eye(3, 4), np.eye(2, 4), in_dim=5)
    pa, po = torch.tensor([0, 2]), torch.tensor([1, 0])
    x = torch.randn(3, 5)
    assert torch.allclose(model(x, pa, po, intervene=True), (1 / 0.07) * x @ model.primitive_weights(pa, po).T, atol=1e-4)


def test_few_shot_tasks_are_seeded_and_disjoint():
    labels, is_train = np.repeat(np.arange(4), 4), np.tile([1, 1, 0, 0], 4)
    tasks = few_shot_tasks(labels, is_train, 3, 2, 4, seed=5)
    assert [t.support.tolist() for t in tasks] == [t.support.tolist() for t in few_shot_tasks(labels, is_train, 3, 2, 4, seed=5)]
    for t in tasks:
        assert len(t.support) == 6 and len(t.query) == 6 and not set(t.support) & set(t.query)


def test_missing_dataset_is_a_clear_error(tmp_path):
    with pytest.raises(DatasetNotFound, match="mit-states"):
        compmap_dataset("mit-states", source="real", root=str(tmp_path / "nothing"))
    with pytest.raises(InputValidationError, match="'mit-states' and 'cub'"):
        compmap_dataset("imagenet")


def test_missing_word_vectors_name_the_file_and_source(tmp_path):
    with pytest.raises(DatasetNotFound) as info:
        load_word_vectors("fasttext", tmp_path / "cc.en.300.bin")
    assert "cc.en.300.bin" in str(info.value) and "fasttext" in str(info.value)
    with pytest.raises(DatasetNotFound, match="GoogleNews"):
        word_vectors(["red"], [f"word2vec:{tmp_path / 'GoogleNews-vectors-negative300.bin.gz'}"])
    with pytest.raises(InputValidationError, match="kind"):
        load_word_vectors("glove")


def test_paper_tables_are_transcribed():
    table = paper_table("compmap", "table2", numeric=True)
    assert table.loc["CLIP-Prim", "Full shot"] == 52.6 and table.shape == (10, 9) and list(table.columns) == CUB_COLUMNS
    assert paper_table("compmap", "tableA8").loc["CLIP-ViT-L/14-336px-Interv(Partial)", "HM"] == "27.5"
    assert list(paper_table("compmap", "table1").columns) == CZSL_COLUMNS
    assert len(paper_tables("compmap")["compmap"]) == 14
    assert not hasattr(compmap, "paper_table") and not hasattr(compmap, "_PAPER_TEXT")  # one home for the paper's numbers


def test_paper_cells_are_the_printed_strings():
    assert paper_table("compmap", "tableA4").loc[("Aggregated", "CLIP-Prim"), "HM"] == "20.7 ± 0.4"     # as printed
    assert paper_table("compmap", "tableA6").loc[("", "Oracle-Prim"), "Seen"] == "100"                 # A6 prints 100
    assert paper_table("compmap", "table1").loc["Oracle-Prim", "Seen"] == "100.0"                      # Table 1 prints 100.0
    assert paper_table("compmap", "table5").loc["CompCos", "Val AUC k=1"] == "/"
    assert paper_table("compmap", "tableA5").loc[("", "CompCos"), "Val AUC k=1"] == "-"
    assert np.isnan(paper_table("compmap", "tableA5", numeric=True).loc[("", "CompCos"), "Val AUC k=1"])


def test_paper_transcription_cross_checks():
    "Table 3's Δ is Oracle-Prim − Interv(Full) of Tables 1 and 2; the same runs print the same numbers in several tables."
    t1, t2 = paper_table("compmap", "table1", numeric=True), paper_table("compmap", "table2", numeric=True)
    t3m, t3c = paper_table("compmap", "table3_mit_states", numeric=True), paper_table("compmap", "table3_cub", numeric=True)
    for model in ("CLIP", "ViLT", "ALBEF"):
        for metric in ("Test AUC k=1", "Seen", "Unseen", "HM"):
            assert math.isclose(t1.loc["Oracle-Prim", metric] - t1.loc[f"{model}-Interv(Full)", metric], t3m.loc[model, f"Δ {metric}"], abs_tol=0.051)
        for delta, column in (("Δ n=5", "n=5 k=5"), ("Δ n=100", "n=100 k=5"), ("Δ n=200", "n=200 k=5"), ("Δ Full shot", "Full shot")):
            assert math.isclose(t2.loc["Oracle-Prim", column] - t2.loc[f"{model}-Interv(Full)", column], t3c.loc[model, delta], abs_tol=0.051)
    clip = paper_table("compmap", "table1").loc["CLIP-Prim"].tolist()
    assert paper_table("compmap", "table5").loc["CLIP-Prim"].tolist() == clip
    assert paper_table("compmap", "tableA8").loc["CLIP-ViT-B/32-Prim"].tolist() == clip
    assert paper_table("compmap", "tableA6").loc[("Single (main paper)", "CLIP-Prim")].tolist() == clip
    a4, a6 = paper_table("compmap", "tableA4"), paper_table("compmap", "tableA6")
    assert a4.loc[("Aggregated", "CLIP-Prim")].tolist() == a6.loc[("Aggregated", "CLIP-Prim")].tolist()


def test_seed_rows_and_gaps_by_hand():
    one = pd.DataFrame({"HM": [90.0, 40.0]}, index=["Oracle-Prim", "M-Interv(Full)"])
    long = pd.concat([seed_rows(one, 1123), seed_rows(one + 2.0, 7)], ignore_index=True)
    assert list(long.columns) == ["row", "metric", "seed", "value"] and len(long) == 4
    gap = interpretability_gap_rows(long, ["M"], ["HM"])
    assert gap.values.tolist() == [["M", "Δ HM", 1123, 50.0], ["M", "Δ HM", 7, 50.0]]


def test_captions_name_departures_and_no_temporary_path():
    assert departures_from_paper(source="real", epochs=400, oracle_epochs=100, lr=5e-5, batch_size=128,
                                 word_sources=["fasttext", "word2vec"], seeds=[1123]) == "none"
    text = departures_from_paper(source="synthetic", epochs=150, seeds=[1123, 1124, 1125])
    assert text == "source synthetic (paper: real); epochs 150 (release: 400); seeds [1123, 1124, 1125] (release: [1123])"
    with pytest.raises(InputValidationError, match="no paper setting"):
        departures_from_paper(epoch=3)
    assert caption_spec("toyclip:/tmp/x/compmap/toyclip-widths/w8/last.pt", cache="/tmp/x") == "toyclip:$VLCONCEPTS_CACHE/compmap/toyclip-widths/w8/last.pt"
    assert caption_spec("toyclip:/tmp/other/w8-t32/last.pt", cache="/nowhere") == "toyclip:…/w8-t32/last.pt"
