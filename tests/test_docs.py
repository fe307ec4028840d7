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
