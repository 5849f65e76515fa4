"""Vendor device libraries, by name.

A plugin is a folder with a ``plugin.toml`` manifest (parsed and validated by
cuhost's C++ engine) that declares device functions and the code that
defines them. Scripts use them without writing ``cuda.declare_device``::

    from cuhost.plugins import philox
    @cuda.jit
    def k(out):
        out[0] = philox.uniform(1, 2, 0)

Only folders on the search path are loaded: ``cuhost --plugin-path DIR``,
then ``CUHOST_PLUGIN_PATH``, then the installed plugins folder. A refused
plugin (bad manifest, name or symbol clash, missing file) raises
``cuda.PluginError`` with the reason when imported; the others keep working.
"""
import sys as _sys
import types as _types

import _cuhost
import cuda as _cuda

__all__ = ["available", "load", "search_path", "add_plugin_path", "register_plugin"]

_loaded = {}


def _describe(plugin, decl):
    doc = decl["doc"] or "(no documentation)"
    return ("%s.%s%s\n\n%s\n\nsignature %s, symbol %s, abi %s (plugin %s); a device function, callable inside "
            "kernels only." % (plugin, decl["name"], _signature_text(decl["signature"]), doc, decl["signature"],
                               decl["symbol"], decl["abi"], plugin))


def _signature_text(sig):
    # "float32(uint64, uint64)" -> "(uint64, uint64) -> float32"
    ret, _, args = sig.partition("(")
    return "(%s -> %s" % (args, ret.strip())


def search_path():
    """The folders searched for plugins, in order."""
    return _cuhost._plugin_search_path()


def add_plugin_path(folder):
    """Add a folder to the search path (takes effect for plugins not yet imported)."""
    _cuhost.add_plugin_path(folder)


def register_plugin(manifest_toml, files, origin="<in-memory plugin>"):
    """Register a plugin given as data: its manifest text and {name: contents}."""
    _cuhost.register_plugin(manifest_toml, dict(files), origin)


def available():
    """Every plugin found, loaded or refused: a list of dicts (name, status, reason, functions, ...)."""
    return _cuhost._plugins()


def _link_items(paths, include_dirs, host_plugin_dir=None):
    # host_plugin_dir: the plugin's folder when it ships a host library, whose
    # setup then runs for every module that links these items.
    items = []
    for p in paths:
        item = _cuda.LinkableCode.from_path(p) if hasattr(_cuda, "LinkableCode") else p
        if not isinstance(item, str):
            try:
                if include_dirs:
                    item._cuhost_include_dirs = list(include_dirs)
                if host_plugin_dir:
                    item.__cuhost_plugin_dir__ = host_plugin_dir
            except AttributeError:
                pass
        items.append(item)
    return items


def load(name):
    """The namespace of plugin `name` (also reachable as ``from cuhost.plugins import name``)."""
    if name in _loaded:
        return _loaded[name]
    records = [r for r in available() if r["name"] == name]
    if not records:
        names = sorted(r["name"] for r in available())
        raise _cuda.PluginError("no plugin named '%s' on the search path (%s); found: %s"
                                % (name, ":".join(search_path()) or "empty", ", ".join(names) or "none"))
    rec = next((r for r in records if r["loaded"]), records[0])
    if not rec["loaded"]:
        raise _cuda.PluginError(rec["reason"])
    module = _types.ModuleType("cuhost.plugins." + name, rec["description"])
    module.__version__ = rec["version"]
    module.__file__ = rec["manifest"]
    host_dir = rec["directory"] if rec["host_library"] else None
    link = _link_items(rec["link"], rec["include_dirs"], host_dir)
    cpu_link = _link_items(rec["cpu_sources"], rec["include_dirs"], host_dir)
    for decl in rec["functions"]:
        fn = _cuda.declare_device(decl["symbol"], decl["signature"], link=link, abi=decl["abi"],
                                  python_name="%s.%s" % (name, decl["name"]), cpu_link=cpu_link or None)
        fn.__doc__ = _describe(name, decl)
        fn.plugin = name
        setattr(module, decl["name"], fn)
    module.__all__ = [d["name"] for d in rec["functions"]]
    _loaded[name] = module
    _sys.modules[module.__name__] = module
    return module


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return load(name)


def _print_listing():
    """`cuhost plugins`: every plugin on the search path with its functions and status."""
    path = search_path()
    print("plugin search path:")
    for p in path:
        print("  " + p)
    if not path:
        print("  (empty: use --plugin-path or CUHOST_PLUGIN_PATH)")
    records = available()
    if not records:
        print("no plugins found")
        return
    for r in records:
        if r["loaded"]:
            print("%s %s  [loaded]  %s" % (r["name"], r["version"], r["directory"]))
            if r["description"]:
                print("    " + r["description"])
            for f in r["functions"]:
                print("    %-16s %-44s %s" % (f["name"], f["signature"], (f["doc"] or "").split("\n")[0]))
            if r["host_library"]:
                why, has_teardown = _cuhost._plugin_host_check(r["directory"])
                if why:
                    print("    host library refused: " + why)
                else:
                    print("    host library %s (setup %s, %s)" % (
                        r["host_library"], r["host_setup"],
                        "teardown " + r["host_teardown"] if has_teardown else "no teardown"))
        else:
            print("%s  [refused]  %s" % (r["name"], r["directory"]))
            for line in r["reason"].splitlines():
                print("    " + line)
