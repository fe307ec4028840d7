"""Run every library notebook's inline tests (what `nbdev_test` runs), so one pytest line reports them all."""
from pathlib import Path

import pytest
from nbdev.test import test_nb as run_notebook_tests

ROOT = Path(__file__).resolve().parents[1]
LIBRARY_NOTEBOOKS = sorted((ROOT / "nbs").glob("[0-9]*.ipynb"))


@pytest.mark.parametrize("notebook", LIBRARY_NOTEBOOKS, ids=lambda p: p.stem)
def test_library_notebook(notebook, monkeypatch):
    monkeypatch.chdir(notebook.parent)
    ok, seconds = run_notebook_tests(notebook, skip_flags=["notest", "slow"], do_print=False, showerr=True)
    assert ok, f"{notebook.name} failed its inline tests (the traceback is printed above)"
