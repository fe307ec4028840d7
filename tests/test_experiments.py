"""Every experiment notebook: one `parameters` cell with the tiny defaults, valid profile files, and a smoke run."""
from pathlib import Path

import pytest

from vlconcepts.cli import check_parameters_cell, experiment_notebooks, experiments_dir, run_experiment, run_parameters

EXPERIMENTS = experiment_notebooks(experiments_dir())


def test_every_experiment_notebook_is_found():
    on_disk = sorted(p.name for p in (Path(__file__).resolve().parents[1] / "nbs" / "experiments").glob("*.ipynb"))
    assert on_disk and sorted(p.name for p in EXPERIMENTS) == on_disk, "rebuild would skip (or invent) an experiment notebook"


@pytest.mark.parametrize("notebook", EXPERIMENTS, ids=lambda p: p.stem)
def test_parameters_cell_and_profiles(notebook):
    params = check_parameters_cell(notebook)
    assert params["profile"]["default"].strip("'\"") == "tiny", "the parameters cell must hold the tiny profile"
    for profile in ("paper", "smoke"):
        run_parameters(notebook, profile)          # the profile file exists and only sets declared parameters


@pytest.mark.parametrize("notebook", EXPERIMENTS, ids=lambda p: p.stem)
def test_smoke_run(notebook, tmp_path, private_tmpdir):
    "The notebook runs in the smoke profile, writes its outputs, and leaves nothing in the kernel's temporary folder."
    result = run_experiment(notebook, profile="smoke", device="cpu", runs_dir=tmp_path / "runs", publish_to=tmp_path / "out")
    assert result.status == "ok", f"{notebook.name} failed in the smoke profile: {result.error} (executed copy: {result.executed})"
    assert result.outputs, f"{notebook.name} wrote no figure or table"
    for path in result.outputs:
        assert path.stat().st_size > 0
    left = private_tmpdir()
    assert not left, f"{notebook.name} left {left} in the temporary folder (use `vlconcepts.core.scratch_folder`)"
