"""Speed of the purity metrics: batched probes versus a per-pair loop at equal settings.

Part `table1`: the paper's Table 1 (both representations, 5 trials, n = 3000, k = 5) with OIS and NIS
(both variants), once with the batched implementation and once with the straightforward loops (one
`nn.Sequential` per purity-matrix cell; one `predict_proba` call per (β, concept) for NIS). Prints the
wall times and the OIS of both, so their agreement can be judged against the trial-to-trial spread.

Part `matrix`: one purity matrix for k = 112 learnt × 112 true concepts, n = 10,000 (the reference probe
budget). The batched run is timed in full; the loop is timed on `--loop-cells` random cells and
extrapolated to all k² cells.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/purity_speed.py --part all

The load average is printed before and after: on a shared machine it changes the figures a lot.
"""
from __future__ import annotations

import argparse
import platform
import time

import numpy as np
import torch

from _common import load  # benchmarks/_common.py
from vlconcepts import purity



def nis_loop(c_soft, c_true, *, seed=0, variant="paper"):
    "NIS with one predict_proba call per (β, concept): the straightforward version of `niche_impurity_score`."
    from sklearn.metrics import roc_auc_score
    concepts, labels = purity.validate_concepts(c_soft, c_true)
    train, test = purity.split_indices(len(labels), 0.2, seed)
    x = np.concatenate(concepts, 1)
    corr = purity.niche_correlations([c[train] for c in concepts], labels[train])
    f = purity._fit_niche_classifier(x[train], labels[train], purity.nis_classifier_seed(variant, seed))  # release: random_state=1
    betas = purity.nis_betas(variant)
    curve = []
    for beta in betas:
        preds = np.zeros((len(test), labels.shape[1]))
        for j in range(labels.shape[1]):
            keep = (corr[:, j] <= beta).astype(float)
            preds[:, j] = f.predict_proba(x[test] * keep)[:, j]
        if variant == "release":
            preds = np.exp(preds - preds.max(1, keepdims=True)); preds /= preds.sum(1, keepdims=True)
        curve.append(np.mean([roc_auc_score(labels[test, j], preds[:, j]) for j in range(labels.shape[1])]))
    return float(np.trapezoid(curve, betas))


def table1_part(n_trials: int, n: int, implementation: str) -> tuple[float, dict]:
    "Wall time of Table 1's OIS + NIS (paper and release) over both modes, and the scores."
    scores = {"baseline": {"OIS": [], "NIS": [], "NIS (release)": []}, "impure": {"OIS": [], "NIS": [], "NIS (release)": []}}
    start = time.perf_counter()
    for mode in ("baseline", "impure"):
        oracle = None
        for trial in range(n_trials):
            seed = 87 + 1000 * (mode == "impure") + trial
            c_true, c_soft = purity.table1_representations(n, 5, mode, seed=seed)
            if oracle is None: oracle = purity.oracle_matrix(c_true, seed=seed, implementation=implementation)
            scores[mode]["OIS"].append(100 * purity.oracle_impurity_score(c_soft, c_true, seed=seed, oracle_matrix=oracle,
                                                                          implementation=implementation))
            if implementation == "batched":                      # one classifier f, all (β, concept) maskings stacked
                nis = purity.niche_impurity_scores(c_soft, c_true, seed=seed, variants=("paper", "release"))
            else:                                                # the reference's way: one call per variant, per-(β, j) loop
                nis = {v: nis_loop(c_soft, c_true, seed=seed, variant=v) for v in ("paper", "release")}
            scores[mode]["NIS"].append(100 * nis["paper"])
            scores[mode]["NIS (release)"].append(100 * nis["release"])
    return time.perf_counter() - start, scores


def matrix_part(k: int, n: int, loop_cells: int, chunk_size: int, device: str = "cpu") -> None:
    "Time a k×k purity matrix (batched, in full, on `device`) and the CPU loop on a sample of cells (extrapolated)."
    c_true, c_soft = purity.table1_representations(n, k, "baseline", seed=0)
    print(f"\n== purity matrix k={k}x{k}, n={n} ({k * k} probes, {purity.PROBE_DEFAULTS}) on {device} ==  [{load()}]", flush=True)
    if device.startswith("cuda"):  # warm-up: CUDA context and kernel selection stay out of the timing
        purity.purity_matrix(c_soft[:, :2], c_true[:, :2], seed=0, device=device)
        torch.cuda.synchronize()
    start = time.perf_counter()
    matrix = purity.purity_matrix(c_soft, c_true, seed=0, chunk_size=chunk_size, show_progress=True, device=device)
    batched = time.perf_counter() - start
    print(f"batched on {device}: {batched:.1f} s   diag mean AUC {np.diag(matrix).mean():.4f}, off-diag mean {matrix[~np.eye(k, dtype=bool)].mean():.4f}  [{load()}]", flush=True)

    labels = purity.encode_labels(c_true)
    train, test = purity.split_indices(n, 0.2, 0)
    features = torch.as_tensor(c_soft.T[..., None], dtype=torch.float32)
    cells = np.random.RandomState(0).choice(k * k, size=min(loop_cells, k * k), replace=False)
    rows, cols = np.divmod(cells, k)
    kw = dict(train_idx=train, test_idx=test, seed=0, **purity.PROBE_DEFAULTS)
    start = time.perf_counter()
    looped = purity.train_probes_loop(features, torch.as_tensor(labels.T.copy()), rows, cols, 1, **kw)
    loop_time = time.perf_counter() - start
    same = purity.train_probes(features, torch.as_tensor(labels.T.copy()), rows, cols, 1, **kw)
    print(f"loop: {loop_time:.1f} s for {len(cells)} cells -> {loop_time / len(cells) * k * k:.0f} s extrapolated to {k * k} cells "
          f"(speed-up x{loop_time / len(cells) * k * k / batched:.0f})  [{load()}]")
    print(f"same {len(cells)} cells, same init and batch order: max |logit difference| batched vs loop = "
          f"{float((same - looped).abs().max()):.2e}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=["table1", "matrix", "all"], default="all")
    parser.add_argument("--trials", type=int, default=5, help="Table 1 trials per representation")
    parser.add_argument("--n-table1", type=int, default=3000, help="Table 1 samples")
    parser.add_argument("--k", type=int, default=112, help="concepts in the big purity matrix")
    parser.add_argument("--n", type=int, default=10_000, help="samples in the big purity matrix")
    parser.add_argument("--loop-cells", type=int, default=48, help="cells the loop is timed on (extrapolated)")
    parser.add_argument("--chunk-size", type=int, default=4096, help="probes per batched chunk")
    parser.add_argument("--skip-loop", action="store_true", help="time the batched implementation only (Table 1 part)")
    parser.add_argument("--device", default="cpu", help="device of the batched purity matrix (matrix part): cpu or cuda")
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, torch {torch.__version__}, {torch.get_num_threads()} torch thread(s); {load()}")
    if args.part in ("table1", "all"):
        print(f"\n== Table 1: OIS + NIS (paper, release), 2 representations x {args.trials} trials, n={args.n_table1}, k=5 ==")
        results = {}
        for implementation in ("batched",) if args.skip_loop else ("batched", "loop"):
            seconds, scores = table1_part(args.trials, args.n_table1, implementation)
            results[implementation] = scores
            print(f"{implementation:8s}: {seconds:6.1f} s  [{load()}]", flush=True)
        for mode in ("baseline", "impure") if not args.skip_loop else ():
            for metric in ("OIS", "NIS", "NIS (release)"):
                b, l = np.array(results["batched"][mode][metric]), np.array(results["loop"][mode][metric])
                print(f"  {mode:8s} {metric:14s} batched {b.mean():6.2f} ± {b.std():.2f}   loop {l.mean():6.2f} ± {l.std():.2f}   "
                      f"|diff of means| {abs(b.mean() - l.mean()):.2f}")
    if args.part in ("matrix", "all"):
        matrix_part(args.k, args.n, args.loop_cells, args.chunk_size, args.device)


if __name__ == "__main__":
    main()
