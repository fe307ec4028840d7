"""How many ControlledImCaps pair captions the recovery probe trained on: the overlap behind 'EM on pair captions'.

    python benchmarks/probes_pair_caption_overlap.py [N_PAIRS SEED IMAGE_SIZE]   (default: 300 0 64, the tiny profile's 44_probes_imcaps)

The probe's training captions (`probes.probe_training_captions`, the tiny ProbeConfig) hold out the CompPrompts prompts
(`probes.held_out_captions`) but not the synthetic ControlledImCaps pairs' captions, which the world caption corpus can
also write (its kinds include the ControlledImCaps types). Prints the share of the pairs' captions that are among the
probe's distinct training captions (normalised), per type. Measured: benchmarks/measured/2026-12-01_probes_pair_caption_overlap.txt.
"""
import sys

from vlconcepts.probes import ProbeConfig, probe_training_captions, normalize_caption
from vlconcepts.controlled_imcaps import controlled_imcaps_data
n, seed, size = (int(a) for a in sys.argv[1:4]) if len(sys.argv) > 3 else (300, 0, 64)
train = {normalize_caption(c) for c in probe_training_captions(ProbeConfig())}
pairs = controlled_imcaps_data("synthetic", n, seed, size, None)
caps = [c for pair in pairs.captions for c in pair]
inside = [c for c in caps if normalize_caption(c) in train]
print(f"{len(inside)} of {len(caps)} pair captions ({100*len(inside)/len(caps):.1f}%) are among the probe's {len(train)} distinct training captions")
from collections import Counter
kinds = Counter(t for t, pair in zip(pairs.types, pairs.captions) for c in pair if normalize_caption(c) in train)
print(dict(kinds), dict(Counter(t for t in pairs.types)))
print(inside[:5])
