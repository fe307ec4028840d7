"""Shared pytest setup: offline, quiet, headless, and a throw-away cache and output folder."""
import os
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"          # always: a developer's shell may say 0, and no test may reach a model hub
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("VLCONCEPTS_PROGRESS", "0")
os.environ.setdefault("MPLBACKEND", "Agg")

ROOT = Path(__file__).resolve().parents[1]


def pytest_addoption(parser):
    parser.addoption("--shared", default=os.environ.get("VLCONCEPTS_SHARED", str(ROOT.parent / "shared")),
                     help="path to the ../shared folder (papers, specs, MAC split files); tests that need it skip when absent")


PROCESS_TESTS = ("test_library_notebook", "test_smoke_run")   # each runs a notebook in a Python process of its own


def starts_long_processes(item) -> bool:
    "Whether a test runs notebooks or rebuilds in processes of their own (5 s to 2 min each), not in-process checks (about a second)."
    return item.get_closest_marker("slow") is not None or getattr(item, "originalname", item.name) in PROCESS_TESTS


def pytest_collection_modifyitems(config, items):
    """The long tests first, the rest in collection order. `make test` runs one pytest-xdist worker per core and hands out
    tests in this order two at a time (`--maxschedchunk 2`), so the long ones spread over the workers and the short ones fill
    in at the end; a long notebook test that came last would keep one worker busy while the others sat idle."""
    items.sort(key=lambda item: not starts_long_processes(item))   # a stable sort: each group keeps its order


@pytest.fixture(scope="session")
def shared_dir(request):
    "The ../shared folder, or skip the test when it is not there."
    path = Path(request.config.getoption("--shared"))
    if not path.is_dir(): pytest.skip(f"shared folder not found at {path} (pass --shared PATH)")
    return path


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path, monkeypatch):
    "Every test writes caches and figures into its own temporary folder, never into the repo or ~/.cache, and starts with no own-data records."
    monkeypatch.setenv("VLCONCEPTS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("VLCONCEPTS_OUTPUT", str(tmp_path / "output"))
    _forget_own_data()
    yield
    _forget_own_data()


def _forget_own_data():
    "Forget the own-data records (`core.record_own_data`) of earlier tests: a table written by one test must not carry another's note."
    import sys
    if "vlconcepts.core" in sys.modules: sys.modules["vlconcepts.core"].forget_own_data()


@pytest.fixture
def private_tmpdir(tmp_path, monkeypatch):
    """A `$TMPDIR` of this test's own for the processes it starts (a notebook's kernel or runner); yields a function that
    lists what they left in it. Not counted: torch's compile cache `torchinductor_<user>`, one shared folder per user
    that torch makes (empty) when its operator registrations import, and reuses across runs."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    yield lambda: sorted(p.name for p in folder.iterdir() if not p.name.startswith("torchinductor_"))


@pytest.fixture
def one_torch_thread():
    "Run the test with one torch thread (the small models train faster so, and results do not depend on the core count)."
    import torch
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture
def benchmark_script():
    "A loader of `benchmarks/<name>.py` as a module (the scripts are not a package; their folder goes on sys.path for `_common`)."
    import importlib.util
    import sys
    if str(ROOT / "benchmarks") not in sys.path: sys.path.insert(0, str(ROOT / "benchmarks"))
    def load(name: str):
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    return load
