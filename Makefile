# vlconcepts: `make figures` rebuilds every figure and table (tiny profile),
# `make test` runs the whole test suite, `make lab` opens the chapters in JupyterLab. Each sets up .venv/ first.
PYTHON ?= python3
# notebooks `make figures` runs at once (empty: as many as the cores hold, at most 4). Every tiny kernel runs on one
# torch thread whatever JOBS is, so JOBS changes the wall time, never a number (vlconcepts.core.PROFILE_THREADS).
JOBS   ?=
# pytest workers `make test` runs at once (pytest-xdist; empty: one per core, at most 4). Most of the suite is notebooks
# and trainings on one torch thread each, which leave a second core idle (measured with two workers: README, `make test` row).
# Each worker gets its share of the cores as OMP_NUM_THREADS / MKL_NUM_THREADS (cores // workers, at least 1), which the
# kernels it starts inherit (`cli.kernel_threads` caps a dry or paper rebuild's kernel at it): two workers on every core
# each ran the two longest tests side by side 2-3x slower (benchmarks/test_worker_threads.py).
# The long tests are collected first (tests/conftest.py) and handed out two at a time (--maxschedchunk 2): in xdist's
# default chunks one worker took every long test and the other sat idle once its short ones were done.
TEST_JOBS ?=
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PIP    := $(BIN)/python -m pip --disable-pip-version-check

.PHONY: install figures test lab check-install export clean-nbs check-clean benchmarks distclean

install: $(STAMP)

# Rebuilt only when the pins or the package metadata change: a second call does nothing.
$(STAMP): settings.ini setup.py constraints.txt
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 10), "vlconcepts needs Python >= 3.10, found " + sys.version.split()[0]'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade "pip<26" "setuptools<81" wheel
	$(PIP) install -q torch==2.13.0
	$(PIP) install -q -c constraints.txt -e ".[dev]"
	@if $(PIP) list 2>/dev/null | grep -i -E '^(nvidia-|triton )'; then \
	  echo "error: CUDA packages were installed; install only through constraints.txt" >&2; exit 1; fi
	@$(BIN)/python -c 'import torch, sys; sys.exit("error: a CUDA build of torch was installed" if torch.version.cuda else 0)'
	touch $(STAMP)

figures: install
	$(BIN)/vlconcepts rebuild --profile tiny $(if $(JOBS),--jobs $(JOBS))

CORES        = $(shell $(PYTHON) -c 'import os; print(len(os.sched_getaffinity(0)))')
TEST_WORKERS = $(or $(TEST_JOBS),$(shell $(PYTHON) -c 'print(min(4, $(CORES)))'))
TEST_THREADS = $(shell $(PYTHON) -c 'print(max(1, $(CORES) // max(1, $(TEST_WORKERS))))')

test: install
	HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 VLCONCEPTS_PROGRESS=0 MPLBACKEND=Agg \
	  OMP_NUM_THREADS=$(TEST_THREADS) MKL_NUM_THREADS=$(TEST_THREADS) $(BIN)/python -m pytest -n $(TEST_WORKERS) --maxschedchunk 2

# JupyterLab from .venv on nbs/, with this venv's Python registered (inside .venv) as the kernel the notebooks
# name in their metadata ("python3"), so every chapter and experiment opens on the interpreter vlconcepts is installed in.
lab: install
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (vlconcepts .venv)"
	$(BIN)/jupyter lab --notebook-dir=nbs

# A fresh venv with a plain `pip install .` (no [dev] extras) must import every module. It downloads whatever
# the pip cache lacks (minutes; >20 min on a loaded 2-core machine), so .ci/run runs it only with
# VLCONCEPTS_CI_FRESH_INSTALL=1; tests/test_packaging.py checks the same in seconds on the installed files.
check-install:
	rm -rf build/plain-venv
	$(PYTHON) -m venv build/plain-venv
	build/plain-venv/bin/python -m pip install -q --disable-pip-version-check torch==2.13.0
	build/plain-venv/bin/python -m pip install -q --disable-pip-version-check -c constraints.txt .
	cd build && HF_HUB_OFFLINE=1 plain-venv/bin/python -c 'import importlib, pkgutil, vlconcepts; \
	  names = [m.name for m in pkgutil.iter_modules(vlconcepts.__path__) if not m.name.startswith("_")]; \
	  [importlib.import_module("vlconcepts." + n) for n in names]; print(f"plain install: {len(names)} modules import")'

export: install
	$(BIN)/nbdev_export
	$(BIN)/nbdev_clean

# Fails when the notebooks and the generated package are out of sync or notebooks carry outputs.
check-clean: export
	git diff --exit-code -- nbs vlconcepts

# `make benchmarks` runs the speed (and cost) comparisons that need no argument, one after the other with their defaults;
# each prints its own figure beside the README's "Measured here" row. Several run for many minutes on a 2-core CPU
# (czsl_speed's per-bias reference, compmap_speed's paper-size model over its 400 epochs, rebuild_side_by_side's two
# cold notebooks twice); `python benchmarks/<name>.py --help` lists each one's options (smaller sizes, --device cuda).
# Left out, with why:
#   need positional arguments: findings_across_hosts (another host's tables folder), rebuild_profile (a py-spy
#     recording), suite_ab (two commits), toyitm_release_trials (a command: train, report or edits), warm_cold_warnings
#     (an output folder: every experiment notebook run twice in the smoke profile, cold then warm);
#   measure on a GPU by default (--device cuda): gpu_cost_binding, gpu_cost_mac, paper_gpu_cost;
#   long runs or studies, not speed figures: dry_run (a whole dry rebuild, every experiment notebook), tiny_model_scaling,
#     toyclip_locked_image, toyclip_text_phase, toyclip_wing_layers, toyitm_grammar_diagnostic, toyitm_pattern_exposure
#     (issue 18's training diagnostics), bird_part_pixels (a pixel count), mac_parameter_check (a parameter's effect on
#     MAC Table 2), mac_zero_shot_prompts (MAC's two zero-shot text routes on the committed tables),
#     probes_pair_caption_overlap (a count: ControlledImCaps captions among the probe's training captions),
#     probes_imcaps_hold_out (44_probes_imcaps with and without those captions held out, two trainings), probe_memory
#     (a memory count for the paper's probe step), test_worker_threads (times tests/, not the package: the suite's two
#     longest tests three ways, about 10 min);
#   _common (helpers the scripts import).
BENCHMARKS := encode_throughput cache_speedup sharded_extraction dataset_fingerprint fingerprint_memory import_time \
              render_throughput dataset_generation purity_speed czsl_speed compmap_speed binding_speed probes_speed \
              mac_speed mac_training_reuse rebuild_side_by_side isa_emulation

benchmarks: install
	for b in $(BENCHMARKS); do echo "== benchmarks/$$b.py"; $(BIN)/python benchmarks/$$b.py || exit 1; done

distclean:
	rm -rf $(VENV) runs
