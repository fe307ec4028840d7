"""Does the paper's probe step fit on one GPU? GPU memory of one T5-large probe (and autoencoder) step at the paper's batch
of 512 captions x 64 tokens, counted on a CPU.

    python benchmarks/probe_memory.py [--captions 4] [--gpu-gib 80]

What it counts, exactly: the bytes autograd saves for the backward pass (`torch.autograd.graph.saved_tensors_hooks`,
each storage counted once) during one forward of `vlconcepts.probes.VectorConditionedT5` / `PooledT5Autoencoder` on
T5-large's architecture (random weights) with captions of 64 tokens, in float32 and under bfloat16 autocast (the CPU's
autocast op list, close to but not the same as CUDA's), at two caption counts. The difference is the activations per
caption (autocast's bfloat16 weight copies do not grow with the batch, so they fall out; they are the "fixed" column;
the weights themselves are not counted there, they are in "state"). A micro-batch of m captions keeps m times the per-caption bytes. Beside them a step holds the weights,
their gradients and Adafactor's factored state (both counted from the trainable parameters). The sum is a lower bound
of the peak (no allocator slack, no temporaries of the backward pass), which is why the table also says how many
micro-batches keep it under `--gpu-gib` with a quarter of the card left over. On a lent H100 (2026-11-25) one of the
batch-512 float32 attempts ran out of its 80 GB (docs/paper_profile.md, "On a lent H100")."""
import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402
from paper_gpu_cost import T5_LARGE, t5  # noqa: E402


def saved_bytes(model, inputs, labels, bf16: bool) -> int:
    "Bytes autograd saves for backward in one forward of `model(inputs, labels)` (each storage once; the weights themselves not)."
    seen, total = {p.untyped_storage().data_ptr() for p in model.parameters()}, [0]
    def pack(tensor):
        storage = tensor.untyped_storage()
        if storage.data_ptr() not in seen:
            seen.add(storage.data_ptr()); total[0] += storage.nbytes()
        return tensor
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        model(inputs, labels)
    return total[0]


def state_bytes(model) -> dict:
    "Weights (all), gradients (trainable) and Adafactor's factored second moments (rows + columns per matrix) in float32."
    trainable = [p for p in model.parameters() if p.requires_grad]
    factored = sum((p.shape[0] + p.shape[1]) if p.ndim == 2 else p.numel() for p in trainable)
    return {"weights": 4 * sum(p.numel() for p in model.parameters()), "gradients": 4 * sum(p.numel() for p in trainable),
            "adafactor": 4 * factored}


def per_caption_bytes(model, make_inputs, labels, bf16: bool, small: int) -> tuple[float, float]:
    "(saved bytes per caption, fixed saved bytes): the slope and intercept of saved bytes between `small` and 3 x `small` captions."
    few, many = (saved_bytes(model, make_inputs(labels[:n]), labels[:n], bf16) for n in (small, 3 * small))
    slope = (many - few) / (2 * small)
    return slope, few - small * slope


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--captions", type=int, default=2, help="captions in the smaller counted forward (the larger has 3x)")
    parser.add_argument("--batch", type=int, default=512, help="the paper's global batch")
    parser.add_argument("--length", type=int, default=64, help="tokens per caption (the paper's max_length; the worst case)")
    parser.add_argument("--gpu-gib", type=float, default=80.0)
    args = parser.parse_args(argv)
    from vlconcepts.probes import PooledT5Autoencoder, VectorConditionedT5
    labels = torch.randint(2, T5_LARGE["vocab_size"], (3 * args.captions, args.length), generator=torch.Generator().manual_seed(0))
    vectors = torch.randn(3 * args.captions, 768, generator=torch.Generator().manual_seed(1))
    print(f"T5-large ({T5_LARGE}), random weights; {load()}")
    print(f"| model | precision | state (GiB) | fixed saved (GiB) | activations per caption (MiB) | batch {args.batch} in one pass (GiB) | "
          f"micro-batches for <= {0.75 * args.gpu_gib:.0f} GiB |\n|---|---|---:|---:|---:|---:|---:|")
    for name, build, make_inputs in (("probe (decoder on a 768-d vector)", lambda: VectorConditionedT5(t5(T5_LARGE), 768),
                                      lambda rows: vectors[:len(rows)]),
                                     ("autoencoder (encoder + decoder)", lambda: PooledT5Autoencoder(t5(T5_LARGE)), lambda rows: rows)):
        model = build().train()
        state = sum(state_bytes(model).values())
        for bf16 in (False, True):
            per_caption, fixed = per_caption_bytes(model, make_inputs, labels, bf16, args.captions)
            whole = state + fixed + args.batch * per_caption
            parts = next((k for k in (1, 2, 4, 8, 16, 32, 64)
                          if state + fixed + args.batch / k * per_caption <= 0.75 * args.gpu_gib * 2**30), None)
            print(f"| {name} | {'bf16 autocast' if bf16 else 'fp32'} | {state / 2**30:.1f} | {fixed / 2**30:.1f} | {per_caption / 2**20:.0f} | "
                  f"{whole / 2**30:.0f} | {parts or 'more than 64'} |", flush=True)
        del model
    return 0


if __name__ == "__main__":
    sys.exit(main())
