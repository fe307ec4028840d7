"""Run every library notebook's inline tests (what `nbdev_test` runs), so one pytest line reports them all.

Each notebook runs in its own Python process, as `nbdev_test` does: a notebook that re-defines a registered
backend or a module-level setting must not leak into the other tests of this pytest session."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIBRARY_NOTEBOOKS = sorted((ROOT / "nbs").glob("[0-9]*.ipynb"))
RUNNER = ("import sys\nfrom pathlib import Path\nfrom nbdev.test import test_nb\n"
          "ok, _ = test_nb(Path(sys.argv[1]), skip_flags=['notest', 'slow'], do_print=False, showerr=True)\n"
          "sys.exit(0 if ok else 1)\n")


@pytest.mark.parametrize("notebook", LIBRARY_NOTEBOOKS, ids=lambda p: p.stem)
def test_library_notebook(notebook):
    run = subprocess.run([sys.executable, "-c", RUNNER, str(notebook)], cwd=notebook.parent,
                         capture_output=True, text=True)
    assert run.returncode == 0, (f"{notebook.name} failed its inline tests:\n"
                                 f"{run.stdout[-6000:]}\n{run.stderr[-6000:]}")
