"""The package as a user installs it: `pip install .` without the `[dev]` extras must import every module.

The dev extras (nbdev, pytest, jupyterlab, ...) pull in much of what the library needs (fastcore came only through nbdev),
so a dependency missing from `requirements` in settings.ini goes unnoticed in the development venv. The first test
imports every module in a Python that sees only what a plain install would install: the distributions reachable from
settings.ini's `requirements` (their own requirements, extras not taken) — a few seconds. `make check-install` does the
real thing (a fresh venv, `pip install .`, every import); it downloads what the pip cache lacks, so it is not in the suite."""
import os
import re
import subprocess
import sys
from configparser import ConfigParser
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(p.stem for p in (ROOT / "vlconcepts").glob("*.py") if not p.stem.startswith("_"))


def runtime_distributions(requirements: list[str]) -> set[str]:
    "The installed distributions a plain `pip install` of `requirements` brings: them and their requirements, no extras."
    seen, todo = set(), [Requirement(r) for r in requirements]
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}): continue
        key = re.sub(r"[-_.]+", "-", req.name).lower()
        if key in seen: continue
        try: dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError: continue
        seen.add(key)
        todo += [Requirement(r) for r in dist.requires or []]
    return seen


def plain_install_site(folder: Path, requirements: list[str]) -> Path:
    "A folder of links to exactly the files of `runtime_distributions(requirements)` and the vlconcepts package."
    folder.mkdir(parents=True, exist_ok=True)
    for name in sorted(runtime_distributions(requirements)):
        dist = metadata.distribution(name)
        for top in {Path(f).parts[0] for f in dist.files or []}:
            if top in ("..", "__pycache__") or top.endswith(".pth") or (folder / top).exists(): continue
            (folder / top).symlink_to(Path(dist.locate_file(top)))
    (folder / "vlconcepts").symlink_to(ROOT / "vlconcepts")
    return folder


def _requirements(settings: Path = ROOT / "settings.ini") -> list[str]:
    config = ConfigParser(delimiters=["="])
    config.read(settings, encoding="utf-8")
    return config["DEFAULT"]["requirements"].split()


def import_with_only(site: Path, modules=MODULES) -> subprocess.CompletedProcess:
    "Import `vlconcepts.<module>` for each module in a Python (-S: no site-packages) that sees only `site` and the stdlib."
    code = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module('vlconcepts.' + m)\n"
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, "PYTHONPATH": str(site), "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-S", "-c", code, *modules], cwd=site, env=env, capture_output=True, text=True)


def test_every_module_imports_with_only_the_declared_requirements(tmp_path):
    site = plain_install_site(tmp_path / "site", _requirements())
    assert not (site / "nbdev").exists() and not (site / "pytest").exists(), "a dev extra leaked into the plain install"
    result = import_with_only(site)
    assert result.returncode == 0, ("a module imports something settings.ini's requirements do not install:\n"
                                    + result.stderr[-3000:])


def test_the_check_catches_an_undeclared_dependency(tmp_path):
    requirements = [r for r in _requirements() if not r.startswith("fastcore")]      # what settings.ini said before
    result = import_with_only(plain_install_site(tmp_path / "site", requirements), ["datasets"])
    assert result.returncode != 0 and "No module named 'fastcore'" in result.stderr
