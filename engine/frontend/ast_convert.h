// Conversion of Python `ast` objects to the C++ AST (the one place that reads
// them), with the kernel language's restrictions enforced at each node.
#pragma once

#include <Python.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "support/diagnostics.h"

namespace cuhost::frontend {

struct ConvertContext {
  int line_offset = 0;    // file line = ast lineno + line_offset
  int column_offset = 0;  // file column (1-based) = col_offset + column_offset
  std::string filename;
  std::string function_name;
  const std::vector<std::string>* file_lines = nullptr;
};

struct NestedFunction;

struct ConvertResult {
  std::unique_ptr<ast::FunctionDef> def;
  std::set<std::string> loaded;  // every Name read (free names of nested functions included)
  std::set<std::string> stored;  // every Name assigned (locals), parameters included
  // Functions defined inside the body (`def inner(...)`), in source order.
  // Their names are not locals: capture binds each to the inner function
  // (closures.h), and the definition itself is a `pass`.
  std::vector<std::unique_ptr<NestedFunction>> nested;
};

struct NestedFunction {
  std::string name;
  ast::SourceLoc loc;
  ConvertResult result;  // its own definition, names and nested functions
};

// `node` is an ast.FunctionDef. Throws UserError for constructs outside the
// kernel language, at their location.
ConvertResult convert_function(PyObject* node, const ConvertContext& ctx);

}  // namespace cuhost::frontend
