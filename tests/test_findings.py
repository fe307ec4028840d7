"""The findings predicates (vlconcepts.findings): each one made to hold and to fail on hand-made tables.

A hand-made table starts from the layout of the committed tiny table (its rows and columns, so the
predicate's lookups are checked against what the experiments write) with no per-seed file; the cells a
finding reads are then set so that every comparison goes the paper's way by far (it must hold) or the
opposite way (it must not hold)."""
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch

from vlconcepts import findings as F
from vlconcepts.core import paper_table, paper_tables

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "tables"


def _constant(term): return isinstance(term, (int, float))


def cells_in(term) -> list:
    if isinstance(term, (F.Cell, F.Trials)): return [term]
    if isinstance(term, F.Diff): return cells_in(term.a) + cells_in(term.b)
    if isinstance(term, (F.Mean, F.FirstOf)): return [c for t in term.terms for c in cells_in(t)]
    return []


def locatable(cell) -> bool:
    frame = F.read_result_table(cell.table, TABLES)
    return frame is not None and (trial_rows(cell, frame).any() if isinstance(cell, F.Trials) else cell.locate(frame) is not None)


def trial_rows(trials, frame) -> pd.Series:
    "The rows of a per-trial table that a `Trials` term averages."
    mask = pd.Series(trials.column in frame.columns, index=frame.index)
    for col, pattern in trials.where: mask &= frame[col].map(lambda v: F.label_matches(v, pattern)).astype(bool)
    return mask


def fitting_lookup(term):
    "The first lookup of a `FirstOf` whose cells are all in the committed tables' layout."
    fits = [t for t in term.terms if all(locatable(c) for c in cells_in(t))]
    assert fits, f"no lookup of {term} fits the committed tables"
    return fits[0]


def term_value(term, values: dict):
    "What `term` evaluates to under the cell `values` recorded so far (None while one of its cells has none)."
    if _constant(term): return float(term)
    if isinstance(term, (F.Cell, F.Trials)): return values.get(term)
    if isinstance(term, F.Diff):
        a, b = term_value(term.a, values), term_value(term.b, values)
        return None if a is None or b is None else a - b
    if isinstance(term, F.Mean):
        parts = [term_value(t, values) for t in term.terms]
        return None if None in parts else float(np.mean(parts))
    if isinstance(term, F.FirstOf): return term_value(fitting_lookup(term), values)
    return None


def assign(term, target: float, values: dict, correlations: dict):
    """Record cell values that make `term` evaluate to `target` (a rank correlation: its sign); cells already recorded
    keep their values (a mean's other terms, a difference's other side absorb the rest)."""
    if _constant(term) or term_value(term, values) is not None: return
    if isinstance(term, (F.Cell, F.Trials)): values[term] = target      # Trials: every trial the same value, so no spread
    elif isinstance(term, F.Diff):
        if _constant(term.b): assign(term.a, target + term.b, values, correlations)
        elif (b := term_value(term.b, values)) is not None: assign(term.a, target + b, values, correlations)
        elif (a := term_value(term.a, values)) is not None: assign(term.b, a - target, values, correlations)
        else: assign(term.a, target, values, correlations); assign(term.b, 0.0, values, correlations)
    elif isinstance(term, F.Mean):
        known = [v for t in term.terms if (v := term_value(t, values)) is not None]
        free = [t for t in term.terms if term_value(t, values) is None]
        for t in free: assign(t, (target * len(term.terms) - sum(known)) / len(free), values, correlations)
    elif isinstance(term, F.FirstOf): assign(fitting_lookup(term), target, values, correlations)
    elif isinstance(term, F.RankCorrelation): correlations[term] = 1 if target > 0 else -1
    else: raise AssertionError(f"unknown term {term!r}")


def solve_checks(checks_up) -> tuple[dict, dict]:
    """Cell values (and rank-correlation signs) under which each (check, up) pair goes its way: `up` makes `a` the larger
    side by far. Checks are taken in order; a side already set by an earlier check fixes where the other side goes."""
    values, correlations = {}, {}
    for check, up in checks_up:
        if _constant(check.b) or _constant(check.a):
            term, c = (check.a, check.b) if _constant(check.b) else (check.b, check.a)
            delta = max(2 * check.min_gap, 0.5 * abs(c), 0.01)
            bigger = up if term is check.a else not up
            assign(term, c + delta if bigger else c - delta, values, correlations)
            continue
        gap = 10 * max(check.min_gap, 0.01)
        a, b = term_value(check.a, values), term_value(check.b, values)
        if a is not None: assign(check.b, a - gap if up else a + gap, values, correlations)
        elif b is not None: assign(check.a, b + gap if up else b - gap, values, correlations)
        else:
            assign(check.a, 10.0 + gap if up else 10.0, values, correlations)
            assign(check.b, 10.0 if up else 10.0 + gap, values, correlations)
    return values, correlations


def hand_made_values(finding, hold: bool):
    "Cell values (and rank-correlation signs) under which every check of `finding` goes the paper's way (`hold`) or the opposite."
    return solve_checks([(check, (check.op == ">") == hold) for check in finding.checks])


def write_hand_made_tables(finding, hold: bool, folder: Path, solved: tuple | None = None):
    "Tables in the committed layout with the cells `hand_made_values(finding, hold)` sets (or the `solved` values given)."
    values, correlations = solved or hand_made_values(finding, hold)
    frames = {}
    for table in {c.table for c in values} | {r.table for r in correlations}:
        assert (TABLES / f"{table}.csv").exists(), f"{finding.id}: no committed tables/{table}.csv to take the layout from"
        frames[table] = F.read_result_table(table, TABLES)
    for cell, value in values.items():
        frame = frames[cell.table]
        if isinstance(cell, F.Trials):
            assert trial_rows(cell, frame).any(), f"{finding.id}: {cell} has no rows in the committed tables/{cell.table}.csv"
            frame.loc[trial_rows(cell, frame), cell.column] = repr(value)
            continue
        found = cell.locate(frame)
        assert found is not None, f"{finding.id}: {cell} is not in the committed tables/{cell.table}.csv"
        frame.at[found[0], found[1]] = repr(value)
        for column in cell.interval:
            frame.at[found[0], column] = repr(value)
    for corr, sign in correlations.items():
        frame = frames[corr.table]
        mask = pd.Series(True, index=frame.index)
        for col, pattern in corr.where: mask &= frame[col].map(lambda v: F.label_matches(v, pattern))
        n = int(mask.sum())
        assert n >= 3, f"{finding.id}: fewer than 3 rows for {corr}"
        frame.loc[mask, corr.x] = [str(i) for i in range(n)]
        frame.loc[mask, corr.y] = [str(i if sign > 0 else n - i) for i in range(n)]
        if corr.items in frame.columns: frame.loc[mask, corr.items] = str(F.MIN_ITEMS)      # enough items behind every point for a verdict
    for table, frame in frames.items(): frame.to_csv(folder / f"{table}.csv", index=False)


@pytest.mark.parametrize("finding", F.FINDINGS, ids=lambda f: f.id)
@pytest.mark.parametrize("hold", [True, False], ids=["holds", "fails"])
def test_each_predicate_holds_and_fails_on_hand_made_tables(finding, hold, tmp_path):
    write_hand_made_tables(finding, hold, tmp_path)
    row = F.assess_finding(finding, tmp_path)
    assert row["holds?"] == (F.HOLDS if hold else F.FAILS), row


@pytest.mark.parametrize("finding", F.FINDINGS, ids=lambda f: f.id)
def test_every_finding_is_measured_on_the_committed_tables(finding):
    row = F.assess_finding(finding, TABLES)
    assert row["holds?"] != F.NOT_MEASURED, row


def test_an_empty_folder_measures_nothing(tmp_path):
    page = F.assess_findings(folder=tmp_path)
    assert set(page["holds?"]) == {F.NOT_MEASURED}
    papers, own = len(F.FINDINGS) - len(F.STUDY_FINDINGS), len(F.STUDY_FINDINGS)
    assert F.summary_line(page, "smoke") == (f"0 of {papers} headline findings hold in the smoke profile ({papers} not measured); "
                                             f"the project's own studies: 0 of {own} hold ({own} not measured)")


WITH_REF = [f for f in F.FINDINGS if f.paper_ref]


@pytest.mark.parametrize("finding", WITH_REF, ids=lambda f: f.id)
def test_paper_values_are_quoted_as_transcribed(finding):
    lens, table, row, column = finding.paper_ref
    if table not in paper_tables(lens).get(lens, []): pytest.skip(f"{lens}/{table} is not transcribed in vlconcepts/paper_numbers")
    printed = paper_table(lens, table).loc[row, column]
    assert printed in finding.paper, f"{finding.id}: the paper prints {printed!r}, the finding quotes {finding.paper!r}"


def test_a_cause_is_stated_only_where_a_table_shows_it(tmp_path):
    overfits = F.finding("binding.clip_ft_overfits")
    frame = pd.DataFrame({"model": ["CLIP", "CLIP-FT"], "train": ["25.87", "26.20 ± 0.16"], "val": ["41.37", "34.05 ± 0.27"],
                          "gen": ["33.88", "34.60 ± 0.16"]})
    assert F.assess_finding(overfits, tmp_path)["if not: cause"].startswith("not measured")   # no table at all: nothing to explain
    frame.to_csv(tmp_path / "binding_table4.csv", index=False)
    row = F.assess_finding(overfits, tmp_path)
    assert row["holds?"] == F.FAILS and row["if not: cause"].startswith("CLIP-FT never fits its training set"), row
    frame.loc[1, ["train", "gen"]] = ["60.00 ± 0.16", "45.00 ± 0.16"]                   # CLIP-FT fits, and still does not overfit
    frame.to_csv(tmp_path / "binding_table4.csv", index=False)
    row = F.assess_finding(overfits, tmp_path)
    assert row["holds?"] == F.FAILS and row["if not: cause"] == "not explained", row


def test_seed_files_decide_the_spread(tmp_path):
    "The same means, once with a wide seed spread (inconclusive) and once with a narrow one (holds)."
    two = F.finding("binding.two_object_training_does_not_help")
    trained = dict(zip(F.TRAINED_BINDING_MODELS, (2.0, 20.0, 14.0, 1.0, 1.5, 0.5, 18.0)))      # every fine-tuned model and CDSM
    pd.DataFrame({"model": ["CLIP", *trained], "gen": ["32.0", *map(str, trained.values())]}).to_csv(tmp_path / "binding_table4.csv", index=False)
    seeds = lambda spread: pd.DataFrame([{"model": m, "split": "gen", "seed": s, "accuracy": mean + spread * (s - 1)}
                                         for m, mean in trained.items() for s in range(3)])
    seeds(12.0).to_csv(tmp_path / "binding_table4_seeds.csv", index=False)
    assert F.assess_finding(two, tmp_path)["holds?"] == F.INCONCLUSIVE
    seeds(0.5).to_csv(tmp_path / "binding_table4_seeds.csv", index=False)
    row = F.assess_finding(two, tmp_path)
    assert row["holds?"] == F.HOLDS and "(3 seeds)" in row["ours"]


def term_locatable(term) -> bool:
    "Whether every cell `term` reads is in the committed tables (a FirstOf: one of its lookups)."
    if isinstance(term, F.FirstOf): return any(term_locatable(t) for t in term.terms)
    if isinstance(term, (F.Mean, F.Diff)): return all(term_locatable(t) for t in (term.terms if isinstance(term, F.Mean) else (term.a, term.b)))
    return locatable(term) if isinstance(term, (F.Cell, F.Trials)) else True


CAUSES = [(finding.id, k, cause) for finding in F.FINDINGS for k, cause in enumerate(finding.causes)]


@pytest.mark.parametrize("finding_id, k, cause", CAUSES, ids=[f"{i}-{k}" for i, k, _ in CAUSES])
def test_every_cause_reads_tables_and_cells_the_tiny_profile_writes(finding_id, k, cause):
    "A renamed table, row or column must not silence a cause: what it points to and what its support reads exist."
    assert all((TABLES / f"{t}.csv").exists() for t in cause.tables), f"{finding_id}: cause {k} points to missing tables {cause.tables}"
    missing = [side for check in cause.support for side in (check.a, check.b) if not term_locatable(side)]
    assert not missing, f"{finding_id}: cause {k} reads cells the committed tables do not have: {missing}"


def test_committed_page_margins_agree_with_verdicts():
    "Every committed row's margin decides its verdict (beyond +1 holds, beyond -1 does not, else inconclusive) and its firmness."
    page = pd.read_csv(TABLES / "findings.csv")
    for _, row in page.iterrows():
        m = float(row["margin"])                                       # printed to 2 decimals: a row on a line is not decided by it
        if min(abs(abs(m) - 1), abs(abs(abs(m) - 1) - F.HOST_MARGIN_SHIFT)) < 0.01: continue
        expected = F.HOLDS if m > 1 else F.FAILS if m < -1 else F.INCONCLUSIVE
        assert row["holds?"] == expected, (row["id"], m, row["holds?"])
        assert (row["firm across hosts?"] == "yes") == (abs(abs(m) - 1) >= F.HOST_MARGIN_SHIFT), (row["id"], m)


def test_findings_across_hosts_on_two_folders(tmp_path, benchmark_script):
    "benchmarks/findings_across_hosts.py: the committed tables against themselves move nothing; a moved cell shows its move."
    across = benchmark_script("findings_across_hosts")
    rows, summary = across.compare(TABLES, TABLES)
    assert summary["same verdict"] == summary["rows"] == len(F.FINDINGS) and (rows["move"].dropna().abs() == 0).all()
    shutil.copytree(TABLES, tmp_path / "other")
    table = pd.read_csv(tmp_path / "other" / "binding_table4.csv", dtype=str)
    table.loc[table["model"].eq("CLIP"), "gen"] = "13.0"                   # frozen CLIP's two-object gen falls below CSP's
    table.to_csv(tmp_path / "other" / "binding_table4.csv", index=False)
    rows, summary = across.compare(TABLES, tmp_path / "other")
    assert rows.loc["binding.two_object_training_does_not_help", "holds? (b)"] != F.HOLDS
    assert summary["same verdict"] < summary["rows"]


def test_toyitm_grammar_diagnostic_smoke(capsys, benchmark_script, one_torch_thread):
    "benchmarks/toyitm_grammar_diagnostic.py on smoke sizes: every arm trains and is scored on both grammars' colour swaps."
    diagnostic = benchmark_script("toyitm_grammar_diagnostic")
    diagnostic.main(["--steps", "2", "--pool", "40", "--test", "8", "--seeds", "0", "--threads", "1"])
    out = capsys.readouterr().out
    assert all(f"| {arm}" in out for arm in diagnostic.ARMS), out
    from vlconcepts.world_mixture import mixture_scenes
    rng = np.random.default_rng(0)
    ws = mixture_scenes(rng, 1, {"attributes": 1})[0]
    true, false = diagnostic.own_grammar_pair(ws, rng, "color")
    assert true != false and len(true.split()) == len(false.split())
    assert ws.objects[0].color in true.split() and ws.objects[0].color not in false.split()
    true, false = diagnostic.ARMS["CLEVR noun phrase, colour swaps only"](ws, rng)
    assert ws.objects[0].color in true.split() and len(set(true.split()) ^ set(false.split())) == 2
    for ws in mixture_scenes(rng, 12, {"attributes": 1}):                          # pattern or state swapped whenever shown
        true, false = diagnostic.pattern_or_state_pair(ws, rng)
        (old_word,), (new_word,) = set(true.split()) - set(false.split()), set(false.split()) - set(true.split())
        if {ws.objects[0].pattern, ws.objects[0].state} - {None, "plain"}: assert old_word in (ws.objects[0].pattern, ws.objects[0].state)
    diagnostic.main(["--steps", "2", "--pool", "40", "--test", "12", "--seeds", "0", "--threads", "1", "--world-fields",
                     "--arms", "world's own grammar, pattern or state swaps", "--stem", "conv"])
    out = capsys.readouterr().out
    assert "attribute close-ups, pattern swaps" in out and "'stem': 'conv'" in out and "image stem conv" in out
    itm, _, _ = diagnostic.train_arm(diagnostic.pattern_or_state_pair, *diagnostic.training_pool("attributes", 40), steps=1, stem="conv4")
    assert itm.module.vilt.embeddings.patch_embeddings.projection.layers[0].stride == (4, 4)    # the stem reaches the model
    diagnostic.main(["--steps", "2", "--pool", "40", "--test", "8", "--seeds", "0", "--threads", "1", "--pool-world", "clevr",
                     "--arms", "CLEVR noun phrase", "--fields"])
    header = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| training captions"))
    assert [c.strip() for c in header.split("|")[2:7]] == ["CLEVR close-ups, noun phrase", "CLEVR close-ups, shape swaps",
                                                           "CLEVR close-ups, material swaps", "CLEVR close-ups, size swaps",
                                                           "attribute close-ups, own grammar"], header


@pytest.mark.parametrize("world, plain_share", [("attributes", 1.0), ("clevr", 0.0)])
def test_toyitm_grammar_diagnostic_pool_worlds(benchmark_script, world, plain_share):
    "The diagnostic's other training pools: the attribute world's objects with no state or pattern, and plain CLEVR close-ups."
    diagnostic = benchmark_script("toyitm_grammar_diagnostic")
    images, scenes = diagnostic.training_pool(world, 6, plain_share)
    assert images.shape == (6, 3, 64, 64) and 0 <= float(images.min()) and float(images.max()) <= 1
    assert all(len(ws.objects) == 1 and ws.objects[0].state is None and ws.objects[0].pattern == "plain" for ws in scenes)
    shapes = {ws.objects[0].shape for ws in diagnostic.training_pool(world, 60, plain_share)[1]}
    assert shapes - {"cube", "sphere", "cylinder"} if world == "attributes" else shapes <= {"cube", "sphere", "cylinder"}
    true, false = diagnostic.noun_phrase_pair(scenes[0], np.random.default_rng(0), "color")
    assert true != false and scenes[0].objects[0].color in true.split()


def test_toyitm_grammar_diagnostic_plain_share(benchmark_script):
    "--plain-share strips a share of the attribute world's objects and leaves the others (and the scenes drawn) as the world's."
    diagnostic = benchmark_script("toyitm_grammar_diagnostic")
    from vlconcepts.world_mixture import render_mixture_pool
    images, scenes = diagnostic.training_pool("attributes", 40, 0.5)
    world_images, world_scenes = render_mixture_pool(np.random.default_rng([3, 0]), 40, 64, {"attributes": 1})
    plain = [ws.objects[0].state is None and ws.objects[0].pattern == "plain" for ws in scenes]
    assert 5 < sum(plain) < 35
    same = [k for k, p in enumerate(plain) if not p]
    assert [scenes[k].objects[0] for k in same] == [world_scenes[k].objects[0] for k in same]
    assert torch.allclose(images[same], world_images[same].float() / 255)
    for bad in (["--plain-share", "1.5"], ["--pool-world", "clevr", "--plain-share", "0.5"]):
        with pytest.raises(SystemExit): diagnostic.main(bad)


@pytest.mark.slow
def test_toyitm_release_trials_smoke(capsys, benchmark_script, one_torch_thread, tmp_path):
    "benchmarks/toyitm_release_trials.py on smoke sizes: every variant trains, their scores are written and each trial's rule is applied."
    script = benchmark_script("toyitm_release_trials")
    from vlconcepts.toyitm import ToyITMConfig
    for variant in script.VARIANTS:                     # at test scale 1 a trial's run is the pinned config, its run folder unmoved
        assert script.trial_config(variant, 1, 8000) == ToyITMConfig(seed=1, steps=8000, **script.VARIANTS[variant])
    assert script.trial_config("independent", 0, 2, 24, 0.02).eval_scenes == 2             # a smoke run evaluates small sets
    for variant in script.VARIANTS:
        record = script.main(["train", "--variant", variant, "--steps", "2", "--pool-size", "24", "--test-scale", "0.02",
                              "--out", str(tmp_path / "runs")])
        assert record["steps"] == 2 and set(record["scores"]) == set(script.ROWS)
        assert record["config"]["worlds"].get("clevr_close_ups", 0) == (0.15 if variant == "clevr-close-ups" else
                                                                        1.0 if "close-ups-" in variant else 0)
        assert record["config"]["false_captions"] == ("edit" if variant.endswith("edit") else "independent")
        stem = {"clevr-close-ups-half-conv-stem": "conv", "clevr-close-ups-half-conv4-stem": "conv4"}.get(variant)
        assert record["config"]["model"] == "toyitm_config() defaults" if stem is None else record["config"]["model"]["stem"] == stem
    assert set(script.VARIANTS["close-ups-only"]["worlds"]) == {"clevr_close_ups"}      # the diagnostic trains on that world alone
    table = script.main(["report", "--out", str(tmp_path / "runs")])
    assert sorted(table["variant"]) == sorted(script.VARIANTS)
    out = capsys.readouterr().out
    assert out.count("rule: ") == len(script.TRIALS) and "clevr-close-ups vs independent" in out
    for variant, seed in (("clevr-close-ups-half", 0), ("clevr-close-ups-half-conv4-stem", 1)):   # a control without the variant's seed
        script.main(["train", "--variant", variant, "--seed", str(seed), "--steps", "2", "--pool-size", "24", "--test-scale", "0.02",
                     "--out", str(tmp_path / "partial")])
    capsys.readouterr()
    script.main(["report", "--out", str(tmp_path / "partial")])
    out = capsys.readouterr().out
    assert "no clevr-close-ups-half run of seeds [1]" in out and "rule: " not in out       # no rule read on mismatched seeds
    split = script.main(["edits", "--variant", "clevr-close-ups-half", "--variant", "clevr-close-ups-half-edit", "--seed", "0",
                         "--steps", "2", "--pool-size", "24", "--test-scale", "0.02"])    # the finished smoke runs, reloaded
    assert set(split.index.get_level_values("world")) == {"attributes", "birds"}
    assert set(split.columns.get_level_values("variant")) == {"clevr-close-ups-half", "clevr-close-ups-half-edit"}
    with pytest.raises(SystemExit): script.main(["edits", "--variant", "independent", "--seed", "7", "--steps", "2", "--pool-size", "24"])


def test_mac_parameter_check_reading(capsys, benchmark_script, tmp_path):
    "benchmarks/mac_parameter_check.py --analyse-only on hand-made seed tables: the reading follows the differences and their spread."
    script = benchmark_script("mac_parameter_check")

    def world(folder, mm, troika):
        (folder / "tables").mkdir(parents=True)
        rows = [("closed", "CLIP", "top1_precision", 0, 80.0)] + [("closed", m, "top1_precision", s, v[s])
                                                                   for m, v in (("MM-Encoder", mm), ("Troika", troika)) for s in range(3)]
        pd.DataFrame(rows, columns=["world", "method", "metric", "seed", "value"]).to_csv(folder / "tables" / "mac_table2_closed_seeds.csv", index=False)
        (folder / "tables" / "mac_fit_gap.md").write_text("# t\n\n## Ours\n\n| a |\n\n## Paper\n")

    for name, second, reading in (("up", [90.0, 91.0, 92.0], "supported"), ("down", [70.0, 71.0, 72.0], "not supported"),
                                  ("same", [79.0, 81.0, 80.5], "inconclusive")):
        world(tmp_path / name / "n_images-1200", [79.0, 80.0, 81.0], [85.0, 85.0, 85.0])       # the default parameter and values
        world(tmp_path / name / "n_images-4800", second, [85.0, 85.0, 85.0])
        script.main(["--out", str(tmp_path / name), "--analyse-only"])
        assert capsys.readouterr().out.strip().endswith(f"reading: {reading}"), name
    world(tmp_path / "lr" / "lr_scale-100", [79.0, 80.0, 81.0], [85.0, 85.0, 85.0])              # another parameter, float values
    world(tmp_path / "lr" / "lr_scale-0.5", [90.0, 91.0, 92.0], [85.0, 85.0, 85.0])
    script.main(["--parameter", "lr_scale", "--values", "100", "0.5", "--out", str(tmp_path / "lr"), "--analyse-only"])
    out = capsys.readouterr().out
    assert "(lr_scale 100) -> " in out and out.strip().endswith("reading: supported")
    assert script.number("1200") == 1200 and isinstance(script.number("1200"), int) and script.number("0.5") == 0.5


def test_toyitm_pattern_exposure_counts(benchmark_script, one_torch_thread):
    """benchmarks/toyitm_pattern_exposure.py: every false caption of the release's first steps is counted once, by the kind
    its caption function swapped (checked against the one-word edits where the pair is one); the wrapped functions come back."""
    import vlconcepts.world_mixture as world_mixture
    from vlconcepts.toyitm import ToyITMConfig, world_edit_kind
    exposure = benchmark_script("toyitm_pattern_exposure")
    originals = world_mixture.swap_one_word, world_mixture.bird_caption
    config = ToyITMConfig(steps=3, pool_size=64, pool_steps=2, batch_size=16)
    runs = exposure.release_counts(config, [2, 3])
    assert (world_mixture.swap_one_word, world_mixture.bird_caption) == originals
    assert sum(runs[2].values()) == 32 and sum(runs[3].values()) == 48 and all(runs[3][k] >= v for k, v in runs[2].items())
    assert {w for w, _ in runs[3]} <= {"clevr", "clevr_close_ups", "attributes", "birds", "imcaps"}
    edits = exposure.release_counts(ToyITMConfig(steps=2, pool_size=64, batch_size=16, false_captions="edit", easy_negative_fraction=0), [2])[2]
    assert "easy negative" not in {k for _, k in edits} and sum(edits.values()) == 32
    with exposure.SwapRecorder() as recorder:                                   # the recorded kind is the word the edit changed
        rng = np.random.default_rng(1)
        for ws in world_mixture.mixture_scenes(rng, 20, {"attributes": 1, "birds": 1}):
            true, false = world_mixture.mixture_caption_pair(ws, rng, "edit")
            if ws.world == "attributes": assert recorder.swaps.pop() == world_edit_kind(true, false, ws.world)
    counts = exposure.diagnostic_counts("world's own grammar, pattern or state swaps", steps=3, pool=64)
    assert sum(counts.values()) == 96 and counts[("attributes", "pattern")] + counts[("attributes", "state")] > 60
    table = exposure.as_table({"a": runs[3], "b": counts})
    assert table.loc["all false captions"].tolist() == [48, 96]


def test_toyitm_grammar_diagnostic_in_mixture(capsys, benchmark_script, one_torch_thread, tmp_path):
    """--in-mixture trains the release's recipe with an arm's pairs for the attribute world only (the other worlds keep
    theirs, and the library's function comes back afterwards); --score-runs scores a checkpoint on the same test pairs."""
    from vlconcepts import toyitm
    from vlconcepts.world_mixture import mixture_scenes
    diagnostic = benchmark_script("toyitm_grammar_diagnostic")
    original, rng = toyitm.world_itm_captions, np.random.default_rng(0)
    attribute, bird = mixture_scenes(rng, 1, {"attributes": 1})[0], mixture_scenes(rng, 1, {"birds": 1})[0]
    with diagnostic.attribute_pairs_in_mixture(lambda ws, rng: ("true", "false")):
        assert toyitm.world_itm_captions(attribute, rng, {"single": 1}) == ("true", "false")
        assert toyitm.world_itm_captions(bird, rng, {"single": 1})[0] != "true"
    assert toyitm.world_itm_captions is original
    arm = "world's own grammar, pattern or state swaps"
    diagnostic.main(["--steps", "2", "--test", "8", "--seeds", "0", "--threads", "1", "--world-fields", "--in-mixture",
                     "--runs-dir", str(tmp_path), "--arms", arm])
    assert f"| {arm} (in the mixture)" in capsys.readouterr().out and (tmp_path / f"in-mixture-worlds-own-grammar-pattern-or-state-swaps-2-seed0" / "last.pt").exists()
    release = toyitm.default_checkpoint()[0]
    diagnostic.main(["--test", "8", "--threads", "1", "--world-fields", "--score-runs", str(release)])
    assert f"| checkpoint {release}" in capsys.readouterr().out


def _supported_causes():
    "Every cause with `support` checks, once each, with the id of the first finding that names it."
    seen = {}
    for finding in F.FINDINGS:
        for k, cause in enumerate(finding.causes):
            if cause.support: seen.setdefault(id(cause), pytest.param(cause, id=f"{finding.id}[{k}]"))
    return list(seen.values())


def _cause_cases():
    "Each supported cause with all its checks held (-1), and with each one check made to fail while the others hold."
    return [pytest.param(p.values[0], failing, id=f"{p.id}-{'supported' if failing < 0 else f'check {failing} fails'}")
            for p in _supported_causes() for failing in range(-1, len(p.values[0].support))]


@pytest.mark.parametrize("cause, failing", _cause_cases())
def test_each_cause_is_stated_only_when_all_its_support_holds(cause, failing, tmp_path):
    """A cause's `support` checks on hand-made tables (the tables it points to copied from the committed ones where the
    support sets none): stated when every check holds, and not when any one of them fails while the others hold."""
    holding = [(c, c.op == ">") for k, c in enumerate(cause.support) if k != failing]
    failed = [(cause.support[failing], cause.support[failing].op != ">")] if failing >= 0 else []
    support = type("Support", (), {"checks": cause.support, "id": cause.text[:40]})
    write_hand_made_tables(support, True, tmp_path, solved=solve_checks(holding + failed))
    for table in cause.tables:
        if not (tmp_path / f"{table}.csv").exists(): shutil.copy(TABLES / f"{table}.csv", tmp_path)
    verdicts = [check.judge(tmp_path)[0] for check in cause.support]
    assert [v == F.HOLDS for v in verdicts] == [k != failing for k in range(len(verdicts))], verdicts
    assert (cause.stated(tmp_path) is not None) == (failing < 0)


def test_committed_page_is_what_the_committed_tables_give():
    "The verdicts and margins of tables/findings.csv, judged again on the committed tables (and their seed files)."
    page, committed = F.assess_findings(folder=TABLES), pd.read_csv(TABLES / "findings.csv").set_index("id")
    assert list(page.index) == list(committed.index)
    assert page["holds?"].tolist() == committed["holds?"].tolist()
    assert np.allclose(page["margin"].astype(float), committed["margin"].astype(float), equal_nan=True)


def test_a_seeds_file_that_disagrees_with_its_table_is_refused(tmp_path):
    "A per-seed file cut mid-row or short of a seed, or left beside an edited table, stops the page instead of deciding it."
    import vlconcepts.core as core
    full = F.finding("compmap.mit_interv_full_above_prim")
    table, seeds = (TABLES / "compmap_table1.csv").read_text(), (TABLES / "compmap_table1_seeds.csv").read_text()
    (tmp_path / "compmap_table1.csv").write_text(table)
    (tmp_path / "compmap_table1_seeds.csv").write_text(seeds)
    assert F.assess_finding(full, tmp_path)["margin"] == F.assess_finding(full, TABLES)["margin"]   # as committed
    lines = seeds.splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith("ToyCLIP-Interv(Full),Test AUC k=1,1125,")]
    (tmp_path / "compmap_table1_seeds.csv").write_text("".join(kept))                           # one seed lost
    with pytest.raises(core.DatasetFormatError, match="the seeds file is stale or truncated: rebuild the table"):
        F.assess_finding(full, tmp_path)
    (tmp_path / "compmap_table1_seeds.csv").write_text(seeds[:len(seeds) // 3].rsplit(",", 1)[0])   # cut mid-row
    with pytest.raises(core.DatasetFormatError, match="fields but the header has 4"):
        F.assess_finding(full, tmp_path)
    (tmp_path / "compmap_table1_seeds.csv").write_text(seeds)
    (tmp_path / "compmap_table1.csv").write_text(table.replace("41.5 ± 3.0", "20.0 ± 3.0"))     # the table edited, its seeds stale
    with pytest.raises(core.DatasetFormatError, match=r"compmap_table1_seeds.csv gives ToyCLIP-Interv\(Full\) / Test AUC k=1 a mean of 41.5"):
        F.assess_finding(full, tmp_path)
    (tmp_path / "compmap_table1.csv").write_text(table.replace("41.5 ± 3.0", "41.5 ± nan"))
    with pytest.raises(core.DatasetFormatError, match=r"reads '41.5 ± nan', which is not a number"):
        F.assess_finding(full, tmp_path)


@pytest.mark.parametrize("stem", ["10_compmap_mit_states_tables", "11_compmap_cub_tables", "12_compmap_weights_figs", "13_compmap_templates"])
def test_compmap_paper_rows_are_the_rows_the_findings_read(stem):
    "The paper profile names its rows as the findings look them up ('CLIP ViT-B/32-Prim' was no CLIP row: every CompMap finding unmeasured)."
    import yaml
    profile = yaml.safe_load((ROOT / "nbs" / "experiments" / "profiles" / f"{stem}.paper.yaml").read_text())
    assert F.label_matches(f"{profile['clip_label']}-Prim", F.CLIP_ROW + F.PRIM)
    if "fusion_labels" in profile: assert F.label_matches(f"{profile['fusion_labels'][0]}-Prim", F.FUSION_ROW + F.PRIM)


def test_a_rank_correlation_over_rows_of_few_items_gives_no_verdict(tmp_path):
    "probes.em_tracks_imcaps on rows of 3 prompts (the committed table's smallest): inconclusive, however strong the ρ."
    tracks = F.finding("probes.em_tracks_imcaps")
    values, correlations = hand_made_values(tracks, True)
    write_hand_made_tables(tracks, True, tmp_path, (values, correlations))
    assert F.assess_finding(tracks, tmp_path)["holds?"] == F.HOLDS
    frame = pd.read_csv(tmp_path / "probes_imcaps_em_link.csv", dtype=str)
    frame["prompts"] = "3"
    frame.to_csv(tmp_path / "probes_imcaps_em_link.csv", index=False)
    assert F.assess_finding(tracks, tmp_path)["holds?"] == F.INCONCLUSIVE
