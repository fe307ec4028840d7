"""The chapter rhythm, read from the notebooks' JSON: prose → one small exported definition → its test → ...

No exported cell is longer than 50 lines, and every exported cell is followed by a test (a code cell that exports
nothing) before the next exported cell."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "nbs").glob("[0-9]*.ipynb"))
MAX_EXPORT_LINES = 50
EXPORT = re.compile(r"^\s*#\|\s*export\b", re.M)


def chapter_problems(cells: list[dict]) -> list[str]:
    "What breaks the rhythm in a notebook's cells: exported cells over the limit, exports not followed by a test."
    problems, code = [], [(i, "".join(c["source"])) for i, c in enumerate(cells) if c["cell_type"] == "code"]
    for k, (i, source) in enumerate(code):
        if not EXPORT.search(source): continue
        lines = len(source.strip().splitlines())
        if lines > MAX_EXPORT_LINES: problems.append(f"cell {i}: exported cell of {lines} lines (limit {MAX_EXPORT_LINES})")
        following = code[k + 1][1] if k + 1 < len(code) else None
        if following is None or EXPORT.search(following): problems.append(f"cell {i}: exported cell without a test cell after it")
    return problems


def test_the_checker_finds_both_problems():
    cell = lambda source, kind="code": {"cell_type": kind, "source": source}
    good = [cell("#| export\ndef f(): pass"), cell("prose", "markdown"), cell("assert f() is None")]
    assert chapter_problems(good) == []
    bad = [cell("#| export\n" + "x = 1\n" * 60), cell("#| export\ndef g(): pass")]
    assert chapter_problems(bad) == ["cell 0: exported cell of 61 lines (limit 50)", "cell 0: exported cell without a test cell after it",
                                     "cell 1: exported cell without a test cell after it"]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_rhythm(notebook):
    problems = chapter_problems(json.loads(notebook.read_text())["cells"])
    assert not problems, f"{notebook.name}:\n" + "\n".join(problems)
