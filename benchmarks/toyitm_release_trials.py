"""Release-length trials of a ToyITM training setting: does a change to the release's recipe make a better ToyITM?

    python benchmarks/toyitm_release_trials.py train --variant clevr-close-ups --seed 0 [--steps 8000] [--threads 1] [--out DIR]
                                                [--pool-size 1024] [--test-scale 1.0]   (smaller: a smoke run, not a measurement)
    python benchmarks/toyitm_release_trials.py report [--out DIR]
    python benchmarks/toyitm_release_trials.py edits --variant A --variant B [--seed 0 --seed 1 ...]

`train` trains one ToyITM with the release's settings (`toyitm.ToyITMConfig()`: the world mixture, 8,000 steps) except
the variant's and `seed`, in the cache folder the experiment notebook uses for that config
(`$VLCONCEPTS_CACHE/toyitm-runs/tiny-seed<seed>-<digest of the config, thread count and trainer's code>`, so a finished run is reused by `make figures`; a killed
one resumes). It then scores the run with `toyitm.evaluate_itm` on the experiment's test sizes and seed (400 close-ups,
400 CLEVR-view scenes, 400 close-ups of each of the attribute and bird worlds, 200 binding and 200 relational scenes,
test seed 2024) and writes `<out>/<variant>-seed<seed>.json`. `report` prints every run, the mean ± sd per variant, and
what each trial's rule decides. `edits` reloads finished runs and splits their two world rows by the kind of the edited
word (`toyitm.world_edit_accuracies`, the same test pairs), mean ± sd over the seeds: a diagnostic, read by no rule. Each rule was fixed before its runs and reads the three ToyITM bar rows only (close-up
mean of the four attributes, attribute-world close-ups, bird close-ups; binary): findings are not looked at.

The variants (`VARIANTS`, each pinned to the settings it was measured with, whatever `ToyITMConfig()` says today):
- `independent`: the release's settings until 2026-11-27 (independent pairs, the shared mixture `DEFAULT_MIXTURE`):
  the control of both trials, run on the same host and seeds. Trial 2 made `clevr-close-ups` the release's settings.
- `edit` (trial 1, 2026-11-25): a close-up's false caption is a one-word edit of its true caption
  (`world_mixture.mixture_caption_pair`), as CLEVR's ITM pairs already are, instead of drawn on its own.
  Rule: adopt when its mean over seeds of the three bar rows is higher than `independent`'s.
  Measured on a 2-core CPU (one thread per run, about 520 s each; benchmarks/measured/2026-11-25_toyitm_false_captions.txt):
  mean over seeds 0 and 1: edit 0.638, independent 0.642, so the release kept `independent`. Close-up colour:
  edit 0.527 / 0.524, independent 0.515 / 0.740 (seed 1 matched colour from step 2,000 on): a seed lottery.
- `clevr-close-ups` (trial 2, 2026-11-27): the mixture gains the world `clevr_close_ups` (plain CLEVR objects under the
  close-up camera, CLEVR's own captions) at 0.15, the birds' share, the other shares as they are (so 0.15 / 1.15 = 13% of
  pool scenes). Why: `benchmarks/toyitm_grammar_diagnostic.py` measured that a ToyITM trained on plain CLEVR close-ups forms
  the colour match in every seed (0.987 ± 0.012), on the attribute world as it is (80% of objects with a state or a pattern)
  in one seed of three (0.675 ± 0.248), and the release then never saw a plain close-up of the vocabulary its close-up bar
  reads. Rule, fixed before the runs (commit 97158c0): adopt when its mean over seeds 0, 1 and 2 of the three bar rows is
  higher than `independent`'s on the same seeds and host.
  Measured 2026-11-27 on a 2-core AVX2 CPU (one thread per run, two at a time, 1,274-1,536 s each;
  benchmarks/measured/2026-11-27_toyitm_clevr_close_ups.txt): 0.660 against 0.621, so it was adopted
  (`toyitm.TOYITM_MIXTURE`; the release is its seed 0). Close-ups 0.728 ± 0.007 against 0.634 ± 0.012 (shape 0.85
  against 0.58), attribute world 0.642 against 0.616, birds 0.611 against 0.612; close-up colour 0.60 / 0.60 / 0.52
  against 0.51-0.53 and material at chance in all six runs: no bar is met.
- `close-ups-only` (a diagnostic, 2026-11-27; no rule, never a release: it trains on one world): the library's training
  loop (`train_toyitm`: its captioner naming size, colour and material with probability 0.5 each, half the false
  captions another scene's, pools of 1,024 renewed every 400 steps) on plain CLEVR close-ups alone, `--steps 3000`. On
  the same close-ups the grammar diagnostic's own loop (every caption naming all four fields, every false caption a
  one-word edit, one fixed pool of 8,192) forms the colour and material matches in every seed by 3,000 steps
  (benchmarks/measured/2026-11-27_toyitm_material_match.txt), while the release, with such close-ups at 13% of its
  scenes, forms neither at 8,000. Reading, written before the runs: if close-up colour and material both reach 0.9
  in every seed here, the library's loop can teach them and what holds the release back is its mixture (the share of
  plain close-ups and the other worlds); if either stays near chance in every seed, the loop's captions and pairs are
  where to look; anything between is reported as it is.
  Measured 2026-11-27 (benchmarks/measured/2026-11-27_toyitm_close_ups_only.txt; 437-462 s each on one thread): close-up
  colour 0.981 / 0.922 / 0.985, material 0.935 / 0.828 / 0.966, shape 0.99, size 0.99 (close-up mean 0.963 ± 0.029). Colour
  reaches 0.9 in every seed and material in two of three (seed 1: 0.83), so by the reading above this is "between", read
  as it is: the library's loop, its captions and its pairs teach both matches most of the way in 3,000 steps once every
  scene is a plain close-up, where the release (the same loop, plain close-ups at 13% of its scenes, 8,000 steps) reads
  colour 0.52-0.60 and material at chance. The mixture is the strong suspect; which part of it (the share, or the other
  worlds' scenes and captions) is not separated.
- `close-ups-half` (a diagnostic, 2026-11-27; no rule, never a release): the release's mixture with plain close-ups at
  half of the scenes (`clevr_close_ups` 1.0 beside the other worlds' 1.0, against 0.15), `--steps 3000`. Reading,
  written before the runs: if close-up colour and material both reach 0.9 in every seed, the share of plain close-ups
  (their dilution among the other worlds) is what holds the release back; if both stay near chance in every seed, the
  other worlds' scenes and captions interfere whatever the share; anything between is reported as it is.
  Measured 2026-11-27 (benchmarks/measured/2026-11-27_toyitm_close_ups_half.txt; 479-536 s each): close-up colour 0.890 /
  0.739 / 0.605, material 0.740 / 0.686 / 0.735 (shape 0.958, size 0.984; close-up mean 0.852 ± 0.040, attribute world
  0.667 ± 0.031, birds 0.619 ± 0.012). Between, read as it is: at half of the scenes both matches form well above the
  release's (colour 0.57, material 0.51 at 8,000 steps) and below close-ups alone (0.96, 0.91), so the share matters, and
  the other worlds still slow the two matches at that share.
- `clevr-close-ups-half` (trial 3, rule written 2026-11-27 before any of its runs, after seed 0 of the `close-ups-half`
  diagnostic read the three bar rows at 0.895 / 0.703 / 0.626 in 3,000 steps): the release's mixture with plain close-ups
  at half of the scenes, at release length (8,000 steps; `--steps` default). Rule: adopt when its mean over seeds 0, 1
  and 2 of the three bar rows is higher than `clevr-close-ups`' (the release's settings since 2026-11-27) on the same
  seeds and host. Adopting means a new `toyitm.TOYITM_MIXTURE`, `toyitm:default` its seed-0 run, and a rebuild of every
  notebook that reads ToyITM.
  Measured 2026-11-27 on a 2-core AMD EPYC with AVX-512 (one thread per run, two at a time, 596-652 s of training each;
  the controls rerun on this host; benchmarks/measured/2026-11-27_toyitm_clevr_close_ups_half_release.txt): 0.778 against
  0.657, so it was adopted (`toyitm.TOYITM_MIXTURE` = `{**DEFAULT_MIXTURE, "clevr_close_ups": 1.0}`; the release is its
  seed 0). Close-ups 0.956 ± 0.016 against 0.711 ± 0.011 (colour 0.94 against 0.53, material 0.92 against 0.50), attribute
  world 0.725 ± 0.022 against 0.637, birds 0.654 ± 0.028 against 0.624; single-object CLEVR view, binding and relations
  unchanged (0.61, 0.51, 0.50). The close-up bar (0.85) is met in every seed; the attribute-world and bird bars are not.
- `clevr-close-ups-half-edit` (trial 4, rule written 2026-11-27 before any of its runs): trial 3's mixture (the release's
  settings since then) with `false_captions="edit"`: an attribute-world or bird close-up's training false caption is a
  one-word edit of its true caption (`world_mixture.attribute_caption_pair` / `bird_caption_pair`) instead of drawn on its
  own; CLEVR scenes and plain close-ups are paired by ToyITM's CLEVR captioner as before. Why: the two unmet bar rows score
  each attribute-world and bird close-up against a one-word edit of its true caption, and the release never trains on
  that contrast for those worlds (its independent false captions seldom differ in one word). Trial 1 tried edits when no
  release formed the colour match at all (close-up colour 0.52); since trial 3 the colour and material matches form on
  plain close-ups, and on the attribute world alone edits started the colour match where independent pairs did not
  (0.60 / 0.63 against 0.51 / 0.50, benchmarks/measured/2026-11-25_toyitm_attribute_world_captions.txt).
  Rule: adopt when its mean over seeds 0, 1 and 2 of the three bar rows is higher than `clevr-close-ups-half`'s on the
  same seeds and host. The control runs are trial 3's (`clevr-close-ups-half`, seeds 0-2), trained on this host in the
  same cache; seed 0 of the control is retrained in a separate cache in the same session to check that it repeats on
  this host. Adopting means `ToyITMConfig().false_captions = "edit"`, `toyitm:default` its seed-0 run, and a rebuild of
  every notebook that reads ToyITM.
  Measured 2026-11-27 on the same host as trial 3 (one thread per run, two at a time, 604-627 s of training each; the
  control's seed 0, retrained in a separate cache, repeated trial 3's scores bit for bit;
  benchmarks/measured/2026-11-27_toyitm_clevr_close_ups_half_edit_release.txt): 0.776 against 0.778, so the release
  keeps independent pairs. Attribute world 0.736 ± 0.034 against 0.725 ± 0.022, birds 0.639 ± 0.007 against 0.654 ±
  0.028, close-ups 0.952 ± 0.036 against 0.956 ± 0.016: no row moves beyond the seed spread. Split by the edited word
  (`edits`), both read pattern at chance (attribute world 0.49 / 0.51, birds 0.51 / 0.52), state 0.59 / 0.59, material
  0.62 / 0.60 and the birds' part colours 0.50-0.59, against size 0.92-0.96: the pairs the model trains on do not
  decide which words it matches.
- `clevr-close-ups-half-conv-stem` (trial 5, rule written 2026-11-29 before any of its runs): the release's settings (trial 3's)
  with `model=toyitm_config(stem="conv")`: `toyitm.ConvStem` (four stride-2 3x3 convolutions with batch norm and ReLU,
  then a 1x1; Xiao et al. 2021) makes the 16 image tokens in place of ViLT's linear 16-px patch projection. Why: the
  release reads pattern edits at chance and state at 0.63, and the grammar diagnostic trained with pattern or state as the
  only contrast read pattern swaps at 0.816 with the stem against 0.692 with the patch projection, above in every seed
  (benchmarks/measured/2026-11-29_toyitm_conv_stem_pattern_state.txt). The stem costs more per step (about 1.26x on a
  forward and backward step, measured beside other jobs), and the release's 596-652 s of training leave 250 s of the
  15-min budget. Rule: adopt when (1) its mean over seeds 0, 1 and 2 of the three bar rows is higher than
  `clevr-close-ups-half`'s 0.778 (trial 3's runs, on a 2-core AMD EPYC with AVX-512 like this host;
  benchmarks/measured/2026-11-27_toyitm_clevr_close_ups_half_release.txt) and (2) every seed trains within the 15-min budget
  (train s at most 900, one thread, two runs at a time). The control is trial 3's record: the shipped release, its seed 0,
  scored here by `evaluate_itm` at these sizes repeats it (close-ups 0.968, attribute world 0.738, birds 0.674), and its
  seed 1 is retrained here beside trial 5's seed 2; should that not repeat trial 3's seed 1, the control's three seeds are
  retrained here before the rule is read. Adopting means `ToyITMConfig().model = toyitm_config(stem="conv")`,
  `toyitm:default` its seed-0 run, and a rebuild of every notebook that reads ToyITM.
  Stopped 2026-11-29 before any score, for its cost: seeds 0 and 1 (two at a time, one thread each) trained 585 and 591
  steps in 94 s, about 0.16 s a step, which puts a run at about 1,250 s against the 900 s its rule allows; the release's
  patch projection trains 8,000 steps in 596-652 s. Measured apart (scratch timing, one thread, the release's batch of 32
  scenes, quiet host, alternating in one process): a step takes 92.5 ms with the patch projection, 152.9 ms with this stem
  (1.65x), 131.8 ms without its batch norms, 115.5 ms with a 4-px patchifying convolution before two 3x3 ones
  (`stem="conv4"`, 1.25x) and 109.6 ms without their norms. The stem chosen for the next trial was chosen on that cost
  alone, before any run of it. (The in-training evaluation at step 500 was printed in the logs: close-up mean 0.74 and
  0.69, no bar row read by the rule.)
- `clevr-close-ups-half-conv4-stem` (trial 6, rule written 2026-11-29 before any of its runs): trial 5 with
  `stem="conv4"` (`toyitm.ConvStem(patchify=4)`: a 4-px patchifying convolution to 32 channels, then two stride-2 3x3
  convolutions to 64 and 128, batch norm and ReLU after each, then a 1x1; the same 4x4 token grid). It keeps local
  filters in front of the transformer (what the diagnostic measured with trial 5's stem; this stem's diagnostic was not
  run) at 1.25x the patch projection's step. Rule: trial 5's, word for word: adopt when (1) its mean over seeds 0, 1 and
  2 of the three bar rows is higher than `clevr-close-ups-half`'s 0.778 (trial 3's record, same kind of host) and (2)
  every seed trains within 900 s (one thread, two runs at a time); the control's seed 1 is retrained here beside this
  trial's seed 2, and should it not repeat trial 3's seed 1, the control's three seeds are retrained here before the rule
  is read. Adopting means `ToyITMConfig().model = toyitm_config(stem="conv4")`, `toyitm:default` its seed-0 run, and a
  rebuild of every notebook that reads ToyITM.
  Measured 2026-11-29 (one thread per run, two at a time; benchmarks/measured/2026-11-29_toyitm_conv_stem_release.txt):
  0.713 against 0.778, so (1) fails and the release keeps ViLT's patch projection. The control's seed 1, retrained here,
  repeated trial 3's row to the third decimal. Bar rows per seed 0.709 / 0.695 / 0.736; close-ups 0.806 ± 0.052 (colour
  0.583, material 0.647, shape 0.997, size 0.998), attribute world 0.690 ± 0.003, birds 0.644 ± 0.008. Training took
  1,015-1,061 s, over the 900 s of (2), but the control's seed 1 took 925 s beside it on this session's host, so (1) decides.
  Split by the edited word (`edits`, seeds 0-2, against the control's three seeds): shape edits rise (attribute world 0.835
  against 0.754, birds 0.892 against 0.737); colour edits fall to chance (attribute world 0.524 against 0.784, the birds' part
  colours 0.51-0.52 against 0.55-0.60); pattern stays at chance (0.505, birds 0.500) and state near it (0.596). In the
  in-training curves close-up colour sits at 0.50 through step 5,000 in every seed (to the end in seed 1), where the control
  forms it between steps 1,000 and 5,000. Inside the mixture at release length the stem does not teach the texture words
  that the single-contrast diagnostic learnt faster with it, and it delays the colour match the release relies on."""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

from vlconcepts.core import atomic_write, cache_dir  # noqa: E402
from vlconcepts.toyclip import run_folder  # noqa: E402
from vlconcepts.toyitm import (CLOSE_UP_WORLDS, ToyITMConfig, evaluate_itm, itm_eval_fn, toyitm_config,  # noqa: E402
                               train_toyitm, world_edit_accuracies)
from vlconcepts.world_mixture import DEFAULT_MIXTURE  # noqa: E402

BAR_ROWS = ("close_up", "world_attributes", "world_birds")  # the rows the ToyITM bar reads (binary)
ROWS = ("close_up_color", "close_up_shape", "close_up_material", "close_up_size", *BAR_ROWS, "single", "binding", "relational")
TEST_SIZES = dict(n_single=400, n_close_up=400, n_world=400, n_binding=200, n_relational=200, seed=2024)
VARIANTS = {  # the ToyITMConfig fields each variant sets, pinned so that a trial reruns as it was measured
    "independent": {"worlds": dict(DEFAULT_MIXTURE)},                          # the release's settings until 2026-11-27
    "edit": {"false_captions": "edit", "worlds": dict(DEFAULT_MIXTURE)},
    "clevr-close-ups": {"worlds": {**DEFAULT_MIXTURE, "clevr_close_ups": 0.15}},  # the release's settings from trial 2 to trial 3
    "close-ups-only": {"worlds": {"clevr_close_ups": 1.0}},  # a diagnostic, not a candidate release (see the docstring)
    "close-ups-half": {"worlds": {**DEFAULT_MIXTURE, "clevr_close_ups": 1.0}},  # a diagnostic: plain close-ups at half the scenes
    "clevr-close-ups-half": {"worlds": {**DEFAULT_MIXTURE, "clevr_close_ups": 1.0}},  # trial 3: that mixture at release length (= toyitm.TOYITM_MIXTURE since)
    "clevr-close-ups-half-edit": {"false_captions": "edit", "worlds": {**DEFAULT_MIXTURE, "clevr_close_ups": 1.0}},  # trial 4: trial 3's mixture, one-word-edit false captions
    "clevr-close-ups-half-conv-stem": {"model": toyitm_config(stem="conv"), "worlds": {**DEFAULT_MIXTURE, "clevr_close_ups": 1.0}},  # trial 5: trial 3's settings, toyitm.ConvStem
    "clevr-close-ups-half-conv4-stem": {"model": toyitm_config(stem="conv4"), "worlds": {**DEFAULT_MIXTURE, "clevr_close_ups": 1.0}}}  # trial 6: ConvStem(patchify=4)
TRIALS = (("edit", "independent"), ("clevr-close-ups", "independent"), ("clevr-close-ups-half", "clevr-close-ups"),
          ("clevr-close-ups-half-edit", "clevr-close-ups-half"), ("clevr-close-ups-half-conv-stem", "clevr-close-ups-half"),
          ("clevr-close-ups-half-conv4-stem", "clevr-close-ups-half"))  # (variant, control): adopt when the variant's bar mean is higher


def run_dir_of(config: ToyITMConfig) -> Path:
    "The experiment notebook's run folder for `config` in the tiny profile, on the CPU at this process's thread count."
    return run_folder("toyitm-runs", "tiny", config, "cpu", modules=("vlconcepts.toyitm", "vlconcepts.toyclip"))


def trial_config(variant: str, seed: int, steps: int, pool_size: int = 1024, test_scale: float = 1.0) -> ToyITMConfig:
    "The run of `variant`: its pinned fields; below test scale 1 (a smoke run) the in-training evaluation shrinks with the test sets."
    smoke = {} if test_scale == 1 else {"eval_scenes": max(2, round(ToyITMConfig().eval_scenes * test_scale))}
    return ToyITMConfig(seed=seed, steps=steps, pool_size=pool_size, **VARIANTS[variant], **smoke)


def train_and_score(variant: str, seed: int, steps: int, out: Path, pool_size: int = 1024, test_scale: float = 1.0) -> dict:
    "Train (or resume, or reuse) one run of `variant` and write its held-out scores to `out/<variant>-seed<seed>.json`."
    config = trial_config(variant, seed, steps, pool_size, test_scale)
    started = time.perf_counter()
    run = train_toyitm(config, run_dir_of(config), device="cpu", eval_fn=itm_eval_fn(config))
    scores = evaluate_itm(run.model, **{k: v if k == "seed" else max(2, round(v * test_scale)) for k, v in TEST_SIZES.items()})
    record = {"variant": variant, "seed": seed, "steps": run.step, "train_seconds": round(run.seconds, 1),
              "this_call_seconds": round(time.perf_counter() - started, 1), "threads": torch.get_num_threads(),
              "config": json.loads(config.to_json()) | {"model": "toyitm_config() defaults" if config.model == toyitm_config() else
                                                        {k: v for k, v in config.model.items() if k != "words"}},
              "scores": {k: round(float(scores[k]), 4) for k in ROWS},
              "curve": [{k: round(v, 3) for k, v in r.items() if k == "step" or k.startswith("eval_")} for r in run.history if "eval_single" in r]}
    out.mkdir(parents=True, exist_ok=True)
    with atomic_write(out / f"{variant}-seed{seed}.json", "w") as handle: handle.write(json.dumps(record, indent=1))
    return record


def report(out: Path) -> pd.DataFrame:
    "Every run's scores, and mean ± sd per variant, with the decision each trial's rule gives (trials with runs of both sides)."
    records = [json.loads(p.read_text()) for p in sorted(out.glob("*-seed*.json"))]
    if not records: raise SystemExit(f"No runs in {out}: run `train` first.")
    table = pd.DataFrame([{"variant": r.get("variant", r.get("pairing")), "seed": r["seed"], "steps": r["steps"],
                           "train s": r["train_seconds"], **r["scores"]} for r in records]).sort_values(["variant", "seed"])
    print(table.to_string(index=False, float_format="%.3f"))
    summary = table.groupby("variant")[list(ROWS)].agg(["mean", "std"])
    print("\nmean (sd) over seeds:")
    for variant, row in summary.iterrows():
        print(f"  {variant:16s} " + "  ".join(f"{k} {row[(k, 'mean')]:.3f} ({row[(k, 'std')]:.3f})" for k in ROWS))
    for variant, control in TRIALS:
        both = table[table["variant"].isin((variant, control))]
        seeds, control_seeds = sorted(set(both.query("variant == @variant")["seed"])), set(both.query("variant == @control")["seed"])
        if not seeds or not control_seeds: continue
        if missing := sorted(set(seeds) - control_seeds):
            print(f"\n{variant} vs {control}: no {control} run of seeds {missing} in {out}; no rule read here (the trial's docstring "
                  "entry says which recorded control it is read against)")
            continue
        bar = both[both["seed"].isin(seeds)].groupby("variant")[list(BAR_ROWS)].mean().mean(axis=1)
        print(f"\n{variant} vs {control}, bar rows, mean over seeds {seeds} and rows: {bar.round(3).to_dict()}")
        print(f"rule: adopt {variant}" if bar[variant] > bar[control] else f"rule: keep {control}")
    return table


def edit_split(variants, seeds, steps: int, pool_size: int = 1024, test_scale: float = 1.0) -> pd.DataFrame:
    "Finished runs of `variants` × `seeds` (never trained here) with their world rows split by the edited word's kind, mean ± sd over seeds."
    frames = []
    for variant in variants:
        for seed in seeds:
            config = trial_config(variant, seed, steps, pool_size, test_scale)
            if not (run_dir_of(config) / "last.pt").is_file(): raise SystemExit(f"No finished run of {variant} seed {seed}: run `train` first.")
            run = train_toyitm(config, run_dir_of(config), device="cpu")
            if run.step < config.steps: raise SystemExit(f"{variant} seed {seed} stopped at step {run.step} of {config.steps}.")
            frames += [world_edit_accuracies(run.model, w, max(2, round(TEST_SIZES["n_world"] * test_scale)), seed=TEST_SIZES["seed"]).assign(variant=variant, seed=seed)
                       for w in CLOSE_UP_WORLDS]
    table = pd.concat(frames).groupby(["world", "edited word", "variant"], sort=False)["binary"].agg(["mean", "std", "count"]).unstack("variant")
    print(table.to_string(float_format="%.3f"))
    return table


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("train", "report", "edits"))
    parser.add_argument("--variant", choices=tuple(VARIANTS), action="append", help="one for train; edits: any number (default: clevr-close-ups)")
    parser.add_argument("--seed", type=int, action="append", help="one for train (default 0); edits: any number (default 0, 1, 2)")
    parser.add_argument("--steps", type=int, default=ToyITMConfig().steps)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path, default=cache_dir() / "toyitm-release-trials")
    parser.add_argument("--pool-size", type=int, default=ToyITMConfig().pool_size)
    parser.add_argument("--test-scale", type=float, default=1.0, help="scales the test sizes and the in-training evaluation (1: the experiment's)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    if args.command == "report": return report(args.out)
    variants, seeds = args.variant or ["clevr-close-ups"], args.seed or ([0] if args.command == "train" else [0, 1, 2])
    if args.command == "edits": return edit_split(variants, seeds, args.steps, args.pool_size, args.test_scale)
    if len(variants) > 1 or len(seeds) > 1: parser.error("train takes one --variant and one --seed")
    print(load())
    record = train_and_score(variants[0], seeds[0], args.steps, args.out, args.pool_size, args.test_scale)
    print(json.dumps({k: v for k, v in record.items() if k not in ("curve", "config")}))
    return record


if __name__ == "__main__":
    main()
