"""Table-1-level checks and bad-input cases of `vlconcepts.purity` (the small checks live in nbs/30_purity.ipynb)."""
import math

import numpy as np
import pytest
import torch
from scipy import stats

from vlconcepts.core import InputValidationError
from vlconcepts import purity


def _binary(n=600, k=3, seed=0):
    return (np.random.RandomState(seed).rand(n, k) > 0.5).astype(int)


def test_table1_impure_has_higher_ois_with_p_below_001():
    "The paper's headline check at its own size: 5 draws each, the impure representation has a larger OIS, p < 0.01."
    scores = purity.run_table1(n_samples=3000, n_trials=5, metrics=("OIS",), show_progress=False)
    base = scores.query("mode == 'baseline'")["value"].to_numpy()
    impure = scores.query("mode == 'impure'")["value"].to_numpy()
    assert impure.mean() > base.mean() + 5, (base, impure)
    assert stats.ttest_ind(base, impure, equal_var=False).pvalue < 0.01


def test_niche_impurity_is_one_half_at_beta_zero():
    c_true, c_soft = purity.table1_representations(1000, 5, "impure", seed=0)
    for variant in ("paper", "release"):
        impurities, betas = purity.niche_impurity_curve(c_soft, c_true, variant=variant)
        assert betas[0] == 0
        np.testing.assert_allclose(impurities[0], 0.5, atol=1e-12)


def test_ois_zero_for_the_truth_and_one_over_sqrt_k_for_noise():
    c = _binary(1000, 4, seed=1)
    oracle = purity.oracle_matrix(c, batch_size=100)
    assert purity.oracle_impurity_score(c.astype(float), c, oracle_matrix=oracle, batch_size=100) < 0.05
    noise = np.random.RandomState(2).rand(1000, 4)
    assert abs(purity.oracle_impurity_score(noise, c, oracle_matrix=oracle, batch_size=100) - 1 / math.sqrt(4)) < 0.06


@pytest.mark.parametrize("n", [200, 10_000])
def test_pure_representation_scores_near_zero_ois_at_small_and_large_n(n):
    "Issue 20 item 3: the true concepts as their own representation (k = 3) scored OIS 0.951 at n = 200 with 25 epochs."
    c = _binary(n, 3, seed=0)
    assert purity.oracle_impurity_score(c.astype(float), c, seed=0) <= 0.1


def test_small_test_split_warns_that_n_is_too_small():
    c = _binary(60, 3, seed=1)                                 # 12 test samples: AUC standard errors ≈ 0.17
    with pytest.warns(UserWarning, match="n is too small to estimate an AUC"):
        purity.purity_matrix(c + 0.1, c, epochs=1, min_steps=0)
    with pytest.warns(UserWarning, match="n is too small to estimate an AUC"):
        purity.niche_impurity_score(c + 0.1, c, max_iter=20)


def test_batched_purity_matrix_equals_the_per_pair_loop():
    "Same initialisation and batch order: the batched probes reproduce the one-network-per-cell loop."
    c = _binary(300, 3, seed=3)
    soft = c + 0.3 * np.random.RandomState(4).rand(300, 3)
    kw = dict(epochs=5, batch_size=32)
    np.testing.assert_allclose(purity.purity_matrix(soft, c, **kw), purity.purity_matrix(soft, c, implementation="loop", **kw), atol=1e-3)
    vector = np.random.RandomState(5).rand(300, 2, 3) + c[:, None, :]      # (n, d, k): the dense batched kernel
    np.testing.assert_allclose(purity.purity_matrix(vector, c, **kw), purity.purity_matrix(vector, c, implementation="loop", **kw), atol=1e-3)


def _single_class_in_test(n=200):
    "Binary concepts where concept 1 has its only positive sample in the training split."
    c = _binary(n, 2, seed=6)
    train, _ = purity.split_indices(n, 0.2, 0)
    c[:, 1] = 0
    c[train[0], 1] = 1
    return c


BAD_INPUTS = {
    "shape mismatch": (lambda: (np.zeros((10, 3)), _binary(12)), "10 samples but c_true has 12"),
    "NaN": (lambda: (np.full((600, 3), np.nan), _binary()), "NaN or infinite"),
    "inf": (lambda: (np.where(np.eye(600, 3) > 0, np.inf, 0.0), _binary()), "NaN or infinite"),
    "constant true column": (lambda: (np.random.rand(600, 3), np.c_[_binary(600, 2), np.ones(600, int)]), "column 2 is constant"),
    "k_soft < k_true": (lambda: (np.random.rand(600, 2), _binary()), "k_soft < k_true"),
    "single class in test": (lambda: (np.random.rand(200, 2), _single_class_in_test()), "single class in the test split"),
    "continuous truth": (lambda: (np.random.rand(600, 3), np.random.rand(600, 3)), "non-integer"),
    "bad c_soft rank": (lambda: (np.zeros((2, 2, 2, 2)), _binary(2, 2)), "has shape"),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
@pytest.mark.parametrize("metric", ["purity_matrix", "oracle_impurity_score", "niche_impurity_score"])
def test_bad_inputs_raise_clear_errors(case, metric):
    make, message = BAD_INPUTS[case]
    c_soft, c_true = make()
    with pytest.raises(InputValidationError, match=message.replace("(", r"\(")):
        getattr(purity, metric)(c_soft, c_true, epochs=1) if metric != "niche_impurity_score" else purity.niche_impurity_score(c_soft, c_true)


def test_option_errors():
    c = _binary()
    with pytest.raises(InputValidationError, match="'paper' or 'release'"): purity.niche_impurity_score(c * 1.0, c, variant="cem")
    with pytest.raises(InputValidationError, match="'release'"): purity.dci_disentanglement(c * 1.0, c, orientation="x")
    with pytest.raises(InputValidationError, match="align=True"): purity.oracle_impurity_score(np.random.rand(600, 4), c)
    with pytest.raises(InputValidationError, match="multi-valued"): purity.niche_impurity_score(c * 1.0, c + c[:, [0, 0, 0]])
    with pytest.raises(InputValidationError, match="oracle_matrix has shape"):
        purity.oracle_impurity_score(c * 1.0, c, oracle_matrix=np.eye(2), epochs=1)


def test_release_nis_classifier_is_the_references_constant():
    "With the split fixed by explicit train/test arrays, 'release' NIS ignores `seed` (f is MLPClassifier(random_state=1)); 'paper' does not."
    c_true, c_soft = purity.table1_representations(600, 4, "impure", seed=1)
    train, test = purity.split_indices(600, 0.2, 0)
    kw = dict(c_soft_train=c_soft[train], c_true_train=c_true[train])
    release = [purity.niche_impurity_score(c_soft[test], c_true[test], seed=s, variant="release", **kw) for s in (0, 5)]
    assert release[0] == release[1]
    assert release[0] == purity.niche_impurity_score(c_soft[test], c_true[test], seed=0, variant="release", classifier_seed=1, **kw)
    assert release[0] != purity.niche_impurity_score(c_soft[test], c_true[test], seed=0, variant="release", classifier_seed=5, **kw)
    paper = [purity.niche_impurity_score(c_soft[test], c_true[test], seed=s, **kw) for s in (0, 5)]
    assert paper[0] != paper[1]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_purity_matrix_on_cuda_matches_cpu():
    "Scalar-kernel and dense probes give the same purity matrix on CUDA as on the CPU (same init, same batch order)."
    c_true, c_soft = purity.table1_representations(800, 3, "impure", seed=3)
    for kernel, soft in (("scalar", c_soft), ("dense", np.stack([c_soft, c_soft ** 2], 1))):
        on_cpu = purity.purity_matrix(soft, c_true, seed=0, kernel=kernel, device="cpu")
        on_gpu = purity.purity_matrix(soft, c_true, seed=0, kernel=kernel, device="cuda")
        assert np.abs(on_cpu - on_gpu).max() < 0.01, (kernel, on_cpu, on_gpu)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_scalar_probe_kernel_keeps_its_buffers_on_cuda():
    generator = torch.Generator().manual_seed(0)
    sorted_x = torch.sort(torch.randn(4, 64, generator=generator, dtype=torch.float64), dim=1).values.cuda()
    targets = torch.randint(0, 2, (4, 64), generator=generator).double().cuda()
    w1, b1 = torch.randn(4, 8, dtype=torch.float64).cuda(), torch.randn(4, 8, dtype=torch.float64).cuda()
    w2, b2 = torch.randn(4, 8, 1, dtype=torch.float64).cuda(), torch.randn(4, 1, dtype=torch.float64).cuda()
    grads = purity.scalar_probe_gradients(sorted_x, targets, w1, b1, w2, b2)
    expected = purity.scalar_probe_gradients(sorted_x.cpu(), targets.cpu(), w1.cpu(), b1.cpu(), w2.cpu(), b2.cpu())
    for g, e in zip(grads, expected):
        assert g.device.type == "cuda"
        torch.testing.assert_close(g.cpu(), e)


def test_paper_numbers_have_one_home():
    "Issue 20 item 16: the transcribed numbers are data read by `core.paper_table('purity', ...)`, not module constants."
    from vlconcepts import concept_learners
    from vlconcepts.core import paper_table, paper_tables
    for module, names in ((purity, ("PAPER_TABLE1", "paper_table1", "_trapezoid")),
                          (concept_learners, ("PAPER_FIG1_CORRELATIONS", "PAPER_FIG2_CLAIMS", "PAPER_FIG3_SPURIOUS", "PAPER_FIG4",
                                              "PAPER_FIG5_INTERVENTIONS", "PAPER_SOURCE"))):
        assert not [n for n in names if hasattr(module, n)], module.__name__
    assert paper_tables("purity")["purity"] == ["fig1_correlations", "fig2_claims", "fig3_spurious", "fig4_model_families",
                                               "fig5_interventions", "table1"]
    table1 = paper_table("purity", "table1")
    assert table1.loc["Impure Soft (%)", "OIS"] == "22.58 ± 2.34" and table1.loc["p-value", "DCI Dis"] == "3.66×10^{-9}"
    assert purity.printed_values(table1.loc["Baseline Soft (%)", "NIS"]) == (66.25, 2.31)
    fig4 = paper_table("purity", "fig4_model_families", numeric=True)
    assert fig4.shape == (20, 4) and fig4.loc[("3dshapes", "vae"), "nis high"] == 0.87


def test_nis_uses_the_czsl_trapezoid_rule():
    "Issue 20 item 17: one trapezoid rule; NIS is `czsl.trapezoid_auc` of the mean NI curve over β, bitwise."
    from vlconcepts.czsl import trapezoid_auc
    c_true, c_soft = purity.table1_representations(400, 3, "impure", seed=2)
    impurities, betas = purity.niche_impurity_curve(c_soft, c_true, variant="release", max_iter=50)
    assert purity.niche_impurity_score(c_soft, c_true, variant="release", max_iter=50) == trapezoid_auc(impurities.mean(1), betas)
    assert purity.trapezoid_auc is trapezoid_auc
