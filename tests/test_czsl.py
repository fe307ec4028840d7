"""Bad-input cases and a scale check of `vlconcepts.czsl` (the hand-worked cases live in nbs/06_czsl.ipynb)."""
import math

import numpy as np
import pytest
import torch

from vlconcepts.core import InputValidationError
from vlconcepts.czsl import (apply_bias, bias_sweep, bias_sweeps, choose_bias, closed_world_mask, open_world_labels,
                             reference_bias_sweep)

FOUR = torch.tensor([[0.9, 0.1, 0.5, 0.2], [0.3, 0.6, 0.2, 0.4], [0.8, 0.1, 0.5, 0.3], [0.2, 0.7, 0.6, 0.65]])
LABELS, SEEN = np.arange(4), np.array([True, True, False, False])


def test_scores_and_labels_shape_mismatch():
    with pytest.raises(InputValidationError, match="3 entries but scores has 4 image rows"):
        bias_sweep(FOUR, [0, 1, 2], SEEN)
    with pytest.raises(InputValidationError, match=r"must have the shape of scores \(4, 4\)"):
        bias_sweep(FOUR, np.ones((4, 3), dtype=bool), SEEN)
    with pytest.raises(InputValidationError, match=r"shape \(4,\) \(one per label\)"):
        bias_sweep(FOUR, LABELS, [True, False, True])
    with pytest.raises(InputValidationError, match=r"\[n_images, n_labels\]"):
        bias_sweep(FOUR[0], LABELS, SEEN)
    with pytest.raises(InputValidationError, match="label_mask must be None"):
        bias_sweep(FOUR, LABELS, SEEN, label_mask=np.ones((4, 3), dtype=bool))


def test_label_out_of_range():
    with pytest.raises(InputValidationError, match="image 2 has label 7.*valid: 0..3"):
        bias_sweep(FOUR, [0, 1, 7, 3], SEEN)
    with pytest.raises(InputValidationError, match="image 0 has label -1"):
        bias_sweep(FOUR, [-1, 1, 2, 3], SEEN)
    with pytest.raises(InputValidationError, match=r"seen indices must lie in \[0, 4\)"):
        bias_sweep(FOUR, LABELS, [0, 4])


def test_true_label_masked_out():
    closed = np.array([True, True, True, False])
    with pytest.raises(InputValidationError, match="true label masked out by label_mask.*image 3.*closed_world_mask"):
        bias_sweep(FOUR, LABELS, SEEN, label_mask=closed)
    per_image = np.ones((4, 4), dtype=bool); per_image[1, 1] = False
    with pytest.raises(InputValidationError, match="first: image 1"):
        bias_sweep(FOUR, LABELS, SEEN, label_mask=per_image)


def test_no_seen_or_no_unseen_images():
    with pytest.raises(InputValidationError, match="no unseen images in this split"):
        bias_sweep(FOUR, [0, 1, 0, 1], SEEN)
    with pytest.raises(InputValidationError, match="no seen images in this split"):
        bias_sweep(FOUR, [2, 3, 2, 3], SEEN)
    with pytest.raises(InputValidationError, match="images have no true label"):
        bias_sweep(FOUR, np.zeros((4, 4), dtype=bool), SEEN)


def test_nan_scores():
    scores = FOUR.clone(); scores[2, 1] = math.nan
    with pytest.raises(InputValidationError, match="NaN in 1 image rows.*image 2"):
        bias_sweep(scores, LABELS, SEEN)
    mixed = FOUR.clone(); mixed[0, 1], mixed[0, 2] = math.inf, -math.inf   # a NaN row sum, but no NaN: +inf is named
    with pytest.raises(InputValidationError, match=r"\+inf in 1 image rows.*image 0"):
        bias_sweep(mixed, LABELS, SEEN)


@pytest.mark.parametrize("sweep", [bias_sweep, reference_bias_sweep])
def test_infinite_scores_one_behaviour(sweep):
    "+inf anywhere and -inf on a true label are errors in both evaluators; -inf on a competitor means never predicted."
    plus = FOUR.clone(); plus[2, 2] = math.inf                    # image 2's true unseen label: 0.5 vs 1.0 before the fix
    with pytest.raises(InputValidationError, match=r"\+inf in 1 image rows \(first: image 2\)"):
        sweep(plus, LABELS, SEEN)
    minus = FOUR.clone(); minus[3, 3] = -math.inf                  # image 3's true label
    with pytest.raises(InputValidationError, match=r"score a true label at -inf \(first: image 3\)"):
        sweep(minus, LABELS, SEEN)
    multi = np.eye(4, dtype=bool); multi[1, 0] = True; minus_multi = FOUR.clone(); minus_multi[1, 0] = -math.inf
    with pytest.raises(InputValidationError, match=r"first: image 1"):
        sweep(minus_multi, multi, SEEN, protocol="mac-release")
    never = FOUR.clone(); never[0, 2] = never[3, 0] = -math.inf    # competitors never predicted: allowed, both agree
    assert sweep(never, LABELS, SEEN).to_dict() == reference_bias_sweep(never, LABELS, SEEN).to_dict()


def test_topk_larger_than_candidates():
    with pytest.raises(InputValidationError, match="topk=5 is larger than the number of candidate labels \\(4\\)"):
        bias_sweep(FOUR, LABELS, SEEN, topk=5)
    few = np.ones((4, 4), dtype=bool); few[0, 2:] = False
    with pytest.raises(InputValidationError, match="topk=3 .*candidate labels \\(2 for some image under label_mask\\)"):
        bias_sweep(FOUR, LABELS, SEEN, topk=3, label_mask=few)
    with pytest.raises(InputValidationError, match="topk must be a positive int"):
        bias_sweep(FOUR, LABELS, SEEN, topk=0)
    with pytest.raises(InputValidationError, match=r"every topk must be a positive int, got \[1.5\]"):
        bias_sweeps(FOUR, LABELS, SEEN, topks=(1, 1.5))


def test_bad_options():
    with pytest.raises(InputValidationError, match="hm must be 'harmonic' \\(czsl\\) or 'geometric'"):
        bias_sweep(FOUR, LABELS, SEEN, hm="mean")
    with pytest.raises(InputValidationError, match="protocol must be one of"):
        bias_sweep(FOUR, LABELS, SEEN, protocol="mac")
    for n_biases in (0, -3, 2.5):
        with pytest.raises(InputValidationError, match="n_biases must be a positive int"):
            bias_sweep(FOUR, LABELS, SEEN, n_biases=n_biases)
    with pytest.raises(InputValidationError, match="as booleans"):      # a 0/1 mask given as ints is not label indices
        bias_sweep(FOUR, LABELS, np.array([1, 1, 0, 0]))
    with pytest.raises(InputValidationError, match="criterion must be one of"):
        choose_bias(FOUR, LABELS, SEEN, criterion="auc")
    with pytest.raises(InputValidationError, match="not in all_pairs"):
        closed_world_mask([("a", "b")], [("a", "c")], [])
    with pytest.raises(InputValidationError, match="objects is empty"):
        open_world_labels(["a"], [])
    with pytest.raises(InputValidationError, match="labels must be an int vector"):
        bias_sweep(FOUR, np.array([0.0, 1.0, 2.0, 3.0]), SEEN)


def test_numpy_and_torch_inputs_agree_and_apply_bias_keeps_type():
    a = bias_sweep(FOUR.numpy(), LABELS, SEEN).to_dict()
    b = bias_sweep(FOUR, torch.as_tensor(LABELS), torch.as_tensor(SEEN)).to_dict()
    assert a == b
    assert isinstance(apply_bias(FOUR.numpy(), SEEN, 1.0), np.ndarray)
    assert torch.equal(apply_bias(FOUR, SEEN, 1.0)[:, 2:], FOUR[:, 2:] + 1.0)


def test_matches_straightforward_evaluator_at_a_larger_size():
    "Open-world-like shape (many unseen labels, few seen), several chunks: exact agreement for top-1..3."
    g = torch.Generator().manual_seed(0)
    n, L = 600, 3000
    scores = torch.randn(n, L, generator=g)
    seen = torch.zeros(L, dtype=torch.bool); seen[torch.randperm(L, generator=g)[:150]] = True
    seen_idx, unseen_idx = seen.nonzero().flatten(), (~seen).nonzero().flatten()[:100]
    pick_seen = torch.rand(n, generator=g) < 0.5
    labels = torch.where(pick_seen, seen_idx[torch.randint(len(seen_idx), (n,), generator=g)],
                         unseen_idx[torch.randint(len(unseen_idx), (n,), generator=g)])
    scores[torch.arange(n), labels] += 2.5
    fast = bias_sweeps(scores, labels, seen, topks=(1, 2, 3), chunk_size=97)
    for k in (1, 2, 3):
        slow = reference_bias_sweep(scores, labels, seen, topk=k)
        assert fast[k].to_dict() == slow.to_dict()
        assert len(slow.biases) >= 21
