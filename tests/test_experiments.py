"""Every experiment notebook: one `parameters` cell with the tiny defaults, valid profile files, and a smoke run."""
from pathlib import Path

import pytest

from vlconcepts.cli import check_parameters_cell, experiment_notebooks, experiments_dir, run_experiment, run_parameters

EXPERIMENTS = experiment_notebooks(experiments_dir())
PAPER_IN_ITS_ROWS = {"findings"}   # as in tests/test_tables.py: the paper's value on every row


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
    assert "IProgress not found" not in Path(result.executed).read_text(), "tqdm.auto's widget warning: use core.progress"
    for path in result.outputs:
        assert path.stat().st_size > 0
    no_paper = [p.name for p in result.outputs if p.suffix == ".md" and p.parent.name == "tables" and p.stem not in PAPER_IN_ITS_ROWS
                and "\n## Paper" not in p.read_text()]
    assert not no_paper, f"{notebook.name} wrote {no_paper} without a '## Paper' section: pass save_table `paper=` or `no_paper=`"
    left = private_tmpdir()
    assert not left, f"{notebook.name} left {left} in the temporary folder (use `vlconcepts.core.scratch_folder`)"


@pytest.mark.parametrize("notebook", EXPERIMENTS, ids=lambda p: p.stem)
def test_the_cell_after_the_parameters_binds_the_profile(notebook):
    "Run with papermill directly (`-p profile smoke`), a notebook still writes where its profile's outputs go (`core.use_profile`)."
    import json
    cells = [c for c in json.loads(notebook.read_text())["cells"] if c["cell_type"] == "code"]
    first = next(i for i, c in enumerate(cells) if "parameters" in c.get("metadata", {}).get("tags", []))
    assert "use_profile(profile, globals())" in "".join(cells[first + 1]["source"]), \
        f"{notebook.name}: call use_profile(profile, globals()) after the parameters"


@pytest.mark.parametrize("notebook", EXPERIMENTS, ids=lambda p: p.stem)
def test_every_parameter_default_has_its_declared_type(notebook):
    "The parameters cell's own defaults pass `core.check_parameter_types`, and every parameter declares its type."
    import json
    from vlconcepts.core import check_parameter_types
    cell = next(c for c in json.loads(notebook.read_text())["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    namespace = {}
    exec("".join(cell["source"]), namespace)
    names = {k for k in namespace if not k.startswith("__")}
    assert names == set(namespace["__annotations__"]), f"{notebook.name}: parameters without a type: {names - set(namespace['__annotations__'])}"
    check_parameter_types(namespace)


@pytest.mark.slow
def test_papermill_run_of_another_profile_leaves_the_tiny_outputs_alone(tmp_path, monkeypatch):
    "`papermill <experiment> out.ipynb -p profile smoke`, without `vlconcepts rebuild`: results/smoke/ of the checkout, not tables/."
    import shutil
    import papermill
    checkout = tmp_path / "checkout"                                     # a checkout: settings.ini and vlconcepts/ mark its root
    (checkout / "nbs" / "experiments").mkdir(parents=True); (checkout / "vlconcepts").mkdir(); (checkout / "settings.ini").write_text("[DEFAULT]\n")
    notebook = shutil.copy(next(n for n in EXPERIMENTS if n.stem == "06_czsl_curves"), checkout / "nbs" / "experiments")
    for name in ("VLCONCEPTS_PROFILE", "VLCONCEPTS_OUTPUT"): monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("VLCONCEPTS_CACHE", str(tmp_path / "cache"))
    papermill.execute_notebook(str(notebook), str(tmp_path / "out.ipynb"), parameters={"profile": "smoke", "n_images": 150},
                               cwd=str(Path(notebook).parent), progress_bar=False, kernel_name="python3")
    assert not (checkout / "tables").exists() and not (checkout / "figures").exists()   # no committed tiny output written
    assert list((checkout / "results" / "smoke" / "tables").glob("czsl_*.md"))          # the smoke outputs, in their folder


@pytest.mark.slow
def test_papermill_parameter_of_the_wrong_type_stops_the_kernel_before_anything_runs(tmp_path, monkeypatch):
    "`-p n_images 150.5` or a list given as text reaches the kernel as the wrong type: `use_profile` names it and the fix."
    import papermill
    notebook = next(n for n in EXPERIMENTS if n.stem == "06_czsl_curves")
    monkeypatch.setenv("VLCONCEPTS_CACHE", str(tmp_path / "cache"))
    for name in ("VLCONCEPTS_PROFILE", "VLCONCEPTS_OUTPUT"): monkeypatch.delenv(name, raising=False)
    with pytest.raises(papermill.PapermillExecutionError, match=r"n_images is float 150.5, declared int.*-y 'seeds: \[0, 1\]'"):
        papermill.execute_notebook(str(notebook), str(tmp_path / "out.ipynb"), parameters={"profile": "smoke", "n_images": 150.5},
                                   cwd=str(notebook.parent), progress_bar=False, kernel_name="python3")


def _unbound_names(code: str) -> set:
    "Names `code` reads that nothing in it binds (import, assignment, def, argument, handler) and that are not builtins."
    import ast, builtins
    tree = ast.parse("\n".join(l for l in code.splitlines() if not l.lstrip().startswith(("%", "!"))))
    bound = set(dir(builtins)) | {"display", "get_ipython"}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)): bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)): bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)): bound.add(node.name)
        elif isinstance(node, ast.arg): bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name: bound.add(node.name)
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - bound


@pytest.mark.parametrize("notebook", EXPERIMENTS, ids=lambda p: p.stem)
def test_no_unbound_name_on_any_branch(notebook):
    "A name on a branch the smoke run never takes (50_mac's real-MAC path once called an unimported `mac_dataset`) still fails here."
    import json
    code = "\n".join("".join(c["source"]) for c in json.loads(notebook.read_text())["cells"] if c["cell_type"] == "code")
    assert not _unbound_names(code), f"{notebook.name} reads names nothing binds: {sorted(_unbound_names(code))}"
