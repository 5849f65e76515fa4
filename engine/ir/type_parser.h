// Parses numba's type and signature spellings, in both the decorator syntax
// ("void(float32[::1], int32)", "float32[:, ::1]", "CPointer(float32)",
// "UniTuple(int64, 2)", "int32x"?) and the canonical names the type objects
// carry ("array(float32, 1d, C)", "OptionalType(int32)"). Errors follow
// declare_device's contract: unknown name -> NameError, malformed ->
// SyntaxError, a type where a signature is needed -> TypeError
// "Return type must be provided for device declarations" is raised by callers.
#pragma once

#include <string>

#include "ir/foreign.h"
#include "ir/types.h"

namespace cuhost::ir {

const Type* parse_type(const std::string& text);

// A signature "ret(args...)" or an argument list "(args...)" / "args..."
// (return type null). Throws UserError as described above.
Signature parse_signature(const std::string& text);

}  // namespace cuhost::ir
