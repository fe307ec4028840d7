"""MAC's zero-shot CLIP: the slot route against written-out prompts, and what the committed tiny tables and findings would say.

    python benchmarks/mac_zero_shot_prompts.py [--out /tmp/mac_zero_shot_tables]

Since 2026-12-01 zero-shot CLIP writes its prompts out (`mac.MAC_METHODS["CLIP"].text_route == "sentences"`, the paper's
CLIP, `mac.sentence_logits`); before, it put each word's mean token embedding into a prompt slot (`text_route="slots"`),
which differs for words of several tokens ("cyan" and "checkered" in ToyCLIP's vocabulary). Zero-shot CLIP trains
nothing, so both routes are evaluation only and the same on every host. This script scores the tiny profile's MAC world
(1,200 images, world seed 0, closed fraction 0.3, `toyclip:default`) both ways for CLIP c, a;o and a;o;c, checks that the
committed tables' CLIP rows are the slot route's to the printed digit, writes a copy of `tables/` with the CLIP rows
(Tables 2-4, the closed -> open drop, their seed files) from the written-out prompts under --out (the committed tables are
never touched), and prints every MAC findings row's verdict on both.

Measured: benchmarks/measured/2026-12-01_mac_zero_shot_prompts.txt.
"""
import argparse
import shutil, pandas as pd, numpy as np
from pathlib import Path
from vlconcepts.models import load_model
from vlconcepts.mac import tiny_mac, run_method, evaluate_run, PAPER_COLUMNS
from vlconcepts.findings import assess_findings
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--out", default="/tmp/mac_zero_shot_tables", help="where the copy of tables/ goes")
args = parser.parse_args()
m = load_model('toyclip:default'); d = tiny_mac(1200, 0, 64, closed_fraction=0.3)
cols = PAPER_COLUMNS + ["coverage"]
new, old = {}, {}
for name in ("CLIP", "CLIP a;o", "CLIP a;o;c"):
    for route, store in (("sentences", new), ("slots", old)):
        store[name] = evaluate_run(run_method(name, m, d, show_progress=False, text_route=route)).set_index("world")
for name in new: 
    for w in ("closed", "open"):
        print(name, w, "top1 slots %.2f -> sentences %.2f" % (old[name].loc[w, "top1_precision"], new[name].loc[w, "top1_precision"]),
              "auc %.2f -> %.2f" % (old[name].loc[w, "auc"], new[name].loc[w, "auc"]))
src, dst = Path("tables"), Path(args.out); shutil.rmtree(dst, ignore_errors=True); shutil.copytree(src, dst)
fmt = lambda c, v: f"{v:.4f}" if c == "normalized_coverage" else f"{v:.2f}"
# the committed CLIP rows must be what the slot route gives here (evaluation only)
for w, t in (("closed", "mac_table2_closed"), ("open", "mac_table3_open")):
    tab = pd.read_csv(src / f"{t}.csv", dtype=str)
    row = tab.method == "CLIP"
    for c in cols:
        assert tab.loc[row, c].item() == fmt(c, old["CLIP"].loc[w, c]), (t, c, tab.loc[row, c].item(), old["CLIP"].loc[w, c])
        tab.loc[row, c] = fmt(c, new["CLIP"].loc[w, c])
    tab.to_csv(dst / f"{t}.csv", index=False)
    seeds = pd.read_csv(src / f"{t}_seeds.csv")
    for c in PAPER_COLUMNS:
        seeds.loc[(seeds.method == "CLIP") & (seeds.metric == c), "value"] = new["CLIP"].loc[w, c]
    seeds.to_csv(dst / f"{t}_seeds.csv", index=False)
tab = pd.read_csv(src / "mac_table4_branches.csv", dtype=str); seeds = pd.read_csv(src / "mac_table4_branches_seeds.csv")
for name in ("CLIP a;o", "CLIP a;o;c"):
    for w in ("closed", "open"):
        row = (tab.world == w) & (tab.method == name)
        for c in PAPER_COLUMNS:
            assert tab.loc[row, c].item() == fmt(c, old[name].loc[w, c] - old["CLIP"].loc[w, c]), (name, w, c)
            tab.loc[row, c] = fmt(c, new[name].loc[w, c] - new["CLIP"].loc[w, c])
            seeds.loc[(seeds.world == w) & (seeds.method == name) & (seeds.metric == c), "value"] = new[name].loc[w, c] - new["CLIP"].loc[w, c]
tab.to_csv(dst / "mac_table4_branches.csv", index=False); seeds.to_csv(dst / "mac_table4_branches_seeds.csv", index=False)
drop = new["CLIP"].loc["closed", "top1_precision"] - new["CLIP"].loc["open", "top1_precision"]
tab = pd.read_csv(src / "mac_closed_open_drop.csv", dtype=str); tab.loc[tab.method == "CLIP", "Top1-P drop (points)"] = f"{drop:.2f}"
tab.to_csv(dst / "mac_closed_open_drop.csv", index=False)
seeds = pd.read_csv(src / "mac_closed_open_drop_seeds.csv"); seeds.loc[seeds.method == "CLIP", "value"] = drop
seeds.to_csv(dst / "mac_closed_open_drop_seeds.csv", index=False)
before, after = assess_findings(folder=src), assess_findings(folder=dst)
b, a = before, after
vcol = [c for c in b.columns if "hold" in c.lower()][0]
changed = b.index[(b[vcol] != a[vcol])]
print("verdicts changed:", list(changed))
for i in [x for x in b.index if str(x).startswith("mac.") or b.loc[x, "lens"] == "MAC"]:
    print(i, "|", b.loc[i, vcol], "->", a.loc[i, vcol], "|", a.loc[i, "ours"][:170], "| firm:", b.loc[i, "firm across hosts?"], "->", a.loc[i, "firm across hosts?"])
