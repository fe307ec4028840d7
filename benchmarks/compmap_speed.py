"""CompMap speed: the whole tiny profile, and one MIT-States composition model at the paper's size.

Part `tiny` runs every CompMap experiment notebook (`nbs/experiments/1*_compmap_*.ipynb`) in the
tiny profile with papermill, into a temporary output folder, against the current
`$VLCONCEPTS_CACHE` (run it twice: the first run extracts activations, trains the A8 ToyCLIPs and
the composition models, one per seed of each notebook's `seeds` (three in the tiny profile); the
second reads them from the cache) and prints each notebook's time, the total and the load average
beside the 10-minute target.

Part `paper-model` trains one composition model of the paper's size on seeded synthetic data:
30,000 training images × 360 activations (115 attributes + 245 objects), 1,962 pairs of which
1,262 seen, 10,420 validation images scored every epoch, batch 128, Adam, 400 epochs, and prints
the time beside the 5-minute target. `--epochs N` runs N epochs and extrapolates linearly (both
figures printed). It also times one training step with the pair embeddings computed per pair
(the direct formula) and per attribute and object (the factorised one the library uses).

    .venv/bin/python benchmarks/compmap_speed.py [--parts tiny,paper-model] [--epochs 400] [--device cpu]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")

import numpy as np
import torch
import torch.nn.functional as F

from vlconcepts.compmap import CompositionConfig, CompositionModel, fit_composition_model

REPO = Path(__file__).resolve().parents[1]


def tiny_profile() -> float:
    "Run every CompMap experiment notebook in the tiny profile; print and return the total seconds."
    notebooks = sorted((REPO / "nbs" / "experiments").glob("1*_compmap_*.ipynb"))
    total = 0.0
    with tempfile.TemporaryDirectory() as out:
        for nb in notebooks:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "papermill", str(nb), str(Path(out) / nb.name), "-k", "python3",
                            "-p", "profile", "tiny", "--cwd", str(nb.parent)], check=True, capture_output=True,
                           env={**os.environ, "VLCONCEPTS_OUTPUT": out})
            seconds = time.perf_counter() - start
            total += seconds
            print(f"  {nb.stem:40s} {seconds:7.1f} s", flush=True)
    print(f"tiny profile, {len(notebooks)} notebooks: {total:.1f} s (target: 600 s with activations cached; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return total


def paper_size_data(seed: int = 0):
    "Seeded synthetic MIT-States-sized inputs: activations carry their attribute and object, plus noise."
    rng = np.random.default_rng(seed)
    n_attr, n_obj = 115, 245
    pairs = np.array(sorted({(int(a), int(o)) for a, o in zip(rng.integers(n_attr, size=4000), rng.integers(n_obj, size=4000))}))[:1962]
    seen = np.zeros(len(pairs), bool); seen[rng.permutation(len(pairs))[:1262]] = True
    def split(n, allowed):
        labels = rng.choice(np.flatnonzero(allowed), n)
        x = rng.normal(20, 1, (n, n_attr + n_obj)).astype(np.float32)
        x[np.arange(n), pairs[labels, 0]] += 2; x[np.arange(n), n_attr + pairs[labels, 1]] += 2
        return x, labels
    x_train, y_train = split(30_000, seen)
    x_val, y_val = split(10_420, np.ones(len(pairs), bool))
    words = lambda n: rng.normal(0, 1, (n, 600)).astype(np.float32)
    return x_train, y_train, x_val, y_val, pairs, seen, words(n_attr), words(n_obj)


def step_times(data, device, repeats: int = 20) -> tuple[float, float]:
    "Seconds per training step with per-pair (direct) and per-primitive (factorised) pair embeddings."
    x_train, y_train, _, _, pairs, seen, attr_vectors, obj_vectors = data
    model = CompositionModel(attr_vectors, obj_vectors, x_train.shape[1]).to(device)
    pa, po = (torch.as_tensor(pairs[seen][:, i]).to(device) for i in (0, 1))
    x, y = torch.as_tensor(x_train[:128]).to(device), torch.randint(0, int(seen.sum()), (128,)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-5)
    def direct():
        text = F.normalize(model.text_projection(torch.cat([model.attr_embedding(pa), model.obj_embedding(po)], 1)), dim=-1)
        return model.log_scale.exp().clamp(max=100) * model.image_embeddings(x) @ text.T
    out = {}
    for name, forward in (("direct", direct), ("factorised", lambda: model(x, pa, po))):
        for k in range(repeats + 3):
            if k == 3: start = time.perf_counter()
            loss = F.cross_entropy(forward(), y)
            optimizer.zero_grad(); loss.backward(); optimizer.step()
        out[name] = (time.perf_counter() - start) / repeats
    return out["direct"], out["factorised"]


def step_gflop(n_attr: int = 115, n_obj: int = 245, word_dim: int = 600, dim: int = 360, batch: int = 128, n_seen: int = 1262) -> float:
    "GFLOP of one training step (forward + backward of the matrix products; everything else is negligible)."
    forward = {"attribute projection": n_attr * word_dim * dim, "object projection": n_obj * word_dim * dim,
               "image projection": batch * dim * dim, "logits": batch * dim * n_seen}
    # backward: two products per forward product (weight and input gradients), except the image projection's input (x needs none)
    macs = sum(forward.values()) + 2 * sum(forward.values()) - forward["image projection"]
    return 2 * macs / 1e9


def matmul_peak(device: str, size: int = 2048, repeats: int = 10) -> float:
    "GFLOP/s of a large float32 matrix product: what this machine's matmul can do at best."
    a, b = torch.randn(size, size, device=device), torch.randn(size, size, device=device)
    a @ b
    if device.startswith("cuda"): torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(repeats): a @ b
    if device.startswith("cuda"): torch.cuda.synchronize()
    return 2 * size ** 3 * repeats / (time.perf_counter() - start) / 1e9


def paper_model(epochs: int, device: str) -> float:
    "Train one paper-size composition model for `epochs`; print measured and 400-epoch seconds."
    data = paper_size_data()
    direct, factorised = step_times(data, device)
    print(f"one step (batch 128, 1,262 seen pairs): direct {1e3 * direct:.1f} ms, factorised {1e3 * factorised:.1f} ms "
          f"({direct / factorised:.1f}x)")
    gflop, peak, steps = step_gflop(), matmul_peak(device), 400 * (30_000 // 128)
    print(f"arithmetic: {gflop:.2f} GFLOP per factorised step, {steps:,} steps in 400 epochs = {gflop * steps / 1e3:.1f} TFLOP; "
          f"the factorised step runs at {gflop / factorised:.0f} GFLOP/s; a 2048x2048 float32 matmul here: {peak:.0f} GFLOP/s, "
          f"so 400 epochs need at least {gflop * steps / peak:.0f} s of training steps even at that peak (target: 300 s)")
    config = CompositionConfig(epochs=epochs, cpu_threads=torch.get_num_threads())
    start = time.perf_counter()
    run = fit_composition_model(*data, config, device=device, name="benchmark", use_cache=False)
    seconds = time.perf_counter() - start
    full = seconds * 400 / epochs
    print(f"paper-size composition model (30,000 x 360, 1,262 seen of 1,962 pairs, val 10,420 every epoch): {epochs} epochs in "
          f"{seconds:.1f} s; 400 epochs {'measured' if epochs == 400 else 'extrapolated'}: {full:.0f} s (target: 300 s); "
          f"best val AUC {100 * run.best_val_auc:.1f} at epoch {run.best_epoch}")
    return full


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="tiny,paper-model", help="comma-separated: tiny, paper-model")
    parser.add_argument("--epochs", type=int, default=400, help="epochs of the paper-size model (fewer: extrapolated to 400)")
    parser.add_argument("--device", default="cpu", help="cpu | cuda | auto")
    args = parser.parse_args(argv)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} CPU threads, load average {os.getloadavg()[0]:.1f}")
    parts = args.parts.split(",")
    if "paper-model" in parts: paper_model(args.epochs, args.device)
    if "tiny" in parts: tiny_profile()


if __name__ == "__main__":
    main()
