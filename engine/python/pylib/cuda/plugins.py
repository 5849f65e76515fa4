"""cuda.plugins: the same plugin namespaces as cuhost.plugins.

``from cuda.plugins import philox`` (or ``from numba.cuda.plugins import
philox``) gives the plugin's device functions; see cuhost.plugins.
"""
from cuhost.plugins import add_plugin_path, available, load, register_plugin, search_path  # noqa: F401


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return load(name)
