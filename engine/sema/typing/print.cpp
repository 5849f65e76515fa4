// Typing of print(...) inside kernels and device functions, with numba-cuda's
// rules: integers print through int64 (%lld) or uint64 (%llu), floats through
// float64 (%f), booleans as True/False, string constants as they are,
// threadIdx / blockIdx / blockDim / gridDim as "(x, y, z)", tuples (nested
// too) as Python writes them; the items are separated by one space and end
// with a newline. Anything else (arrays, complex numbers, None, keyword
// arguments) is refused at typing with the argument's location. More than
// 32 items print the raw format, with numba-cuda's warning. Lowering:
// codegen/lowering/print.cpp.
#include "sema/typer.h"
#include "support/compile_warnings.h"

namespace cuhost::sema {

namespace {

bool is_dim3_key(const std::string& key) {
  return key == "cuda.threadIdx" || key == "cuda.blockIdx" || key == "cuda.blockDim" || key == "cuda.gridDim";
}

// The type a number, bool or tuple of those is printed through; null when
// it cannot be printed.
const ir::Type* printed_as(const ir::Type* at) {
  switch (at->kind) {
    case ir::TypeKind::Integer: return at->is_signed ? ir::int64() : ir::uint64();
    case ir::TypeKind::Float: return ir::is_storage_float(at) ? nullptr : ir::float64();
    case ir::TypeKind::Boolean: return ir::boolean();
    case ir::TypeKind::Tuple: {
      std::vector<const ir::Type*> items;
      for (const ir::Type* e : at->elements) {
        const ir::Type* p = printed_as(e);
        if (!p) return nullptr;
        items.push_back(p);
      }
      return ir::tuple(items);
    }
    default: return nullptr;
  }
}

constexpr size_t kMaxPrintItems = 32;

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
      case ir::TypeKind::Integer:
      case ir::TypeKind::Float:
      case ir::TypeKind::Boolean:
      case ir::TypeKind::Tuple:
        param = printed_as(at);
        if (!param) t.typing_error(a.get(), concat("printing unimplemented for values of type ", display(at)));
        break;
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
  if (ordered.size() > kMaxPrintItems)
    report_compile_warning(WarningCategory::Numba,
                           "CUDA print() cannot print more than 32 items. The raw format string will be emitted by "
                           "the kernel instead.");
  ExprInfo& inf = t.info(&c);
  inf.ordered_args = std::move(ordered);
  inf.param_types = std::move(params);
  return ir::none_type();
}

}  // namespace cuhost::sema
