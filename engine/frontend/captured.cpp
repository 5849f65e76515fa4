// Source locations of captured functions: maps an AST location to the file,
// line, column and source text shown under a caret in user errors; copies of
// a captured function with a rewritten body.
#include "frontend/captured.h"

namespace cuhost::frontend {

SourceLocation CapturedFunction::where(const ast::SourceLoc& loc) const {
  SourceLocation out;
  out.file = filename;
  out.line = loc.line;
  out.column = loc.column;
  if (loc.line >= 1 && static_cast<size_t>(loc.line) <= file_lines.size()) {
    out.source_line = file_lines[loc.line - 1];
    while (!out.source_line.empty() && (out.source_line.back() == '\n' || out.source_line.back() == '\r'))
      out.source_line.pop_back();
  }
  return out;
}

std::shared_ptr<CapturedFunction> with_definition(const CapturedFunction& f, std::unique_ptr<ast::FunctionDef> def) {
  auto out = std::make_shared<CapturedFunction>();
  out->name = f.name;
  out->qualname = f.qualname;
  out->filename = f.filename;
  out->first_line = f.first_line;
  out->source = f.source;
  out->file_lines = f.file_lines;
  out->source_findable = f.source_findable;
  out->function_repr = f.function_repr;
  out->globals = f.globals;
  out->defaults = f.defaults;
  out->def = std::move(def);
  return out;
}

}  // namespace cuhost::frontend
