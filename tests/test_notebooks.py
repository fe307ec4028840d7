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
def test_library_notebook(notebook, private_tmpdir):
    "The notebook's inline tests pass, and leave nothing in the temporary folder (`$TMPDIR`, here one of its own)."
    run = subprocess.run([sys.executable, "-c", RUNNER, str(notebook)], cwd=notebook.parent,
                         capture_output=True, text=True)
    assert run.returncode == 0, (f"{notebook.name} failed its inline tests:\n"
                                 f"{run.stdout[-6000:]}\n{run.stderr[-6000:]}")
    left = private_tmpdir()
    assert not left, (f"{notebook.name} left {left} in the temporary folder: make test folders with "
                      "`vlconcepts.core.scratch_folder` (removed at exit) or `tempfile.TemporaryDirectory`")


def test_every_notebook_names_a_kernel_of_this_venv():
    "What `make lab` opens: each notebook's kernelspec name resolves, in this venv, to a kernel running this venv's Python."
    import json
    from jupyter_client.kernelspec import KernelSpecManager
    from vlconcepts.cli import KERNEL_NAME
    manager = KernelSpecManager()
    available = manager.find_kernel_specs()
    names = {str(p.relative_to(ROOT)): (json.loads(p.read_text())["metadata"].get("kernelspec") or {}).get("name")
             for p in sorted((ROOT / "nbs").glob("**/*.ipynb"))}
    unnamed = [nb for nb, name in names.items() if not name]
    assert not unnamed, f"notebooks without a kernelspec (Jupyter asks the reader to pick one): {unnamed}"
    unknown = {nb: name for nb, name in names.items() if name not in available}
    assert not unknown, f"kernel names not installed in {sys.prefix}: {unknown} (installed: {sorted(available)})"
    for name in set(names.values()) | {KERNEL_NAME}:
        argv0 = manager.get_kernel_spec(name).argv[0]
        python = Path(sys.executable if argv0 in ("python", "python3") else argv0)   # jupyter_client's own substitution
        assert python.absolute().parent.parent == Path(sys.prefix), f"kernel {name!r} runs {python}, not this venv's Python"
