// Which kernels `cuhost export` writes out: those named `name:signature` on
// the command line, or every specialization the script compiled
// (--all-compiled), found among the @cuda.jit kernels of __main__. The only
// part of the export that reads the interpreter.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/types.h"
#include "model/compiled_kernel.h"
#include "model/jit_function.h"

namespace cuhost::aot_export {

struct SelectedKernel {
  std::string name;  // the Python name, unique in the export
  std::shared_ptr<model::JitFunction> fn;
  std::vector<const ir::Type*> arg_types;
  std::vector<std::string> param_names;  // the Python parameter names, in order
  bool bounds_check = true;              // the CPU library's array checks (the session's choice)
};

// Takes the GIL. Throws UserError: ValueError for a specification without
// ':' or a kernel named twice with different signatures, NameError for a
// name __main__ lacks, TypeError for something that is not a kernel or a
// parameter type the C++ launch API cannot pass (see cuhost/kernel.h), and
// the parser's errors for a bad signature; ValueError when nothing was
// selected.
std::vector<SelectedKernel> select_kernels(const std::vector<std::string>& specs, bool all_compiled);

}  // namespace cuhost::aot_export
