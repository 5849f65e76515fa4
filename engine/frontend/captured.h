// A Python function captured for compilation: its C++ AST, where it came
// from, and every global or closure name it refers to frozen as a
// compile-time value. Capture (capture.cpp) is the only place that reads the
// Python objects; everything after it runs without the GIL.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "ir/constant.h"
#include "ir/extension_types.h"
#include "ir/foreign.h"
#include "model/jit_function.h"
#include "support/diagnostics.h"

namespace cuhost::frontend {

// A device array a kernel reads or writes in place: its address and layout
// at capture time (numba-cuda captures device arrays by reference). `owner`
// keeps the Python object, and so the memory, alive as long as the kernel.
struct DeviceArrayRef {
  const ir::Type* dtype = nullptr;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;  // bytes
  std::uintptr_t address = 0;
  bool readonly = false;
  std::shared_ptr<void> owner;
};

// A frozen global or closure variable.
struct GlobalValue {
  enum class Kind {
    Constant,     // number, bool, None, str, tuple of those, NumPy scalar
    Array,        // a NumPy array used as a constant
    DeviceArray,  // a device array (__cuda_array_interface__) used in place, by address
    Module,       // key: "cuda", "math", "numpy", "cuda.atomic", "cuda.libdevice", ...
    Intrinsic,    // key: "math.sin", "cuda.syncthreads", "builtins.abs", "cuda.threadIdx", ...
    JitFunction,  // another @cuda.jit function
    Foreign,      // a cuda.declare_device result
    TypeObject,   // float32, numba.types.int32, np.float32, ...
    Ffi,          // a cffi.FFI() instance or cuda.ffi
    Extension,    // an object the extension API types (@overload'ed function, @intrinsic, ...)
    Tuple,        // a tuple holding NumPy arrays (and constants, nested tuples): `items`
    Unsupported,  // anything else: an error only if the kernel uses it
  };
  Kind kind = Kind::Unsupported;
  ir::ConstValue constant;
  std::shared_ptr<const ir::ArrayConstant> array;
  std::shared_ptr<const DeviceArrayRef> device_array;
  std::string key;
  std::shared_ptr<model::JitFunction> function;
  std::shared_ptr<const ir::ForeignFunction> foreign;
  std::shared_ptr<const ir::ExtensionObject> extension;
  const ir::Type* type_object = nullptr;
  std::string repr;                // Python repr, for error messages
  std::vector<GlobalValue> items;  // Tuple: each element (Constant, Array or Tuple)
  std::string refusal;             // Unsupported: why the value cannot be used (empty: its type is unknown)
};

struct CapturedFunction {
  std::string name;                     // __name__
  std::string qualname;                 // __qualname__
  std::string filename;                 // co_filename
  int first_line = 0;                   // line of the `def` in the file
  std::string source;                   // dedented source text (hashed by the compile cache)
  std::vector<std::string> file_lines;  // the original lines, for caret displays (index 0 = line 1)
  // Whether inspect, tracebacks and debuggers can find the lines of `filename`
  // (on disk or in linecache). A function made by exec() is compiled from the
  // text exec() was given, but debug information naming its file leads
  // nowhere: debug=True warns as numba does (NumbaDebugInfoWarning).
  bool source_findable = true;
  std::string function_repr;  // repr() of the Python function, for that warning
  std::unique_ptr<ast::FunctionDef> def;
  std::map<std::string, GlobalValue> globals;  // names the body reads that are not locals
  // The default values of the last parameters (__defaults__), frozen like
  // globals: a call may leave those parameters out.
  std::vector<GlobalValue> defaults;

  // A SourceLocation for an AST location (file, line, column, source line).
  SourceLocation where(const ast::SourceLoc& loc) const;
};

// The same function with another body (a rewriting of its AST before typing:
// literal_unroll, variable versions): every other field is copied.
std::shared_ptr<CapturedFunction> with_definition(const CapturedFunction& f, std::unique_ptr<ast::FunctionDef> def);

}  // namespace cuhost::frontend
