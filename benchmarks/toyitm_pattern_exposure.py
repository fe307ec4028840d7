"""How many training pairs teach ToyITM each word? Counts, from the very batches a ToyITM run trains on, the false captions
by the kind of word that makes them false, and the same for the diagnostic arms of `toyitm_grammar_diagnostic.py`.

    python benchmarks/toyitm_pattern_exposure.py [--steps 8000 32000] [--seed 0] [--false-captions independent|edit]
                                                 [--diagnostic-steps 3000] [--diagnostic-pool 8192]

A false caption of the attribute world or the birds is false through exactly one word (`world_mixture.swap_one_word`, or a
bird's group replaced in `world_mixture.bird_caption`/`bird_caption_pair`) unless the batch replaced it by another scene's
true caption (an easy negative, `toyitm.itm_batch`); the count names that word's kind. The release's batches are drawn
exactly as `toyitm.train_toyitm` draws them (`render_itm_pool`, `itm_batch` with the step's generator); the library's
caption functions are wrapped to record which kind each false caption swaps, nothing is re-implemented. The diagnostic's
pairs are drawn as its `train_arm` draws them (32 scenes a step from its pool, the arm's pair function).

Why (2026-11-29): inside the mixture ToyITM's pattern edits stay at chance under every change measured (4x the steps, 4
layers, 8-px patches, a convolutional stem, one-word-edit pairs), while the same model trained on the attribute world with
pattern or state as the only contrast matches pattern swaps at 0.69. A count says how many pattern contrasts each saw.

Measured 2026-11-29 (benchmarks/measured/2026-11-29_toyitm_pattern_exposure.txt, seed 0): the release's 8,000 steps hold
2,330 attribute-world pattern swaps (state 2,286, colour 4,392, material 4,290, shape 6,469, size 4,403; 37% of that world's
false captions are easy negatives; the birds about 2,400 per group), the 32,000-step run 9,364, the pattern-or-state
diagnostic arm 38,673 in its 3,000 steps. What the diagnostic arms read at matched counts is in
`toyitm_grammar_diagnostic.py`'s docstring: the count may explain part of the mixture's pattern miss, not shown how much."""
import argparse
import copy
import sys
from collections import Counter
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

import vlconcepts.world_mixture as world_mixture  # noqa: E402
from vlconcepts import toyitm  # noqa: E402
from vlconcepts.core import progress  # noqa: E402
from vlconcepts.cub_data import CUB_GROUPS  # noqa: E402
from vlconcepts.toyitm import CLOSE_UP_WORLDS, EDIT_KIND_NAMES, ToyITMConfig, itm_batch, render_itm_pool, world_edit_kind  # noqa: E402

import toyitm_grammar_diagnostic as diagnostic  # noqa: E402


class SwapRecorder:
    """While entered, wraps the library's caption functions (module globals, restored on exit) and records one row per
    pair `toyitm.world_itm_captions` makes: (world, true, false, swapped kind), the kind as drawn by `swap_one_word` (the
    field it draws first) or `bird_caption(swap=True)` (the group it draws first), else read off a one-word edit."""
    def __enter__(self):
        self.rows, self.swaps = [], []
        self.saved = swap, bird, pair = world_mixture.swap_one_word, world_mixture.bird_caption, toyitm.world_itm_captions
        def swap_one_word(chosen, rng):
            self.swaps.append(list(chosen)[copy.deepcopy(rng).integers(len(chosen))])
            return swap(chosen, rng)
        def bird_caption(ws, rng, swap=False):
            if swap: self.swaps.append(list(CUB_GROUPS)[copy.deepcopy(rng).integers(len(CUB_GROUPS))])
            return bird(ws, rng, swap)
        def world_itm_captions(ws, rng, *args, **kwargs):
            start = len(self.swaps)
            true, false = pair(ws, rng, *args, **kwargs)
            swapped = self.swaps[start:]
            del self.swaps[start:]
            kind = swapped[-1] if swapped else (world_edit_kind(true, false, ws.world) if ws.world in CLOSE_UP_WORLDS else None)
            self.rows.append((ws.world, true, false, kind))
            return true, false
        world_mixture.swap_one_word, world_mixture.bird_caption, toyitm.world_itm_captions = swap_one_word, bird_caption, world_itm_captions
        return self

    def __exit__(self, *exc):
        world_mixture.swap_one_word, world_mixture.bird_caption, toyitm.world_itm_captions = self.saved


def release_counts(config: ToyITMConfig, at: Sequence[int]) -> dict[int, Counter]:
    """(world, kind of the falsifying word) -> false captions over the first n steps of `config`'s run, for each n of `at`
    (up to `config.steps`), drawn as `train_toyitm` draws them; 'easy negative' where the batch replaced the false caption."""
    counts, snapshots, size, pool, index = Counter(), {}, config.model["vilt"]["image_size"], None, None
    with SwapRecorder() as recorder:
        for t in progress(range(max(at)), desc="counting batches"):
            if index != t // config.pool_steps:
                index = t // config.pool_steps
                pool = render_itm_pool(config.seed, index, config.pool_size, config.object_counts, size, config.worlds)
            start = len(recorder.rows)
            _, texts, labels = itm_batch(pool, np.random.default_rng([config.seed, 1, t]), config.batch_size, config.caption_kinds,
                                         config.field_probability, config.easy_negative_fraction, config.false_captions)
            for (world, _, false, kind), used in zip(recorder.rows[start:], texts[int(labels.sum()):]):
                counts[(world, "easy negative" if used != false else EDIT_KIND_NAMES.get(kind, "(CLEVR grammar or ControlledImCaps)"))] += 1
            if t + 1 in at: snapshots[t + 1] = Counter(counts)
    return snapshots


def diagnostic_counts(arm: str, steps: int, pool: int, seed: int = 0) -> Counter:
    "(world, kind) -> false captions of `toyitm_grammar_diagnostic.py`'s `arm` over `steps` (its `train_arm` draws; no images needed)."
    scenes = diagnostic.attribute_training_scenes(pool)
    rng, counts = np.random.default_rng([seed, 11]), Counter()
    with SwapRecorder() as recorder:
        for _ in range(steps):
            for i in rng.choice(len(scenes), size=32, replace=False):
                true, false = diagnostic.ARMS[arm](scenes[i], rng)
                kind = recorder.swaps.pop() if recorder.swaps else world_edit_kind(true, false, "attributes")
                counts[("attributes", EDIT_KIND_NAMES[kind])] += 1
    return counts


def as_table(columns: dict) -> pd.DataFrame:
    "One column of counts per run, rows (world, kind); totals last."
    table = pd.DataFrame({name: pd.Series(dict(c)) for name, c in columns.items()}).fillna(0).astype(int).sort_index()
    table.index = [f"{w}: {k}" for w, k in table.index]
    return pd.concat([table, table.sum().to_frame("all false captions").T])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[8000, 32000], help="the release's recipe run for the largest; counted at each")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--false-captions", default="independent", choices=["independent", "edit"])
    parser.add_argument("--diagnostic-steps", type=int, default=3000)
    parser.add_argument("--diagnostic-pool", type=int, default=8192)
    parser.add_argument("--diagnostic-arms", nargs="*", default=["world's own grammar, pattern or state swaps", "the release's attribute-world pairs"])
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    print(f"# toyitm_pattern_exposure ({load()}); seed {args.seed}, false captions {args.false_captions!r}", flush=True)
    runs = release_counts(ToyITMConfig(steps=max(args.steps), seed=args.seed, false_captions=args.false_captions), args.steps)
    columns = {f"ToyITM, first {n:,} steps": counts for n, counts in runs.items()}
    for arm in args.diagnostic_arms:
        columns[f"diagnostic '{arm}', {args.diagnostic_steps:,} steps"] = diagnostic_counts(arm, args.diagnostic_steps, args.diagnostic_pool)
    table = as_table(columns)
    print(table.to_markdown())
    return table


if __name__ == "__main__":
    main()
