"""Source diffs for live kernels (the engine's `live_reload` hook).

When a followed script changes on disk, the engine asks `diff` which
@cuda.jit functions of that file changed, and gets new Python function
objects for them, compiled from the new text in the module's own globals
(the module is not executed again); the engine captures, compiles and swaps
them. What cannot be swapped under a running host is refused: a changed
parameter list or decorator (a kernel's signature, its options) and changed
module-level statements (state the running code relies on). Python and
typing errors leave the old code running. `user_files` names the files of
the modules a script imported from the user's folders.
"""

import ast
import copy
import linecache
import os
import site
import sys
import sysconfig

import _cuhost

_real_paths = {}  # a module's file name -> its real path (a reload must not stat every module)


def _real(path):
    real = _real_paths.get(path)
    if real is None:
        real = _real_paths[path] = os.path.realpath(path)
    return real


_roots = []


def _installation_roots():
    if not _roots:
        _roots.extend(_find_installation_roots())
    return _roots


def _find_installation_roots():
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            roots.add(path)
    try:
        roots.update(site.getsitepackages())
    except AttributeError:  # a site module without it (some virtualenvs)
        pass
    # cuhost's own packages (cuda, numba, cuhost)
    roots.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return [_real(r) + os.sep for r in roots if r]


_user_file_of = {}  # a module file name -> its real path when it is the user's, else ""


def _user_file(module):
    path = getattr(module, "__file__", None)
    if not isinstance(path, str):
        return ""
    found = _user_file_of.get(path)
    if found is None:
        real = _real(path)
        roots = _installation_roots()
        mine = path.endswith(".py") and not any(real.startswith(r) for r in roots) and os.path.exists(real)
        found = _user_file_of[path] = real if mine else ""
    return found


def _user_modules():
    return [m for m in list(sys.modules.values()) if _user_file(m)]


def user_files():
    """The .py files of imported modules that live outside the Python
    installation and cuhost's own packages."""
    return [_user_file(m) for m in _user_modules()]


def _modules_of(path):
    out = []
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if isinstance(file, str) and _real(file) == path and module not in out:
            out.append(module)
    return out


def _jit_functions(module, path):
    found = {}
    for name, value in list(vars(module).items()):
        if isinstance(value, _cuhost.Dispatcher):
            code = getattr(value.py_func, "__code__", None)
            if code is not None and _real(code.co_filename) == path and value.py_func.__name__ == name:
                found[name] = value
    return found


def _where(lines, node):
    line = getattr(node, "lineno", 0) or 0
    column = (getattr(node, "col_offset", 0) or 0) + 1
    text = lines[line - 1].rstrip("\n") if 0 < line <= len(lines) else ""
    return line, column, text


def _top_functions(tree):
    return {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _dump(node):
    return ast.dump(node, include_attributes=False)


def all_dispatchers():
    """Every @cuda.jit object that a user module (or __main__) holds as a
    global: the candidates for kernels that call a changed device function."""
    out, seen = [], set()
    modules = _user_modules()
    main = sys.modules.get("__main__")
    if main is not None and main not in modules:
        modules.append(main)
    for module in modules:
        try:
            values = list(vars(module).values())
        except TypeError:
            continue
        for value in values:
            if isinstance(value, _cuhost.Dispatcher) and id(value) not in seen:
                seen.add(id(value))
                out.append(value)
    return out


def diff(path, old_text, new_text):
    """What changed in `path`: a dict with `error` (message, line, column,
    source line) for a syntax error, `refusal` (message, line, column,
    source line, names) for a change that is not swapped, and `changed`, a
    list of (dispatcher, new function) pairs. None when no loaded module
    comes from the file."""
    path = _real(path)
    modules = _modules_of(path)
    if not modules:
        return None
    result = {"error": None, "refusal": None, "changed": []}
    new_lines = new_text.splitlines(True)
    try:
        new_tree = ast.parse(new_text, path)
    except SyntaxError as e:
        text = (e.text or "").rstrip("\n")
        result["error"] = (f"SyntaxError: {e.msg}", e.lineno or 0, e.offset or 0, text)
        return result
    try:
        old_tree = ast.parse(old_text, path)
    except SyntaxError:
        old_tree = ast.Module(body=[], type_ignores=[])
    old_defs, new_defs = _top_functions(old_tree), _top_functions(new_tree)

    changed = []
    for module in modules:
        jitted = _jit_functions(module, path)
        if not jitted:
            continue
        # Module-level statements (the functions' own text aside): the state
        # the running kernels froze when they were captured.
        old_rest = [_dump(n) for n in old_tree.body if getattr(n, "name", None) not in jitted]
        new_rest = [n for n in new_tree.body if getattr(n, "name", None) not in jitted]
        if old_rest != [_dump(n) for n in new_rest]:
            first = next(
                (n for i, n in enumerate(new_rest) if i >= len(old_rest) or _dump(n) != old_rest[i]),
                new_rest[-1] if new_rest else new_tree,
            )
            line, column, text = _where(new_lines, first)
            result["refusal"] = (
                "module-level statements changed; the running kernels keep the state they were "
                "compiled with (restart the host to apply the change)",
                line,
                column,
                text,
                sorted(jitted),
            )
            return result
        for name, dispatcher in jitted.items():
            old, new = old_defs.get(name), new_defs.get(name)
            if old is None:  # not in the file's previous text: nothing to compare with
                continue
            if new is None:
                result["refusal"] = (f"'{name}' was removed from the file; it keeps running", 0, 0, "", [name])
                return result
            if _dump(old) == _dump(new):
                continue
            if _dump(old.args) != _dump(new.args) or [_dump(d) for d in old.decorator_list] != [
                _dump(d) for d in new.decorator_list
            ]:
                line, column, text = _where(new_lines, new)
                result["refusal"] = (
                    f"the signature or the decorator of '{name}' changed; a running host keeps its "
                    "kernels' signatures (restart the host to apply the change)",
                    line,
                    column,
                    text,
                    [name],
                )
                return result
            changed.append((module, name, dispatcher, new))

    if changed:
        # The capture reads the function's text through linecache: pinned to
        # the text compiled here (no file time can make it stale).
        linecache.cache[path] = (len(new_text), None, new_lines, path)
    for module, name, dispatcher, node in changed:
        node = copy.deepcopy(node)
        node.decorator_list = []
        code = compile(ast.Module(body=[node], type_ignores=[]), path, "exec")
        scope = {}
        exec(code, vars(module), scope)
        function = scope[name]
        function.__qualname__ = dispatcher.py_func.__qualname__
        result["changed"].append((dispatcher, function))
    return result
