"""The text inspect_llvm() returns, spelled as llvmlite prints a module.

cuhost's IR is printed by LLVM 19; numba-cuda's by llvmlite. Scripts and
tools written for numba-cuda read inspect_llvm()'s text with patterns made
for llvmlite's printer, so the text is respelled, never changed in content:
the module compiled is untouched (this works on its printed copy), and the
result is still LLVM assembly that LLVM 19 reads back as the same module.

- Debug records (`#dbg_value(...)`, `#dbg_declare(...)`) as the intrinsic
  calls they stand for (`call void @"llvm.dbg.value"(metadata ...)`), with
  the intrinsics declared.
- Named values and globals quoted (`%"x"`, `@"llvm.dbg.value"`).
- The fields of specialized metadata nodes in alphabetical order
  (`!DIBasicType(encoding: ..., name: ..., size: ...)`), a local variable's
  `arg: 0` written out, and tuples with inner spaces (`!{ !1, !2 }`).
- Kernels as `define void` (NVVM IR's spelling: `!nvvm.annotations` still
  marks them kernels) rather than LLVM's `define ptx_kernel void`.
- A function's attributes written on its `define` or `declare` line
  (`define internal void @"f"(...) alwaysinline nounwind {`) rather than as
  a reference to an attribute group (`#1`); the groups stay, as LLVM prints
  them.

Pointers stay opaque (`ptr`): LLVM 19 has no typed pointers to print.
"""

import re

_STRING = re.compile(r'"[^"]*"')
_NAME = re.compile(r"([%@])([-a-zA-Z$._][-a-zA-Z$._0-9]*)")
_RECORD = re.compile(r"^(\s*)#dbg_(value|declare)\((.*)\)\s*$")
_FIELD = re.compile(r"^[A-Za-z]+: ")
_GROUP = re.compile(r"^attributes #(\d+) = \{ (.*) \}$")
_GROUP_REF = re.compile(r" #(\d+)(?= )")
_DEFINED = re.compile(r'@("[^"]*"|[-a-zA-Z$._0-9]+)\(')
_NODE = re.compile(r"!DI[A-Za-z]+\(")


def _walk(text, start=0):
    """(index, character, depth) for each character from `start` outside
    strings, depth counting the open parentheses, braces and brackets
    before it (an opening one counted already, a closing one not)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i = text.index('"', i + 1) + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        yield i, c, depth
        i += 1


def _split_top(text, sep=", "):
    """Splits at `sep` outside parentheses, braces and strings."""
    parts, start = [], 0
    for i, _, depth in _walk(text):
        if depth == 0 and i >= start and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
    parts.append(text[start:])
    return parts


def _closing(text, open_at):
    """The index of the bracket closing the one at `open_at`."""
    for i, c, depth in _walk(text, open_at):
        if depth == 0 and c in ")]}":
            return i
    return len(text) - 1


def _metadata(text):
    """Sorts the fields of every `!DIxxx(...)` and spaces every `!{...}`."""
    out, i = [], 0
    while i < len(text):
        if text[i] == '"':
            end = text.index('"', i + 1) + 1
            out.append(text[i:end])
            i = end
            continue
        node = _NODE.match(text, i)
        if node:
            open_at = node.end() - 1
            close = _closing(text, open_at)
            inner = text[open_at + 1 : close]
            fields = [_metadata(f) for f in _split_top(inner)] if inner else []
            if fields and all(_FIELD.match(f) for f in fields):
                if node.group(0) == "!DILocalVariable(" and not any(f.startswith("arg: ") for f in fields):
                    fields.append("arg: 0")
                fields.sort(key=lambda f: f.split(":", 1)[0])
            out.append(node.group(0) + ", ".join(fields) + ")")
            i = close + 1
            continue
        if text.startswith("!{", i):
            close = _closing(text, i + 1)
            inner = text[i + 2 : close]
            items = [_metadata(x) for x in _split_top(inner)] if inner.strip() else []
            out.append("!{ " + ", ".join(items) + " }" if items else "!{}")
            i = close + 1
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _quote_names(line):
    """`%x` -> `%"x"`, `@f` -> `@"f"`, outside string literals."""
    pieces, last = [], 0
    for m in _STRING.finditer(line):
        pieces.append(_NAME.sub(r'\1"\2"', line[last : m.start()]))
        pieces.append(m.group(0))
        last = m.end()
    pieces.append(_NAME.sub(r'\1"\2"', line[last:]))
    return "".join(pieces)


def _record_as_call(m):
    """`#dbg_value(i32 %x, !5, !DIExpression(), !9)` as the call it stands for."""
    kind, args = m.group(2), _split_top(m.group(3))
    if len(args) != 4:
        return None
    where, var, expr, loc = args
    return "  call void @llvm.dbg.%s(metadata %s, metadata %s, metadata %s), !dbg %s" % (kind, where, var, expr, loc)


def _attributes_inline(line, groups):
    """`define void @f() #1 {` -> `define void @f() alwaysinline nounwind {`
    (a reference outside the parameter list, to a group the module has)."""
    name = _DEFINED.search(line)
    if name is None:
        return line
    close = _closing(line, name.end() - 1)
    head, tail = line[: close + 1], line[close + 1 :] + " "
    tail = _GROUP_REF.sub(lambda m: " " + groups[m.group(1)] if m.group(1) in groups else m.group(0), tail)
    return head + tail[:-1]


def llvmlite_spelling(text):
    """inspect_llvm()'s text of `text` (a module printed by LLVM 19)."""
    lines, used = [], set()
    groups = {m.group(1): m.group(2) for m in map(_GROUP.match, text.split("\n")) if m}
    for line in text.split("\n"):
        record = _RECORD.match(line)
        if record:
            call = _record_as_call(record)
            if call is not None:
                used.add(record.group(2))
                line = call
        if line.startswith("define ptx_kernel "):
            line = "define " + line[len("define ptx_kernel "):]
        if line.startswith(("define ", "declare ")):
            line = _attributes_inline(line, groups)
        lines.append(line)
    if used:
        # The declarations go after the last function, where LLVM puts them.
        at = max((i for i, line in enumerate(lines) if line == "}"), default=len(lines) - 1) + 1
        decls = ["", *("declare void @llvm.dbg.%s(metadata, metadata, metadata)" % k for k in sorted(used))]
        lines[at:at] = decls
    out = []
    for line in lines:
        if line.startswith(";"):
            out.append(line)
            continue
        out.append(_metadata(_quote_names(line)) if "!" in line else _quote_names(line))
    return "\n".join(out)
