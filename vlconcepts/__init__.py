__version__ = "0.1.0"

# Model backends register themselves (`@register_backend("prefix")`) in the module that defines them.
# `vlconcepts.models` (layer 2) never imports the modules above it; instead the package imports every
# backend module here, so `load_model("toyclip:default")` works after any `import vlconcepts...`.
# A new backend module (layer 6, e.g. `vlconcepts.toyitm`) adds its dotted name to BACKEND_MODULES;
# a listed module whose file does not exist yet is skipped.
import importlib as _importlib
import importlib.util as _importlib_util

BACKEND_MODULES = ("vlconcepts.toyclip", "vlconcepts.toyitm")  # modules that call register_backend on import

for _module in BACKEND_MODULES:
    if _importlib_util.find_spec(_module) is not None: _importlib.import_module(_module)
