"""Where in ToyCLIP's image tower is the birds' wing colour lost? A linear probe at every stage of the shipped release.

    python benchmarks/toyclip_wing_layers.py [--spec toyclip:default] [--n-train 2000] [--n 400] [--grid native]
    python benchmarks/toyclip_wing_layers.py --spec birds-supervised-64px [--grid native]   (the control: trained here first)
    python benchmarks/toyclip_wing_layers.py --smoke      (40 training and 20 test birds: wiring, not a measurement)

A linear probe reads the wing's colour from `toyclip:default`'s image embedding at 0.335 (body 0.80, head 0.74), and the
same tower trained supervised reads it at 0.955 (docs/tiny_models.md). This script trains nothing: it renders the part
table's birds once for every stage (`toyclip.part_colour_readouts`, the same seeds and renders as `tables/toyclip_part_binding`)
and fits the part table's linear probe on each stage's output of the ResNet image tower: the stem and `layer1` to
`layer4`, each average-pooled to the 2 x 2 grid the attention pool reads (`layer4`'s own grid) and flattened,
L2-normalised as the embedding is; then on the image embedding itself (after the attention pool). It prints a row per
stage (body, head and wing colour) and the reading written in docs/tiny_models.md before the run, on the wing: "lost in
the attention pool" if `layer4` reads it at least 0.20 above the embedding, "lost in the trunk" if less than 0.10 above
(with the deepest stage that reads it at 0.80 or more, or none), "between" otherwise.

`--grid native` (the second arm, written down after the first arm's stem row): every stage read at its own resolution,
flattened (stem and `layer1` 16 x 16, `layer2` 8 x 8, `layer3` 4 x 4, `layer4` 2 x 2 at 64 px), since the 2 x 2 average
already mixes a small part's colour with the body's. Its reading: the first stage at which the wing's colour falls below
0.80 after a stage that read it at 0.80 or more ("lost at <stage>"), or "never read at 0.80".

`--spec birds-supervised-64px` (the control, written down after the second arm's first two rows): the same probes on the
image tower of `tiny_model_scaling.py`'s arm of that name, trained here first (supervised on the part colours, 2,000
steps, seed 0). Its reading: that tower's `layer4` (2 x 2) reads the wing's colour at 0.80 or more: "the release's trunk
does not compute it"; below: "the probes cannot tell".
"""
import argparse
import sys
import time
from pathlib import Path

import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load  # noqa: E402

import vlconcepts.core  # noqa: E402,F401  (before open_clip)
from vlconcepts.models import load_model  # noqa: E402
from vlconcepts.toyclip import part_colour_readouts, probe_accuracy  # noqa: E402

STAGES = ("stem", "layer1", "layer2", "layer3", "layer4", "image embedding")
GRID = 2  # the attention pool's input grid at 64 px


class StageReader(torch.nn.Module):
    """Stands in for a CLIP in `part_colour_readouts`: `encode_image` returns the output of `stages` (one name or several),
    each average-pooled to `grid` x `grid` (None: the stage's own resolution), flattened, L2-normalised, side by side
    (`columns[stage]` says where), from one pass through the tower."""
    def __init__(self, clip, stages: str | tuple = STAGES, grid: int | None = GRID):
        super().__init__()
        self.clip, self.visual, self.grid = clip, clip.visual, grid
        self.stages, self.columns = (stages,) if isinstance(stages, str) else tuple(stages), {}

    def encode_image(self, images: torch.Tensor, normalize: bool = True) -> torch.Tensor:
        maps, handles = {}, []
        for stage in self.stages:
            if stage == "image embedding": continue
            module = self.visual.avgpool if stage == "stem" else getattr(self.visual, stage)
            handles.append(module.register_forward_hook(lambda m, i, out, stage=stage: maps.setdefault(stage, out)))
        try: embedding = self.visual(images)
        finally:
            for handle in handles: handle.remove()
        parts, start = [], 0
        for stage in self.stages:
            if stage == "image embedding": flat = embedding
            else: flat = (maps[stage] if self.grid is None else torch.nn.functional.adaptive_avg_pool2d(maps[stage], self.grid)).flatten(1)
            parts.append(torch.nn.functional.normalize(flat, dim=-1) if normalize else flat)
            self.columns[stage], start = slice(start, start + flat.shape[1]), start + flat.shape[1]
        return torch.cat(parts, dim=1)


def stage_probe(reader: StageReader, stage: str):
    "The part table's linear probe on `stage`'s columns of `reader`'s features (a `part_colour_readouts` readout)."
    def readout(train_x, train_y, test_x, test_y):
        columns = reader.columns[stage]
        return probe_accuracy(train_x[:, columns], train_y, test_x[:, columns], test_y, max_iter=2000)
    return readout


def native_reading(table: pd.DataFrame) -> str:
    "The second arm's reading (`--grid native`): the first stage where the wing's colour falls below 0.80 after reading at or above it."
    wing, seen = table["has_wing_color"], False
    for stage in STAGES:
        if wing[stage] >= 0.80: seen = True
        elif seen: return f"lost at {stage} ({wing[stage]:.3f}, after {STAGES[STAGES.index(stage) - 1]} {wing[STAGES[STAGES.index(stage) - 1]]:.3f})"
    return "never read at 0.80" if not seen else "read at 0.80 or more at every stage after the first that reached it"


def load_tower(spec: str, smoke: bool):
    "The CLIP whose image tower is probed: a model spec, or a supervised arm of tiny_model_scaling.py trained here."
    if not spec.startswith("birds-supervised"): return load_model(spec).module
    import tiny_model_scaling
    clip, _, seconds = tiny_model_scaling.train_birds_tower(tiny_model_scaling.ARMS[spec], "cpu", smoke)
    print(f"# trained {spec} in {seconds:.0f} s", flush=True)
    return clip


def control_reading(table: pd.DataFrame) -> str:
    "The control's reading: does the supervised tower's layer4 (2 x 2) give the wing's colour to the probe?"
    wing = table["has_wing_color"]["layer4"]
    verdict = "the release's trunk does not compute it" if wing >= 0.80 else "the probes cannot tell"
    return f"{verdict} (supervised layer4 {wing:.3f})"


def reading(table: pd.DataFrame) -> str:
    "The first arm's reading on the wing's colour (stages pooled to 2 x 2), written before the run."
    wing = table["has_wing_color"]
    gain = wing["layer4"] - wing["image embedding"]
    if gain >= 0.20: return f"lost in the attention pool (layer4 {wing['layer4']:.3f}, embedding {wing['image embedding']:.3f})"
    if gain >= 0.10: return f"between (layer4 {wing['layer4']:.3f}, embedding {wing['image embedding']:.3f})"
    deepest = [s for s in STAGES[:-1] if wing[s] >= 0.80]
    return (f"lost in the trunk (layer4 {wing['layer4']:.3f}, embedding {wing['image embedding']:.3f}); deepest stage at 0.80 or more: "
            + (deepest[-1] if deepest else "none"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="toyclip:default")
    parser.add_argument("--n-train", type=int, default=2000, help="training birds of the probe (the part table's)")
    parser.add_argument("--n", type=int, default=400, help="test birds (the part table's)")
    parser.add_argument("--grid", choices=["2x2", "native"], default="2x2", help="each stage pooled to 2 x 2 (first arm) or at its own resolution")
    parser.add_argument("--smoke", action="store_true", help="40 training and 20 test birds (wiring only)")
    args = parser.parse_args(argv)
    n_train, n = (40, 20) if args.smoke else (args.n_train, args.n)
    torch.set_num_threads(1)
    grid = GRID if args.grid == "2x2" else None
    print(f"# toyclip_wing_layers: {args.spec}, grid {args.grid}, {n_train} training and {n} test birds, one thread; {load()}", flush=True)
    clip = load_tower(args.spec, args.smoke)
    start, reader = time.perf_counter(), StageReader(clip, STAGES, grid)   # the birds rendered and encoded once for every stage
    rows = part_colour_readouts(reader, {stage: stage_probe(reader, stage) for stage in STAGES}, n_train, n)
    for stage, row in rows.items(): print(f"{stage:16s} " + "  ".join(f"{k} {v:.3f}" for k, v in row.items()))
    table = pd.DataFrame(rows).T
    print(f"({time.perf_counter() - start:.0f} s)\nreading: {reading(table) if grid else native_reading(table)}")
    if args.spec.startswith("birds-supervised") and grid: print(f"control reading: {control_reading(table)}")
    return table


if __name__ == "__main__":
    main()
