__version__ = "0.1.0"

# Nothing is imported here: `import vlconcepts.core` (or any module) loads only what it imports itself.
# Model backends register themselves (`@register_backend("prefix")`) in the module that defines them, and
# `vlconcepts.models.BACKEND_MODULES` maps each prefix defined above layer 2 to its module (e.g.
# "toyclip" -> "vlconcepts.toyclip"), which `load_model` imports the first time a spec asks for it.
