// Functions used as values: numba lets a kernel pass an intrinsic
// (cuda.atomic.add), another jitted function or a declared foreign function
// to a device function, which is then specialized on the function it
// receives (its parameter has that function's type and calls through it
// resolve statically). A parameter's type names the function only by
// identity, so the typer of the callee finds the JitFunction or
// ForeignFunction behind a Dispatcher/Foreign type here: typing a global
// that names one remembers it.
#pragma once

#include <memory>

#include "ir/foreign.h"
#include "ir/types.h"
#include "model/jit_function.h"

namespace cuhost::sema {

// True for types that are functions as values (no bits at run time).
bool is_function_value(const ir::Type* t);

void remember_function(const std::shared_ptr<model::JitFunction>& fn);
void remember_function(const std::shared_ptr<const ir::ForeignFunction>& fn);
// The function behind a Dispatcher / Foreign type (null when unknown).
std::shared_ptr<model::JitFunction> jit_function_of(const ir::Type* dispatcher);
std::shared_ptr<const ir::ForeignFunction> foreign_function_of(const ir::Type* foreign);

}  // namespace cuhost::sema
