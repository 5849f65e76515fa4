"""The source of a lambda, as the function definition capture compiles.

inspect.getsource() of a lambda gives the lines of the statement around it,
which may not parse alone. Capture (engine/frontend/capture.cpp) instead
parses the whole file, finds the lambda that starts on the code object's
first line and takes the same parameters, and compiles it as the equivalent
`def <lambda>(params): return body`, with the file's own positions.
"""
import ast as _ast


def lambda_def(text, first_line, argnames):
    """(FunctionDef node, the lambda's source text) or None when it is not found."""
    try:
        tree = _ast.parse(text)
    except SyntaxError:
        return None
    argnames = list(argnames)
    for node in _ast.walk(tree):
        if not isinstance(node, _ast.Lambda) or node.lineno != first_line:
            continue
        a = node.args
        names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
        if names != argnames:
            continue
        ret = _ast.copy_location(_ast.Return(value=node.body), node.body)
        fn = _ast.FunctionDef(name="<lambda>", args=node.args, body=[ret], decorator_list=[], returns=None,
                              type_comment=None)
        _ast.copy_location(fn, node)
        lines = text.splitlines()
        source = "\n".join(lines[node.lineno - 1:node.end_lineno])
        return fn, source
    return None
