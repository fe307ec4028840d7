"""How many pixels of a synthetic bird show each part's colour? A count behind docs/tiny_models.md's wing entry.

    python benchmarks/bird_part_pixels.py [--n 200] [--seed 2024] [--size 64]

Each bird of the world mixture (`world_mixture`'s bird scenes) is rendered again with one part's colour changed (to
gray, or yellow where the part is gray); the pixels whose value moves by more than 0.02 in some channel are that part's
visible pixels. Printed per part (body = the primary colour, head, wing): median, mean, 10th and 90th percentile, and
how often the wing shows fewer pixels than the head. Trains nothing, reads no model.
"""
import argparse
import dataclasses

import numpy as np
import torch

import vlconcepts.core  # noqa: F401  (before open_clip)
from vlconcepts.render import render_scenes
from vlconcepts.world_mixture import sample_world_scene

PARTS = ("body", "head", "wing")


def recoloured(scene, part: str):
    "`scene` with its bird's `part` ('body': the primary colour) in another colour."
    bird = scene.objects[0]
    other = lambda colour: "gray" if colour != "gray" else "yellow"
    if part == "body": changed = dataclasses.replace(bird, color=other(bird.color))
    else: changed = dataclasses.replace(bird, parts={**bird.parts, part: other(bird.parts[part])})
    return dataclasses.replace(scene, objects=[changed, *scene.objects[1:]])


def part_pixels(scenes, size: int = 64, threshold: float = 0.02) -> dict[str, torch.Tensor]:
    "part -> the number of pixels of each scene that change when that part is recoloured."
    base = render_scenes(scenes, size=size)
    return {part: ((render_scenes([recoloured(s, part) for s in scenes], size=size) - base).abs().amax(1) > threshold).flatten(1).sum(1)
            for part in PARTS}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--size", type=int, default=64)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    counts = part_pixels([sample_world_scene("birds", rng).scene for _ in range(args.n)], args.size)
    for part, c in counts.items():
        c = c.float()
        print(f"{part:5s} median {c.median():.0f}  mean {c.mean():.1f}  p10 {c.quantile(.1):.0f}  p90 {c.quantile(.9):.0f}")
    print(f"wing fewer pixels than head in {(counts['wing'] < counts['head']).float().mean():.0%} of {args.n} birds")
    return counts


if __name__ == "__main__":
    main()
