// Typing of print(...) inside kernels and device functions, with numba-cuda's
// rules: integers print through int64 (%lld) or uint64 (%llu), floats through
// float64 (%f), booleans as True/False, string constants as they are,
// threadIdx / blockIdx / blockDim / gridDim as "(x, y, z)"; the items are
// separated by one space and end with a newline. Anything else
// (arrays, tuples, complex numbers, None, keyword arguments) is refused at
// typing with the argument's location. Lowering: codegen/lowering/print.cpp.
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool is_dim3_key(const std::string& key) {
  return key == "cuda.threadIdx" || key == "cuda.blockIdx" || key == "cuda.blockDim" || key == "cuda.gridDim";
}

}  // namespace

const ir::Type* type_print_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key != "builtins.print") return nullptr;
  if (!c.keywords.empty()) {
    t.fail(ErrorKind::TypingError, c.keywords[0].loc,
           concat("print() does not take keyword arguments in kernels ('", c.keywords[0].name, "' given)"));
  }
  std::vector<const ast::Expr*> ordered;
  std::vector<const ir::Type*> params;
  for (const auto& a : c.args) {
    const ir::Type* at = t.type_of(a.get());
    const ir::Type* param = nullptr;
    switch (at->kind) {
      case ir::TypeKind::Integer: param = at->is_signed ? ir::int64() : ir::uint64(); break;
      case ir::TypeKind::Float: param = ir::float64(); break;
      case ir::TypeKind::Boolean: param = ir::boolean(); break;
      case ir::TypeKind::StringLiteral: param = nullptr; break;
      case ir::TypeKind::Intrinsic:
        // numba-cuda prints a Dim3 (threadIdx, blockIdx, blockDim, gridDim) as "(x, y, z)".
        if (is_dim3_key(at->key)) break;
        t.typing_error(a.get(), concat("printing unimplemented for values of type ", display(at)));
      default: t.typing_error(a.get(), concat("printing unimplemented for values of type ", display(at)));
    }
    ordered.push_back(a.get());
    params.push_back(param);
  }
  ExprInfo& inf = t.info(&c);
  inf.ordered_args = std::move(ordered);
  inf.param_types = std::move(params);
  return ir::none_type();
}

}  // namespace cuhost::sema
