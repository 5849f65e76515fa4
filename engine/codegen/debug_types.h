// DWARF types of kernel values for debug=True: what a debugger shows a
// variable as. Scalars are base types named as in numba (int32, float64,
// bool with DW_ATE_boolean, complex128 with DW_ATE_complex_float); an array
// is the structure cuhost passes ({data: pointer to the element, shape and
// strides: int64[ndim]}); a tuple a structure of f0, f1, ...; a record a
// pointer to a structure of its fields at their offsets; an Optional a
// structure {valid, value}; a C pointer a pointer. Sizes and offsets come
// from the module's data layout, so they are the target's. A variable
// whose versions have several types (x = 1, then x = 2.5) is a union of
// them, one member per type named "_<type>", as numba-cuda describes it.
#pragma once

#include <map>
#include <vector>

#include "ir/types.h"

namespace llvm {
class DIBuilder;
class DIFile;
class DIType;
class Module;
}  // namespace llvm

namespace cuhost::codegen {

class DebugTypes {
 public:
  DebugTypes(llvm::DIBuilder& builder, const llvm::Module& module, llvm::DIFile* file)
      : builder_(builder), module_(module), file_(file) {}

  // The type, or null for values without bits (modules, functions, None).
  llvm::DIType* type_of(const ir::Type* t);
  // The union of the distinct `types` (members sorted by name), or the type
  // itself when there is one; null when none has bits.
  llvm::DIType* union_of(const std::vector<const ir::Type*>& types);

 private:
  llvm::DIType* build(const ir::Type* t);
  llvm::DIType* basic(const ir::Type* t);
  llvm::DIType* array(const ir::Type* t);
  llvm::DIType* tuple(const ir::Type* t);
  llvm::DIType* record(const ir::Type* t);
  llvm::DIType* optional(const ir::Type* t);

  llvm::DIBuilder& builder_;
  const llvm::Module& module_;
  llvm::DIFile* file_;
  std::map<const ir::Type*, llvm::DIType*> cache_;
};

}  // namespace cuhost::codegen
