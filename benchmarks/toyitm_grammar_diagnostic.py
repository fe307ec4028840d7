"""Why does ToyITM not match colour? From-scratch ToyITMs trained on the same attribute-world close-ups, one per arm and seed.
The arms differ only in the grammar of their training captions; each model is scored on colour swaps in two grammars.

    python benchmarks/toyitm_grammar_diagnostic.py [--steps 800] [--pool 1024] [--test 200] [--seeds 0 1 2] [--arms ARM ...] [--threads 2]
                                                   [--pool-world attributes|clevr] [--plain-share 0.0] [--stem patch|conv]

Every arm: `toyitm.create_toyitm()` (the release's architecture and initialisation; one model per seed), `toyitm.itm_step` (binary
ITM cross-entropy), AdamW at the release's peak lr 1e-3 with `toyclip.cosine_lr` (30 warm-up steps), 32 scenes per
step, each with its true caption and one false caption that differs from it in exactly one attribute word. The pool
is one fixed set of attribute-world close-ups (`world_mixture.render_mixture_pool`, world 'attributes').

- arm 'CLEVR noun phrase': captions `captions.caption_object` ('a large red metal cube'): size, colour, material and
  shape, one of the four swapped in the false caption;
- arm "world's own grammar": every attribute word the object shows (size, state, colour, pattern, material, shape) in
  one of the world's templates ('a photo of large faded red checkered metal cube'), one word swapped;
- two arms between them: every word in the noun-phrase template 'a …', and the four CLEVR words in the world's templates.

Scored on fresh renders (test seed 2024): CLEVR-vocabulary close-ups with a colour swap in the noun-phrase grammar
(`toyitm.itm_eval_pairs`, row 'color'), and attribute-world close-ups with a colour swap in the world's grammar. Binary
accuracy as in `toyitm.pair_accuracies` (sign of the match logit, true and false captions averaged; chance 0.5).

Measured 2026-11-25 on this 2-core CPU (benchmarks/measured/2026-11-25_toyitm_grammar_diagnostic*.txt), CLEVR close-ups,
mean ± sd over seeds 0-2: 800 steps: noun phrase 0.603 ± 0.136, + pattern/state words 0.535 ± 0.017, world templates
0.513 ± 0.011, own grammar 0.532 ± 0.025; 3,000 steps (--pool 8192): noun phrase 0.678 ± 0.204 (0.913 / 0.587 / 0.535),
own grammar 0.679 ± 0.052. The match sets in late and seed by seed; the grammar does not decide it.

Where the seed lottery comes from (2026-11-27, benchmarks/measured/2026-11-27_toyitm_colour_locus.txt; 3,000 steps,
--pool 8192, --test 400, one thread per run, three runs side by side). The training pool can also be plain CLEVR
close-ups (`--pool-world clevr`) or the attribute world with a share of its objects shown with no state and the plain
pattern (`--plain-share`), and the arm 'CLEVR noun phrase, colour swaps only' swaps colour in every false caption.
CLEVR colour swaps, mean ± sd over seeds 0-2, 'CLEVR noun phrase' (any of four fields swapped):
plain CLEVR objects 0.987 ± 0.012; attribute world with --plain-share 1 0.971 ± 0.016, with --plain-share 0.5 (60% of
its objects plain) 0.872 ± 0.116 (0.944 / 0.934 / 0.738); attribute world as it is (20% plain) 0.675 ± 0.248
(0.961 / 0.515 / 0.549; its last-100-step training loss 0.43 ± 0.11 against 0.02 on CLEVR objects).
Colour swaps only: 1.000 in every seed on both CLEVR objects and the attribute world as it is. So on objects with
states and patterns (80% of the attribute world's), with colour one of four contrasts, the colour match is a late,
seed-dependent solution; without them it forms in every seed.

Does material match at all (2026-11-27)? Every ToyITM release and trial reads CLEVR close-up material swaps at chance
(0.49-0.51), where a linear probe reads material from its image tokens at 0.72. `--fields` also scores the CLEVR
close-ups' shape, material and size swaps. Run on plain CLEVR close-ups ('CLEVR noun phrase', --pool-world clevr,
3,000 steps, seeds 0-2), written before the runs: if material swaps read at least 0.9 in every seed, the 64-px renders
and the architecture (16-px patches) can carry the material match and the release's miss lies in its training mix; if
they stay near chance in every seed, they cannot at this size; anything between is reported as it is.
Measured (benchmarks/measured/2026-11-27_toyitm_material_match.txt): material swaps 0.995 / 0.938 / 0.991 (0.975 ± 0.032),
shape 0.988 ± 0.009, size 0.993 ± 0.006, colour 0.987 ± 0.012: every seed above 0.9, so the material match is within
reach of the renders and the architecture; the release's miss lies in how it is trained.

Can this ViLT match pattern and state words at all (2026-11-27)? The release reads the attribute world's pattern edits at
chance (0.47) and its state edits at 0.63, and a linear probe on its last layer reads pattern at 0.45 (chance 0.36) and
state at 0.42 (chance 0.40) (tables/toyitm_world_edits.md). The arm "world's own grammar, pattern or state swaps" trains
on the attribute world as it is (80% of its objects show a pattern or a state) with every false caption swapping the
object's pattern or its state (any word for an object with neither); `--world-fields` scores pattern swaps and state
swaps of fresh attribute close-ups that show one. Run: that arm, 3,000 steps, --pool 8192, --test 400, seeds 0-2, one
thread each. Reading, written before the runs: where pattern (state) swaps read at least 0.9 in every seed, the renders
and the architecture carry that match and the release's miss lies in how it is trained; where they stay near chance in
every seed even as the only contrast trained, this ViLT at 64 px with 16-px patches does not read that word in 3,000
steps (a seeing limit at this size); anything between is reported as it is.
Measured (benchmarks/measured/2026-11-27_toyitm_pattern_state_match.txt): pattern swaps 0.700 / 0.678 / 0.697 (0.692 ±
0.012), state swaps 0.822 / 0.832 / 0.805 (0.820 ± 0.014); last-100-step training loss 0.433 ± 0.012. Between, read as it
is: as the only contrast trained both matches form in every seed, far above chance and above the release (pattern
0.47, state 0.63), and neither reaches 0.9 in 3,000 steps, where colour as the only contrast reaches 1.000. This ViLT can
learn part of the pattern and state matches, more slowly than colour; the release learns less of them than it could.

Is it the patch projection (2026-11-29)? ViLT makes a token by one linear map of a 16-px patch, so a texture must be
learnt at every phase inside the patch; a convolutional stem (`toyitm.ConvStem`, Xiao et al. 2021: four stride-2 3x3
convolutions, then a 1x1, the same 4x4 token grid) sees it with local filters. `--stem conv` runs the same arm ("world's
own grammar, pattern or state swaps", 3,000 steps, --pool 8192, --test 400, --world-fields, seeds 0-2, one thread each)
with that stem, every other setting as the patch-stem runs above. Reading, written before the runs: the stem is the lead
for ToyITM's pattern miss when conv-stem pattern swaps exceed the patch stem's in every seed and their mean is at least
0.10 above the patch stem's 0.692 (0.79 or more); then, and only then, a release-length trial of `stem="conv"` in
`benchmarks/toyitm_release_trials.py` follows, with its own rule written before it. At or below 0.692 + 0.10 in the mean,
or not above in every seed, the stem is not the lead and nothing follows. State swaps, colour swaps and seconds are
reported beside it as they are; the seconds compare the stems' cost per step only where both ran alike.
Measured (benchmarks/measured/2026-11-29_toyitm_conv_stem_pattern_state.txt): pattern swaps 0.856 / 0.850 / 0.742 (0.816 ±
0.064) against the patch stem's 0.700 / 0.678 / 0.697, above in every seed and 0.12 above in the mean; state swaps 0.870 ±
0.013 against 0.820; colour swaps unmoved (attribute 0.607, CLEVR 0.736); last-100-step training loss 0.298 against 0.433.
By the reading the stem is the lead: with local filters in front of the same two layers the texture words are learnt
faster. No seed reaches 0.9 in 3,000 steps. The release-length trial: `toyitm_release_trials.py`, trial 5.

Too few pattern contrasts, or the other worlds (written 2026-11-29 before any run)? `toyitm_pattern_exposure.py` counts the
false captions each run trains on by the word that makes them false. From its first 400 steps: the release's batches hold
a pattern swap in 111 of 12,800 false captions (about 2,200 in 8,000 steps, 8,900 in the 32,000-step run, whose pattern
edits stayed at 0.52), the pattern-or-state arm above in 1,260 of 3,200 (about 37,800 in its 3,000 steps, which reached
0.69). The arm "the release's attribute-world pairs" trains on the attribute world alone with the release's own pairs
(`world_mixture.mixture_caption_pair(..., "independent")`: a true caption naming a random subset of the object's words, a
false one naming its own subset with one word swapped; no easy negatives), 3,000 steps, --pool 8192, --test 400,
--world-fields, seeds 0-2, one thread each: about as many pattern swaps as the 32,000-step run (counted by the exposure
script) with no other world. Reading of its pattern swaps, mean over the seeds: at least 0.65, "not the count alone": the
release's own attribute pairs teach pattern at the 32,000-step run's count when nothing else is trained, so inside the
mixture the other worlds hold it back; at most 0.58, "the count": at that count pattern stays at chance even alone, and
the pattern-only arm reached 0.69 with about four times as many, so the mixture's pattern misses are what its number of
pattern contrasts predicts; between, reported as it is. State, colour and the CLEVR close-ups reported beside it.
Measured (benchmarks/measured/2026-11-29_toyitm_release_pairs_alone.txt; the counts in 2026-11-29_toyitm_pattern_exposure.txt:
9,505 pattern swaps in the arm's 3,000 steps, 9,364 in the 32,000-step run, 2,330 in the release's 8,000, 38,673 in the
pattern-or-state arm): pattern swaps 0.513 / 0.506 / 0.498 (0.506 ± 0.008): "the count" by the rule. But the arm matched
no colour either (attribute colour swaps 0.503, CLEVR close-ups 0.500 in every seed; training loss 0.598) with 17,058
colour swaps, where the pattern-or-state arm read colour at 0.62 with 4,791: trained alone on the release's independently
drawn pairs the model learns no attribute word in 3,000 steps (as on 2026-11-25 for colour), so this arm cannot tell a
pattern count too small from pairs it cannot learn from, and the reading's premise fails. The count stays a measured
difference (the release trains on 17x fewer pattern contrasts than the arm that reached 0.69, the 32,000-step run on 4x
fewer), not a shown cause.

The count with a learner that learns (written 2026-11-29 before any run). The pattern-or-state arm is the one set of pairs
from which this model learnt pattern; run for 730 steps instead of 3,000 (its own cosine schedule over them) it trains on
9,269 pattern swaps (counted by the exposure script), as many as the 32,000-step mixture run's 9,364, whose pattern edits
stayed at 0.52. Seeds 0-2, --pool 8192, --test 400, --world-fields, one thread each. Reading of its pattern swaps, mean
over the seeds: at least 0.65, "not the count alone": as many pattern contrasts as the 32,000-step run had teach pattern
when the attribute world's pairs contrast only pattern or state, so inside the mixture something else holds it back; at
most 0.58, "the count is not ruled out": at that count even these pairs leave pattern at chance; between, reported as it
is. The schedule differs (730 steps against 32,000, the pattern swaps packed together), which the reading cannot separate.
Measured (benchmarks/measured/2026-11-29_toyitm_pattern_state_at_32k_count.txt): pattern swaps 0.552 / 0.605 / 0.601
(0.586 ± 0.030), state swaps 0.714 ± 0.009: between. As many pattern contrasts as the 32,000-step run had lift pattern a
little above chance in two seeds of three when nothing but pattern or state is contrasted; neither outcome of the rule
holds, so how much of the mixture's miss the count explains is not settled.

Inside the mixture (written 2026-11-29 before any run). `--in-mixture ARM` trains the release's recipe (`toyitm.train_toyitm`,
`ToyITMConfig(seed=S)`: every world, 8,000 steps, easy negatives) with one change: the attribute world's scenes get ARM's
pairs instead of the release's (`attribute_pairs_in_mixture`). With "world's own grammar, pattern or state swaps" the run
trains on 9,155 pattern swaps in 8,000 steps (seed 0, counted before the runs with `toyitm_pattern_exposure.py`'s recorder
under the same change; state 9,296, 15,217 easy negatives), as many as the 730-step arm's 9,269, which read 0.586 ± 0.030
alone. Seeds 0 and 1, one thread each, side by side; `--score-runs` scores the controls, the release's recipe at seeds 0
and 1 (`toyitm:default` and the cached run of seed 1), on the same test pairs (`colour_scores`, --world-fields, --test
400). Reading of the pattern swaps, mean over the two seeds: at least 0.56 (the 730-step arm's mean less its sd), "no
sign that the mixture holds pattern back at this count": the same number of such pairs teach pattern inside the mixture
about as well as alone; at most 0.53, "the mixture holds pattern back": with as many pattern contrasts as the 730-step
arm, pattern stays at chance inside the mixture; between, reported as it is. Reported beside it: state, colour, the
controls.
Measured (benchmarks/measured/2026-11-29_toyitm_pattern_state_in_mixture.txt): pattern swaps 0.569 / 0.624 (mean 0.597):
"no sign that the mixture holds pattern back at this count". The controls on the same pairs: the release's recipe 0.506 /
0.509 (2,330 pattern swaps), its 32,000-step runs 0.521 / 0.504 (9,364, as many as here, in the release's own pairs). So at
that count pairs that name every word and swap pattern or state teach pattern inside the mixture, the release's pairs do
not: their form (or their spread over 32,000 steps) matters, not the other worlds. Not a recipe: on the release's own test
pairs these runs read the attribute world at 0.687 and the birds at 0.651 (the release's recipe, same seeds: 0.719, 0.648)."""
import argparse
import sys
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

from vlconcepts.captions import caption_object  # noqa: E402
from vlconcepts.toyclip import cosine_lr, parameter_groups  # noqa: E402
from vlconcepts import toyitm  # noqa: E402
from vlconcepts.toyitm import (TOYITM_STEMS, ToyITMConfig, create_toyitm, itm_eval_pairs, itm_step, load_toyitm, pair_accuracies,  # noqa: E402
                               score_eval_pairs, test_scenes, toyitm_config, train_toyitm)
from vlconcepts.render import render_scenes  # noqa: E402
from vlconcepts.world_mixture import (ATTRIBUTE_TEMPLATES, FIELD_ORDER, WorldScene, attribute_words,  # noqa: E402
                                      attribute_world_vocab, mixture_caption_pair, mixture_scenes, render_mixture_pool)

CLEVR_FIELDS = ("color", "shape", "material", "size")


def swapped_value(vocab_values, value, rng):
    "Another value of the same kind (never None or 'plain')."
    options = [v for v in vocab_values if v not in (None, "plain", value)]
    return options[rng.integers(len(options))]


def noun_phrase_pair(ws, rng, field=None):
    "(true, false) in the CLEVR noun-phrase grammar; `field` (default: one of the four at random) is swapped."
    obj = ws.objects[0]
    field = field or CLEVR_FIELDS[rng.integers(len(CLEVR_FIELDS))]
    false = replace(obj, **{field: swapped_value(ws.scene.vocab.values(field), getattr(obj, field), rng)})
    return caption_object(obj), caption_object(false)


def own_grammar_pair(ws, rng, field=None, every_word: bool = True, templates=ATTRIBUTE_TEMPLATES):
    """(true, false) naming the object's attribute words in one of `templates`; `field` (default: one at random) swapped.
    `every_word`: also its pattern and state words (the world's grammar); else only size, colour, material and shape."""
    words = {f: w for f, w in attribute_words(ws.objects[0]).items() if every_word or f in CLEVR_FIELDS}
    field = field or list(words)[rng.integers(len(words))]
    false = {**words, field: swapped_value(attribute_world_vocab().values(field), words[field], rng)}
    template = templates[rng.integers(len(templates))]
    return tuple(template.format(" ".join(c[f] for f in FIELD_ORDER if f in c)) for c in (words, false))


def pattern_or_state_pair(ws, rng):
    "`own_grammar_pair` with the object's pattern or state swapped (one of the two it shows), any word for an object with neither."
    shown = [f for f in ("pattern", "state") if f in attribute_words(ws.objects[0])]
    return own_grammar_pair(ws, rng, shown[rng.integers(len(shown))] if shown else None)


ARMS = {"CLEVR noun phrase": noun_phrase_pair,
        "CLEVR noun phrase, colour swaps only": lambda ws, rng: noun_phrase_pair(ws, rng, "color"),
        "noun phrase + pattern and state words": lambda ws, rng: own_grammar_pair(ws, rng, templates=("a {}",)),
        "world templates, the four CLEVR words": lambda ws, rng: own_grammar_pair(ws, rng, every_word=False),
        "world's own grammar": own_grammar_pair,
        "world's own grammar, pattern or state swaps": pattern_or_state_pair,
        "the release's attribute-world pairs": lambda ws, rng: mixture_caption_pair(ws, rng, "independent")}


POOL_WORLDS = ("attributes", "clevr")


def attribute_training_scenes(n: int, plain_share: float = 0.0) -> list:
    "`training_pool`'s `n` attribute-world close-ups (seed 3), a random `plain_share` of them with no state and the plain pattern."
    scenes = mixture_scenes(np.random.default_rng([3, 0]), n, {"attributes": 1})
    plain = np.random.default_rng([3, 1]).random(len(scenes)) < plain_share
    for ws in (ws for ws, p in zip(scenes, plain) if p):
        ws.scene.objects[:] = [replace(o, state=None, pattern="plain") for o in ws.objects]
    return scenes


def training_pool(world: str, n: int, plain_share: float = 0.0) -> tuple[torch.Tensor, list]:
    """`n` training close-ups (seed 3) and their renders in [0, 1]: the attribute world's (sizes, colours, materials,
    shapes, patterns and states; a random `plain_share` of them shown with no state and the plain pattern) or plain CLEVR
    objects' (`toyitm.test_scenes`: the held-out close-ups' camera and vocabulary)."""
    if world == "clevr":
        scenes, images = test_scenes("close-up", n, 3, 64)
        return images, [WorldScene("clevr", scene) for scene in scenes]
    scenes = attribute_training_scenes(n, plain_share)
    images = render_scenes([ws.scene for ws in scenes], size=64).clamp(0, 1)
    return (images * 255).round() / 255, scenes          # quantised as `world_mixture.render_mixture_pool`'s uint8 pools


def train_arm(make_pair, images, scenes, steps: int, seed: int = 0, stem: str = "patch"):
    "A fresh ToyITM (image `stem`) trained `steps` steps on `images` with captions from `make_pair`; returns (model, seconds, last loss)."
    itm = create_toyitm(toyitm_config(stem=stem), seed=seed)
    optimizer = torch.optim.AdamW(parameter_groups(itm.module, 0.01), lr=1e-3, betas=(0.9, 0.98), eps=1e-6)
    rng, started, losses = np.random.default_rng([seed, 11]), time.perf_counter(), []
    for t in range(steps):
        index = rng.choice(len(scenes), size=32, replace=False)
        pairs = [make_pair(scenes[i], rng) for i in index]
        for group in optimizer.param_groups: group["lr"] = cosine_lr(t, 1e-3, 30, steps)
        batch = images[torch.as_tensor(index)]
        losses.append(itm_step(itm, optimizer, torch.cat([batch, batch]), [p[0] for p in pairs] + [p[1] for p in pairs],
                               torch.cat([torch.ones(32), torch.zeros(32)]), order_seed=t))
    return itm, time.perf_counter() - started, float(np.mean(losses[-100:]))


@contextmanager
def attribute_pairs_in_mixture(make_pair):
    "Inside the block `toyitm.world_itm_captions` gives attribute-world scenes `make_pair`'s (true, false) pairs, every other world its own."
    original = toyitm.world_itm_captions
    def captions(ws, rng, *args, **kwargs):
        return make_pair(ws, rng) if ws.world == "attributes" else original(ws, rng, *args, **kwargs)
    toyitm.world_itm_captions = captions
    try: yield
    finally: toyitm.world_itm_captions = original


def train_in_mixture(make_pair, steps: int, seed: int, run_dir: Path):
    "The release's recipe at `seed` for `steps`, the attribute world's pairs from `make_pair`; returns (model, seconds, last-100-step loss)."
    with attribute_pairs_in_mixture(make_pair):
        run = train_toyitm(ToyITMConfig(steps=steps, seed=seed, checkpoint_every=max(1, steps // 8)), run_dir, device="cpu")
    return run.model, run.seconds, float(np.mean([r["loss"] for r in run.history[-100:]]))


def colour_scores(itm, clevr, world, fields: bool = False, world_fields: bool = False) -> dict:
    """Binary accuracy on colour swaps: CLEVR close-ups in the noun-phrase grammar, attribute close-ups in the world's grammar;
    `fields`: also the CLEVR close-ups' shape, material and size swaps (`toyitm.itm_eval_pairs`' other rows);
    `world_fields`: also pattern and state swaps of the attribute close-ups that show one (the world's grammar)."""
    (images, pairs), (w_images, w_scenes) = clevr, world
    rng = np.random.default_rng([2024, 12])
    w_pairs = [(k, *own_grammar_pair(ws, rng, "color"), "own") for k, ws in enumerate(w_scenes)]
    for field in ("pattern", "state") if world_fields else ():
        w_pairs += [(k, *own_grammar_pair(ws, rng, field), field) for k, ws in enumerate(w_scenes) if field in attribute_words(ws.objects[0])]
    kept = [p for p in pairs if fields or p[3] == "color"]
    per_row = pair_accuracies(*score_eval_pairs(itm, images, kept), [p[3] for p in kept])
    world_rows = pair_accuracies(*score_eval_pairs(itm, w_images, w_pairs), [p[3] for p in w_pairs])
    return {"CLEVR close-ups, noun phrase": per_row["color"],
            **{f"CLEVR close-ups, {row} swaps": per_row[row] for row in ("shape", "material", "size") if fields},
            "attribute close-ups, own grammar": world_rows["own"],
            **{f"attribute close-ups, {field} swaps": world_rows[field] for field in ("pattern", "state") if world_fields}}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=800)
    parser.add_argument("--pool", type=int, default=1024)
    parser.add_argument("--test", type=int, default=200)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--arms", nargs="+", default=list(ARMS), choices=list(ARMS), metavar="ARM", help=f"of {list(ARMS)}")
    parser.add_argument("--pool-world", choices=POOL_WORLDS, default="attributes",
                        help="the training close-ups: the attribute world's (default) or plain CLEVR objects'")
    parser.add_argument("--plain-share", type=float, default=0.0,
                        help="attribute world: the share of its objects shown with no state and the plain pattern")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--fields", action="store_true",
                        help="also score the CLEVR close-ups' shape, material and size swaps (the colour column stays the first)")
    parser.add_argument("--world-fields", action="store_true",
                        help="also score pattern and state swaps of the attribute close-ups that show one (the world's grammar)")
    parser.add_argument("--stem", choices=TOYITM_STEMS, default="patch",
                        help="the image tokens: ViLT's patch projection (the release's) or a convolutional stem (toyitm.ConvStem)")
    parser.add_argument("--in-mixture", action="store_true",
                        help="train each arm inside the release's mixture (its pairs for the attribute world only; `train_in_mixture`)")
    parser.add_argument("--runs-dir", default="runs/grammar-diagnostic", help="--in-mixture: where the runs' checkpoints go (resumable)")
    parser.add_argument("--score-runs", nargs="*", default=[], metavar="CHECKPOINT",
                        help="score these ToyITM checkpoints or releases on the same test pairs (controls) and train nothing")
    args = parser.parse_args(argv)
    if not 0 <= args.plain_share <= 1 or (args.plain_share and args.pool_world != "attributes"):
        parser.error(f"--plain-share {args.plain_share}: a share in [0, 1] of the attribute world's objects "
                     f"(--pool-world attributes); CLEVR close-ups are plain already")
    torch.set_num_threads(args.threads)
    print(load())
    images, scenes = training_pool(args.pool_world, args.pool, args.plain_share) if not (args.in_mixture or args.score_runs) else (None, [])
    close_ups, close_up_images = test_scenes("close-up", args.test, 2024, 64)
    clevr = close_up_images, itm_eval_pairs("single", close_ups, 2024)
    w_images, w_scenes = render_mixture_pool(np.random.default_rng([2024, 13]), args.test, 64, {"attributes": 1})
    world = w_images.float() / 255, w_scenes
    rows = []
    for path in args.score_runs:
        rows.append({"training captions": f"checkpoint {path}", "stem": "", "seed": -1,
                     **colour_scores(load_toyitm(path), clevr, world, args.fields, args.world_fields)})
        print(rows[-1], flush=True)
    for arm in args.arms if not args.score_runs else ():
        make_pair = ARMS[arm]
        for seed in args.seeds:
            if args.in_mixture:
                run_dir = Path(args.runs_dir) / f"in-mixture-{arm.replace(' ', '-').replace(',', '').replace(chr(39), '')}-{args.steps}-seed{seed}"
                itm, seconds, loss = train_in_mixture(make_pair, args.steps, seed, run_dir)
            else: itm, seconds, loss = train_arm(make_pair, images, scenes, args.steps, seed, args.stem)
            rows.append({"training captions": arm + (" (in the mixture)" if args.in_mixture else ""), "stem": args.stem, "seed": seed,
                         **colour_scores(itm, clevr, world, args.fields, args.world_fields), "train loss (last 100)": loss, "seconds": seconds})
            print(rows[-1], flush=True)
    table = pd.DataFrame(rows).drop(columns=["seed", "stem"]).groupby("training captions", sort=False).agg(lambda v: f"{v.mean():.3f} ± {v.std(ddof=1) if len(v) > 1 else 0:.3f}")
    trained = ("checkpoints scored, nothing trained" if args.score_runs else
               f"{args.steps} steps x 32 scenes in the release's mixture, the arm's pairs for its attribute world" if args.in_mixture else
               f"{args.steps} steps x 32 scenes on {len(scenes)} {args.pool_world} close-ups (plain share {args.plain_share})")
    print(f"\n{trained}; "
          f"image stem {args.stem}; {'swap' if args.fields else 'colour-swap'} binary accuracy (chance 0.5), {args.test} fresh scenes each (test seed 2024); mean ± sd over seeds {args.seeds}")
    print(table.to_markdown())


if __name__ == "__main__":
    main()
