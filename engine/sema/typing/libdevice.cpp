// Typing of cuda.libdevice.*: every function of libdevice by its own name
// and signature (libdevice_table.h). Arguments are the function's value
// parameters; its out-parameters (sincos's, frexp's, ...) become results:
// a call returns a tuple of the result (unless void) and their values, as
// numba-cuda's libdevice wrappers do. Lowered to calls of __nv_<name>.
#include "sema/typer.h"
#include "sema/typing/libdevice_table.h"

namespace cuhost::sema {

bool libdevice_has(const std::string& name) { return libdevice_function(name) != nullptr; }

const ir::Type* type_libdevice_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key.rfind("cuda.libdevice.", 0) != 0) return nullptr;
  std::string name = key.substr(15);
  const LibdeviceFunction* f = libdevice_function(name);
  if (!f) return nullptr;
  std::vector<std::string> params;
  std::vector<const ir::Type*> types;
  for (const LibdeviceParam& p : f->params) {
    if (p.out) continue;
    params.push_back(p.name);
    types.push_back(p.type);
  }
  auto args = t.bind(c, name, params, params.size(), t.info(&c));
  for (size_t i = 0; i < args.size(); ++i) {
    const ir::Type* at = t.type_of(args[i]);
    if (!at->is_scalar() || !can_convert(at, types[i])) {
      t.typing_error(args[i], concat("libdevice.", name, "() argument ", i + 1, " must be ", display(types[i]),
                                     ", not ", display(at)));
    }
  }
  t.info(&c).param_types = types;
  return f->python_result();
}

}  // namespace cuhost::sema
