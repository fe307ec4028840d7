"""How fast does a text phase on a locked image tower teach ToyCLIP the birds' part words? A pilot (issue #18).

    python benchmarks/toyclip_text_phase.py [--worlds birds=0.5,...] [--steps 5000] [--eval-seed 7] [--seed 0] [--threads 1]
    python benchmarks/toyclip_text_phase.py --smoke

Measured before (docs/tiny_models.md): with the image tower of `toyclip:default` locked, 1,000 text steps on bird-only
batches leave the part prompts of one colour at cosine 0.98 and body/head colour zero-shot at 0.44; 5,000 steps bring
them to cosine 0.29 and 0.73, but the other worlds' words decay. The question here: does a mixture that keeps every
world, richer in birds, teach the part words too, and at what cost in time?

The script continues `toyclip:default` with the library's text phase (`toyclip.text_phase_step` on `toyclip.encode_pool`'s
cached embeddings of fresh pools, training seed 100 + S; a fresh AdamW, as the release keeps no optimizer state), with the
release's loss, batches, captions and schedule (peak lr 1e-3, 50 warm-up steps, cosine over `--steps`), and every
`--every` steps scores world recognition on a *validation* draw (seed 7, 300 close-ups a world: not the tables' test
seed 2024), the part prompts' cosine and how many pairs of CompMap's CUB attribute prompts tie (cosine >= 0.99); the
last row scores the end on the tables' test close-ups (seed 2024, 400 a world). `--export` also writes the continued
model as a release, for the sensitivity check in docs/findings_notes.md.

Measured 2026-11-28 on this 2-core CPU (AMD EPYC, AVX-512), one thread a run, two runs side by side, 5,000 steps
(records: benchmarks/measured/2026-11-28_cpu_toyclip_text_phase.jsonl), two mixtures fixed before the runs: the
release's (seed 0) and the same with the birds at half the scenes (`--worlds
clevr=0.2059,attributes=0.1765,birds=0.5,imcaps=0.1176`, seeds 0-2). On the test close-ups: release mean 0.734, body /
head / wing colour 0.420 / 0.403 / 0.198, 17 tied CUB attribute pairs; release mixture 0.751, 0.407 / 0.453 / 0.215, 17;
birds at half 0.775 ± 0.002, 0.533 ± 0.018 / 0.654 ± 0.015 / 0.230 ± 0.003, ties 1 / 0 / 1; no kind falls. 499-542 s a
run. Not adopted: added to the release's 519 s of joint training it takes ToyCLIP past its 15-min budget, and the bars
stay missed (docs/tiny_models.md, "A text phase"). The cheaper variant (`--pool-steps 1250 --freeze-token-embedding`,
same mixture, seeds 0-2; reading written before its runs): mean 0.771 ± 0.002, body / head 0.537 ± 0.007 / 0.633 ±
0.006, ties 1 / 0 / 2, no kind more than 0.004 below the release, 360-372 s a run: "a cheaper equivalent", which
still takes ToyCLIP's training just past its 15-min budget on this host, to about 15.5 min (docs/tiny_models.md).
"""
import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402
from toyclip_locked_image import part_prompt_cosine  # noqa: E402

from vlconcepts.core import atomic_write, progress  # noqa: E402
from vlconcepts.models import load_model  # noqa: E402
from vlconcepts.compmap import cub_attribute_prompt  # noqa: E402
from vlconcepts.cub_data import cub_attribute_names  # noqa: E402
from vlconcepts.toyclip import (CHECKPOINT_FORMAT, RECOGNITION_KINDS, TrainingConfig, TrainingParts, _world_defaults,  # noqa: E402
                                default_checkpoint, encode_pool, export_release, model_image_size, parameter_groups, pool_index,
                                read_verified_checkpoint, save_checkpoint, text_phase_step, world_recognition)
from vlconcepts.world_mixture import render_mixture_pool  # noqa: E402

VALIDATION_SEED = 7
TEST_SEED = 2024  # the seed of `tables/toyclip_world_recognition.md`


@torch.no_grad()
def cub_attribute_ties(model, tokenizer, tie: float = 0.99) -> int:
    "How many pairs of CompMap's CUB attribute prompts get text features with cosine >= `tie` (the tie test's measure)."
    prompts = list(dict.fromkeys(cub_attribute_prompt(n) for n in cub_attribute_names()))
    features = model.encode_text(tokenizer(prompts), normalize=True).float()
    return int((torch.triu(features @ features.T, diagonal=1) >= tie).sum())


def main(argv=None):
    import open_clip
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", default=None, help="the text phase's world shares, e.g. 'birds=0.5,clevr=0.2059' (default: the release's)")
    parser.add_argument("--steps", type=int, default=5000, help="text steps (the schedule: 50 warm-up, cosine over them)")
    parser.add_argument("--every", type=int, default=500, help="steps between scorings")
    parser.add_argument("--eval-seed", type=int, default=VALIDATION_SEED, help="seed of the scored close-ups (7: validation; 2024: the tables' test seed)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed S (pools and batches from training seed 100 + S)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", default="runs/text_phase")
    parser.add_argument("--pool-steps", type=int, default=0, help="text steps per pool (TrainingConfig.text_pool_steps; 0: the release's 250)")
    parser.add_argument("--freeze-token-embedding", action="store_true", help="TrainingConfig.text_token_embedding=False")
    parser.add_argument("--export", default="", help="also write the continued model as a release into this folder (load it as toyclip:<folder>/toyclip-text-phase.pt)")
    parser.add_argument("--smoke", action="store_true", help="a few steps on tiny pools (wiring only)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    # steps=1 stands for the release's joint steps (done): text step k is the run's step 1 + k, as in `train_toyclip`
    config = TrainingConfig(seed=100 + args.seed, steps=1, text_steps=args.steps, eval_every=10**9, checkpoint_every=10**9,
                            text_pool_steps=args.pool_steps, text_token_embedding=not args.freeze_token_embedding)
    if args.worlds: config = replace(config, text_worlds={w: float(v) for w, v in (i.split("=") for i in args.worlds.split(","))})
    n = 300
    if args.smoke: config, n, args.every = replace(config, text_steps=4, pool_size=48, pool_steps=2, batch_size=16), 24, 2
    out = Path(args.out); out.mkdir(parents=True, exist_ok=True)
    worlds = config.text_worlds or config.worlds
    print(f"# text phase seed {args.seed}, {config.text_steps} steps, worlds {worlds}, eval seed {args.eval_seed} ({load()})", flush=True)
    release = load_model("toyclip:default")
    model, tokenizer = release.module, release.tokenizer
    model.visual.requires_grad_(False)
    size = model_image_size(model)
    scenes = {world: render_mixture_pool(np.random.default_rng([args.eval_seed, 31, w]), n, size, {world: 1})
              for w, world in enumerate(RECOGNITION_KINDS)}
    optimizer = torch.optim.AdamW(parameter_groups(model, config.weight_decay), lr=config.lr, betas=(0.9, 0.98), eps=1e-6)
    parts = TrainingParts(model, tokenizer, optimizer, torch.amp.GradScaler("cpu", enabled=False), open_clip.ClipLoss())
    pool_fn, captioner, theme_fn = _world_defaults(config, "cpu", None, None, "world")
    seen = torch.zeros(config.model["text_cfg"]["vocab_size"], dtype=torch.bool)
    rows, index, started = [], None, time.perf_counter()

    def score(step, eval_seed=args.eval_seed, n=n, scenes=scenes):
        model.eval()
        recognition = world_recognition(model, tokenizer, n=n, seed=eval_seed, scenes=scenes)
        row = {"seed": args.seed, "worlds": worlds, **({"text_pool_steps": config.text_pool_steps} if config.text_pool_steps else {}),
               **({"text_token_embedding": False} if not config.text_token_embedding else {}),
               "eval_seed": eval_seed, "n": n, "step": step, "seconds": time.perf_counter() - started,
               **{f"{w}/{k}": v for (w, k), v in recognition.items()}, "mean": float(np.mean(list(recognition.values()))),
               "part_prompt_cosine": part_prompt_cosine(model, tokenizer), "cub_attribute_ties": cub_attribute_ties(model, tokenizer)}
        rows.append(row)
        with open(out / "text_phase.jsonl", "a") as f: f.write(json.dumps(row) + "\n")
        print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)

    score(0)
    for t in progress(range(config.steps, config.steps + config.text_steps), desc="text phase"):
        if index != pool_index(t, config):
            index = pool_index(t, config)
            pool = pool_fn(replace(config, worlds=worlds), index)
            features = encode_pool(model, pool)
        text_phase_step(parts, pool, features, t, config, captioner, theme_fn, seen, torch.device("cpu"))
        if (t + 1 - config.steps) % args.every == 0: score(t + 1 - config.steps)
    score(config.text_steps, eval_seed=TEST_SEED, n=24 if args.smoke else 400, scenes=None)  # the end, on the tables' test close-ups
    with atomic_write(out / f"text_phase_seed{args.seed}.json", "w") as f: f.write(json.dumps(rows, indent=1))
    if args.export: export_continued(model, seen, config, time.perf_counter() - started, rows, out, Path(args.export))
    return rows


def export_continued(model, seen: torch.Tensor, config: TrainingConfig, seconds: float, rows: list, out: Path, folder: Path) -> Path:
    "Write the release continued by the text phase as a release of its own (`toyclip.export_release`), via a checkpoint in `out`."
    shipped_path, shipped_sha = default_checkpoint()
    shipped = read_verified_checkpoint(shipped_path, shipped_sha)
    seen = seen.clone(); seen[shipped["token_ids"]] = True                 # the release's token rows and the text phase's
    state = {"format": CHECKPOINT_FORMAT, "version": 1, "model_name": shipped["model_name"],
             "model_config_json": shipped["model_config_json"], "training_config_json": config.to_json(), "step": config.text_steps,
             "seconds": seconds, "history_json": "[]", "state_dict": {k: v.detach().cpu() for k, v in model.state_dict().items()},
             "optimizer": {}, "scaler": {}, "seen_tokens": seen}
    notes = {"continued_from": f"toyclip:default (sha256 {shipped_sha})", "by": "benchmarks/toyclip_text_phase.py",
             "last_scores": rows[-1]}
    return export_release(save_checkpoint(state, out / "continued.pt"), folder, name="toyclip-text-phase", notes=notes)


if __name__ == "__main__":
    main()
