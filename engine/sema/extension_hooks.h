// The boundary between typing and the extension API (numba's @overload,
// @intrinsic, type_callable + lower_builtin, AttributeTemplate, ...), whose
// typing and code generation functions are Python. Sema runs without the GIL
// and never includes Python.h: it asks this interface, which engine/python
// implements (taking the GIL) and installs at start-up. Each answer says how
// the call or attribute is implemented:
//   - DeviceFunction: a Python implementation compiled like a
//     @cuda.jit(device=True) callee, specialized on the argument types;
//   - Codegen: LLVM IR text of one function built by a Python code
//     generation callback (llvmlite), called with the converted arguments;
//   - Member: a field of an extension type's StructModel (numba's
//     make_attribute_wrapper).
// Typing stores the answer in the ExprInfo (sema/typing/extension.cpp);
// lowering reads it (codegen/lowering/extension.cpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/constant.h"
#include "ir/extension_types.h"
#include "model/jit_function.h"

namespace cuhost::sema {

struct TypedFunction;

// The arguments of a call as the extension API sees them: positional ones
// first, then the keyword ones named by `keywords` (same order).
struct ExtensionArgs {
  std::vector<const ir::Type*> types;
  std::vector<std::optional<ir::ConstValue>> literals;  // literal values (numba's Literal types)
  std::vector<std::string> keywords;                    // names of the last keywords.size() arguments
};

// A call that a Codegen function makes into a Python function compiled for
// a signature (context.compile_internal): the IR declares `placeholder` and
// lowering routes its calls to the compiled function.
struct ExtensionInternalCall {
  std::string placeholder;
  std::shared_ptr<model::JitFunction> function;
  std::vector<const ir::Type*> arg_types;
  const ir::Type* return_type = nullptr;
};

struct ExtensionResolution {
  enum class Kind { DeviceFunction, Codegen, Member, Method };
  Kind kind = Kind::DeviceFunction;
  const ir::Type* return_type = nullptr;  // Codegen, Member
  // DeviceFunction: the implementation, and for each of its parameters the
  // argument (index into ExtensionArgs) or the default value it takes.
  std::shared_ptr<model::JitFunction> function;
  struct Binding {
    int argument = -1;  // -1: `default_value`, or `packed` when `packs`
    ir::ConstValue default_value;
    bool packs = false;       // the implementation's *args (its last parameter)
    std::vector<int> packed;  // the arguments *args packs into one tuple
  };
  std::vector<Binding> binding;
  // Codegen: the signature's argument types (arguments are converted to
  // them), which argument each one is, and the function's IR.
  std::vector<const ir::Type*> param_types;
  std::vector<int> order;
  std::string ir_text;
  std::string entry;  // the function's name in ir_text
  std::vector<ExtensionInternalCall> internal_calls;
  // Member: the index of the StructModel member.
  int member = -1;
};

class ExtensionHooks {
 public:
  virtual ~ExtensionHooks() = default;
  // A call of an extension object; throws UserError (without a location) when
  // no implementation matches.
  virtual ExtensionResolution call(const ir::ExtensionObject& callee, const ExtensionArgs& args) = 0;
  // `value.name` on a value of type `base`: nullopt when the extension API
  // has nothing for it; Kind::Method when it names a method.
  virtual std::optional<ExtensionResolution> attribute(const ir::Type* base, const std::string& name) = 0;
  // `receiver.name(args...)` for a Kind::Method attribute; args.types[0] is the receiver.
  virtual ExtensionResolution method(const ir::Type* receiver, const std::string& name, const ExtensionArgs& args) = 0;
};

// The installed implementation (null until engine/python installs one).
ExtensionHooks* extension_hooks();
void set_extension_hooks(ExtensionHooks* hooks);

// Whether the functions typed on this thread run on the host (numba.njit):
// the extension API then takes target="cpu" and generic implementations and
// never CUDA ones (numba's target-specific @overload), and typed functions
// are cached apart from kernels' ones. Set for a scope by HostTypingScope.
bool typing_for_host();
class HostTypingScope {
 public:
  HostTypingScope();
  ~HostTypingScope();
  HostTypingScope(const HostTypingScope&) = delete;
  HostTypingScope& operator=(const HostTypingScope&) = delete;

 private:
  bool previous_;
};

// What lowering needs of a Codegen resolution, kept in the ExprInfo.
struct ExtensionLowering {
  std::string ir_text;
  std::string entry;
  std::vector<std::pair<std::string, std::shared_ptr<const TypedFunction>>> internal_calls;  // placeholder, callee
  int member = -1;
};

}  // namespace cuhost::sema
