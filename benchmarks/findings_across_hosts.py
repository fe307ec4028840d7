"""How far do the findings' margins move from one host to another? Judges every finding of `vlconcepts.findings` on two
folders of result tables (say, the committed `tables/` and those of a cold `make figures` in a fresh clone on another
machine) and prints each row's verdict and margin (`findings.verdict_margin`: the gap over its threshold) on both.

    python benchmarks/findings_across_hosts.py OTHER_TABLES [--tables tables] [--near 3]

The summary is what `findings.HOST_MARGIN_SHIFT` is set from: the largest move of a margin that lay within `--near` of
zero on either side (far from the lines at ±1 a margin scales with its gap, and large moves there change no verdict).
Measured 2026-11-25: the committed tables (AVX2 host, two torch threads) against a cold rebuild of a2a7bcf on an AMD EPYC
(AVX-512) host: 1.50 (probes.recovery_not_sufficient 2.38 -> 3.88); 55 of 56 verdicts the same. Then the same committed
tables against a cold rebuild of 9fc0203 on the AVX-512 host with one torch thread per kernel (the rebuild's rule since):
1.88 (probes.negation_hard -2.73 -> -0.85, does not hold -> inconclusive), 53 of 56 the same; one of the three,
probes.word_order_hard (31.6 -> 0.93), rested on a cell of one prompt and is now inconclusive by `findings.MIN_ITEMS`.
Measured 2026-11-26: the committed tables (the AVX-512 host's one-thread rebuild of 9fc0203) against a cold `make figures`
of a899f04 in a fresh clone on an AMD EPYC AVX2 host, also one thread per kernel: 1.62
(purity.spurious_background_fails_task -1.17 -> -2.79), below HOST_MARGIN_SHIFT = 1.9; 55 of 56 verdicts the same. The one
that moved, probes.negation_hard (-0.85 -> -1.39, inconclusive -> does not hold), was not firm. The CompMap and binding
margins (five seeds of trained binding models included) did not move at all
(benchmarks/measured/2026-11-26_findings_across_hosts_avx2_one_thread.txt).
Measured 2026-12-01 (night): the committed page of d231824 (mixed: AVX-512 rebuild of e46f70b, the probes lens and
study B from the AVX2 host) against a cold `make figures` of d231824 in a fresh clone on the AVX2 host: 1.62 (again
purity.spurious_background_fails_task -1.17 -> -2.79); 55 of 56 verdicts the same; the one that moved,
mac.drop_in_attributes_not_objects (0.94 -> 1.01, inconclusive -> holds), was not firm; its weakest comparison is
Troika's, retrained on this host. Not a host comparison alone: (a)'s MAC zero-shot CLIP rows were computed before
2026-12-01's written-out prompts (CLIP closed Top1-P 84.33 -> 85.33), which moved the MAC rows that compare with CLIP
(mac.mm_encoder_best_closed, for one). These tables were committed
(benchmarks/measured/2026-12-01_findings_across_hosts_full_avx2.txt).
Measured 2026-12-02 (afternoon), after the findings gained rows and paired checks: the committed tables (AVX-512 cold
rebuild of f603df1) against d231824's (AVX2): 4.93 (probes.two_objects_harder -5.76 -> -0.83, a new row; 3.23 with its
check unpaired), so HOST_MARGIN_SHIFT = 5.0; 61 of 62 verdicts the same
(benchmarks/measured/2026-12-02_findings_across_hosts_paired.txt)."""
import argparse
import math
from pathlib import Path

import pandas as pd

from vlconcepts.findings import FINDINGS, assess_findings


def compare(folder_a: Path, folder_b: Path, near: float = 3.0) -> tuple[pd.DataFrame, dict]:
    "Per finding: verdict and margin on both folders and the move; with the summary (same verdicts, largest near move)."
    a, b = (assess_findings(FINDINGS, f)[["holds?", "margin"]] for f in (folder_a, folder_b))
    rows = a.add_suffix(" (a)").join(b.add_suffix(" (b)"))
    rows["move"] = rows["margin (b)"] - rows["margin (a)"]
    finite = rows[[math.isfinite(x) for x in rows["move"]]]
    close = finite[(finite["margin (a)"].abs() < near) | (finite["margin (b)"].abs() < near)]
    widest = close["move"].abs().idxmax() if len(close) else None
    return rows, {"rows": len(rows), "same verdict": int((rows["holds? (a)"] == rows["holds? (b)"]).sum()),
                  f"largest move within {near:g} of zero": round(float(close["move"].abs().max()), 2) if widest else math.nan,
                  "on": widest}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other host's tables folder")
    parser.add_argument("--tables", type=Path, default=Path("tables"), help="the first folder (default: the committed tables)")
    parser.add_argument("--near", type=float, default=3.0)
    args = parser.parse_args(argv)
    rows, summary = compare(args.tables, args.other, args.near)
    with pd.option_context("display.width", 200, "display.max_rows", 200, "display.max_columns", 10): print(rows)
    print(summary)


if __name__ == "__main__":
    main()
