"""Imports point down the layers of ../shared/DESIGN.md: read every vlconcepts module's imports with `ast`.

A new module must be given its layer here (the test fails for a module it does not know). A new lens goes in
layer 8; a new dataset chapter in layer 5; a new tiny-profile model in layer 6."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "vlconcepts"

LAYERS = {
    1: ("core", "stats"),
    2: ("models",),
    3: ("cache",),
    4: ("scenes", "render", "captions"),                                   # the synthetic worlds
    5: ("datasets", "binding_data", "attribute_object_data", "cub_data",   # dataset chapters (the registry first)
        "factor_data", "caption_data", "concept_data", "world_mixture", "dry_worlds"),
    6: ("toyclip", "toyitm"),                                              # the tiny-profile models
    7: ("czsl",),
    8: ("compmap", "binding", "purity", "concept_learners", "compprompts", "probes", "controlled_imcaps", "mac", "findings"),
    9: ("report",),                                                        # every lens on one model (above the lenses)
    10: ("cli",),
}
LAYER = {module: layer for layer, modules in LAYERS.items() for module in modules}
# a method module never imports another one, except within its own lens
SAME_LENS = {("probes", "compprompts"), ("concept_learners", "purity")}
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py") if not p.stem.startswith("_"))


def imported_modules(path: Path) -> set[str]:
    "The vlconcepts modules `path` imports (absolute or relative, at top level or inside functions)."
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("vlconcepts.")}
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 1 and module: found.add(module.split(".")[0])
            elif node.level == 1 or module == "vlconcepts": found |= {a.name for a in node.names if a.name in LAYER}
            elif module.startswith("vlconcepts."): found.add(module.split(".")[1])
    return found


def test_every_module_has_a_layer():
    unknown = [m for m in MODULES if m not in LAYER]
    assert not unknown, f"modules {unknown} have no layer: add them to LAYERS in tests/test_layers.py (DESIGN.md's order)"


@pytest.mark.parametrize("module", MODULES)
def test_imports_point_down(module):
    if module not in LAYER: pytest.skip("no layer (see test_every_module_has_a_layer)")
    wrong = []
    for other in sorted(imported_modules(PACKAGE / f"{module}.py") - {module}):
        if other not in LAYER: continue
        if LAYER[other] > LAYER[module]: wrong.append(f"{other} (layer {LAYER[other]})")
        elif LAYER[other] == LAYER[module] == 8 and (module, other) not in SAME_LENS: wrong.append(f"{other} (another method module)")
    assert not wrong, f"vlconcepts.{module} (layer {LAYER[module]}) imports {', '.join(wrong)}"


def test_package_init_imports_nothing():
    "`vlconcepts/__init__.py` imports nothing (it used to import layer 6, by name, into every `import vlconcepts.core`)."
    import subprocess, sys
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    imports = [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert not imports, f"vlconcepts/__init__.py runs {imports}; register backends in models.BACKEND_MODULES instead"
    code = "import sys, vlconcepts; print(sorted(m for m in sys.modules if m.startswith('vlconcepts')))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "['vlconcepts']"


def private_imports(path: Path) -> set[str]:
    "`module.name` for every private name (`_x`) that `path` imports from another vlconcepts module."
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.level == 1 or (node.module or "").startswith("vlconcepts")):
            module = (node.module or "").split(".")[-1]
            found |= {f"{module}.{a.name}" for a in node.names if a.name.startswith("_") and not a.name.startswith("__")}
    return found


@pytest.mark.parametrize("module", MODULES)
def test_no_private_cross_module_imports(module):
    "A module uses another one's public names only (render used to import scenes._placement_error)."
    found = private_imports(PACKAGE / f"{module}.py")
    assert not found, f"vlconcepts.{module} imports private names {sorted(found)}: make them public or move them"


def test_the_reader_sees_every_kind_of_import(tmp_path):
    path = tmp_path / "probe.py"
    path.write_text("from .cli import main\nimport vlconcepts.toyclip\nfrom vlconcepts import purity\n"
                    "from . import mac\ndef f():\n    from vlconcepts.czsl import x\n")
    assert imported_modules(path) == {"cli", "toyclip", "purity", "mac", "czsl"}
    path.write_text("from .scenes import Scene, _placement_error\nfrom vlconcepts.core import __version__\n")
    assert private_imports(path) == {"scenes._placement_error"}
