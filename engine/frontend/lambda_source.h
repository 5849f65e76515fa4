// The source of a lambda: inspect.getsource gives the whole statement a
// lambda sits in (often not parseable on its own, e.g. the middle lines of a
// call), so a lambda is found instead in the parsed text of its whole file,
// by its first line and its parameter names, and rewritten as the
// equivalent `def <lambda>(params): return body` node for the converter.
#pragma once

#include <Python.h>

#include <string>
#include <vector>

#include "frontend/py_ref.h"

namespace cuhost::frontend {

struct LambdaSource {
  PyRef def_node;      // an ast.FunctionDef with the lambda's locations (file-absolute lines)
  std::string source;  // the lambda expression's text
};

// The FunctionDef standing for the lambda whose code object is `code`, found
// in `file_lines`; an empty def_node when the file does not parse or holds
// no such lambda (the Python error is cleared).
LambdaSource lambda_source(const std::vector<std::string>& file_lines, PyObject* code);

}  // namespace cuhost::frontend
