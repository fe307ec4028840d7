"""Can ToyCLIP's text tower learn the birds' part words once the image tower stops moving? A locked-image diagnostic (issue #18).

    python benchmarks/toyclip_locked_image.py --seed S [--arms joint,locked-image] [--steps 1000] [--threads 1] [--out DIR]
    python benchmarks/toyclip_locked_image.py --smoke      (a few steps of each arm: wiring, not a measurement)

What is known (docs/tiny_models.md, `tables/toyclip_part_binding.md`): on `toyclip:default` a linear probe on the image embedding
reads a bird's body and head colour at 0.80 and 0.74 (wing 0.34), while zero-shot prompts read them at 0.42 and 0.40,
and the prompts "a photo of bird whose primary color is red" / "... head color is red" / "... wing color is red" have
text features with cosine 0.99-0.998 (across colours: about 0.8). So for body and head the image embedding holds the
colour and the text tower does not say which part a prompt asks about. More steps, more birds, part-swap twins,
text-only part-swap negatives and a wider model did not change that (docs/tiny_models.md, `benchmarks/tiny_model_scaling.py`).

The question here: is that a limit of what the text tower learns, or of training both towers at once? Both arms start
from the shipped `toyclip:default` and train 1,000 more steps on fresh pools of the same world mixture, with the
release's own batches, captions, loss (open_clip `ClipLoss`) and schedule (AdamW, peak lr 1e-3, 50 warm-up steps,
cosine to 0), at the training seed 100 + S (so the pools are new scenes):
- `joint`: both towers train, as in the release (a "more steps" control);
- `locked-image`: the image tower is frozen (weights and batch-norm statistics; LiT, Zhai et al. 2022), only the text
  tower, the projections' text side and the logit scale train, so the text tower is fit to the image embedding the
  probe reads.
Each arm is scored on the release's test close-ups (`toyclip.world_recognition`, test seed 2024, 400 per world) and by
the mean cosine between the three part prompts of one colour (`part_prompt_cosine`); the shipped release is scored too.

Reading, written down 2026-11-28 before any run (seeds 0, 1, 2; the quantity is the mean of body and head colour
zero-shot accuracy, `birds/has_primary_color` and `birds/has_head_color`):
- "the text tower can learn the part words": `locked-image` exceeds `joint` by at least 0.10 in the mean over seeds and
  by more than twice the larger of the two arms' seed standard deviations. Then the release's tie comes from training
  both towers at once (the image embedding moves under the text tower), not from the text tower's capacity.
- "a text-side limit": `locked-image` is not above `joint` by 0.10, and both stay below 0.60. Then even on a fixed image
  embedding that holds the colours, 1,000 steps of the release's loss do not teach the text tower the part words.
- "between" otherwise. Wing colour is reported and not read: the probe says the image embedding hardly holds it (0.34).
Nothing is adopted from this diagnostic: a recipe change would need its own rule, a retrained release and a rebuild.

Measured 2026-11-28 on this 2-core CPU (AMD EPYC, AVX-512), one thread per run, seeds 0 and 1 side by side, then seed 2
(`--seed S --threads 1`, seed 0 with `--release`; records in benchmarks/measured/2026-11-28_cpu_toyclip_locked_image.jsonl).
Mean ± sd over seeds 0-2 of body and head colour zero-shot (the quantity the reading names), wing colour, the
world-recognition mean (12 kinds) and the part prompts' cosine:
- the shipped release: 0.411; wing 0.198; mean 0.734; cosine 0.992;
- joint (1,000 more steps, 259 ± 25 s): 0.434 ± 0.001; wing 0.198 ± 0.019; mean 0.755 ± 0.004; cosine 0.990 ± 0.004;
- locked-image (142 ± 4 s): 0.425 ± 0.003; wing 0.207 ± 0.015; mean 0.739 ± 0.001; cosine 0.988 ± 0.005.
Reading: "a text-side limit". The locked arm is not above the joint one (-0.009) and both stay far below 0.60: on an
image embedding that a linear probe reads body and head colour from at 0.80 and 0.74, 1,000 steps of the release's loss
leave the text tower's part prompts of one colour at cosine 0.99, and the zero-shot part colours where they were. So the
tie is not the image tower moving under the text tower; on this data the loss does not ask the text tower for the part
word strongly enough for it to learn it. (Also measured: 1,000 more joint steps lift the attribute world, material
0.79 -> 0.84 and pattern 0.80 -> 0.84, as 4x the steps did on the H100, and not the part colours.)

Follow-up, written down 2026-11-28 before its runs: is the text-side limit a matter of how few part captions a mixed
batch holds? In the release's mixture about 5 of a batch's 128 captions ask for a part's colour in the prompt form. `--worlds birds=1
--arms locked-image` continues the release on bird-only pools (every caption a bird's: a quarter in the prompt form
"whose <part> color is <colour>", about 32 per batch, most of the rest naming part colours as "red headed", "blue
winged"), image tower locked, 1,000 steps, seeds 0-2. (This paragraph first said "about half" name a part's colour in
the prompt form; `world_mixture.bird_caption` gives that form to half the captions and a part group to half of those.) Reading: if the mean of body and head colour zero-shot
reaches 0.60 or more in the mean over seeds, the text tower can learn the part words from this loss when part captions
are plentiful ("dilution": the mixture gives it too few); below 0.60, it does not learn them from this loss on these
captions even then ("not dilution"). Only the bird kinds are read (the other worlds are not trained in this arm).
Measured 2026-11-28, same host and settings (`--worlds birds=1 --arms locked-image --seed S --threads 1`, 123-135 s of
training each; records in benchmarks/measured/2026-11-28_cpu_toyclip_locked_image_birds.jsonl): body and head colour
0.437 ± 0.006 (body 0.411, head 0.463), wing 0.210, part prompts' cosine 0.977 ± 0.002. Reading: "not dilution".
With every caption a bird's, the text tower still does not learn the part words on the locked image embedding. Nor
is the embedding out of a prompt's reach: the best unit-vector prompts (`toyclip.prompt_ceiling_accuracy`, cosine, no
bias; `tables/toyclip_part_binding.md`) read body and head colour from `toyclip:default`'s image embedding at 0.787
and 0.733, so the prompts this loss would need exist and the text tower does not learn them.

Second follow-up, written down 2026-11-28 before its runs: too slow, or not learned? The same bird-only locked arm for
5,000 steps (`--worlds birds=1 --arms locked-image --steps 5000`, the schedule stretched over them), seeds 0-2. Reading:
body and head colour at 0.60 or more in the mean over seeds, "slow" (this loss teaches the text tower the part words,
given five times the steps on bird-only batches); below 0.60, "not learned at five times the steps either".
Measured 2026-11-28, same host and settings (seeds 0 and 1 side by side, seed 2 beside them for the last part, so the
880-894 s of training are not a cost measurement; records in
benchmarks/measured/2026-11-28_cpu_toyclip_locked_image_birds_5000.jsonl): body and head colour 0.731 ± 0.003 (body
0.714, head 0.748; the best unit-vector prompts read 0.787 and 0.733 from the same embedding), wing 0.290 ± 0.020,
part prompts' cosine 0.288 ± 0.013 (from 0.992). Reading: "slow". The loss does teach the text tower the part words,
on bird-only batches, between 1,000 and 5,000 steps, up to about what the image embedding holds. Trained on birds alone,
the text tower loses other worlds' words meanwhile: attribute colour 0.95 -> 0.80, material 0.79 -> 0.62, state
0.64 -> 0.47 (world mean 0.744 ± 0.008). Nothing is adopted; a recipe with such a text phase needs its own rule.

Third follow-up, written down 2026-11-28 before its runs: does the part-word tie keep the wing's colour out of the
image embedding? A linear probe reads wing colour from `toyclip:default`'s image embedding at only 0.335 (chance 0.125;
the same tower trained supervised: 0.955), and a text phase cannot change that (it locks the image tower). If the
contrastive loss only asks the image tower for what the text tower tells apart, an image tower trained jointly under
a text tower that ties "wing colour is red" to "head colour is red" has no reason to keep the wing's colour apart, and
one trained under a text tower that tells the parts apart does. `--start SPEC` continues another ToyCLIP instead of
the release; `--probe` adds the part-colour linear probes on the image embedding (`toyclip.part_colour_probe`: 2,000
training birds, the 400 test birds of `tables/toyclip_part_binding.md`) to the scores. Two `joint` continuations, 1,000
steps on the bird-half mixture (`--worlds clevr=0.2059,attributes=0.1765,birds=0.5,imcaps=0.1176`), seeds 0-2, the
same pools and batches in both: from `toyclip:default` (part prompts of one colour at cosine 0.99) and from the
cheaper text phase's seed-1 release (`benchmarks/toyclip_text_phase.py --worlds <the same> --pool-steps 1250
--freeze-token-embedding --seed 1 --export DIR`, sha256 ba95265a...; the release's image tower exactly, part prompts at
cosine about 0.8, no CUB attribute pair tied). Reading, on the wing-colour probe after the continuation (mean over
seeds): "the tie keeps the wing out" if the untied start exceeds the release start by at least 0.10 and by more than
twice the larger of the two arms' seed standard deviations; "not the tie" if it exceeds it by less than 0.05; "between"
otherwise. Reported beside it, not read: body and head probes, zero-shot part colours, the part prompts' cosine (does
joint training tie them again?) and the world mean. Nothing is adopted from it.
Measured 2026-11-28, same host, one thread per run, the two starts of one seed side by side (`--arms joint --worlds
<the bird-half mixture> --probe --seed S --threads 1 [--start toyclip:DIR/toyclip-text-phase.pt]`, 253-282 s of
training each; records in benchmarks/measured/2026-11-28_cpu_toyclip_joint_after_untying.jsonl). Mean ± sd over seeds
0-2, from the release / from the untied start:
- wing-colour probe on the image embedding 0.379 ± 0.029 / 0.437 ± 0.012 (both starts: 0.335);
- body and head colour probes 0.800 / 0.910 and 0.841 / 0.921 (both starts: 0.803 and 0.743);
- zero-shot body colour 0.321 ± 0.008 / 0.834 ± 0.003, head 0.659 ± 0.013 / 0.897 ± 0.010, wing 0.228 / 0.298;
- part prompts' cosine 0.967 / 0.841; world mean (12 kinds) 0.760 ± 0.001 / 0.830 ± 0.002; no kind of the untied arm's
  mean more than 0.026 below the release-start arm's (attribute pattern 0.814 against 0.840).
Reading: "between" (+0.058 on the wing probe: above 0.05, below 0.10). What the reading did not name is the larger
effect: from the untied start, 1,000 joint steps put body and head colour above the 0.80 bar (0.83 and 0.90) and the
image embedding's body and head probes from 0.80 / 0.74 to 0.91 / 0.92, where the same steps from the release leave
body colour at 0.32. A text tower that tells the parts apart lets the joint loss teach the image tower the parts; the
wing gains less (probe +0.06, zero-shot 0.30).
"""
import argparse
import json
import sys
import time
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

from vlconcepts.core import atomic_write, pick_device, progress  # noqa: E402
from vlconcepts.cub_data import CUB_GROUPS  # noqa: E402
from vlconcepts.models import load_model  # noqa: E402
from vlconcepts.toyclip import (PART_COLOUR_KINDS, TrainingConfig, _world_defaults, clip_forward, contrastive_step,  # noqa: E402
                                cosine_lr, normalize_images, parameter_groups, part_colour_probe, training_batch,
                                world_recognition)
from vlconcepts.world_mixture import BIRD_ATTRIBUTE_TEMPLATE, BIRD_GROUP_WORDS  # noqa: E402

ARMS = ("joint", "locked-image")
SMOKE = dict(steps=4, pool_size=48, pool_steps=2, batch_size=16, n_test=24)


@torch.no_grad()
def part_prompt_cosine(model, tokenizer) -> float:
    "Mean cosine between the text features of the three part-colour prompts of one colour, over the colours they share."
    colours = sorted(set.intersection(*(set(CUB_GROUPS[k]) for k in PART_COLOUR_KINDS)))
    prompts = [BIRD_ATTRIBUTE_TEMPLATE.format(BIRD_GROUP_WORDS[k], c) for c in colours for k in PART_COLOUR_KINDS]
    features = model.encode_text(tokenizer(prompts), normalize=True).float().view(len(colours), len(PART_COLOUR_KINDS), -1)
    pairs = list(combinations(range(len(PART_COLOUR_KINDS)), 2))
    return float(np.mean([(features[:, i] * features[:, j]).sum(-1).mean().item() for i, j in pairs]))


def locked_image_step(model, loss_fn, optimizer, images: torch.Tensor, tokens: torch.Tensor) -> float:
    "One `ClipLoss` step of the text side only: the image tower in eval mode (batch-norm statistics fixed) and without gradients."
    model.train(); model.visual.eval()
    optimizer.zero_grad(set_to_none=True)
    with torch.no_grad(): image_features = model.encode_image(images, normalize=True)
    loss = loss_fn(image_features, model.encode_text(tokens, normalize=True), model.logit_scale.exp())
    loss.backward(); optimizer.step()
    with torch.no_grad(): model.logit_scale.clamp_(0, np.log(100))
    return float(loss.detach())


def continue_release(arm: str, config: TrainingConfig, device, start: str = "toyclip:default") -> tuple:
    "The ToyCLIP `start` (a model spec) trained `config.steps` more steps as `arm` says; (module, tokenizer, seconds of training)."
    import open_clip
    release = load_model(start, device=device)
    model, tokenizer = release.module, release.tokenizer
    model.visual.to(memory_format=torch.channels_last)
    if arm == "locked-image": model.visual.requires_grad_(False)
    optimizer = torch.optim.AdamW(parameter_groups(model, config.weight_decay), lr=config.lr, betas=(0.9, 0.98), eps=1e-6)
    loss_fn = open_clip.ClipLoss()
    pool_fn, captioner, theme_fn = _world_defaults(config, device, None, None, "world")
    pool, pool_index, started = None, None, time.perf_counter()
    for t in progress(range(config.steps), desc=f"{arm} from {start}"):
        if pool_index != t // config.pool_steps: pool_index = t // config.pool_steps; pool = pool_fn(config, pool_index)
        images, _, tokens = training_batch(pool, t, config, tokenizer, captioner, theme_fn)
        for group in optimizer.param_groups: group["lr"] = cosine_lr(t, config.lr, config.warmup_steps, config.steps)
        images = normalize_images(images.to(device), model).contiguous(memory_format=torch.channels_last)
        if arm == "joint": contrastive_step(model, loss_fn, optimizer, images, tokens.to(device))
        else: locked_image_step(model, loss_fn, optimizer, images, tokens.to(device))
    model.eval()
    return model, tokenizer, time.perf_counter() - started


def scores(model, tokenizer, n: int, device, probe: bool = False) -> dict:
    """World recognition per kind (test seed 2024), its mean, the part prompts' mean cosine and, with `probe`, the
    part-colour linear probes on the image embedding (`probe/<kind>`)."""
    recognition = world_recognition(model, tokenizer, n=n, device=device)
    probes = part_colour_probe(model, n_train=5 * n, n=n, device=device) if probe else {}
    return {**{f"{w}/{k}": v for (w, k), v in recognition.items()}, "mean": float(np.mean(list(recognition.values()))),
            "part_prompt_cosine": part_prompt_cosine(model, tokenizer), **{f"probe/{k}": v for k, v in probes.items()}}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arms", default=",".join(ARMS), help=f"comma-separated; known: {', '.join(ARMS)}")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed S (pools and batches from training seed 100 + S)")
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--worlds", default=None, help="the continuation's world shares, e.g. 'birds=1' (default: the release's mixture)")
    parser.add_argument("--release", action="store_true", help="also score the start model itself (0 more steps)")
    parser.add_argument("--start", default="toyclip:default", help="the ToyCLIP to continue, a model spec (default: the release)")
    parser.add_argument("--probe", action="store_true", help="also score the part-colour linear probes on the image embedding")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's)")
    parser.add_argument("--out", default="runs/locked_image")
    parser.add_argument("--smoke", action="store_true", help="a few steps on tiny pools (wiring only)")
    args = parser.parse_args(argv)
    arms = [a.strip() for a in args.arms.split(",") if a.strip()]
    if unknown := [a for a in arms if a not in ARMS]: parser.error(f"unknown arms {unknown}; known: {', '.join(ARMS)}")
    if args.threads: torch.set_num_threads(args.threads)
    device, out = pick_device(args.device), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    config = TrainingConfig(seed=100 + args.seed, steps=args.steps, eval_every=10**9, checkpoint_every=10**9)
    if args.worlds: config = replace(config, worlds={w: float(v) for w, v in (item.split("=") for item in args.worlds.split(","))})
    if args.smoke: config = replace(config, **{k: v for k, v in SMOKE.items() if k != "n_test"})
    n = SMOKE["n_test"] if args.smoke else 400
    print(f"# toyclip_locked_image seed {args.seed}, {config.steps} steps, on {device} ({load()}), torch {torch.__version__}", flush=True)
    rows = []

    def record(row: dict):
        "Keep `row` and append it to the jsonl at once, so a later arm that fails loses nothing already measured."
        rows.append(row)
        with open(out / "locked_image.jsonl", "a") as f: f.write(json.dumps(row) + "\n")
        print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)

    if args.release:
        release = load_model(args.start, device=device)
        record({"arm": "release", "start": args.start, "seed": None, "steps": 0,
                **scores(release.module, release.tokenizer, n, device, args.probe)})
    for arm in arms:
        model, tokenizer, seconds = continue_release(arm, config, device, args.start)
        record({"arm": arm, "start": args.start, "seed": args.seed, "steps": config.steps, "worlds": config.worlds,
                **scores(model, tokenizer, n, device, args.probe), "train_s": seconds})
    with atomic_write(out / f"locked_image_seed{args.seed}.json", "w") as f: f.write(json.dumps(rows, indent=1))
    return rows


if __name__ == "__main__":
    main()
