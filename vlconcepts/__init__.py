__version__ = "0.1.0"

# Model backends register themselves (`@register_backend("prefix")`) in the module that defines them.
# `vlconcepts.models` (layer 2) never imports the modules above it; instead the package imports every
# backend module here, so `load_model("toyclip:default")` works after any `import vlconcepts...`.
# A new backend module (layer 6, e.g. `vlconcepts.toyitm`) adds its dotted name to BACKEND_MODULES;
# a listed module whose file does not exist yet is skipped, and one that fails to import is reported
# (a warning, and `BACKEND_IMPORT_ERRORS`) instead of breaking every `import vlconcepts...`.
import importlib as _importlib
import importlib.util as _importlib_util
import warnings as _warnings

BACKEND_MODULES = ("vlconcepts.toyclip", "vlconcepts.toyitm")  # modules that call register_backend on import
BACKEND_IMPORT_ERRORS: dict = {}  # module -> the exception that stopped it from registering its backend

for _module in BACKEND_MODULES:
    if _importlib_util.find_spec(_module) is None: continue
    try: _importlib.import_module(_module)
    except Exception as _error:  # a broken backend module must not hide the rest of the package
        BACKEND_IMPORT_ERRORS[_module] = _error
        _warnings.warn(f"vlconcepts: backend module {_module} failed to import, so its model specs are unavailable: "
                       f"{type(_error).__name__}: {_error}", RuntimeWarning, stacklevel=2)
