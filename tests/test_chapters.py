"""The chapter rhythm, read from the notebooks' JSON: prose → one small exported definition → its test → ...

No exported cell is longer than 50 lines, and every exported cell that defines something is followed, before the next
exported cell, by a test: a code cell that exports nothing and calls a test (fastcore's `test_eq`/`test_close`/
`test_fail`/…, `assert`, `np.testing`/`torch.testing` asserts, `pytest.raises`/`warns`). An import cell is not a test.
An exported cell holding only imports (and `logger = get_logger(...)`) needs no test."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "nbs").glob("[0-9]*.ipynb"))
MAX_EXPORT_LINES = 50
EXPORT = re.compile(r"^\s*#\|\s*export\b", re.M)
TEST_CALL = re.compile(r"^\s*assert\b|\btest_\w+\s*\(|\bassert_\w+\s*\(|\bpytest\.(raises|warns)\s*\(", re.M)
IMPORTS_ONLY = re.compile(r"^(\s*(#.*|from\s+\S+\s+import\s+(\([^)]*\)|.*)|import\s+.*|logger\s*=.*)?\s*)$")


def _imports_only(source: str) -> bool:
    "Whether an exported cell holds only imports, comments and a logger (no definition to test)."
    body = re.sub(r"\([^()]*\)", "()", source, flags=re.S)                  # fold multi-line import lists
    return all(IMPORTS_ONLY.match(line) for line in body.splitlines())


def chapter_problems(cells: list[dict]) -> list[str]:
    "What breaks the rhythm in a notebook's cells: exported cells over the limit, exports not followed by a test."
    problems, code = [], [(i, "".join(c["source"])) for i, c in enumerate(cells) if c["cell_type"] == "code"]
    for k, (i, source) in enumerate(code):
        if not EXPORT.search(source): continue
        lines = len(source.strip().splitlines())
        if lines > MAX_EXPORT_LINES: problems.append(f"cell {i}: exported cell of {lines} lines (limit {MAX_EXPORT_LINES})")
        if _imports_only(source): continue
        following = []
        for _, later in code[k + 1:]:
            if EXPORT.search(later): break
            following.append(later)
        if not following: problems.append(f"cell {i}: exported cell without a test cell after it")
        elif not any(TEST_CALL.search(later) for later in following):
            problems.append(f"cell {i}: exported cell followed by code that tests nothing (no test call or assert)")
    return problems


def test_the_checker_finds_every_problem():
    cell = lambda source, kind="code": {"cell_type": kind, "source": source}
    good = [cell("#| export\nimport numpy as np\nfrom x import (a,\n    b)"), cell("#| export\ndef f(): pass"),
            cell("prose", "markdown"), cell("import numpy"), cell("assert f() is None")]
    assert chapter_problems(good) == []
    bad = [cell("#| export\n" + "x = 1\n" * 60), cell("#| export\ndef g(): pass"), cell("from fastcore.test import test_eq"),
           cell("#| export\ndef h(): pass"), cell("h()  # a demo, not a test")]
    assert chapter_problems(bad) == ["cell 0: exported cell of 61 lines (limit 50)", "cell 0: exported cell without a test cell after it",
                                     "cell 1: exported cell followed by code that tests nothing (no test call or assert)",
                                     "cell 3: exported cell followed by code that tests nothing (no test call or assert)"]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_rhythm(notebook):
    problems = chapter_problems(json.loads(notebook.read_text())["cells"])
    assert not problems, f"{notebook.name}:\n" + "\n".join(problems)
