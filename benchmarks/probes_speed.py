"""Probe speed: training steps/s and decoded prompts/s of the tiny-profile recovery probe (vlconcepts.probes).

Measures, in one run, on CPU (and on CUDA when available): optimiser steps per second of `fit` at the tiny
profile's sizes (ProbeConfig(): batch, T5 sizes, vocabulary of a tokenizer trained on CompPrompts-grammar captions),
and prompts per second of batched beam-search decoding (5 beams), greedy decoding (1 beam) beside it.
Random pooled vectors stand in for an encoder (the speed does not depend on what the vectors hold).

    .venv/bin/python benchmarks/probes_speed.py [--steps 30] [--prompts 512] [--device cpu|cuda|all]
"""
import argparse
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import torch

import vlconcepts.core  # noqa: F401  (guarded torchvision import before transformers)
from vlconcepts.caption_data import caption_corpus
from vlconcepts.probes import (ProbeConfig, TrainedProbe, VectorConditionedT5, _label_ids, fit, probe_t5,
                               train_probe_tokenizer)


def measure(device: str, steps: int, n_prompts: int, config: ProbeConfig, captions: list[str], input_dim: int = 384):
    "Training steps/s and decoding prompts/s (5 and 1 beams) on `device`."
    tokenizer = train_probe_tokenizer(captions, config.vocab_size)
    labels = _label_ids(tokenizer, captions, config.max_length)
    vectors = torch.randn(len(captions), input_dim, generator=torch.Generator().manual_seed(0))
    model = VectorConditionedT5(probe_t5(config, len(tokenizer)), input_dim)
    run = replace(config, steps=steps + 2, checkpoint_every=10 ** 9)
    with tempfile.TemporaryDirectory() as tmp:
        fit(model, vectors, labels.masked_fill(labels == 0, -100), run, Path(tmp) / "warm", steps=2, device=device)
        start = time.perf_counter()
        model = fit(model, vectors, labels.masked_fill(labels == 0, -100), run, Path(tmp) / "timed", steps=steps, device=device)
        if device.startswith("cuda"): torch.cuda.synchronize()
        steps_per_s = steps / (time.perf_counter() - start)
    result = {"device": device, "train steps/s": steps_per_s, "captions/s (training)": steps_per_s * config.batch_size}
    for beams in (config.num_beams, 1):
        probe = TrainedProbe(model, tokenizer, replace(config, num_beams=beams), "random", Path("."))
        start = time.perf_counter()
        probe.decode(vectors[:n_prompts], batch_size=256, device=device)
        result[f"prompts/s ({beams} beam{'s' if beams > 1 else ''})"] = n_prompts / (time.perf_counter() - start)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--prompts", type=int, default=512)
    parser.add_argument("--device", default="all", help="cpu, cuda or all (cpu, and cuda when available)")
    args = parser.parse_args()
    config = ProbeConfig()
    captions = list(dict.fromkeys(c for c, _ in caption_corpus(4000, seed=1)))
    devices = ["cpu", "cuda"] if args.device == "all" else [args.device]
    devices = [d for d in devices if d == "cpu" or torch.cuda.is_available()]
    print(f"tiny probe: d_model {config.d_model}, {config.n_layers} layers, batch {config.batch_size}, "
          f"torch threads {torch.get_num_threads()}")
    for device in devices:
        result = measure(device, args.steps, args.prompts, config, captions)
        print("  ".join(f"{k}: {v:.2f}" if isinstance(v, float) else f"{k}: {v}" for k, v in result.items()))


if __name__ == "__main__":
    main()
