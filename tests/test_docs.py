"""The README and the pages under docs/ say what the committed tables say, and every link in them leads somewhere."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def flat(text: str) -> str:
    "`text` with markdown emphasis dropped and every run of whitespace one space (so line wrapping does not matter)."
    return " ".join(text.replace("**", "").replace("`", "").split())


def anchors(page: Path) -> set[str]:
    "GitHub's anchors of `page`'s headings: lower case, punctuation but hyphens and underscores dropped, spaces as hyphens."
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.+)$", page.read_text(), flags=re.M)}


def test_readme_quotes_the_committed_findings_summary():
    summary = (ROOT / "tables" / "findings_summary.txt").read_text().strip()
    assert flat(summary) in flat((ROOT / "README.md").read_text()), \
        f"README's findings summary differs from tables/findings_summary.txt: {summary!r}; copy that line into the README."


def test_readme_counts_the_firm_verdicts_of_the_committed_page():
    import csv
    rows = list(csv.DictReader((ROOT / "tables" / "findings.csv").open()))
    firm = [r for r in rows if r["firm across hosts?"] == "yes"]
    held, failed = (sum(r["holds?"] == v for r in firm) for v in ("holds", "does not hold"))
    inconclusive = sum(r["holds?"] == "inconclusive" for r in rows)
    expected = (f"{len(firm)} of the {len(rows)} verdicts are firm across hosts ({held} that hold, {failed} that do not)",
                f"The other {len(rows) - len(firm)} rows (all {inconclusive} inconclusive ones among them)")
    readme = flat((ROOT / "README.md").read_text())
    assert all(e in readme for e in expected), f"README's firm-verdict counts differ from tables/findings.csv; it should say: {expected}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_to_files_and_headings(page):
    broken = []
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target): continue             # http:, https:, mailto:
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists(): broken.append(f"{target} (no file {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file})")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file): broken.append(f"{target} (no heading #{anchor})")
    assert not broken, f"{page.relative_to(ROOT)} links to: {broken}"


def test_every_docs_page_is_linked_from_the_readme():
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in LINK.findall((ROOT / "README.md").read_text()) if t.startswith("docs/")}
    orphans = [p.name for p in PAGES[1:] if p.resolve() not in linked]
    assert not orphans, f"docs pages no README link reaches: {orphans}"


PLUS_MINUS = re.compile(r"(?<![\w.])([−-]?)(\d+(?:\.\d+)?)\s?±\s?(\d+(?:\.\d+)?)")
RECORDS = ["tables/*.md", "tables/*.csv", "reports/*.md", "benchmarks/measured/*"]
# "mean ± spread" pairs the chapters or the README quote that no committed line holds as printed, and where each comes from.
NOT_ON_ONE_LINE = {
    "0.730 ± 0.003": "mean ± sd over the three seed records of benchmarks/measured/2026-11-27_h100_toyclip_negatives.jsonl",
    "0.731 ± 0.005": "the same records, hard_negatives='edit'",
    "0.724 ± 0.003": "the same records, hard_negatives='part-swap'",
    "0.742 ± 0.002": "mean ± sd over the seed records of benchmarks/measured/2026-11-27_h100_toyclip_width.jsonl, text tower 128 wide",
    "0.739 ± 0.020": "the same records, both towers wider",
    "2.6 ± 2.5": "history: the gap in the AVX2 host's tables/mac_patch_ablation.md of 92e8542 (77.56 ± 1.95 against 80.11 ± 1.64)",
    "11.15 ± 2.03": "the README quotes the invented value that binding Table 4 once printed (issue 18, item 8)",
    "8.6 ± 2.4": "history: ToyCLIP's '2 unique objects' EM in the AVX2 host's tables/probes_pattern.md of d231824",
}


def _decimals(number: str) -> int: return len(number.partition(".")[2])


def committed_number_index() -> dict:
    "For every number on a line of the committed tables, reports and measured records: (value as printed at d decimals, d) → line ids."
    index, line_id = {}, 0
    for pattern in RECORDS:
        for path in sorted(ROOT.glob(pattern)):
            for line in path.read_text(errors="replace").splitlines():
                line_id += 1
                for token in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", line.replace("−", "-")):
                    value = float(token)
                    for scale in (1, 100):                            # a fraction quoted as a percentage
                        for d in range(5): index.setdefault((round(value * scale, d), d), set()).add(line_id)
    return index


def quoted_pairs():
    "Every 'a ± b' in the chapters' prose (markdown cells) and the README, with where it stands."
    import json
    sources = [(str(p.relative_to(ROOT)), "".join(c["source"])) for p in sorted((ROOT / "nbs").rglob("*.ipynb"))
               for c in json.loads(p.read_text())["cells"] if c["cell_type"] == "markdown"]
    for where, text in sources + [("README.md", (ROOT / "README.md").read_text())]:
        for m in PLUS_MINUS.finditer(text): yield where, m


def test_chapter_and_readme_spreads_are_the_committed_ones():
    "A 'mean ± spread' in prose must stand, as printed, on one line of a committed table or record: prose kept up with a rebuild."
    index, stale = committed_number_index(), []
    for where, m in quoted_pairs():
        sign, mean, spread = m.groups()
        if f"{mean} ± {spread}" in NOT_ON_ONE_LINE: continue
        d_mean, d_spread = _decimals(mean), _decimals(spread)
        spreads = index.get((round(float(spread), d_spread), d_spread), set())
        means = set().union(*(index.get((round(s * float(mean), d_mean), d_mean), set()) for s in ((-1, 1) if not sign else (-1,))))
        if not means & spreads: stale.append(f"{where}: {m.group(0)}")
    assert not stale, ("these 'mean ± spread' pairs stand on no line of tables/, reports/ or benchmarks/measured/ (stale after a "
                       "rebuild?): " + "; ".join(stale) + ". Quote the committed value, or add the pair to NOT_ON_ONE_LINE with its source.")
