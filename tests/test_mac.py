"""vlconcepts.mac: hand-worked metrics (ties, one and several true pairs), image tokens of open_clip models, the
MM-Encoder's forward and backward pass, the label spaces of the real MAC split files."""
import math

import pytest
import torch

from vlconcepts.core import InputValidationError
from vlconcepts.attribute_object_data import load_mac
from vlconcepts.mac import (MMEncoder, label_space, mac_config, multilabel_metrics, multilabel_metrics_per_image,
                            true_pair_ranks)
from vlconcepts.models import load_model, save_tiny_model

PAIRS = [("a", "X"), ("b", "X"), ("c", "X"), ("a", "Y"), ("b", "Y"), ("c", "Y")]
BOTH = (multilabel_metrics, multilabel_metrics_per_image)


@pytest.fixture(scope="module")
def tiny_vit():
    "A tiny random-init open_clip ViT saved and loaded like real weights."
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        yield load_model(save_tiny_model("openclip", folder, seed=0))


@pytest.mark.parametrize("metrics", BOTH)
def test_one_true_pair_per_image(metrics):
    scores = torch.tensor([[0.6, 0.5, 0.4, 0.3, 0.2, 0.1],     # true (a, X) first
                           [0.9, 0.1, 0.2, 0.3, 0.8, 0.7]])    # true (c, Y) third, behind (a, X) and (b, Y)
    targets = torch.tensor([[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]], dtype=torch.bool)
    m = metrics(scores, targets, PAIRS)
    assert m["top1_precision"] == 0.5 and m["exact_match"] == 0.5 and m["top5_recall"] == 1.0
    assert m["coverage"] == 1.0                                   # ranks 0 and 2
    assert math.isclose(m["normalized_coverage"], (1 + math.exp(1 - 3)) / 2)
    assert m["top1_precision_attr"] == 0.5                        # row 1's top is attribute a; truth is c
    assert m["top1_precision_obj"] == 0.5                         # row 1's top is object X; truth is Y


@pytest.mark.parametrize("metrics", BOTH)
def test_several_true_pairs_and_ties(metrics):
    # row 0: true (a, Y), (b, Y), (c, Y); (a, Y) and (a, X) tie at the top -> (a, X), the lower column, is first
    # row 1: every score equal; true (b, X), (c, X) are columns 1 and 2 -> ranks 1 and 2
    scores = torch.tensor([[0.9, 0.1, 0.2, 0.9, 0.8, 0.7], [0.5] * 6])
    targets = torch.tensor([[0, 0, 0, 1, 1, 1], [0, 1, 1, 0, 0, 0]], dtype=torch.bool)
    m = metrics(scores, targets, PAIRS)
    assert m["top1_precision"] == 0.0                             # both tops are (a, X), false in both rows
    assert m["exact_match"] == 0.0                                # row 0: top 3 holds (a, X); row 1: top 2 holds (a, X)
    assert m["coverage"] == (3 + 2) / 2                           # row 0: ranks 1, 2, 3; row 1: ranks 1, 2
    assert m["top5_recall"] == 5 / 5
    assert m["top1_precision_attr"] == 0.5                        # row 0: 'a' is a true attribute; row 1: it is not
    assert m["top1_precision_obj"] == 0.5                         # row 0: X is not the object; row 1: it is
    assert math.isclose(m["normalized_coverage"], (math.exp(1 - 4 / 3) + math.exp(1 - 3 / 2)) / 2)


def test_exact_match_when_the_true_pairs_fill_the_top():
    scores = torch.tensor([[0.1, 0.9, 0.8, 0.0, 0.2, 0.3]])
    targets = torch.tensor([[0, 1, 1, 0, 0, 0]], dtype=torch.bool)
    m = multilabel_metrics(scores, targets, PAIRS, k=1)
    assert m["exact_match"] == 1.0 and m["normalized_coverage"] == 1.0 and m["top1_recall"] == 0.5


def test_ranks_follow_a_stable_descending_sort():
    g = torch.Generator().manual_seed(3)
    scores = torch.randint(0, 4, (50, 30), generator=g).float()    # heavy ties
    targets = torch.rand(50, 30, generator=g) < 0.2
    targets[:, 0] = True
    rows, cols, ranks = true_pair_ranks(scores, targets)
    order = torch.sort(scores, dim=1, descending=True, stable=True).indices
    expected = torch.empty_like(order).scatter_(1, order, torch.arange(30).expand(50, -1))
    assert torch.equal(ranks, expected[rows, cols])


def test_vectorised_equals_per_image_on_random_scores_with_ties():
    g = torch.Generator().manual_seed(0)
    scores = (torch.randn(300, 80, generator=g) * 3).round() / 3
    targets = torch.rand(300, 80, generator=g) < 0.05
    targets[torch.arange(300), torch.randint(0, 80, (300,), generator=g)] = True
    pairs = [(f"a{j % 10}", f"o{j // 10}") for j in range(80)]
    fast, slow = multilabel_metrics(scores, targets, pairs, chunk_size=17), multilabel_metrics_per_image(scores, targets, pairs)
    for name in fast:
        assert fast[name] == pytest.approx(slow[name], abs=1e-12), name


def test_bad_metric_inputs():
    with pytest.raises(InputValidationError, match="n_images, n_pairs"):
        multilabel_metrics(torch.zeros(2, 6), torch.zeros(2, 5, dtype=torch.bool), PAIRS)
    with pytest.raises(InputValidationError, match="pairs has 5 entries"):
        multilabel_metrics(torch.zeros(1, 6), torch.ones(1, 6, dtype=torch.bool), PAIRS[:5])
    with pytest.raises(InputValidationError, match="no true pair"):
        multilabel_metrics(torch.zeros(1, 6), torch.zeros(1, 6, dtype=torch.bool), PAIRS)


@pytest.mark.parametrize("spec", ["tiny-vit", "toyclip:default"])
def test_image_tokens_shapes_and_class_token(spec, tiny_vit):
    model = tiny_vit if spec == "tiny-vit" else load_model(spec)
    size = model.preprocess_cfg["size"]
    size = size if isinstance(size, int) else size[0]
    images = torch.rand(3, 3, size, size, generator=torch.Generator().manual_seed(0))
    cls, patches = model.encode_image_tokens(images)
    n_patches = (size // 8) ** 2 if spec == "tiny-vit" else (size // 32) ** 2        # ViT grid / ResNet feature map
    assert cls.shape == (3, model.embed_dim) and patches.shape == (3, n_patches, model.embed_dim)
    assert torch.allclose(cls, model.encode_images(images), atol=1e-5)
    raw_cls, raw_patches = model.encode_image_tokens(images, normalize=False)
    assert torch.allclose(torch.nn.functional.normalize(raw_cls, dim=-1), cls, atol=1e-5)


def test_mm_encoder_forward_backward(tiny_vit):
    from dataclasses import replace
    config = replace(mac_config("MM-Encoder"), fusion_ffn=32)
    model = MMEncoder(tiny_vit, tiny_vit.tokenizer, ["red", "blue", "wet"], ["cube", "sphere"], config)
    cls, patches = tiny_vit.encode_image_tokens(torch.rand(4, 3, 32, 32), normalize=False)
    logits = model(cls, patches)
    assert logits["a"].shape == (4, 3) and logits["o"].shape == (4, 2)
    loss = torch.nn.functional.binary_cross_entropy_with_logits(logits["a"], torch.ones(4, 3)) + \
        torch.nn.functional.cross_entropy(logits["o"], torch.tensor([0, 1, 0, 1]))
    loss.backward()
    trained = {name for name, p in model.named_parameters() if p.grad is not None}
    assert {"prompts.a.context", "prompts.o.context"} <= trained and any(n.startswith("encoder.") for n in trained)
    assert all(p.grad is None for p in tiny_vit.module.parameters())   # the CLIP stays frozen
    assert set(model.state_dict()) == {n for n, _ in model.named_parameters()}   # only the small parts are saved


def test_real_split_files_load(shared_dir):
    data = load_mac(shared_dir / "data" / "mac", split_files_only=True)       # the release ships no metadata or images
    assert (len(data.attributes), len(data.objects)) == (99, 259)
    closed, opened = label_space(data, "closed"), label_space(data, "open")
    assert (len(closed), len(opened)) == (7647, 25641)
    assert int(closed.seen.sum()) == 6791 and int(opened.seen.sum()) == 6791


def test_synthetic_closed_world_label_spaces(tmp_path):
    "The tiny world's closed world is ~30% of its open world; every test pair is in it (the union of the splits, as the release)."
    from vlconcepts.attribute_object_data import export_mac
    from vlconcepts.mac import pair_targets
    data = load_mac(export_mac(tmp_path / "mac", n=120, seed=0, size=16))
    closed, opened = label_space(data, "closed"), label_space(data, "open")
    assert (len(closed), len(opened)) == (42, 140)
    test = data.indices("test")
    assert pair_targets(data, test, closed).any(1).all()                  # every test image has its pairs in the closed world
    assert not pair_targets(data, test, opened)[:, [opened.pairs.index(p) for p in opened.pairs if p not in closed.pairs]].any()
    unseen = (pair_targets(data, test, closed) & ~closed.seen).any(1)
    assert 0 < int(unseen.sum()) < len(test)                               # seen and unseen test images
    full = load_mac(export_mac(tmp_path / "full", n=60, seed=0, size=8, closed_fraction=1.0))
    assert len(label_space(full, "closed")) > 42                          # the full world spreads over all 140 pairs


BAD_INPUTS = {   # issue 20 item 1: each of these returned a number (or a bare error) before validation
    "nan score": (lambda: multilabel_metrics(torch.tensor([[float("nan"), 0.5, 0.4, 0.3, 0.2, 0.1]]), torch.eye(6)[:1].bool(), PAIRS),
                  "NaN or ±inf"),
    "inf score": (lambda: multilabel_metrics(torch.tensor([[0.1, float("inf"), 0.4, 0.3, 0.2, 0.1]]), torch.eye(6)[:1].bool(), PAIRS),
                  "NaN or ±inf"),
    "soft targets": (lambda: multilabel_metrics(torch.rand(2, 6), torch.tensor([[1.0, 0.2, 0.2, 0.2, 0.2, 0.2]] * 2), PAIRS),
                     "binary"),
    "k = 0": (lambda: multilabel_metrics(torch.rand(1, 6), torch.eye(6)[:1].bool(), PAIRS, k=0), "k \\(of top-k recall\\) must be a positive int"),
    "k = 2.5": (lambda: multilabel_metrics(torch.rand(1, 6), torch.eye(6)[:1].bool(), PAIRS, k=2.5), "k \\(of top-k recall\\) must be a positive int"),
    "no images": (lambda: multilabel_metrics(torch.zeros(0, 6), torch.zeros(0, 6, dtype=torch.bool), PAIRS), "empty"),
    "no pairs": (lambda: multilabel_metrics(torch.zeros(2, 0), torch.zeros(2, 0, dtype=torch.bool), []), "empty"),
    "chunk_size = 0": (lambda: multilabel_metrics(torch.rand(1, 6), torch.eye(6)[:1].bool(), PAIRS, chunk_size=0),
                       "chunk_size must be a positive int"),
    "per-image k = 0": (lambda: multilabel_metrics_per_image(torch.rand(1, 6), torch.eye(6)[:1].bool(), PAIRS, k=0),
                        "k \\(of top-k recall\\) must be a positive int"),
    "per-image nan": (lambda: multilabel_metrics_per_image(torch.full((1, 6), float("nan")), torch.eye(6)[:1].bool(), PAIRS),
                      "NaN or ±inf"),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_metric_inputs_are_validated(case):
    call, message = BAD_INPUTS[case]
    with pytest.raises(InputValidationError, match=message): call()


def test_valid_integer_and_float_targets_still_score():
    scores = torch.tensor([[0.6, 0.5, 0.4, 0.3, 0.2, 0.1]])
    for targets in (torch.tensor([[1, 0, 0, 0, 0, 0]]), torch.tensor([[1.0, 0, 0, 0, 0, 0]]), torch.tensor([[True] + [False] * 5])):
        assert multilabel_metrics(scores, targets, PAIRS)["top1_precision"] == 1.0


def test_paper_tables_are_data_with_one_accessor():
    "Tables 2-4 as printed (vlconcepts/paper_numbers/mac), checked against the paper's own prose (§5.3); no second accessor in mac."
    import vlconcepts.mac as mac
    from vlconcepts.core import paper_table, paper_tables
    assert paper_tables("mac") == {"mac": ["table2", "table3", "table4"]}
    assert not any(hasattr(mac, name) for name in ("paper_table", "PAPER_TABLES", "PAPER_SOURCE"))
    t2, t3, t4 = (paper_table("mac", t) for t in ("table2", "table3", "table4"))
    assert t2.loc["CoOp", "top1_precision"] == "39.00" and t4.loc[("open", "CoOp a;o;c"), "top1_precision_attr"] == "+4.66"
    assert "arXiv 2406.12757 v1" in t2.attrs["source"]
    n2, n3 = (paper_table("mac", t, numeric=True).drop(columns="branch") for t in ("table2", "table3"))
    drop = n2 - n3
    c_branch = ["CLIP", "CoOp", "CSP", "Troika"]
    assert drop.loc[c_branch, "top1_precision"].min() == pytest.approx(10.51)        # "at least 10.51% decrease in top-1"
    assert drop.loc[c_branch, "top1_precision_attr"].min() == pytest.approx(11.01)
    assert drop.loc[c_branch, "top1_precision_obj"].min() == pytest.approx(0.21)
    assert drop.loc["MM-Encoder", "top1_precision"] == pytest.approx(1.44) and drop.loc["MM-Encoder", "top1_precision_attr"] == pytest.approx(0.97)
    assert list(n2.columns) == list(mac.PAPER_COLUMNS)


def test_scoring_another_split_reuses_the_trained_model(monkeypatch, one_torch_thread):
    """`run_method` on the training split after the test split trains nothing (`trained_mac_model` reads the cached
    weights), and scores exactly what a model trained afresh scores; another seed trains."""
    import vlconcepts.mac as mac
    data, clip = mac.tiny_mac(60, seed=0, size=64), load_model("toyclip:default", device="cpu")
    trainings, train = [], mac.train_mac_model
    monkeypatch.setattr(mac, "train_mac_model", lambda *a, **k: trainings.append(1) or train(*a, **k))
    options = dict(epochs=2, lr_scale=100.0, batch_size=8, fusion_ffn=32, show_progress=False)
    mac.run_method("CoOp", clip, data, split="test", **options)
    assert len(trainings) == 1
    reused = mac.run_method("CoOp", clip, data, split="train", **options)
    assert len(trainings) == 1
    cls, patches = mac.image_tokens(clip, data)
    fresh = mac.build_model(reused["config"], clip, data.attributes, data.objects)
    train(fresh, mac.training_data(data, cls, patches), show_progress=False)
    images = torch.as_tensor(data.indices("train"))
    assert torch.equal(reused["scores"]["closed"], mac.score_pairs(fresh, cls[images], patches[images], reused["spaces"]["closed"]))
    mac.run_method("CoOp", clip, data, split="train", seed=1, **options)
    assert len(trainings) == 2


def test_mac_training_reuse_benchmark(benchmark_script, monkeypatch, capsys, one_torch_thread):
    "benchmarks/mac_training_reuse.py prints all three timings and finds the reused and retrained scores identical."
    script = benchmark_script("mac_training_reuse")
    monkeypatch.setattr("sys.argv", ["mac_training_reuse.py", "--images", "60", "--epochs", "1", "--seeds", "0"])
    script.main()
    out = capsys.readouterr().out
    assert "identical train-split scores: True" in out
    assert "train-split runs training every model again (before)" in out and "test-split runs (Table 2, 4 trainings)" in out


class Killed(Exception):
    "A simulated kill (or pre-emption) of a training."


@pytest.mark.parametrize("name, save_every", [("CSP", 0.0), ("Troika", float("inf")), ("MM-Encoder", 0.0)])
def test_a_killed_training_resumes_to_the_uninterrupted_weights(name, save_every, tmp_path, one_torch_thread):
    """Killed within epoch 2 of 3 (saves at epoch ends only, or after every step) and started again on a fresh model, the
    training ends with the uninterrupted run's weights and losses, bit for bit on the CPU (dropout, schedule and batch order)."""
    from dataclasses import replace
    import vlconcepts.mac as mac
    from vlconcepts.cache import load_progress
    data, clip = mac.tiny_mac(60, seed=0, size=64), load_model("toyclip:default", device="cpu")
    cls, patches = mac.image_tokens(clip, data)
    train = mac.training_data(data, cls, patches)
    config = replace(mac.mac_config(name), epochs=3, lr=3e-3, batch_size=8, fusion_ffn=32, step_lr=1 if name == "Troika" else 0)
    whole = mac.build_model(config, clip, data.attributes, data.objects)
    whole_history = mac.train_mac_model(whole, train, show_progress=False)

    def kill(epoch, step):
        if (epoch, step) == (1, 2): raise Killed("killed")
    progress_file = tmp_path / "progress.pt"
    with pytest.raises(Killed):
        mac.train_mac_model(mac.build_model(config, clip, data.attributes, data.objects), train, False, progress_file, save_every, kill)
    saved = load_progress(progress_file)
    assert (saved["epoch"], saved["step"]) == ((1, 2) if save_every == 0 else (1, 0))
    resumed = mac.build_model(config, clip, data.attributes, data.objects)
    assert mac.train_mac_model(resumed, train, False, progress_file, save_every) == whole_history
    assert all(torch.equal(a, b) for a, b in zip(whole.state_dict().values(), resumed.state_dict().values()))


def test_a_killed_trained_mac_model_resumes_under_its_old_key(monkeypatch, one_torch_thread):
    """`trained_mac_model` killed by a failing step resumes from its saved progress, which lives in the entry of the key the
    weights were always cached under (config, CLIP, data, this module's source) and is deleted once they are cached."""
    from dataclasses import replace
    import vlconcepts.mac as mac
    from vlconcepts.cache import RESULT_PICKLE, FeatureCache, list_entries, load_progress, result_key
    data, clip = mac.tiny_mac(60, seed=0, size=64), load_model("toyclip:default", device="cpu")
    config = replace(mac.mac_config("CoOp"), epochs=3, lr=3e-3, batch_size=8)
    entry = FeatureCache().entry_dir(result_key("mac-model", {"config": config, "backbone": clip, "dataset": data.fingerprint}, ["vlconcepts.mac"]))
    steps, calls, loss = -(-len(data.indices("train")) // 8), [], mac.branch_loss

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == steps + 2: raise Killed("killed")
        return loss(*args, **kwargs)
    monkeypatch.setattr(mac, "branch_loss", failing)
    with pytest.raises(Killed): mac.trained_mac_model(config, clip, data, show_progress=False)
    assert load_progress(entry / "progress.pt")["epoch"] == 1
    assert [e["status"] for e in list_entries() if e["what"] == "mac-model"] == ["partial"]     # `vlconcepts cache ls` shows it
    resumed = mac.trained_mac_model(config, clip, data, show_progress=False)
    assert len(calls) == (steps + 2) + 2 * steps                # then epochs 2 and 3 only: the first was not trained again
    assert (entry / RESULT_PICKLE).is_file() and not (entry / "progress.pt").exists()
    monkeypatch.setattr(mac, "branch_loss", loss)
    cls, patches = mac.image_tokens(clip, data)
    whole = mac.build_model(config, clip, data.attributes, data.objects)
    mac.train_mac_model(whole, mac.training_data(data, cls, patches), show_progress=False)
    assert all(torch.equal(a, b) for a, b in zip(whole.state_dict().values(), resumed.state_dict().values()))


def test_missing_mac_images_reach_the_notebooks(tmp_path):
    """A MAC image gone from its URL stops a notebook run with an error that says how to set `missing_images` there; 'drop'
    leaves it out, and the captions (`describe_split`) and the paper tables' own-data note say how many were dropped."""
    import warnings
    from vlconcepts.attribute_object_data import export_mac
    from vlconcepts.cli import run_parameters
    from vlconcepts.core import DatasetNotFound, OwnDataWarning, own_data, own_data_note
    from vlconcepts.mac import describe_split, mac_dataset
    root = export_mac(tmp_path / "mac", n=60, seed=0, size=16)
    for path in sorted((root / "images").rglob("*.png"))[:2]: path.unlink()
    with pytest.raises(DatasetNotFound, match=r"2 of the 60 .* names are missing") as error: mac_dataset(root=root)
    assert "-p missing_images drop" in str(error.value) and "missing_images: drop" in str(error.value)
    with pytest.warns(OwnDataWarning, match="58 images, its vlconcepts export has 60"):   # a synthetic MAC: its export has the count
        data = mac_dataset("drop", root=root)
    assert len(data) == 58 and describe_split(data).endswith("2 of the 60 images its metadata names were missing (gone from their "
                                                             "third-party URLs) and were dropped (missing_images='drop')")
    assert "58 images, its vlconcepts export has 60" in own_data_note(own_data())[0]
    from pathlib import Path
    notebooks = Path(__file__).resolve().parents[1] / "nbs" / "experiments"
    for stem in ("50_mac_closed_open", "51_mac_branch_ablation", "52_mac_qualitative"):
        assert run_parameters(notebooks / f"{stem}.ipynb", "paper")["missing_images"] == "error"
        assert run_parameters(notebooks / f"{stem}.ipynb", "smoke", extra={"missing_images": "drop"})["missing_images"] == "drop"
