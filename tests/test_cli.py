"""The `vlconcepts` console script as a user calls it."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import torch
from PIL import Image

from vlconcepts.cli import main

ROOT = Path(__file__).resolve().parents[1]
VLCONCEPTS = Path(sys.executable).parent / "vlconcepts"


def run(*args, **kwargs):
    return subprocess.run([str(VLCONCEPTS), *args], capture_output=True, text=True, **kwargs)


def test_console_script_help():
    result = run("--help")
    assert result.returncode == 0
    for command in ("rebuild", "doctor", "cache", "world"):
        assert command in result.stdout


def _whole_mac(root):
    "Every part of MAC's layout under `root`, tiny: split files, metadata, one image."
    (root / "mac/multi_attr_split_all").mkdir(parents=True, exist_ok=True); (root / "mac/images/cube").mkdir(parents=True, exist_ok=True)
    for split in ("train", "val", "test"): (root / f"mac/multi_attr_split_all/{split}_pairs.txt").write_text("red cube\n")
    (root / "mac/metadata_multi_attr_split_all.json").write_text("[]"); (root / "mac/images/cube/0.png").write_bytes(b"x")
    return root


def test_doctor_reports_environment_and_datasets(tmp_path, monkeypatch):
    (tmp_path / "mac/multi_attr_split_all").mkdir(parents=True)
    (tmp_path / "mac/multi_attr_split_all/train_pairs.txt").write_text("red cube\n")   # MAC's split file alone: no metadata, no images
    result = run("doctor", "--no-models", env={**__import__("os").environ, "VLCONCEPTS_DATA": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert "torch" in result.stdout and "dataset mac" in result.stdout
    mac_line = next(line for line in result.stdout.splitlines() if line.startswith("dataset mac"))
    assert "incomplete: lacks mac/multi_attr_split_all/val_pairs.txt" in mac_line and "present" not in mac_line, mac_line
    assert ("one of mac/metadata_multi_attr_split_all.t7, mac/metadata_multi_attr_split.t7, mac/metadata_multi_attr_split_all.json "
            "(the image metadata) and mac/images/ (a folder of the images the metadata names)") in mac_line, mac_line
    how = next(line for line in result.stdout.splitlines() if line.startswith("- dataset mac "))   # its layout and where to get it
    assert f"expected under {tmp_path}, but it lacks" in how and "; layout: <root>/multi_attr_split_all/" in how and "github.com/xs1317/MAC" in how
    cub_line = next(line for line in result.stdout.splitlines() if line.startswith("dataset cub"))
    assert "missing" in cub_line and "CUB_200_2011/images.txt" in cub_line
    result = run("doctor", "--no-models", env={**os.environ, "VLCONCEPTS_DATA": str(_whole_mac(tmp_path))})
    assert next(line for line in result.stdout.splitlines() if line.startswith("dataset mac")).split()[-1] == "present"


@pytest.mark.slow
def test_a_synthetic_export_in_the_data_root_counts_as_present(tmp_path, monkeypatch):
    "Each world exported as the README says (`vlconcepts world export NAME --out $VLCONCEPTS_DATA/...`) is a whole dataset to doctor."
    from vlconcepts.cli import dataset_status, doctor, export_place, export_world
    monkeypatch.setenv("VLCONCEPTS_DATA", str(tmp_path))
    folders = {"mit-states": "mit-states", "mac": "mac", "binding-single": "clip-binding", "binding-two": "clip-binding",
               "binding-rel": "clip-binding", "controlled-imcaps": "controlled-imcaps", "captions": "cc3m", "cub": ".",
               "dsprites": "dsprites", "3dshapes": "3dshapes"}
    for world, folder in folders.items():   # dSprites' file name says its size: the release's is 64 px
        export_world(world, tmp_path / folder, n=40, size=64 if world == "dsprites" else 32)
        assert export_place(world, tmp_path / folder) == ("$VLCONCEPTS_DATA" if folder == "." else f"$VLCONCEPTS_DATA/{folder}")
    status = dataset_status()
    assert {name for name, present in status.items() if not present} == {"word-vectors"}, status
    report = doctor(check_models=False, echo=lambda s: None)
    assert all(report[f"dataset {name}"] == "present" for name in status if name != "word-vectors")
    shutil.rmtree(tmp_path / "mit-states" / "images")                       # the QA case: MIT-States without its images
    report = doctor(check_models=False, echo=lambda s: None)
    assert report["dataset mit-states"] == ("incomplete: lacks mit-states/images/ (a folder of the images the metadata names, "
                                            "one folder per 'attr obj')"), report["dataset mit-states"]
    assert report["paper 06_czsl_curves"].startswith("MISSING: dataset mit-states"), report["paper 06_czsl_curves"]


def _without_output_override(**extra):
    "The environment with no $VLCONCEPTS_OUTPUT (conftest sets one): outputs go where the profile says."
    env = {k: v for k, v in os.environ.items() if k != "VLCONCEPTS_OUTPUT"}
    return {**env, **extra}


def _notebook(path, cells):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for source, tags in cells:
        cell = nbformat.v4.new_code_cell(source)
        if tags: cell.metadata["tags"] = tags
        nb.cells.append(cell)
    nbformat.write(nb, str(path))


@pytest.mark.slow
def test_rebuild_names_the_failed_notebook_and_keeps_earlier_figures(tmp_path):
    folder = tmp_path / "nbs" / "experiments"
    folder.mkdir(parents=True)
    params = 'profile: str = "tiny"  # profile\ndevice: str = "auto"  # device'
    writer = ("import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt\n"
              "from vlconcepts.core import save_figure\nfig, ax = plt.subplots(); ax.plot([0, 1]); ax.set_xlabel('x'); ax.set_ylabel('y')\n"
              "save_figure(fig, NAME)")
    _notebook(folder / "01_fine.ipynb", [(params, ["parameters"]), (writer.replace("NAME", "'fine'"), [])])
    _notebook(folder / "02_broken.ipynb", [(params, ["parameters"]), (writer.replace("NAME", "'broken'"), []),
                                           ("1 / 0", [])])
    (tmp_path / "settings.ini").write_text("[DEFAULT]\n")
    (tmp_path / "vlconcepts").mkdir()
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "broken.png").write_bytes(b"committed figure")
    result = run("rebuild", "--notebooks", str(folder), cwd=tmp_path, env=_without_output_override())
    assert result.returncode == 1
    assert "02_broken.ipynb" in result.stderr and "ZeroDivisionError" in result.stdout
    assert "01_fine.ipynb" in result.stdout and "1 ok, 1 failed" in result.stdout
    assert (tmp_path / "figures" / "fine.png").stat().st_size > 1000
    assert (tmp_path / "figures" / "broken.png").read_bytes() == b"committed figure"
    assert (tmp_path / "runs" / "tiny" / "02_broken.ipynb").exists()   # the executed copy shows where it failed


def test_rebuild_unknown_pattern_is_a_clear_error(capsys):
    assert main(["rebuild", "--only", "no-such-notebook*"]) == 2
    assert "No experiment notebook" in capsys.readouterr().err


def test_world_export_rejects_unknown_world(capsys):
    assert main(["world", "export", "imagenet", "--out", "x"]) == 2
    err = capsys.readouterr().err
    assert "Unknown world 'imagenet'" in err and "mit-states" in err and "binding-two" in err  # the registry's worlds


def test_doctor_and_world_export_read_the_dataset_registry(tmp_path, monkeypatch, capsys):
    from vlconcepts.cli import dataset_status, export_world
    from vlconcepts.datasets import DatasetEntry, _DATASETS, register_dataset
    entry = DatasetEntry("test-set", "test-set/marker.txt", "<root>/test-set/marker.txt", "made by this test")
    entry.exports("test-world")(lambda out, n=None, seed=0, size=None: Path(out) / f"n{n}")
    monkeypatch.setitem(_DATASETS, "test-set", register_dataset(entry))
    monkeypatch.setenv("VLCONCEPTS_DATA", str(tmp_path))
    assert dataset_status()["test-set"] is False
    (tmp_path / "test-set").mkdir(); (tmp_path / "test-set/marker.txt").write_text("x")
    assert dataset_status()["test-set"] is True and "mit-states" in dataset_status()
    assert export_world("test-world", tmp_path, n=3) == tmp_path / "n3"


def _fake_checkout(tmp_path, notebooks):
    "A checkout (settings.ini, vlconcepts/) holding copies of the real experiment `notebooks` and their profile files."
    folder = tmp_path / "nbs" / "experiments"
    (folder / "profiles").mkdir(parents=True)
    for name in notebooks:
        shutil.copy(ROOT / "nbs" / "experiments" / f"{name}.ipynb", folder)
        for profile in (ROOT / "nbs" / "experiments" / "profiles").glob(f"{name}.*.yaml"): shutil.copy(profile, folder / "profiles")
    (tmp_path / "settings.ini").write_text("[DEFAULT]\n")
    (tmp_path / "vlconcepts").mkdir()
    return folder


def _digests(folder):
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_smoke_rebuild_leaves_the_tiny_outputs_byte_identical(tmp_path):
    folder = _fake_checkout(tmp_path, ["03_world_gallery"])
    for sub in ("figures", "tables"): shutil.copytree(ROOT / sub, tmp_path / sub)   # the committed tiny outputs
    before = {sub: _digests(tmp_path / sub) for sub in ("figures", "tables")}
    assert "world_gallery.png" in before["figures"]
    result = run("rebuild", "--profile", "smoke", "--device", "cpu", "--notebooks", str(folder), cwd=tmp_path,
                 env=_without_output_override(OMP_NUM_THREADS="1"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert {sub: _digests(tmp_path / sub) for sub in ("figures", "tables")} == before
    assert (tmp_path / "results" / "smoke" / "figures" / "world_gallery.png").stat().st_size > 1000
    assert (tmp_path / "runs" / "smoke" / "03_world_gallery.ipynb").is_file()
    assert str(tmp_path / "results" / "smoke") in result.stdout          # rebuild says where the outputs went


def _table_checkout(tmp_path, caption="", extra_cells=(), profiles=()):
    "A checkout in `tmp_path` with one experiment notebook writing table 'one'; returns its experiments folder."
    folder = tmp_path / "nbs" / "experiments"
    folder.mkdir(parents=True)
    params = 'profile: str = "tiny"  # profile\ndevice: str = "auto"  # device'
    _notebook(folder / "01_table.ipynb", [(params, ["parameters"]),
                                          ("import pandas as pd\nfrom vlconcepts.core import save_table\n"
                                           f"save_table(pd.DataFrame({{'a': [1]}}), 'one', caption={caption!r})", []), *extra_cells])
    for profile in profiles:
        (folder / "profiles").mkdir(exist_ok=True)
        (folder / "profiles" / f"01_table.{profile}.yaml").write_text("{}\n")
    (tmp_path / "settings.ini").write_text("[DEFAULT]\n")
    (tmp_path / "vlconcepts").mkdir()
    return folder


@pytest.mark.slow
def test_rebuild_publishes_into_vlconcepts_output_when_set(tmp_path):
    folder = _table_checkout(tmp_path)
    out = tmp_path / "elsewhere"
    result = run("rebuild", "--notebooks", str(folder), cwd=tmp_path, env=_without_output_override(VLCONCEPTS_OUTPUT=str(out)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert (out / "tables" / "one.csv").is_file() and not (tmp_path / "tables").exists()


@pytest.mark.slow
def test_a_dry_rebuild_labels_its_outputs_and_keeps_them_apart(tmp_path):
    reads_dry_data = ("import os\nfrom pathlib import Path\n"
                      "assert (Path(os.environ['VLCONCEPTS_DATA']) / 'dry.json').is_file(), os.environ.get('VLCONCEPTS_DATA')", [])
    folder = _table_checkout(tmp_path, caption="A table.", extra_cells=[reads_dry_data], profiles=["dry-small"])
    env = {k: v for k, v in _without_output_override(VLCONCEPTS_CACHE=str(tmp_path / "cache"), VLCONCEPTS_DRY_FRACTION="0.0001").items()
           if k != "VLCONCEPTS_DATA"}                                   # the dry run must find its own data, not the user's
    result = run("rebuild", "--profile", "dry-small", "--notebooks", str(folder), cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    text = (tmp_path / "results" / "dry-small" / "tables" / "one.md").read_text()
    assert text.index("dry run: random weights") < text.index("A table.")      # the label comes first
    assert not (tmp_path / "tables").exists()


@pytest.mark.parametrize("n", ["0", "-5"])
def test_world_export_rejects_n_below_one_for_every_world(n, tmp_path, capsys):
    from vlconcepts.cli import load_registries
    from vlconcepts.datasets import world_exporters
    load_registries()
    worlds = list(world_exporters())
    assert {"mit-states", "mac", "cub", "binding-two", "captions", "dsprites"} <= set(worlds)
    for world in worlds:
        assert main(["world", "export", world, "--out", str(tmp_path / world), "--n", n]) == 2, world
        assert "n must be a whole number ≥ 1" in capsys.readouterr().err, world
    assert not any(tmp_path.iterdir()), "nothing is written before the arguments are checked"


def test_world_export_to_an_unwritable_folder_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "a_file").write_text("x")
    assert main(["world", "export", "mac", "--out", str(tmp_path / "a_file" / "sub"), "--n", "4"]) == 2
    err = capsys.readouterr().err
    assert "cannot write the export to" in err and str(tmp_path / "a_file" / "sub") in err


def test_python_dash_m_vlconcepts_cli_runs_the_command():
    result = subprocess.run([sys.executable, "-m", "vlconcepts.cli", "world", "export", "imagenet", "--out", "x"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "Unknown world 'imagenet'" in result.stderr


def test_rebuild_list_with_no_match_says_so(capsys):
    assert main(["rebuild", "--only", "nomatch*", "--list"]) == 2
    err = capsys.readouterr().err
    assert "No experiment notebook" in err and "nomatch*" in err


def test_cache_clear_says_what_it_removed(tmp_path, monkeypatch, capsys):
    from vlconcepts import cache
    monkeypatch.setenv("VLCONCEPTS_CACHE", str(tmp_path / "c"))
    for name in ("a", "b"):
        cache.cached_activations(name, lambda chunk: torch.ones(len(chunk), 8), list(range(5)), dataset_key="t")
    assert main(["cache", "clear"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("removed 2 entries, ") and "KiB" in said and "0.0 MiB" not in said, said
    assert cache.list_entries() == []


def test_doctor_tells_the_truth_about_offline_weights(monkeypatch, capsys):
    from vlconcepts.cli import PAPER_SPECS, _pretrained_cached, doctor
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    report = doctor(echo=lambda s: None, check_models=False)
    assert report["hub downloads"].startswith("forbidden (HF_HUB_OFFLINE=1)")
    for spec in PAPER_SPECS:                    # what `doctor` (with models) prints for each paper spec
        said = _pretrained_cached(spec)
        assert "first use" not in said and (said.startswith("cached") or "forbids downloading" in said), said


def test_parameters_are_read_with_papermills_public_inspector(monkeypatch):
    import papermill
    from vlconcepts.cli import experiment_notebooks, experiments_dir, notebook_parameters
    calls = []
    real = papermill.inspect_notebook
    monkeypatch.setattr(papermill, "inspect_notebook", lambda path, *a, **k: calls.append(path) or real(path, *a, **k))
    notebook = experiment_notebooks(experiments_dir(), "03_*")[0]
    assert {"profile", "device"} <= set(notebook_parameters(notebook)) and calls == [str(notebook)]


@pytest.mark.slow
def test_probes_train_subcommand_trains_then_loads(tmp_path, capsys, one_torch_thread):
    argv = ["probes", "train", "--encoder", "autoencoder", "--profile", "smoke", "--set", "n_captions=120", "--device", "cpu"]
    assert main(argv) == 0
    first = capsys.readouterr().out.strip()
    spec, _, folder = first.partition(": ")
    assert spec == "autoencoder" and (Path(folder) / "probe.pt").is_file() and str(tmp_path / "cache") in folder
    assert main(argv) == 0 and capsys.readouterr().out.strip() == first      # the second call loads the cached probe
    assert main(["probes", "train", "--encoder", "autoencoder", "--set", "stepz=3"]) == 2
    assert "unknown ProbeConfig field 'stepz'" in capsys.readouterr().err


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU error")
def test_rebuild_device_cuda_without_a_gpu_fails_before_any_notebook_starts(tmp_path, capsys):
    folder = tmp_path / "nbs" / "experiments"
    folder.mkdir(parents=True)
    _notebook(folder / "01_any.ipynb", [('profile: str = "tiny"  # profile\ndevice: str = "auto"  # device', ["parameters"])])
    (tmp_path / "settings.ini").write_text("[DEFAULT]\n")
    (tmp_path / "vlconcepts").mkdir()
    assert main(["rebuild", "--notebooks", str(folder), "--device", "cuda"]) == 2
    assert "CUDA is not available" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists(), "a kernel started (an executed copy was written)"


def test_doctor_reports_each_paper_experiment_ready_or_what_is_missing(tmp_path, monkeypatch):
    from vlconcepts.cli import doctor, experiment_notebooks, experiments_dir
    monkeypatch.setenv("VLCONCEPTS_DATA", str(tmp_path))                 # no dataset here
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    report = doctor(check_models=False, echo=lambda s: None)
    with_paper = [nb.stem for nb in experiment_notebooks(experiments_dir())
                  if (nb.parent / "profiles" / f"{nb.stem}.paper.yaml").is_file()]
    assert with_paper and all(f"paper {stem}" in report for stem in with_paper)
    assert report["paper 50_mac_closed_open"].startswith("MISSING") and "dataset mac" in report["paper 50_mac_closed_open"]
    assert report["paper 03_world_gallery"] == "ready"                   # synthetic only
    assert not [k for k, v in report.items() if k.startswith("paper ") and "not declared" in v]
    assert "dataset dsprites" in report["paper 33_purity_fig3_spurious"]   # `data_source: real` via PAPER_DATASETS
    assert "dataset word-vectors" in report["paper 13_compmap_templates"]  # fastText and word2vec files: never checked before
    (tmp_path / "mac/multi_attr_split_all").mkdir(parents=True)
    (tmp_path / "mac/multi_attr_split_all/train_pairs.txt").write_text("red cube\n")
    assert "dataset mac" in doctor(check_models=False, echo=lambda s: None)["paper 50_mac_closed_open"]   # the split files alone
    _whole_mac(tmp_path)
    assert "dataset mac" not in doctor(check_models=False, echo=lambda s: None)["paper 50_mac_closed_open"]


def test_readiness_checks_the_probes_t5_and_says_how_to_cache_it(tmp_path, monkeypatch):
    "41 and 44 decode with t5-large, a transformers name (no load_model spec): not cached with downloads forbidden, it is missing."
    from huggingface_hub import constants
    from vlconcepts.cli import experiment_notebooks, experiment_readiness, experiments_dir
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "empty-hub-cache"))   # nothing cached
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    for stem in ("41_probes_em", "44_probes_imcaps"):
        ready, notes = experiment_readiness(experiment_notebooks(experiments_dir(), stem)[0], root=tmp_path)
        t5 = next(note for note in notes if note.startswith("t5-large: "))
        assert not ready and "HF_HUB_OFFLINE=1 forbids downloading it" in t5, t5
        assert ("python -c \"from transformers import AutoTokenizer, T5ForConditionalGeneration; AutoTokenizer.from_pretrained('t5-large'); "
                "T5ForConditionalGeneration.from_pretrained('t5-large')\"") in t5, t5
        clip = [note for note in notes if note.startswith("openclip:ViT-B-32@openai: ")]   # how to cache it, on a machine with network
        assert clip and "open_clip.create_model_and_transforms('ViT-B-32', pretrained='openai')" in clip[0], clip
        negclip = next(note for note in notes if "negclip" in note)
        assert "github.com/vinid/neg_clip" in negclip and "Yuksekgonul et al. 2023" in negclip, negclip


def test_the_public_temporal_json_is_controlled_imcaps(tmp_path, monkeypatch):
    "The README's route: reporting_bias's temporal.json under its own name, COCO's val2017 under coco/; a renamed one says how to name it."
    from vlconcepts.cli import dataset_status, experiment_notebooks, experiment_readiness, experiments_dir
    from vlconcepts.controlled_imcaps import load_user_pairs
    from vlconcepts.core import DatasetFormatError
    monkeypatch.setenv("VLCONCEPTS_DATA", str(tmp_path))
    records = [{"filename": f"val2017/00000000000{i}.jpg", "caption_options": ["A dog after catching a frisbee",
                "A dog before catching a frisbee"], "gold_index": i} for i in (0, 1)]
    (tmp_path / "controlled-imcaps").mkdir(); (tmp_path / "coco/val2017").mkdir(parents=True)
    for i in (0, 1): Image.new("RGB", (8, 8), (60 * i, 0, 0)).save(tmp_path / f"coco/val2017/00000000000{i}.jpg")
    (tmp_path / "controlled-imcaps/temporal.json").write_text(json.dumps(records))
    assert dataset_status()["controlled-imcaps"] is True
    pairs = load_user_pairs("$VLCONCEPTS_DATA/controlled-imcaps/temporal.json", "$VLCONCEPTS_DATA/coco")   # the paper profile's values
    assert pairs.types == ["temporal"] and pairs.words == [("after", "before")]
    notes = experiment_readiness(experiment_notebooks(experiments_dir(), "44_probes_imcaps")[0])[1]
    assert not [note for note in notes if note.startswith(("dataset controlled-imcaps", "path $VLCONCEPTS_DATA/coco"))], notes
    (tmp_path / "controlled-imcaps/temporal.json").rename(tmp_path / "controlled-imcaps/pairs.json")   # what the QA pass tried
    with pytest.raises(DatasetFormatError, match="name the file after its type"):
        load_user_pairs("$VLCONCEPTS_DATA/controlled-imcaps/pairs.json", "$VLCONCEPTS_DATA/coco")


@pytest.mark.slow
def test_worker_threads_benchmark_times_three_ways(benchmark_script):
    "benchmarks/test_worker_threads.py on two quick tests: alone, side by side as they are, side by side at one thread each."
    script = benchmark_script("test_worker_threads")
    quick = ["tests/test_sync.py::test_notebooks_are_clean[00_core.ipynb]", "tests/test_sync.py::test_notebooks_are_clean[06_czsl.ipynb]"]
    ways = script.main(["--tests", *quick, "--threads", "1"])
    assert len(ways) == 3 and all(set(seconds) == {*quick, "wall"} for seconds in ways.values())
    assert all(0 < seconds["wall"] < 600 for seconds in ways.values())
    with pytest.raises(SystemExit, match="failed"): script.main(["--tests", "tests/test_sync.py::no_such_test", "--threads", "1"])


def test_suite_ab_reads_ci_output_and_rejects_unknown_commits(benchmark_script, tmp_path):
    "benchmarks/suite_ab.py: pytest's summary and duration lines read from CI's output; a revision that is no commit is refused first."
    script = benchmark_script("suite_ab")
    text = ("============================= slowest durations =============================\n"
            "91.95s call     tests/test_notebooks.py::test_library_notebook[90_cli]\n"
            "20.78s setup    tests/test_accelerate.py::test_sharded_extraction_equals_one_process\n"
            "==== 1323 passed, 14 skipped, 30 xfailed, 23 warnings in 676.54s (0:11:16) =====\n")
    summary, durations = script.read_ci_output(text)
    assert summary == "1323 passed, 14 skipped, 30 xfailed, 23 warnings in 676.54s (0:11:16)"
    assert durations == {"tests/test_notebooks.py::test_library_notebook[90_cli] (call)": 91.95,
                         "tests/test_accelerate.py::test_sharded_extraction_equals_one_process (setup)": 20.78}
    assert script.read_ci_output("make: *** [test] Error 1\n") == (None, {})
    with pytest.raises(SystemExit): script.main(["no-such-commit", "HEAD", "--shared", str(tmp_path), "--work", str(tmp_path / "w")])
    assert not (tmp_path / "w").exists()                                    # nothing cloned


def test_rebuild_profile_reads_py_spy_raw(benchmark_script, tmp_path):
    "benchmarks/rebuild_profile.py: a library function counts once per stack (recursion too), per kernel process, in samples."
    script = benchmark_script("rebuild_profile")
    lib = "{} (/x/vlconcepts/{}:{})".format
    raw = tmp_path / "rebuild.raw"
    raw.write_text(f'process 1:"vlconcepts rebuild";process 2:"kernel";cell (<ipython>:1);{lib("train", "mac.py", 3)};{lib("train", "mac.py", 9)};backward (torch/autograd.py:5) 7\n'
                   f'process 1:"vlconcepts rebuild";process 3:"kernel";cell (<ipython>:1);{lib("score", "mac.py", 4)};linear (torch/nn.py:2) 3\n'
                   f'process 1:"vlconcepts rebuild";select (selectors.py:1) 2\n')
    inclusive, by_process, leaves, processes = script.profile(str(raw))
    assert inclusive == {"train (mac.py)": 7, "score (mac.py)": 3}
    assert by_process["process 2"] == {"train (mac.py)": 7} and processes == {"process 2": 7, "process 3": 3, "process 1": 2}
    assert leaves["backward (torch/autograd.py:5)"] == 7


@pytest.mark.slow
def test_a_failed_notebook_is_reported_by_its_own_whole_message(tmp_path):
    "A notebook's multi-line error (a missing dataset: where, then what and how) is summarised from its first line, not papermill's tail."
    folder = _table_checkout(tmp_path, extra_cells=[(
        "from vlconcepts.core import DatasetNotFound\n"
        "raise DatasetNotFound('mit-states', '<root>/a/train_pairs.txt\\n<root>/a/val_pairs.txt\\n<root>/images/', 'the MIT-States site', "
        "path='/somewhere/my-mit-typo')", [])])
    result = run("rebuild", "--notebooks", str(folder), cwd=tmp_path, env=_without_output_override())
    assert result.returncode == 1
    failed = next(line for line in result.stdout.splitlines() if line.startswith("FAILED 01_table.ipynb"))
    assert failed.startswith("FAILED 01_table.ipynb: DatasetNotFound: Dataset 'mit-states' not found at /somewhere/my-mit-typo. / "
                             "Expected layout: / <root>/a/train_pairs.txt / "), failed
    assert "Where to get it: the MIT-States site" in failed and "PapermillExecutionError" not in failed


def test_a_long_failure_message_keeps_its_start():
    from papermill.exceptions import PapermillExecutionError
    from vlconcepts.cli import failure_message
    raised = PapermillExecutionError(0, 1, "x", "ValueError", "\n".join(f"line {i}" for i in range(1000)), ["Traceback"] * 50)
    said = failure_message(raised, limit=100)
    assert said.startswith("ValueError: line 0 / line 1 / ") and said.endswith("more characters]") and len(said) < 160, said
    assert failure_message(RuntimeError("first\nsecond")) == "RuntimeError: first / second"


def test_doctor_lists_a_plugins_backends_and_each_missing_thing_once(tmp_path, monkeypatch, capsys):
    from vlconcepts import models
    monkeypatch.setenv(models.PLUGINS_VARIABLE, "")                       # use_plugins sets it: restored after the test
    monkeypatch.setattr(models, "_BACKENDS", dict(models._BACKENDS))        # and the backend the plugin registers is forgotten
    monkeypatch.setattr(models, "_PLUGINS", dict(models._PLUGINS))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("VLCONCEPTS_DATA", str(tmp_path / "data"))           # no dataset: the how-to list is there
    plugin = tmp_path / "my_doctor_models.py"
    plugin.write_text("from vlconcepts.models import register_backend\n"
                      "@register_backend('my-doctor-test')\ndef load(rest, device): raise RuntimeError('never loaded here')\n")
    assert main(["doctor", "--no-models", "--plugin", str(plugin)]) == 0
    said = capsys.readouterr().out
    lines = {line.split("  ", 1)[0]: line.split("  ", 1)[1].strip() for line in said.splitlines() if "  " in line}
    assert lines["plugins"] == str(plugin.resolve())
    assert f"my-doctor-test ({plugin.resolve()})" in lines["model backends"] and "toyclip" in lines["model backends"]
    how = said.split("lack (each once):\n", 1)[1].splitlines()
    assert not [line for line in how if line.startswith("- optional")], how          # a thing's note, not whether it was optional
    things = [line[2:].split(": ", 1)[0] for line in how if line.startswith("- ") and not line.startswith("- dataset ")]
    assert len(things) == len(set(things)), things                                   # the NegCLIP placeholder of 41 and 44 once


def test_a_smoke_report_never_writes_the_committed_reports(tmp_path, monkeypatch):
    "Each profile writes its own report pages: only tiny's default is the checkout's committed reports/ (papermill stubbed: no kernel)."
    import papermill
    from vlconcepts.cli import report_folders, run_report
    assert report_folders("tiny", ROOT) == (ROOT / "reports", ROOT / "runs" / "reports")
    assert report_folders("smoke", ROOT) == (ROOT / "results" / "smoke" / "reports", ROOT / "runs" / "smoke" / "reports")
    asked = {}
    def stop(*args, **kwargs):
        asked.update(kwargs["parameters"])
        raise RuntimeError("no kernel here")
    monkeypatch.setattr(papermill, "execute_notebook", stop)
    with pytest.raises(Exception, match="no kernel here"): run_report(["toyclip:default"], "smoke", "cpu", runs_dir=tmp_path / "runs")
    assert Path(asked["out"]) == ROOT / "results" / "smoke" / "reports" != ROOT / "reports"


def _stage_order(needs):
    "The notebooks in an order that respects `needs` (each after all it waits for); an AssertionError naming those that never start."
    done, left = [], list(needs)
    while left:
        ready = [n for n in left if set(needs[n]) <= set(done)]
        assert ready, f"these notebooks can never start: {left}"
        done += ready; left = [n for n in left if n not in ready]
    return done


@pytest.mark.parametrize("names", [["a_one.ipynb", "b_two.ipynb"], ["90_x.ipynb", "README_x.ipynb"],
                                   ["00_g.ipynb", "10_a.ipynb", "70_r.ipynb", "90_f.ipynb", "README.ipynb", "z_last.ipynb"]])
def test_side_by_side_stages_start_every_notebook(names):
    from vlconcepts.cli import rebuild_prerequisites
    assert sorted(_stage_order(rebuild_prerequisites(names))) == sorted(names)


def test_a_notebook_that_can_never_start_fails_the_rebuild(tmp_path, monkeypatch, capsys):
    "Should the stages ever leave notebooks waiting on each other, `rebuild --jobs 2` names them as failed and exits 1, not '0 ok, 0 failed'."
    from vlconcepts import cli
    folder = tmp_path / "nbs" / "experiments"
    folder.mkdir(parents=True)
    for name in ("a_one", "b_two"):
        _notebook(folder / f"{name}.ipynb", [('profile: str = "tiny"  # profile\ndevice: str = "auto"  # device', ["parameters"])])
    (tmp_path / "settings.ini").write_text("[DEFAULT]\n")
    (tmp_path / "vlconcepts").mkdir()
    monkeypatch.setattr(cli, "rebuild_prerequisites", lambda names: {n: [m for m in names if m != n] for n in names})
    assert main(["rebuild", "--notebooks", str(folder), "--jobs", "2", "--device", "cpu"]) == 1
    said = capsys.readouterr()
    assert "0 ok, 2 failed" in said.out and "FAILED a_one.ipynb: never started: it waits for ['b_two.ipynb']" in said.out, said.out
    assert "2 notebook(s) failed: a_one.ipynb, b_two.ipynb" in said.err


def test_report_set_with_bad_yaml_is_a_clean_error(tmp_path, capsys):
    assert main(["report", "toyclip:default", "--set", "compmap_seeds=[1123", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --set 'compmap_seeds=[1123': the value is not valid YAML (") and "Traceback" not in err, err
    assert main(["report", "toyclip:default", "--set", "compmap_seeds=1123", "--out", str(tmp_path)]) == 2
    assert "compmap_seeds=1123 (wants a list, e.g. [1123])" in capsys.readouterr().err


def test_report_outside_a_checkout_names_no_option_it_lacks(monkeypatch, capsys):
    from vlconcepts import cli
    monkeypatch.setattr(cli, "repo_root", lambda start=None: None)
    assert main(["report", "toyclip:default"]) == 2
    err = capsys.readouterr().err
    assert "run `vlconcepts report` from inside a vlconcepts checkout" in err and "--notebooks" not in err, err


@pytest.mark.parametrize("hub, transformers, offline", [(None, "1", "TRANSFORMERS_OFFLINE"), ("", "1", "TRANSFORMERS_OFFLINE"),
                                                        ("0", "1", None), ("1", "0", "HF_HUB_OFFLINE"), (None, None, None)])
def test_offline_setting_follows_huggingface_hub(hub, transformers, offline, monkeypatch):
    "huggingface_hub: HF_HUB_OFFLINE decides when set (an explicit 0 wins); TRANSFORMERS_OFFLINE only when it is unset or empty."
    from vlconcepts.cli import offline_setting
    for name, value in (("HF_HUB_OFFLINE", hub), ("TRANSFORMERS_OFFLINE", transformers)):
        if value is None: monkeypatch.delenv(name, raising=False)
        else: monkeypatch.setenv(name, value)
    assert offline_setting() == offline


def test_portable_paths_ends_a_folder_at_a_full_stop_or_bracket(tmp_path, monkeypatch):
    from vlconcepts.cli import portable_paths
    monkeypatch.setenv("VLCONCEPTS_CACHE", "/srv/vlc/cache")
    assert (portable_paths("features cached in /srv/vlc/cache. [/srv/vlc/cache] /srv/vlc/cache.old")
            == "features cached in $VLCONCEPTS_CACHE. [$VLCONCEPTS_CACHE] /srv/vlc/cache.old")


def test_one_spec_alone_is_refused_not_read_as_letters():
    from vlconcepts.cli import check_specs
    from vlconcepts.core import InputValidationError
    with pytest.raises(InputValidationError, match="got one string 'toyclip:default'"): check_specs("toyclip:default")


def test_doctor_checks_a_path_value_itself(tmp_path, monkeypatch):
    "A profile value that is a path is what the notebook reads: it is checked there, not by the dataset's marker under $VLCONCEPTS_DATA."
    from vlconcepts.cli import experiment_readiness
    folder = tmp_path / "nbs" / "experiments"
    (folder / "profiles").mkdir(parents=True)
    _notebook(folder / "01_x.ipynb", [('profile: str = "tiny"  # profile\ndevice: str = "auto"  # device', ["parameters"])])
    (folder / "profiles" / "01_x.paper.yaml").write_text(f"source: {tmp_path}/mine/mac/pairs.txt\nlabel: CLIP ViT-B/32\n")
    ready, notes = experiment_readiness(folder / "01_x.ipynb", root=tmp_path / "no-data")
    assert not ready and notes[0].startswith(f"dataset mac (expected {tmp_path}/mine/mac/pairs.txt, the profile's source;"), notes
    (tmp_path / "mine/mac").mkdir(parents=True); (tmp_path / "mine/mac/pairs.txt").write_text("red cube\n")
    assert experiment_readiness(folder / "01_x.ipynb", root=tmp_path / "no-data") == (True, [])


def test_every_world_declares_the_entries_it_writes(tmp_path):
    "`datasets.writes`: what each exporter says it will write is what it writes, so an `out` of yours is refused before it renders."
    from vlconcepts.cli import load_registries
    from vlconcepts.core import InputValidationError
    from vlconcepts.datasets import EXPORT_RECORD, declared_entries, world_exporters
    load_registries()
    own = {world: exporter for world, exporter in world_exporters().items()   # not a world another test registered
           if getattr(getattr(exporter, "func", exporter), "__module__", "").startswith("vlconcepts.")}
    assert len(own) == 10, sorted(own)
    for world, exporter in own.items():
        declared = declared_entries(exporter, {"out": tmp_path / world, "n": 30, "seed": 0, "size": 16})
        exporter(tmp_path / world, n=30, size=16)
        written = sorted(p.name for p in (tmp_path / world).iterdir() if p.name != EXPORT_RECORD)
        assert declared and sorted(declared) == written, (world, declared, written)
    (tmp_path / "mine").mkdir(); (tmp_path / "mine" / "pairs.json").write_text("my pairs")
    with pytest.raises(InputValidationError, match="would replace pairs.json"):
        world_exporters()["controlled-imcaps"](tmp_path / "mine", n=2000, size=16)    # refused at once, not after 2,000 renders
    assert (tmp_path / "mine" / "pairs.json").read_text() == "my pairs"
