// Functions defined inside a kernel or device function (numba's
// make_function: `def inner(y): return y + x` in the body). Each nested
// function becomes a device function of its own, bound to its name as the
// enclosing function's frozen global, so it can be called there or passed
// to other jitted functions like any @cuda.jit function. Its free names are
// resolved as numba does: another nested function; a variable of an
// enclosing function, captured as the constant it is assigned once (numba
// captures no other closure values: "Cannot capture a constant value ..."
// for a variable with several definitions, "Cannot capture the non-constant
// value ..." for anything else); otherwise a global or closure cell of the
// Python function, frozen like the enclosing function's own.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "frontend/ast_convert.h"
#include "frontend/captured.h"

namespace cuhost::frontend {

// Freezes a name that is no variable of any enclosing function (a global or
// closure cell of the Python function); nullopt when it is unbound.
using GlobalResolver = std::function<std::optional<GlobalValue>(const std::string& name)>;

// Captures the nested functions of `converted` (the conversion of `outer`)
// and binds them in outer.globals. Throws UserError (TypingError) for a
// closure variable numba cannot capture.
void capture_nested_functions(CapturedFunction& outer, ConvertResult& converted, const GlobalResolver& resolve_global);

}  // namespace cuhost::frontend
