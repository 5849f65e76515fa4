// Stage 3-4 entry points: type inference of a kernel or device function for
// given argument types, to a fixed point with numba's typing rules
// (LANGUAGE.md). Results are cached per (function, argument types); device
// function callees are typed on demand, recursively.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "model/jit_function.h"
#include "sema/typed_function.h"

namespace cuhost::sema {

// A kernel: the return type must be none. Throws UserError (TypingError,
// UnsupportedError, NameError, ...) with the source location.
std::shared_ptr<const TypedFunction> infer_kernel(const std::shared_ptr<model::JitFunction>& fn,
                                                  const std::vector<const ir::Type*>& arg_types);

// A device function: the return type is inferred (or checked against
// `declared_return` when given, e.g. from an explicit signature).
// `arg_constants` (empty, or one entry per argument) are literal arguments
// the body is specialized on (TypedFunction::arg_constants).
std::shared_ptr<const TypedFunction> infer_device(const std::shared_ptr<model::JitFunction>& fn,
                                                  const std::vector<const ir::Type*>& arg_types,
                                                  const ir::Type* declared_return = nullptr,
                                                  const std::vector<std::optional<ir::ConstValue>>& arg_constants = {});

// The exported symbol of a C-ABI function: abi_info's abi_name, else the
// Python name with every character a PTX identifier cannot hold (the angle
// brackets of "<lambda>") replaced by '_'.
std::string c_abi_symbol(const model::JitFunction& fn);

}  // namespace cuhost::sema
