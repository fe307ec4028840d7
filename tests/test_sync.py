"""The generated package matches the notebooks, and the notebooks carry no outputs."""
import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def test_nbdev_export_leaves_the_package_unchanged(tmp_path):
    for name in ("settings.ini", "setup.py", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "nbs", tmp_path / "nbs")
    # only what is not generated: a committed module whose notebook was deleted must show up as missing below
    shutil.copytree(ROOT / "vlconcepts", tmp_path / "vlconcepts", ignore=shutil.ignore_patterns("__pycache__", "assets", "*.py"))
    shutil.copy(ROOT / "vlconcepts" / "__init__.py", tmp_path / "vlconcepts" / "__init__.py")
    result = subprocess.run([str(BIN / "nbdev_export")], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    generated = sorted(p.relative_to(tmp_path / "vlconcepts") for p in (tmp_path / "vlconcepts").glob("*.py"))
    committed = sorted(p.relative_to(ROOT / "vlconcepts") for p in (ROOT / "vlconcepts").glob("*.py"))
    assert generated == committed, (f"modules without a notebook: {sorted(set(committed) - set(generated))}; "
                                    f"notebooks whose module is not committed: {sorted(set(generated) - set(committed))}")
    differing = [str(p) for p in generated if not filecmp.cmp(tmp_path / "vlconcepts" / p, ROOT / "vlconcepts" / p, shallow=False)]
    assert not differing, f"vlconcepts/ is out of sync with nbs/ for {differing}: run nbdev_export"


@pytest.mark.parametrize("notebook", sorted((ROOT / "nbs").glob("**/*.ipynb")), ids=lambda p: str(p.relative_to(ROOT / "nbs")))
def test_notebooks_are_clean(notebook):
    nb = nbformat.read(str(notebook), as_version=4)
    dirty = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code" and (cell.get("outputs") or cell.get("execution_count"))]
    assert not dirty, f"{notebook.name} has outputs in cells {dirty}: run nbdev_clean"
