#!/usr/bin/env python3
"""Fails when pylib's modules import each other in a circle.

pylib is layered (docs/DESIGN.md, "pylib"): each module has one home below
its users, so the graph of imports that run when a module is first imported
(statements at module level and in class bodies, including those under
module-level `if`/`try`) must have no cycle; with --all (how the lint test
runs it) neither must the graph that also counts imports inside functions,
which run later, at call time: a lazy import is for start-up time only
(each one left in pylib says why), never to dodge a circle.

Importing `a.b.c` runs the packages `a` and `a.b` first, so those are edges
too (except packages that enclose the importer: they are already running).
The graph is read from the source with `ast` (nothing is imported). numba's
alias paths (cuda/_aliases.py: numba.cuda.X is cuda.X, numba.types is
cuda.types, ...) are resolved to their real homes first.

    import_cycles.py [--all] [PYLIB_DIR]   exit 0: no circle; 1: each circle printed

--all counts the imports inside functions too (tests/lint/lint.cmake runs
it so).
"""
import ast
import itertools
import os
import sys

# The alias rules of cuda/_aliases.py, longest prefix first (kept in step
# with _PREFIX_RULES there: a stale rule only makes an edge point at the
# alias name, which is then not a module and drops out).
ALIASES = (
    ("numba.core.errors", "cuda.core.errors"),
    ("numba.core.types", "cuda.types"),
    ("numba.core.extending", "cuda.extending"),
    ("numba.core.typing", "cuda.typing"),
    ("numba.errors", "cuda.core.errors"),
    ("numba.types", "cuda.types"),
    ("numba.extending", "cuda.extending"),
    ("numba.cuda", "cuda"),
    ("cuda.core.config", "cuda.config"),
    ("cuda._bindings", "cuda.bindings"),
)


def real_name(name):
    for _ in range(len(ALIASES)):
        for alias, target in ALIASES:
            if name == alias or name.startswith(alias + "."):
                name = target + name[len(alias):]
                break
        else:
            break
    return name


def find_modules(root):
    """{dotted module name: path} for every .py file under root."""
    modules = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(filenames):
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), root)[:-3].split(os.sep)
            if rel[-1] == "__init__":
                rel = rel[:-1]
            modules[".".join(rel)] = os.path.join(dirpath, f)
    return modules


def import_time_statements(body, in_functions=False):
    """The import statements that run when the module body runs: at module
    level, in class bodies and under if/try/with/for/while; with
    in_functions, those inside functions too (the --all view)."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not in_functions:
            continue
        else:
            for field in ("body", "orelse", "finalbody", "handlers"):
                sub = getattr(node, field, None)
                if isinstance(sub, list):
                    yield from import_time_statements(sub, in_functions)
            for case in getattr(node, "cases", ()) or ():
                yield from import_time_statements(case.body, in_functions)


def edges_of(name, path, modules, in_functions=False):
    is_package = os.path.basename(path) == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    targets = []
    for node in import_time_statements(tree.body, in_functions):
        if isinstance(node, ast.Import):
            targets += [(real_name(a.name), node.lineno) for a in node.names]
            continue
        base = node.module or ""
        if node.level:
            parts = package.split(".")
            parts = parts[: len(parts) - (node.level - 1)]
            base = ".".join(parts + ([base] if base else []))
        base = real_name(base)
        for a in node.names:
            sub = real_name(base + "." + a.name)
            # `from pkg import sub` imports the submodule; `from mod import name` the module.
            targets.append((sub if sub in modules else base, node.lineno))
    # Importing a.b.c first runs the packages a and a.b: each is an edge too,
    # unless it encloses the importing module (then it is already running).
    enclosing = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 2)}
    out = {}
    for target, line in targets:
        parts = target.split(".")
        for i in range(1, len(parts) + 1):
            step = ".".join(parts[:i])
            if step in modules and step not in enclosing:
                out.setdefault(step, line)
    return out


def strongly_connected(graph):
    """Tarjan's algorithm, iterative: the components of more than one module."""
    index, low, on_stack, stack, result = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        component.append(m)
                        if m == node:
                            break
                    if len(component) > 1:
                        result.append(sorted(component))
    return result


def one_cycle(graph, component):
    """A shortest circle through the component's first module, for the message."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child == start:
                    return paths[node] + [start]
                if child in members and child not in paths:
                    paths[child] = paths[node] + [child]
                    nxt.append(child)
        frontier = nxt
    return component


def main():
    args = sys.argv[1:]
    in_functions = "--all" in args
    args = [a for a in args if a != "--all"]
    root = args[0] if args else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "engine", "python", "pylib")
    modules = find_modules(root)
    graph = {name: edges_of(name, path, modules, in_functions) for name, path in modules.items()}
    circles = strongly_connected(graph)
    if not circles:
        print("pylib: %d modules, %d import-time edges, no import circle"
              % (len(graph), sum(len(e) for e in graph.values())))
        return 0
    for component in circles:
        cycle = one_cycle(graph, component)
        steps = " -> ".join("%s (line %d)" % (m, graph[m][n]) for m, n in itertools.pairwise(cycle))
        print("import circle among %d modules: %s\n  e.g. %s -> %s\n"
              % (len(component), ", ".join(component), steps, cycle[-1]))
    print("pylib: %d import circles" % len(circles))
    return 1


if __name__ == "__main__":
    sys.exit(main())
